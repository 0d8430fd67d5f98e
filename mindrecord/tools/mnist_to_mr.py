"""MnistToMR: the four MNIST idx files -> ``destination_train.mindrecord`` and
``destination_test.mindrecord`` (MindSpore's names), schema ``label`` int64, ``data`` bytes
(28x28 grey image encoded as JPEG by OpenCV, as MindSpore does, or PNG), index on ``label``,
header 16 MiB, pages 64 MiB, desc "mnist_schema".
"""
import gzip
import os
import struct
import threading

import numpy as np

from .bad_input import BadItem, ConversionError
from .conversion import ConversionSpec, ItemLoader
from .converter import Converter
from .image_encoding import check_image_format, encode_rgb
from .params import check_destination_arg, check_partition_number, check_path_arg

MNIST_SCHEMA = {"label": {"type": "int64"}, "data": {"type": "bytes"}}
MNIST_FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
               "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}
IMAGE_MAGIC, LABEL_MAGIC = 2051, 2049


def find_idx_file(source, name):
    """``name.gz`` (MindSpore's expectation) or the uncompressed ``name``."""
    for candidate in (os.path.join(source, name + ".gz"), os.path.join(source, name)):
        if os.path.isfile(candidate):
            return candidate
    raise FileNotFoundError(f"Parameter source: {name}.gz not found in {source}.")


def read_idx(path, expected_magic):
    """Array from an idx file (gzip or plain); checks the magic number and the sizes."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            data = f.read()
    except (OSError, EOFError) as exc:
        raise ConversionError(f"{path}: cannot read: {exc}") from None
    if len(data) < 8:
        raise ConversionError(f"{path}: not an idx file (only {len(data)} bytes)")
    magic, count = struct.unpack_from(">II", data, 0)
    if magic != expected_magic:
        raise ConversionError(f"{path}: idx magic number {magic}, expected {expected_magic}")
    dims = [count]
    if expected_magic == IMAGE_MAGIC:
        if len(data) < 16:
            raise ConversionError(f"{path}: idx header truncated")
        dims += list(struct.unpack_from(">II", data, 8))
    offset = 4 + 4 * len(dims)
    need = int(np.prod(dims))
    if len(data) - offset != need:
        raise ConversionError(f"{path}: {len(data) - offset} data bytes, the header announces "
                              f"{need} ({' x '.join(map(str, dims))})")
    return np.frombuffer(data, np.uint8, offset=offset).reshape(dims)


class MnistLoader(ItemLoader):
    """Items are row indices; the idx files are read once per process."""

    def __init__(self, images_path, labels_path, image_format):
        self.images_path, self.labels_path = images_path, labels_path
        self.image_format = image_format
        self._arrays = None
        self._lock = threading.Lock()

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_arrays"], state["_lock"] = None, None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def arrays(self):
        with self._lock:
            if self._arrays is None:
                images = read_idx(self.images_path, IMAGE_MAGIC)
                labels = read_idx(self.labels_path, LABEL_MAGIC)
                if len(images) != len(labels):
                    raise ConversionError(f"{self.images_path} has {len(images)} images but "
                                          f"{self.labels_path} has {len(labels)} labels")
                self._arrays = images, labels
            return self._arrays

    def load(self, index):
        images, labels = self.arrays()
        label = int(labels[index])
        if label > 9:
            raise BadItem(f"{self.labels_path} item {index}",
                          f"label {label} outside the class list (0..9)")
        return {"label": label, "data": encode_rgb(images[index], self.image_format)}


class MnistToMR(Converter):
    """Convert MNIST to MindRecord (``mindspore.mindrecord.MnistToMR``).

    Args:
        source (str): directory with train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,
            t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz (uncompressed also accepted).
        destination (str): prefix; writes ``{destination}_train.mindrecord`` and
            ``{destination}_test.mindrecord``.
        partition_number (int): shard files per output. Default 1.
        image_format (str, keyword-only): "jpeg" (default, as MindSpore) or "png".
    """

    def __init__(self, source, destination, partition_number=1, *, image_format="jpeg"):
        # the destination and partition first: MindSpore 2.10 makes its FileWriters here
        self.destination = check_destination_arg(destination)
        self.partition_number = check_partition_number(partition_number)
        self.source = check_path_arg(source, "source", "dir")
        self.files = {split: tuple(find_idx_file(source, n) for n in names)
                      for split, names in MNIST_FILES.items()}
        self.image_format = check_image_format(image_format)

    def _build_specs(self):
        specs = []
        for split in ("train", "test"):
            loader = MnistLoader(*self.files[split], self.image_format)
            count = len(loader.arrays()[1])
            specs.append(ConversionSpec(
                f"{self.destination}_{split}.mindrecord", MNIST_SCHEMA, "mnist_schema",
                list(range(count)), loader, self.partition_number, ["label"],
                header_size=1 << 24, page_size=1 << 26))
        return specs
