"""Converters from common dataset formats to MindRecord (``mindspore.mindrecord``'s tools).

``ImageNetToMR``, ``Cifar10ToMR``, ``Cifar100ToMR``, ``MnistToMR``, ``CsvToMR`` and
``TFRecordToMR`` keep MindSpore's names, arguments and schemas; ``ImageFolderToMR`` and
``ParquetToMR`` are additions. Each has ``transform()``; the shell command is
``mindrecord-convert`` (:mod:`mindrecord.tools.cli`).
"""
from .bad_input import BadItem, ConversionError
from .cifar100_to_mr import Cifar100ToMR
from .cifar10_to_mr import Cifar10ToMR
from .conversion import ConversionResult
from .csv_to_mr import CsvToMR
from .image_folder_to_mr import ImageFolderToMR
from .imagenet_to_mr import ImageNetToMR
from .mnist_to_mr import MnistToMR
from .parquet_to_mr import ParquetToMR
from .tfrecord_to_mr import FixedLenFeature, TFRecordToMR

__all__ = ["ImageNetToMR", "Cifar10ToMR", "Cifar100ToMR", "MnistToMR", "CsvToMR",
           "TFRecordToMR", "ImageFolderToMR", "ParquetToMR", "FixedLenFeature",
           "ConversionResult", "ConversionError", "BadItem"]
