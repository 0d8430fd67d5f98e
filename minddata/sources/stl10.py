"""STL10Dataset: the binary files of STL-10 (``stl10_binary/``).

``<part>_X.bin`` holds the images, 96 x 96 x 3 bytes each, every channel a plane stored
column-major (the first 96 bytes are the first column); ``<part>_y.bin`` holds one label byte
(1-10) per image; the ``unlabeled`` part has no label file. ``usage`` picks the parts: 'train',
'test', 'unlabeled', 'train+unlabeled' or 'all' (None). As in MindSpore 2.10 the selected parts
come in the sorted order of their file names: 'all' reads test, train, then unlabeled.

Rows: ``image`` (96, 96, 3) uint8 HWC and ``label`` int32 0-d: the file's label minus one
(0-9), -1 for an unlabeled image (measured in MindSpore 2.10, whose docs say uint32).

The image files are memory-mapped, not loaded: the unlabeled part alone is 2.7 GB.
"""
import functools
import os

import numpy as np

from . import _arrays
from ._file_rows import MultiFileRowSource, file_stamps
from ._source_base import SourceDataset
from ._validation import (check_dir, check_file, check_mappable_shuffle, check_sampling_args,
                          check_usage)

SIDE = 96
IMAGE_BYTES = SIDE * SIDE * 3
USAGES = ["train", "test", "unlabeled", "train+unlabeled", "all"]
_CHECK_ORDER = ["train_X.bin", "test_X.bin", "unlabeled_X.bin"]
_PARTS = {"train": ["train"], "test": ["test"], "unlabeled": ["unlabeled"],
          "train+unlabeled": ["train", "unlabeled"], "all": ["test", "train", "unlabeled"]}


def stl10_files(dataset_dir, usage):
    """``[(images path, labels path or None)]`` of the parts ``usage`` selects, in row order."""
    return [(os.path.join(dataset_dir, f"{part}_X.bin"),
             None if part == "unlabeled" else os.path.join(dataset_dir, f"{part}_y.bin"))
            for part in _PARTS[usage]]


def _image_count(path, usage):
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, failed to find STL10 {usage} data file: {path}")
    size = os.path.getsize(path)
    if size % IMAGE_BYTES:
        # MindSpore 2.10 drops the trailing bytes silently; a cut file is an error here.
        raise RuntimeError(f"Invalid STL10 file {path}: size {size} bytes is not a multiple of "
                           f"the {IMAGE_BYTES}-byte image (file truncated or not STL-10 data).")
    return size // IMAGE_BYTES


def _labels(path, count, images_path, usage):
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, failed to find STL10 {usage} label file: {path}")
    labels = np.fromfile(path, dtype=np.uint8)
    if labels.size != count:
        raise RuntimeError(f"Invalid file, error in {path}: the number of labels ({labels.size}) "
                           f"is not equal to the number of images in {images_path} ({count})! "
                           f"Please check the file integrity!")
    return labels.astype(np.int32) - 1


def count_stl10_rows(dataset_dir, usage):
    """Images of the selected parts from their files' sizes, or None when a file is missing or
    cut (opening the source reports it)."""
    try:
        return sum(_image_count(x, usage) for x, _ in stl10_files(dataset_dir, usage))
    except RuntimeError:
        return None


class STL10Source(MultiFileRowSource):
    """The selected parts' images (memory-mapped) and labels (in memory)."""

    column_names = ["image", "label"]
    _row_unit = "image"

    def __init__(self, dataset_dir, usage):
        self._dir, self._usage = dataset_dir, usage
        pairs = stl10_files(dataset_dir, usage)
        for x, y in sorted(pairs, key=lambda pair: _CHECK_ORDER.index(os.path.basename(pair[0]))):
            # a missing file reported in MindSpore's order: train, test, unlabeled
            _image_count(x, usage)
            if y and not os.path.isfile(y):
                raise RuntimeError(f"Invalid file, failed to find STL10 {usage} label file: {y}")
        counts = [_image_count(x, usage) for x, _ in pairs]
        self._files = [x for x, _ in pairs]
        self._stamped = self._files + [y for _, y in pairs if y]
        self._labels = np.concatenate(
            [np.full(n, -1, np.int32) if y is None else _labels(y, n, x, usage)
             for (x, y), n in zip(pairs, counts)])
        self._starts = np.cumsum([0] + counts)
        if not len(self._labels):
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API "
                               f"STL10Dataset. Please check file path or dataset API: the files "
                               f"{self._files} hold no image.")
        # np.memmap keeps no file descriptor open, only the mapping (released with the array).
        self._maps = [np.memmap(x, np.uint8, "r", shape=(n, 3, SIDE, SIDE)) if n else None
                      for x, n in zip(self._files, counts)]

    def __len__(self):
        return len(self._labels)

    def _image(self, row_id):
        k = int(np.searchsorted(self._starts, row_id, side="right")) - 1
        # planes of columns (c, x, y) -> rows of pixels (y, x, c)
        return np.ascontiguousarray(self._maps[k][row_id - self._starts[k]].transpose(2, 1, 0))

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"STL10Dataset {self._dir}")
        return [(self._image(int(i)), np.array(self._labels[i])) for i in ids]

    def column_values(self, name):
        return self._labels.copy() if name == "label" else None

    def describe(self):
        return (f"STL10Dataset(dir={self._dir!r}, usage={self._usage!r}, "
                f"files={file_stamps(self._stamped)})")

    def close(self):
        self._maps = []


class UsageFilesDataset(SourceDataset):
    """A dataset of fixed-name files that ``usage`` selects (STL10, SVHN): MindSpore's checks
    (the named usage's files must exist when the dataset is built) and the hand-over to the
    core. Subclasses set ``_usages``, ``_source`` (the RowSource class, built from
    ``(dataset_dir, usage)``) and give ``_required_files(dataset_dir, usage)`` and
    ``_count_rows()`` (the rows from the files' sizes or headers, or None)."""

    _usages = []
    _source = None

    def __init__(self, dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler,
                 num_shards, shard_id, cache=None):
        dataset_dir = check_dir(dataset_dir)
        if usage is not None:
            for path in self._required_files(dataset_dir, check_usage(usage, self._usages)):
                check_file(path)
        usage = check_usage(usage, self._usages)
        check_mappable_shuffle(shuffle)
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                            shard_id)
        self.dataset_dir, self.usage = dataset_dir, usage
        super().__init__(functools.partial(self._source, dataset_dir, usage),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=self._source.column_names)

    def row_count(self):
        # From the files' sizes or headers, so get_dataset_size() reads no data (as MindSpore's).
        n = self._count_rows()
        return super().row_count() if n is None else self.count_ids(n)

    @staticmethod
    def _required_files(dataset_dir, usage):
        raise NotImplementedError

    def _count_rows(self):
        return None


class STL10Dataset(UsageFilesDataset):
    """STL-10 binary files: columns ``image`` (96, 96, 3) uint8 and ``label`` int32 (-1 for
    unlabeled images).

    Same signature, defaults and errors as ``mindspore.dataset.STL10Dataset``; ``usage`` is
    'train', 'test', 'unlabeled', 'train+unlabeled' or 'all' (None means 'all': its files are
    then checked when a pipeline starts, as in MindSpore).
    """

    _usages = USAGES
    _source = STL10Source

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id, cache)

    @staticmethod
    def _required_files(dataset_dir, usage):
        return [p for pair in stl10_files(dataset_dir, usage) for p in pair if p]

    def _count_rows(self):
        return count_stl10_rows(self.dataset_dir, self.usage)
