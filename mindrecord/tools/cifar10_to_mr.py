"""Cifar10ToMR: the CIFAR-10 python batches (data_batch_*, test_batch) -> two MindRecord files.

MindSpore's layout: ``destination`` (training rows, desc "img_train") and ``destination_test``
(desc "img_test"), schema ``id`` int64, ``label`` int64, ``data`` bytes (the 32x32 image encoded
as JPEG by OpenCV, as MindSpore does; ``image_format="png"`` stores it losslessly instead).
"""
import glob
import os

from ..errors import PathNotExistsError
from .cifar_files import CifarLoader, batch_items, read_meta
from .cifar_converter import CifarConverter
from .conversion import ConversionSpec
from .params import check_path_arg

CIFAR10_SCHEMA = {"id": {"type": "int64"}, "label": {"type": "int64"},
                  "data": {"type": "bytes"}}


class Cifar10ToMR(CifarConverter):
    """Convert CIFAR-10 (python version) to MindRecord (``mindspore.mindrecord.Cifar10ToMR``).

    Args:
        source (str): directory with ``data_batch_1..5`` and ``test_batch``.
        destination (str): MindRecord file for the training rows; test rows go to
            ``destination + "_test"``.
        partition_number (int, keyword-only): shard files per output. Default 1.
        image_format (str, keyword-only): "jpeg" (MindSpore's choice, default) or "png".
    """

    schema = CIFAR10_SCHEMA

    def __init__(self, source, destination, *, partition_number=1, image_format="jpeg"):
        self.source = check_path_arg(source, "source", "dir")
        self.train_files = sorted(glob.glob(os.path.join(source, "data_batch_*")))
        self.test_file = os.path.join(source, "test_batch")
        if not self.train_files:
            raise PathNotExistsError(f"Parameter source: no data_batch_* file in {source}.")
        if not os.path.isfile(self.test_file):
            raise PathNotExistsError(f"Parameter source: no test_batch file in {source}.")
        self._set_options(destination, partition_number, image_format)

    def _build_specs(self):
        names = read_meta(os.path.join(self.source, "batches.meta"), "label_names")
        loader = CifarLoader({"label": "labels"}, {"label": len(names) if names else 10},
                             self.image_format)
        train = batch_items(self.train_files, "labels")
        test = batch_items([self.test_file], "labels")
        # write_rows=None: one write call per shard, as MindSpore does (same page layout).
        return [ConversionSpec(dest, CIFAR10_SCHEMA, desc, items, loader,
                               self.partition_number, self.fields, write_rows=None)
                for dest, desc, items in ((self.destination, "img_train", train),
                                          (self.destination + "_test", "img_test", test))]
