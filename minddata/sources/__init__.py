"""File sources of the dataset API: MindRecord, image folders, Manifest files, MNIST,
CIFAR-10/100, CSV, TFRecord (with its Schema), text files and CLUE; PaddedDataset and
RandomDataset.

Each public class validates its arguments as MindSpore does and hands the engine core a factory
that opens a ``RowSource`` (base.py) lazily, when a pipeline starts.
"""
from .celeba import CelebADataset
from .cifar import Cifar10Dataset, Cifar100Dataset
from .clue import CLUEDataset
from .coco import CocoDataset
from .csv_dataset import CSVDataset
from .image_folder import ImageFolderDataset
from .manifest import ManifestDataset
from .mindrecord_dataset import MindDataset, OBSMindDataset
from .mnist import MnistDataset
from .random_dataset import RandomDataset
from .schema import Schema
from .text_file import TextFileDataset
from .tfrecord_dataset import TFRecordDataset
from .voc import VOCDataset

__all__ = ["MindDataset", "OBSMindDataset", "ImageFolderDataset", "ManifestDataset", "MnistDataset",
           "Cifar10Dataset", "Cifar100Dataset", "CSVDataset", "TFRecordDataset", "Schema",
           "TextFileDataset", "CLUEDataset", "PaddedDataset", "RandomDataset",
           "CocoDataset", "VOCDataset", "CelebADataset"]


def __getattr__(name):
    # PaddedDataset is a GeneratorDataset, and minddata.generator imports this package's base
    # module: importing it here at once would be a cycle, so it loads on first use.
    if name == "PaddedDataset":
        from .padded import PaddedDataset
        return PaddedDataset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
