"""SVHNDataset: the cropped-digits MATLAB files of SVHN (``train_32x32.mat``,
``test_32x32.mat``, ``extra_32x32.mat``).

Each file (MATLAB v5, read with scipy.io) holds ``X``, the images as a (32, 32, 3, N) uint8
array, and ``y``, N labels 1-10 where 10 stands for the digit 0. ``usage`` is 'train', 'test',
'extra' or 'all' (None): 'all' reads train, test, then extra, as MindSpore 2.10.

Rows: ``image`` (32, 32, 3) uint8 HWC and ``label`` uint32 0-d, the digit (label 10 -> 0), as
MindSpore 2.10 gives them.
"""
import errno
import os

import numpy as np

from . import _arrays
from ._file_rows import MultiFileRowSource, file_stamps
from .native_access import DecodedImages
from .stl10 import UsageFilesDataset

USAGES = ["train", "test", "extra", "all"]
_PARTS = {"train": ["train"], "test": ["test"], "extra": ["extra"],
          "all": ["train", "test", "extra"]}


def svhn_files(dataset_dir, usage):
    """The .mat files ``usage`` selects, in row order."""
    return [os.path.join(dataset_dir, f"{part}_32x32.mat") for part in _PARTS[usage]]


def _mat_variables(path):
    """``{name: shape}`` of a MATLAB file's variables, read from its headers only."""
    import scipy.io
    try:
        return {name: shape for name, shape, _ in scipy.io.whosmat(path)}
    except Exception as exc:  # noqa: BLE001 - scipy raises several types for a damaged file
        raise RuntimeError(f"Invalid SVHN file {path}: not a readable MATLAB file "
                           f"({type(exc).__name__}: {exc}).") from exc


def _count_in(path):
    shapes = _mat_variables(path)
    x, y = shapes.get("X"), shapes.get("y")
    if x is None or y is None:
        raise RuntimeError(f"Invalid SVHN file {path}: it should hold the variables 'X' and "
                           f"'y', found {sorted(shapes)}.")
    if len(x) != 4 or tuple(x[:3]) != (32, 32, 3) or int(np.prod(y)) != x[3]:
        raise RuntimeError(f"Invalid SVHN file {path}: 'X' {tuple(x)} should be (32, 32, 3, N) "
                           f"and 'y' {tuple(y)} hold N labels.")
    return int(x[3])


def count_svhn_rows(dataset_dir, usage):
    """Images of the selected files from their MATLAB headers, or None when a file is missing
    or damaged (opening the source reports it)."""
    try:
        return sum(_count_in(p) for p in svhn_files(dataset_dir, usage))
    except (OSError, RuntimeError):
        return None


def load_svhn_file(path):
    """(images (N, 32, 32, 3) uint8, labels (N,) uint32 with 10 -> 0) of one .mat file."""
    import scipy.io
    count = _count_in(path)
    try:
        mat = scipy.io.loadmat(path, variable_names=["X", "y"])
    except Exception as exc:  # noqa: BLE001 - scipy raises several types for a damaged file
        raise RuntimeError(f"Invalid SVHN file {path}: failed to read it "
                           f"({type(exc).__name__}: {exc}).") from exc
    images = np.ascontiguousarray(np.asarray(mat["X"], dtype=np.uint8).transpose(3, 0, 1, 2))
    labels = np.asarray(mat["y"]).reshape(-1)
    if labels.size != count or images.shape[0] != count or (labels < 0).any() or (
            labels > 10).any():
        raise RuntimeError(f"Invalid SVHN file {path}: its labels should be N = {count} "
                           f"integers in 1..10.")
    labels = labels.astype(np.uint32)
    labels[labels == 10] = 0
    return images, labels


class SVHNSource(MultiFileRowSource):
    """All images of the selected files, loaded once (as MindSpore does: 'extra' is 1.3 GB)."""

    column_names = ["image", "label"]
    _row_unit = "image"

    def __init__(self, dataset_dir, usage):
        self._dir, self._usage = dataset_dir, usage
        self._files = svhn_files(dataset_dir, usage)
        for path in self._files:
            if not os.path.isfile(path):
                raise RuntimeError(f"Invalid file, failed to find SVHN {usage} file: {path}")
        parts = [load_svhn_file(p) for p in self._files]
        self._images = np.concatenate([p[0] for p in parts])
        self._labels = np.concatenate([p[1] for p in parts])
        self._starts = np.cumsum([0] + [len(p[1]) for p in parts])

    def __len__(self):
        return len(self._labels)

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"SVHNDataset {self._dir}")
        return list(zip(_arrays.rows_of(self._images[ids]),
                        _arrays.scalars(self._labels[ids])))

    def native_column(self, name):
        return DecodedImages.of(self._images) if name == "image" else None

    def column_values(self, name):
        return self._labels.copy() if name == "label" else None

    def describe(self):
        return (f"SVHNDataset(dir={self._dir!r}, usage={self._usage!r}, "
                f"files={file_stamps(self._files)})")


class SVHNDataset(UsageFilesDataset):
    """SVHN cropped digits: columns ``image`` (32, 32, 3) uint8 and ``label`` uint32 (0-9).

    Same signature, defaults and errors as ``mindspore.dataset.SVHNDataset``; ``usage`` is
    'train', 'test', 'extra' or 'all' (None means 'all').
    """

    _usages = USAGES
    _source = SVHNSource

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id)
        if usage is None:
            # MindSpore reads the files when the dataset is built: with usage None, a missing
            # one is its FileNotFoundError there.
            for path in svhn_files(self.dataset_dir, "all"):
                if not os.path.isfile(path):
                    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)

    @staticmethod
    def _required_files(dataset_dir, usage):
        return svhn_files(dataset_dir, usage)

    def _count_rows(self):
        return count_svhn_rows(self.dataset_dir, self.usage)
