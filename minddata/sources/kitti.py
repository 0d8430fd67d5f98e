"""KITTIDataset: the KITTI object-detection benchmark (left colour camera).

Images are ``data_object_image_2/training/image_2/<id>.png`` (usage 'train') or
``data_object_image_2/testing/image_2/<id>.png`` ('test'), rows in id order. A training
image's objects are the lines of ``data_object_label_2/training/label_2/<id>.txt``: a class
name and 14 numbers (truncated, occluded, alpha, bbox left top right bottom, dimensions
h w l, location x y z, rotation_y; a 16th, a score, is ignored). An image whose label file
holds no object has no row, as in MindSpore.

Columns (MindSpore's names and dtypes), N the image's objects: ``image`` (the file's bytes,
1-D uint8, or HWC uint8 RGB with ``decode=True``); 'train' only: ``label`` uint32 (N, 1), the
position of the class name among all the names of the label files in sorted order;
``truncated`` float32 (N, 1); ``occluded`` uint32 (N, 1) (-1 wraps to 4294967295, as in
MindSpore); ``alpha`` float32 (N, 1); ``bbox`` float32 (N, 4); ``dimensions`` and
``location`` float32 (N, 3); ``rotation_y`` float32 (N, 1).
"""
import functools
import os

import numpy as np

from ._image_files import check_common_args, file_stamp, read_each, read_image
from ._image_rows import check_choice
from ._source_base import RowSource, SourceDataset
from ._validation import check_dir
from .image_folder import _extension

TRAIN_COLUMNS = ["image", "label", "truncated", "occluded", "alpha", "bbox", "dimensions",
                 "location", "rotation_y"]
NUM_VALUES = 14         # numbers after the class name on a label line
_IMAGE_DIRS = {"train": "training", "test": "testing"}
# (column, first value, last value + 1) of the 14 numbers of a label line
_SLICES = [("truncated", 0, 1), ("alpha", 2, 3), ("bbox", 3, 7), ("dimensions", 7, 10),
           ("location", 10, 13), ("rotation_y", 13, 14)]


def kitti_columns(usage):
    return TRAIN_COLUMNS if usage == "train" else ["image"]


def parse_label_file(path):
    """``(class names, float64 (N, 14) values)`` of one label file; RuntimeError naming the
    file and line for a line MindSpore could not read (it reads past the end of such a line)."""
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid path, {path} does not exist (the label file of a KITTI "
                           f"training image).")
    names, values = [], []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            try:
                if len(fields) < NUM_VALUES + 1:
                    raise ValueError(f"{len(fields)} fields, a label line has at least "
                                     f"{NUM_VALUES + 1}")
                values.append([float(v) for v in fields[1:NUM_VALUES + 1]])
            except ValueError as exc:
                raise RuntimeError(f"Invalid file, the format of the annotation file is not as "
                                   f"expected: {path} line {number}: {exc}") from None
            names.append(fields[0])
    return names, np.array(values, dtype=np.float64).reshape(-1, NUM_VALUES)


class KITTISource(RowSource):
    """The usage's image ids (train: with their parsed objects); a read opens the image."""

    def __init__(self, dataset_dir, usage, decode):
        self._dir, self._usage, self._decode = dataset_dir, usage, decode
        self.column_names = kitti_columns(usage)
        self._image_dir = os.path.join(dataset_dir, "data_object_image_2", _IMAGE_DIRS[usage],
                                       "image_2")
        if not os.path.isdir(self._image_dir):
            raise RuntimeError(f"Invalid path, failed to open KITTI image dir: "
                               f"{self._image_dir}, permission denied.")
        ids = sorted(name[:-4] for name in os.listdir(self._image_dir)
                     if _extension(name) == ".png")
        self._objects = {}
        if usage == "train":
            for image_id in ids:
                names, values = parse_label_file(self._label_file(image_id))
                if names:
                    self._objects[image_id] = (names, values)
            ids = [i for i in ids if i in self._objects]
            all_names = sorted({n for names, _ in self._objects.values() for n in names})
            self._labels = {name: k for k, name in enumerate(all_names)}
        self._ids = ids
        if not ids:     # MindSpore refuses it at once (get_dataset_size too)
            raise RuntimeError("Invalid data, no valid data matching the dataset API "
                               "KITTIDataset. Please check file path or dataset API. "
                               f"({self._image_dir} holds no '.png' image"
                               + (" with a labelled object)" if usage == "train" else ")"))

    def _label_file(self, image_id):
        return os.path.join(self._dir, "data_object_label_2", "training", "label_2",
                            image_id + ".txt")

    def _image(self, image_id):
        return os.path.join(self._image_dir, image_id + ".png")

    def __len__(self):
        return len(self._ids)

    def _read_one(self, i):
        image_id = self._ids[i]
        image = read_image(self._image(image_id), self._decode, None, "KITTIDataset")
        if self._usage != "train":
            return (image,)
        names, values = self._objects[image_id]
        columns = {name: values[:, a:b].astype(np.float32) for name, a, b in _SLICES}
        columns["label"] = np.array([[self._labels[n]] for n in names], np.uint32).reshape(-1, 1)
        columns["occluded"] = values[:, 1:2].astype(np.int64).astype(np.uint32)
        return (image,) + tuple(columns[name] for name in TRAIN_COLUMNS[1:])

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"KITTIDataset {self._dir}")

    def provenance(self, row_id):
        return f"{self._image(self._ids[int(row_id)])} (row {int(row_id)})"

    def describe(self):
        stamps = [file_stamp(self._label_file(i)) for i in self._ids] \
            if self._usage == "train" else [os.stat(self._image_dir).st_mtime_ns]
        return (f"KITTIDataset(dir={self._dir!r}, usage={self._usage!r}, ids={self._ids}, "
                f"files={stamps}, decode={self._decode})")

    def class_indexing(self):
        return dict(self._labels) if self._usage == "train" else None


class UsageImageDataset(SourceDataset):
    """MindSpore's one signature for a detection folder read by ``usage`` with a ``decode``
    argument (KITTIDataset, WIDERFaceDataset). Subclasses name ``_api``, ``_usages`` (the valid
    values, checked only when given), ``_default_usage`` (for None), ``_source_class`` (called
    with dataset_dir, usage, decode) and ``_columns(usage)``."""

    _api = _default_usage = _source_class = None
    _usages = ()

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        dataset_dir = check_dir(dataset_dir)
        if usage is not None:
            check_choice(usage, list(self._usages), "usage")
        usage = self._default_usage if usage is None else usage
        decode = False if decode is None else decode
        check_common_args(self._api, num_samples, num_parallel_workers, shuffle, sampler,
                          num_shards, shard_id, decode, None, refuse_pk_sampler=False)
        self.dataset_dir, self.usage, self.decode = dataset_dir, usage, decode
        super().__init__(functools.partial(self._source_class, dataset_dir, usage, decode),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=self._columns(usage))

    @staticmethod
    def _columns(usage):
        raise NotImplementedError


class KITTIDataset(UsageImageDataset):
    """KITTI object detection: ``image`` and, for usage 'train', the objects' ``label``,
    ``truncated``, ``occluded``, ``alpha``, ``bbox``, ``dimensions``, ``location`` and
    ``rotation_y``.

    Same signature, defaults, columns and errors as ``mindspore.dataset.KITTIDataset``;
    ``usage`` None means 'train'.
    """

    _api, _usages, _default_usage = "KITTIDataset", ("train", "test"), "train"
    _source_class = KITTISource
    _columns = staticmethod(kitti_columns)

    def _num_classes(self):
        return None     # as MindSpore's KITTIDataset: num_classes() is None
