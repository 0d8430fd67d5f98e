"""Cifar100ToMR: the CIFAR-100 python files (train, test) -> two MindRecord files.

MindSpore's layout: ``destination`` (desc "img_train") and ``destination_test`` ("img_test"),
schema ``id``, ``fine_label``, ``coarse_label`` int64 and ``data`` bytes (JPEG by OpenCV, or PNG
with ``image_format="png"``).
"""
import os

from ..errors import PathNotExistsError
from .cifar_files import CifarLoader, batch_items, read_meta
from .cifar_converter import CifarConverter
from .conversion import ConversionSpec
from .params import check_path_arg

CIFAR100_SCHEMA = {"id": {"type": "int64"}, "fine_label": {"type": "int64"},
                   "coarse_label": {"type": "int64"}, "data": {"type": "bytes"}}


class Cifar100ToMR(CifarConverter):
    """Convert CIFAR-100 (python version) to MindRecord (``mindspore.mindrecord.Cifar100ToMR``).

    Args:
        source (str): directory with the ``train`` and ``test`` files.
        destination (str): MindRecord file for the training rows (test: ``destination_test``).
        partition_number, image_format (keyword-only): as in Cifar10ToMR.

    ``transform(fields)`` takes the index fields, e.g. ["fine_label", "coarse_label"].
    """

    schema = CIFAR100_SCHEMA

    def __init__(self, source, destination, *, partition_number=1, image_format="jpeg"):
        self.source = check_path_arg(source, "source", "dir")
        for name in ("train", "test"):
            if not os.path.isfile(os.path.join(source, name)):
                raise PathNotExistsError(f"Parameter source: no '{name}' file in {source}.")
        self._set_options(destination, partition_number, image_format)

    def _build_specs(self):
        meta = os.path.join(self.source, "meta")
        fine = read_meta(meta, "fine_label_names")
        coarse = read_meta(meta, "coarse_label_names")
        loader = CifarLoader({"fine_label": "fine_labels", "coarse_label": "coarse_labels"},
                             {"fine_label": len(fine) if fine else 100,
                              "coarse_label": len(coarse) if coarse else 20},
                             self.image_format)
        specs = []
        for name, dest, desc in (("train", self.destination, "img_train"),
                                 ("test", self.destination + "_test", "img_test")):
            items = batch_items([os.path.join(self.source, name)], "fine_labels")
            specs.append(ConversionSpec(dest, CIFAR100_SCHEMA, desc, items, loader,
                                        self.partition_number, self.fields, write_rows=None))
        return specs
