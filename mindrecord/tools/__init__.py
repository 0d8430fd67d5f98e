"""Converters from common dataset formats to MindRecord (``mindspore.mindrecord``'s tools).

``ImageNetToMR``, ``Cifar10ToMR``, ``Cifar100ToMR``, ``MnistToMR``, ``CsvToMR`` and
``TFRecordToMR`` keep MindSpore's names, arguments and schemas; ``ImageFolderToMR`` and
``ParquetToMR`` are additions. Each has ``transform()``; the shell command is
``mindrecord-convert`` (:mod:`mindrecord.tools.cli`).

Names are imported on first use: the CSV and Parquet converters need pyarrow, whose import
costs a few hundred milliseconds that a user of the TFRecord parser or of one converter should
not pay.
"""
import importlib

_LAZY = {
    "BadItem": ".bad_input", "ConversionError": ".bad_input",
    "Cifar100ToMR": ".cifar100_to_mr", "Cifar10ToMR": ".cifar10_to_mr",
    "ConversionResult": ".conversion", "CsvToMR": ".csv_to_mr",
    "ImageFolderToMR": ".image_folder_to_mr", "ImageNetToMR": ".imagenet_to_mr",
    "MnistToMR": ".mnist_to_mr", "ParquetToMR": ".parquet_to_mr",
    "FixedLenFeature": ".tfrecord_to_mr", "TFRecordToMR": ".tfrecord_to_mr",
}

__all__ = ["ImageNetToMR", "Cifar10ToMR", "Cifar100ToMR", "MnistToMR", "CsvToMR",
           "TFRecordToMR", "ImageFolderToMR", "ParquetToMR", "FixedLenFeature",
           "ConversionResult", "ConversionError", "BadItem"]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mindrecord.tools' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
