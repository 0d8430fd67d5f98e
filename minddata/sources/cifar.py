"""Cifar10Dataset and Cifar100Dataset: the binary-version batch files of CIFAR-10/100.

File formats (https://www.cs.toronto.edu/~kriz/cifar.html, "binary version"): fixed-size records,
CIFAR-10 ``<1 x label><3072 x pixel>``, CIFAR-100 ``<1 x coarse label><1 x fine label><3072 x pixel>``,
pixels stored channel-planar (1024 R, 1024 G, 1024 B, each row-major 32x32).

Files are found as MindSpore finds them: the ``*.bin`` files of ``dataset_dir``, sorted by path,
filtered by name for the usage (CIFAR-10: ``data_batch`` = train, ``test_batch`` = test,
``batch`` = all; CIFAR-100: ``train`` / ``test`` / every .bin file). Rows come in file order,
then record order. Images come out HWC (32, 32, 3) uint8 and labels uint32 0-d arrays, as in
MindSpore.
"""
import functools
import os

import numpy as np

from . import _arrays
from ._file_rows import MultiFileRowSource, file_stamps
from ._no_rows import FailsWhenReadIfEmpty
from ._usage_folder import UsageFolderDataset
from .native_access import DecodedImages

IMAGE_BYTES = 32 * 32 * 3


class _CifarFormat:
    """What differs between the two CIFAR variants."""

    def __init__(self, api_name, label_columns, usage_keys):
        self.api_name = api_name
        self.label_columns = label_columns
        self.usage_keys = usage_keys          # usage -> name substrings that select a file
        self.record_bytes = len(label_columns) + IMAGE_BYTES

    def wants(self, file_name, usage):
        return any(key in file_name for key in self.usage_keys[usage])


CIFAR10 = _CifarFormat("Cifar10Dataset", ["label"],
                       {"train": ["data_batch"], "test": ["test_batch"], "all": ["batch"]})
CIFAR100 = _CifarFormat("Cifar100Dataset", ["coarse_label", "fine_label"],
                        {"train": ["train"], "test": ["test"], "all": [""]})


def find_cifar_files(dataset_dir, usage, fmt):
    """The sorted .bin files of ``dataset_dir`` that ``usage`` selects; RuntimeError (MindSpore's
    words) when the folder has no .bin file at all."""
    names = sorted(n for n in os.listdir(dataset_dir)
                   if n.endswith(".bin") and os.path.isfile(os.path.join(dataset_dir, n)))
    if not names:
        raise RuntimeError(f"Invalid cifar folder, cifar(.bin) files are missing under "
                           f"{dataset_dir} (no .bin files found for {fmt.api_name}).")
    return [os.path.join(dataset_dir, n) for n in names if fmt.wants(n, usage)]


def count_cifar_records(dataset_dir, usage, fmt):
    """Records of the selected batch files from their sizes, or None when there is no file or
    a size is not a whole number of records (opening them reports the problem)."""
    try:
        files = find_cifar_files(dataset_dir, usage, fmt)
    except RuntimeError:
        return None
    sizes = [os.path.getsize(p) for p in files]
    if any(size % fmt.record_bytes for size in sizes):
        return None
    return sum(sizes) // fmt.record_bytes


def load_cifar_file(path, fmt):
    """(images (N, 32, 32, 3) uint8, labels (N, n_label_columns) uint32) of one batch file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) % fmt.record_bytes:
        raise RuntimeError(f"Invalid {fmt.api_name} file {path}: size {len(data)} bytes is not a "
                           f"multiple of the {fmt.record_bytes}-byte record (file truncated or "
                           f"not a CIFAR binary batch).")
    records = np.frombuffer(data, dtype=np.uint8).reshape(-1, fmt.record_bytes)
    n_labels = len(fmt.label_columns)
    labels = records[:, :n_labels].astype(np.uint32)
    # planar CHW -> HWC once for the whole file, so a row read is a plain gather
    images = records[:, n_labels:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    return np.ascontiguousarray(images), labels


class CifarSource(FailsWhenReadIfEmpty, MultiFileRowSource):
    """All records of the selected batch files, loaded once (CIFAR is 180 MB at most)."""

    _row_unit = "record"

    def __init__(self, dataset_dir, usage, fmt):
        self._dir, self._usage, self._fmt = dataset_dir, usage, fmt
        self.column_names = ["image"] + list(fmt.label_columns)
        self.class_column = fmt.label_columns[0]
        self._files = find_cifar_files(dataset_dir, usage, fmt)
        parts = [load_cifar_file(p, fmt) for p in self._files]
        n_labels = len(fmt.label_columns)
        self._images = np.concatenate([p[0] for p in parts] + [np.zeros((0, 32, 32, 3), np.uint8)])
        self._labels = np.concatenate([p[1] for p in parts] + [np.zeros((0, n_labels), np.uint32)])
        self._starts = np.cumsum([0] + [len(p[1]) for p in parts])
        if len(self._labels) == 0:
            self._no_rows = (f"Invalid data, {fmt.api_name} API can't read the data file "
                             f"(interface mismatch or no data found). Check file in directory: "
                             f"{dataset_dir} (usage '{usage}': "
                             + (f"the batch files {self._files} hold no records)." if self._files
                                else "no matching .bin batch file)."))

    def __len__(self):
        return len(self._labels)

    def native_column(self, name):
        return DecodedImages.of(self._images) if name == "image" else None

    def column_values(self, name):
        if name not in self.column_names[1:]:
            return None
        return self._labels[:, self.column_names.index(name) - 1]

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"{self._fmt.api_name} {self._dir}")
        columns = [_arrays.rows_of(self._images[ids])]
        labels = self._labels[ids]
        for k in range(labels.shape[1]):
            columns.append(_arrays.scalars(labels[:, k]))
        return list(zip(*columns))

    def describe(self):
        stamps = file_stamps(self._files)
        return f"{self._fmt.api_name}(dir={self._dir!r}, usage={self._usage!r}, files={stamps})"



class _CifarDataset(UsageFolderDataset):
    _format = None

    def _make_source_factory(self, dataset_dir, usage):
        return functools.partial(CifarSource, dataset_dir, usage, self._format)

    def _count_rows(self):
        return count_cifar_records(self.dataset_dir, self.usage, self._format)

    def _output_columns(self):
        return ["image"] + list(self._format.label_columns)


class Cifar10Dataset(_CifarDataset):
    """CIFAR-10 binary batches: columns ``image`` (32, 32, 3) uint8 and ``label`` uint32.

    Same signature, defaults and errors as ``mindspore.dataset.Cifar10Dataset``; ``usage`` is
    'train' (data_batch_*.bin), 'test' (test_batch.bin) or 'all' (None means 'all').
    """
    _format = CIFAR10


class Cifar100Dataset(_CifarDataset):
    """CIFAR-100 binary files: columns ``image`` (32, 32, 3) uint8, ``coarse_label`` and
    ``fine_label`` uint32.

    Same signature, defaults and errors as ``mindspore.dataset.Cifar100Dataset``; ``usage`` is
    'train' (train.bin), 'test' (test.bin) or 'all' (None means 'all').
    """
    _format = CIFAR100
