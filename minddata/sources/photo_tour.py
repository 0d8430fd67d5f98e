"""PhotoTourDataset: the patch sheets of the Multi-view Stereo Correspondence data (Brown et al.).

Layout: ``<dataset_dir>/<name>/`` holds ``patches*.bmp`` sheets, each a 1024 x 1024 grayscale
image of 16 x 16 patches of 64 x 64 pixels (patch ``k`` of the set is sheet ``k // 256`` in
sorted name order, row ``k % 256 // 16``, column ``k % 16``), ``info.txt`` (one line per patch:
its 3D point id and one more number) and ``m50_100000_100000_0.txt`` (one line per pair:
patch 1, its 3D point, an unused field, patch 2, its 3D point and two unused fields).

Rows: usage 'train' (the default): ``image`` (64, 64, 1) uint8, one per line of ``info.txt``,
patch ``i`` for row ``i``; usage 'test': ``image1``, ``image2`` (64, 64, 1) uint8 and
``matches`` uint32 0-d (1 when both patches show the same 3D point), one per line of the pairs
file. Both as MindSpore 2.10 gives them.
"""
import functools
import os
import threading

import numpy as np

from ._image_files import file_stamp, read_each
from ._image_rows import read_text
from ._source_base import RowSource, SourceDataset
from ._validation import (check_dir, check_mappable_shuffle, check_sampling_args, check_usage,
                          type_check)

# Patches in each set, as the data's authors publish them.
SET_SIZES = {"notredame": 468159, "yosemite": 633587, "liberty": 450092,
             "liberty_harris": 379587, "yosemite_harris": 450912, "notredame_harris": 325295}
NAMES = ["notredame", "yosemite", "liberty", "notredame_harris", "yosemite_harris",
         "liberty_harris"]          # MindSpore's order, as its error message lists them
USAGES = ["train", "test"]
INFO_FILE = "info.txt"
MATCHES_FILE = "m50_100000_100000_0.txt"
PATCH = 64
PER_SIDE = 16
PER_SHEET = PER_SIDE * PER_SIDE
_SHEETS_KEPT = 64        # decoded sheets kept (1 MB each); the others are read again
API = "PhotoTourDataset"


def read_table(folder, name, width, what):
    """The integer fields of a text file of ``width`` fields a line, as an (N, width) array;
    RuntimeError naming the file when it is unreadable, empty or damaged."""
    path = os.path.join(folder, name)
    fields = read_text(path, f"PhotoTour {what}").split()
    if not fields:
        raise RuntimeError(f"Invalid file, the file size of {path} is unexpected, got size 0.")
    if len(fields) % width:
        raise RuntimeError(f"Invalid data, reading PhotoTour {what} file failed: {path} has "
                           f"{len(fields)} fields, not {width} per line (file damaged).")
    try:
        return np.array([int(f) for f in fields], dtype=np.int64).reshape(-1, width)
    except ValueError:
        raise RuntimeError(f"Invalid data, reading PhotoTour {what} file failed: {path} holds "
                           f"a field that is not an integer.") from None


class PhotoTourSource(RowSource):
    """The set's patch lists; a read cuts the patches out of their sheets (decoded on demand,
    the recent ones kept)."""

    def __init__(self, dataset_dir, name, usage):
        self._dir, self._name, self._usage = dataset_dir, name, usage
        self._folder = os.path.join(dataset_dir, name)
        if not os.path.isdir(self._folder):
            raise RuntimeError(f"{self._folder} does not exist.")
        self._sheets = sorted(os.path.join(self._folder, n) for n in os.listdir(self._folder)
                              if n.endswith("bmp"))
        self._train = usage == "train"
        if self._train:
            self.column_names = ["image"]
            self._count = len(read_table(self._folder, INFO_FILE, 2, "info"))
        else:
            self.column_names = ["image1", "image2", "matches"]
            # patch 1, its 3D point, -, patch 2, its 3D point, -, -
            pairs = read_table(self._folder, MATCHES_FILE, 7, "matched")
            self._first, self._second = pairs[:, 0], pairs[:, 3]
            self._matches = (pairs[:, 1] == pairs[:, 4]).astype(np.uint32)
            self._count = len(self._matches)
        if not self._count:
            raise RuntimeError(f"Invalid data, data file may not suitable to read with "
                               f"PhotoTourDataset API. Check file in directory: {self._folder}")
        self._lock = threading.Lock()
        self._sheet = functools.lru_cache(maxsize=_SHEETS_KEPT)(self._load_sheet)

    def __len__(self):
        return self._count

    def _load_sheet(self, k):
        import cv2
        path = self._sheets[k]
        sheet = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        if sheet is None or sheet.shape[0] < PATCH * PER_SIDE or sheet.shape[1] < PATCH * PER_SIDE:
            shape = None if sheet is None else sheet.shape
            raise RuntimeError(f"Invalid PhotoTour sheet {path}: should be a "
                               f"{PATCH * PER_SIDE}x{PATCH * PER_SIDE} image, got {shape} "
                               f"(file damaged or not a BMP image).")
        return sheet

    def _patch(self, index):
        index = int(index)
        k, place = divmod(index, PER_SHEET)
        if not 0 <= index < SET_SIZES[self._name] or k >= len(self._sheets):
            raise RuntimeError(f"Invalid data, patch {index} of PhotoTour set '{self._name}' is "
                               f"not in {self._folder}: {len(self._sheets)} .bmp sheets of "
                               f"{PER_SHEET} patches, at most {SET_SIZES[self._name]} patches.")
        with self._lock:
            sheet = self._sheet(k)
        y, x = (place // PER_SIDE) * PATCH, (place % PER_SIDE) * PATCH
        return sheet[y:y + PATCH, x:x + PATCH, None].copy()

    def _read_one(self, i):
        if self._train:
            return (self._patch(i),)
        return (self._patch(self._first[i]), self._patch(self._second[i]),
                np.array(self._matches[i]))

    def read_rows(self, ids):
        return read_each(self._read_one, ids, self._count, f"{API} {self._folder}")

    def provenance(self, row_id):
        what = INFO_FILE if self._train else MATCHES_FILE
        return f"{os.path.join(self._folder, what)} entry {int(row_id)}"

    def describe(self):
        what = INFO_FILE if self._train else MATCHES_FILE
        return (f"{API}(folder={self._folder!r}, usage={self._usage!r}, "
                f"files={[file_stamp(os.path.join(self._folder, what))]}, "
                f"sheets={[file_stamp(p) for p in self._sheets]})")

    def column_values(self, name):
        return self._matches.copy() if name == "matches" else None

    def close(self):
        self._sheet.cache_clear()


class PhotoTourDataset(SourceDataset):
    """PhotoTour patches: usage 'train' gives ``image`` (64, 64, 1) uint8; usage 'test' gives
    ``image1``, ``image2`` and ``matches`` uint32.

    Same signature, defaults and errors as ``mindspore.dataset.PhotoTourDataset``; ``name`` is
    one of 'notredame', 'yosemite', 'liberty' and their '_harris' sets; ``usage`` None means
    'train'.
    """

    def __init__(self, dataset_dir, name, usage=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        usage = "train" if usage is None else check_usage(usage, USAGES)
        type_check(name, (str,), "name")
        if name not in NAMES:
            raise ValueError(f"Input name is not within the valid set of {NAMES}.")
        check_mappable_shuffle(shuffle)
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                            shard_id)
        self.dataset_dir, self.name, self.usage = dataset_dir, name, usage
        columns = ["image"] if usage == "train" else ["image1", "image2", "matches"]
        super().__init__(functools.partial(PhotoTourSource, dataset_dir, name, usage),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=columns)
