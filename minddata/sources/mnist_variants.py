"""The datasets stored in MNIST's idx layout: FashionMnistDataset, KMnistDataset,
EMnistDataset and QMnistDataset. They read their files with mnist.py's reader; an ``IdxLayout``
says which files a usage selects and how the label file is read.

- Fashion-MNIST and KMNIST: MNIST's file names and rules (``train-*`` / ``t10k-*``, see mnist.py).
- EMNIST: the files whose names contain ``emnist-<name>-train`` / ``emnist-<name>-test`` (usage
  'all': ``emnist-<name>``) and ``-images-idx3-ubyte`` / ``-labels-idx1-ubyte``, sorted, so
  'all' reads the test rows first, as MindSpore does. Images come as stored (EMNIST's are
  transposed; MindSpore does not turn them either).
- QMNIST: the fixed files ``qmnist-train-*``, ``qmnist-test-*`` and ``xnist-*`` (images
  ``-images-idx3-ubyte``, labels ``-labels-idx2-int``: magic 3074, then 8 big-endian int32 per
  image). 'test10k' reads the first 10,000 test rows, 'test50k' the 50,000 after them, 'all'
  the train, test and nist files in that order; a missing file is an error. ``compat=True``
  gives the class (the first of the 8 values) as the label, ``compat=False`` all 8 as a (8,)
  uint32 array (negative values wrap, as MindSpore gives them).

Rows: ``image`` (28, 28, 1) uint8 and ``label`` uint32 (0-d, or (8,) for QMNIST without compat).
"""
import functools
import os

import numpy as np

from ._source_base import SourceDataset
from ._validation import (check_dir, check_mappable_shuffle, check_optional, check_sampling_args,
                          check_usage, type_check)
from .mnist import MNIST, IdxLayout, MnistDataset, MnistSource, count_mnist_rows

EMNIST_NAMES = ["byclass", "bymerge", "balanced", "letters", "digits", "mnist"]
QMNIST_USAGES = ["train", "test", "test10k", "test50k", "nist", "all"]
QMNIST_LABEL_MAGIC = 3074
QMNIST_LABEL_VALUES = 8
# QMNIST's test file: its first 10,000 rows are MNIST's test set, the next 50,000 the
# recovered rest ('test10k' and 'test50k').
QMNIST_TEST10K = 10000
QMNIST_TEST_ROWS = 60000

FASHION_MNIST = IdxLayout("FashionMnistDataset", "fashion mnist", MNIST.usage_keys)
KMNIST = IdxLayout("KMnistDataset", "kmnist", MNIST.usage_keys)


def emnist_layout(name):
    """The files of EMNIST split ``name``."""
    prefixes = {"train": f"emnist-{name}-train", "test": f"emnist-{name}-test",
                "all": f"emnist-{name}"}
    keys = {usage: ((prefix, "-images-idx3-ubyte"), (prefix, "-labels-idx1-ubyte"))
            for usage, prefix in prefixes.items()}
    return IdxLayout("EMnistDataset", "emnist", keys)


class QMnistLayout(IdxLayout):
    """QMNIST's fixed file names, its 8-value int32 labels, and its two parts of the test file."""

    label_magic, label_dims, label_itemsize = QMNIST_LABEL_MAGIC, 1, 4
    _PREFIXES = {"train": ["qmnist-train"], "test": ["qmnist-test"],
                 "test10k": ["qmnist-test"], "test50k": ["qmnist-test"], "nist": ["xnist"],
                 "all": ["qmnist-train", "qmnist-test", "xnist"]}

    def __init__(self, compat):
        super().__init__("QMnistDataset", "qmnist", None)
        self.compat = compat

    def find(self, dataset_dir, usage):
        prefixes = self._PREFIXES[usage]
        images = [os.path.join(dataset_dir, p + "-images-idx3-ubyte") for p in prefixes]
        labels = [os.path.join(dataset_dir, p + "-labels-idx2-int") for p in prefixes]
        for path in images + labels:
            if not os.path.isfile(path):
                raise RuntimeError(f"Invalid file path, Qmnist data file: {path} does not exist "
                                   f"or is a directory.")
        return images, labels

    def labels(self, payload, count, path):
        values = payload.view(">u4").reshape(count, -1) if count else np.zeros((0, 8), ">u4")
        if values.shape[1] != QMNIST_LABEL_VALUES:
            raise RuntimeError(f"Invalid data, length of labels is not equal to "
                               f"{QMNIST_LABEL_VALUES}: {path} holds {values.shape[1]} values "
                               f"per image.")
        values = values.astype(np.uint32)
        return values[:, 0].copy() if self.compat else values

    def kept(self, usage, count):
        if usage == "test10k":
            return slice(0, QMNIST_TEST10K)
        if usage == "test50k":
            return slice(QMNIST_TEST10K, QMNIST_TEST_ROWS)
        return slice(0, count)

    def describe_options(self):
        return f"compat={self.compat}, "


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST from its idx files (MNIST's names): columns ``image`` (28, 28, 1) uint8 and
    ``label`` uint32. Same signature, defaults and errors as
    ``mindspore.dataset.FashionMnistDataset``; ``usage`` 'train', 'test' or 'all' (None)."""

    _layout = FASHION_MNIST


class KMnistDataset(MnistDataset):
    """Kuzushiji-MNIST from its idx files (MNIST's names): columns ``image`` (28, 28, 1) uint8
    and ``label`` uint32. Same signature, defaults and errors as
    ``mindspore.dataset.KMnistDataset``; ``usage`` 'train', 'test' or 'all' (None)."""

    _layout = KMNIST


class EMnistDataset(MnistDataset):
    """EMNIST split ``name`` from its ``emnist-<name>-*`` idx files: columns ``image``
    (28, 28, 1) uint8 and ``label`` uint32. Same signature, defaults and errors as
    ``mindspore.dataset.EMnistDataset``; ``name`` one of ``EMNIST_NAMES``, ``usage`` 'train',
    'test' or 'all' (None)."""

    def __init__(self, dataset_dir, name, usage=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        # MindSpore's order: the int and bool arguments, then the folder, name and usage.
        check_sampling_args(num_samples)
        check_optional(num_shards, (int,), "num_shards")
        check_optional(shard_id, (int,), "shard_id")
        check_mappable_shuffle(shuffle)
        check_dir(dataset_dir)
        type_check(name, (str,), "name")
        if name not in EMNIST_NAMES:
            raise ValueError(f"Input name is not within the valid set of {EMNIST_NAMES}.")
        self.name = name
        self._layout = emnist_layout(name)
        super().__init__(dataset_dir, usage=usage, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id, cache=cache)


class QMnistDataset(SourceDataset):
    """QMNIST from its idx files: columns ``image`` (28, 28, 1) uint8 and ``label`` uint32 (the
    class with ``compat=True``, the (8,) QMNIST record otherwise). Same signature, defaults and
    errors as ``mindspore.dataset.QMnistDataset``; ``usage`` one of ``QMNIST_USAGES`` (None:
    'all'). See the module's text for the files."""

    def __init__(self, dataset_dir, usage=None, compat=True, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        usage = check_usage(usage, QMNIST_USAGES)
        check_mappable_shuffle(shuffle)
        type_check(compat, (bool,), "compat")
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                            shard_id)
        self.dataset_dir, self.usage, self.compat = dataset_dir, usage, compat
        super().__init__(functools.partial(MnistSource, dataset_dir, usage,
                                           QMnistLayout(compat)),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=MnistSource.column_names)

    def row_count(self):
        # From the files' headers, as MnistDataset counts (mnist.py); opening the source
        # reports what is wrong when they cannot be counted that way.
        n = count_mnist_rows(self.dataset_dir, self.usage, QMnistLayout(self.compat))
        return super().row_count() if n is None else self.count_ids(n)
