"""Caltech101Dataset and Caltech256Dataset: the Caltech object-category image folders.

Caltech101 (``dataset_dir`` holds ``101_ObjectCategories/`` and ``Annotations/``): the classes
are the entries of ``101_ObjectCategories`` in sorted order (case-sensitive, so ``Faces`` comes
before ``accordion``) without ``BACKGROUND_Google``, as MindSpore leaves it out; a class's label
is its position there (int64, as MindSpore's GeneratorDataset gives a Python int). Its rows are
its ``image_NNNN.jpg`` files by number. ``target_type`` 'category' gives ``[image, category]``,
'annotation' ``[image, annotation]`` and 'all' the three: ``annotation`` is ``obj_contour`` of
``Annotations/<class>/annotation_NNNN.mat`` (float64 (2, N)), where the classes ``Faces``,
``Faces_easy``, ``Motorbikes`` and ``airplanes`` have the annotation folders ``Faces_2``,
``Faces_3``, ``Motorbikes_16`` and ``Airplanes_Side_2``.

Caltech256 (``dataset_dir`` is the folder of ``001.ak47``, ``002.american-flag`` ... class
folders, the ``256_ObjectCategories`` folder of the archive): an image folder whose files
ending in ``.jpg`` or ``.JPEG`` are read, labelled (int32) by the folder's position among the
sorted sub-folders, so ``001.ak47`` is 0 and ``257.clutter`` 256.
"""
import functools
import os
import re

import numpy as np

from ._image_rows import (FolderImageDataset, ImageRowsDataset, ImageRowsSource, check_choice,
                          check_image_args)
from ._validation import check_dir
from .image_folder import ImageFolderSource

BACKGROUND_CLASS = "BACKGROUND_Google"
TARGET_TYPES = ["category", "annotation", "all"]
_ANNOTATION_FOLDER = {"Faces": "Faces_2", "Faces_easy": "Faces_3", "Motorbikes": "Motorbikes_16",
                      "airplanes": "Airplanes_Side_2"}
_IMAGE_NAME = re.compile(r"image_(\d+)\.jpg$")
_COLUMNS = {"category": ["category"], "annotation": ["annotation"],
            "all": ["category", "annotation"]}


def scan_caltech101(image_dir):
    """(classes, image paths, numbers, labels int64) in MindSpore's row order."""
    classes = sorted(n for n in os.listdir(image_dir) if n != BACKGROUND_CLASS)
    paths, numbers, labels = [], [], []
    for label, name in enumerate(classes):
        folder = os.path.join(image_dir, name)
        if not os.path.isdir(folder):
            continue        # a stray file keeps its place among the labels, as in MindSpore
        found = sorted((int(m.group(1)), n) for n in os.listdir(folder)
                       for m in [_IMAGE_NAME.match(n)] if m)
        paths.extend(os.path.join(folder, n) for _, n in found)
        numbers.extend(k for k, _ in found)
        labels.extend([label] * len(found))
    return classes, paths, numbers, np.array(labels, dtype=np.int64)


def load_contour(path):
    """``obj_contour`` of one annotation file; RuntimeError naming the file otherwise."""
    if not os.path.isfile(path):
        raise RuntimeError(f"The annotation file {path} does not exist or permission denied!")
    from scipy.io import loadmat, matlab  # only target_type 'annotation'/'all' needs scipy
    try:
        contents = loadmat(path)
    except (ValueError, OSError, TypeError, matlab.MatReadError) as exc:
        raise RuntimeError(f"Invalid file, failed to load the annotation file {path}: "
                           f"{exc}") from exc
    if "obj_contour" not in contents:
        raise RuntimeError(f"Invalid file, the annotation file {path} has no obj_contour.")
    return np.array(contents["obj_contour"])


class Caltech101Source(ImageRowsSource):
    """The scanned images; an annotation is read with its row."""

    _api = "Caltech101Dataset"

    def __init__(self, dataset_dir, target_type, decode):
        self.value_columns = _COLUMNS[target_type]
        super().__init__(dataset_dir, decode)
        self._target_type = target_type
        image_dir = os.path.join(dataset_dir, "101_ObjectCategories")
        self._classes, paths, self._numbers, labels = scan_caltech101(image_dir)
        if not paths:       # MindSpore's GeneratorDataset refuses a source of 0 rows
            raise RuntimeError(f"Invalid data, Caltech101Dataset: data row of input source must "
                               f"not be 0: {image_dir} holds no image_NNNN.jpg file.")
        folders = [image_dir] + sorted({os.path.dirname(p) for p in paths})
        self._set_rows([paths], [labels], folders)

    def _annotation(self, i):
        label = int(self._values[0][i])
        name = self._classes[label]
        return load_contour(os.path.join(self._dir, "Annotations",
                                         _ANNOTATION_FOLDER.get(name, name),
                                         f"annotation_{self._numbers[i]:04d}.mat"))

    def _read_one(self, i):
        image, category = super()._read_one(i)
        if self._target_type == "category":
            return image, category
        if self._target_type == "annotation":
            return image, self._annotation(i)
        return image, category, self._annotation(i)

    def _options(self):
        return f"target_type={self._target_type}"

    def class_indexing(self):
        return {name: i for i, name in enumerate(self._classes)}

    def column_values(self, name):
        return np.array(self._values[0]) if name == "category" else None


class Caltech101Dataset(ImageRowsDataset):
    """Caltech 101: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and, by ``target_type``, ``category`` (int64) and/or ``annotation``
    (float64 (2, N) contour). Same signature, defaults and errors as
    ``mindspore.dataset.Caltech101Dataset`` (see the module docstring)."""

    def __init__(self, dataset_dir, target_type=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None):
        dataset_dir = check_dir(dataset_dir)
        if target_type is not None:
            check_choice(target_type, TARGET_TYPES, "target_type")
        decode = check_image_args("Caltech101Dataset", decode, num_samples, num_parallel_workers,
                                  shuffle, sampler, num_shards, shard_id)
        image_dir = os.path.join(dataset_dir, "101_ObjectCategories")
        if not os.path.isdir(image_dir):    # MindSpore lists it when the dataset is built
            raise FileNotFoundError(f"[Errno 2] No such file or directory: '{image_dir}'")
        self.dataset_dir, self.decode = dataset_dir, decode
        self.target_type = target_type or "category"
        self._start(functools.partial(Caltech101Source, dataset_dir, self.target_type, decode),
                    ["image"] + _COLUMNS[self.target_type], num_samples, num_parallel_workers,
                    shuffle, sampler, num_shards, shard_id, None)


class Caltech256Source(ImageFolderSource):
    """An image folder of ``.jpg``/``.JPEG`` files with MindSpore's Caltech256 words."""

    _api = "Caltech256Dataset"

    def __init__(self, dataset_dir, decode):
        super().__init__(dataset_dir, [".jpg", ".JPEG"], None, decode, None)
        if not self._paths:
            self._no_rows = (f"Invalid data, CaltechDataset API can't read the data file "
                             f"(interface mismatch or no data found). Check caltech file path: "
                             f"{dataset_dir} (no class folder holds a .jpg or .JPEG file).")

    def describe(self):
        return "Caltech256:" + super().describe()


class Caltech256Dataset(FolderImageDataset):
    """Caltech 256: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and ``label`` int32. Same signature, defaults and errors as
    ``mindspore.dataset.Caltech256Dataset``; ``dataset_dir`` is the folder of the class
    folders."""

    _source_class = Caltech256Source
