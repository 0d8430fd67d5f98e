"""File sources of the dataset API: MindRecord, image folders, MNIST, CIFAR-10/100, CSV and
TFRecord (with its Schema).

Each public class validates its arguments as MindSpore does and hands the engine core a factory
that opens a ``RowSource`` (base.py) lazily, when a pipeline starts.
"""
from .cifar import Cifar10Dataset, Cifar100Dataset
from .csv_dataset import CSVDataset
from .image_folder import ImageFolderDataset
from .mindrecord_dataset import MindDataset
from .mnist import MnistDataset
from .schema import Schema
from .tfrecord_dataset import TFRecordDataset

__all__ = ["MindDataset", "ImageFolderDataset", "MnistDataset", "Cifar10Dataset",
           "Cifar100Dataset", "CSVDataset", "TFRecordDataset", "Schema"]
