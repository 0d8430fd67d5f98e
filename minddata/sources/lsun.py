"""LSUNDataset: the LSUN scene images, extracted into one folder per class and split.

Layout (MindSpore 2.10's, not the LMDB databases LSUN is downloaded as): ``<class>_train/``,
``<class>_val/`` and ``test/`` folders of image files in ``dataset_dir``. ``usage`` 'train'
reads the folders whose name contains ``<class>_train``, 'valid' ``<class>_val``, 'all' both,
'test' the ``test`` folder; ``classes`` (default: the ten LSUN scene classes) limits the
classes. As MindSpore 2.10 reads them (it builds on ImageFolder): the selected folders in sorted
order, each one's files sorted by name, and a folder's label is its position among the selected
folders, so with 'all' ``bedroom_train`` is 0 and ``bedroom_val`` 1.

Rows: ``image`` the file's bytes (1-D uint8), HWC uint8 RGB with ``decode=True``, and ``label``
uint32 0-d.
"""
import functools
import os

import numpy as np

from ._image_files import check_common_args
from ._source_base import SourceDataset
from ._validation import check_dir, check_usage, type_check
from .image_folder import ImageFolderSource

USAGES = ["train", "test", "valid", "all"]
CATEGORIES = ["bedroom", "bridge", "church_outdoor", "classroom", "conference_room",
              "dining_room", "kitchen", "living_room", "restaurant", "tower"]
_SUFFIXES = {"train": ["_train"], "valid": ["_val"], "all": ["_train", "_val"]}


def lsun_folders(dataset_dir, usage, classes):
    """(sorted folder names, number of distinct classes among them) for ``usage``."""
    if usage == "test":
        return ["test"], 1
    folders, found = set(), set()
    for name in os.listdir(dataset_dir):
        if not os.path.isdir(os.path.join(dataset_dir, name)):
            continue
        for suffix in _SUFFIXES[usage]:
            for category in classes or CATEGORIES:
                if category + suffix in name:      # MindSpore matches a substring
                    folders.add(name)
                    found.add(category)
    return sorted(folders), len(found)


class LSUNSource(ImageFolderSource):
    """ImageFolder's reads over the selected folders, each its own label."""

    _api = "LSUNDataset"

    def __init__(self, dataset_dir, usage, classes, decode):
        folders, self._num_classes = lsun_folders(dataset_dir, usage, classes)
        self._usage, self._classes = usage, list(classes or [])
        super().__init__(dataset_dir, None, {f: k for k, f in enumerate(folders)} or None,
                         decode, None)
        if not folders:     # ImageFolder's scan read every folder for an empty selection
            self._paths, self._labels, self._class_indexing = [], np.zeros(0, np.int32), {}
        self._labels = self._labels.astype(np.uint32)
        if not self._paths:
            self._no_rows = (f"Invalid data, LSUNDataset API can't read the data file (interface "
                             f"mismatch or no data found). Check lsun file path: {dataset_dir} "
                             f"(usage '{usage}' selects the folders {folders}).")

    def describe(self):
        return (f"LSUNDataset(usage={self._usage!r}, classes={self._classes}) over "
                + super().describe())

    def class_indexing(self):
        # One entry per class found, so num_classes() counts classes as MindSpore's does; the
        # labels themselves number folders.
        return {f"class {k}": k for k in range(self._num_classes)}


class LSUNDataset(SourceDataset):
    """LSUN scene folders: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and ``label`` uint32.

    Same signature, defaults and errors as ``mindspore.dataset.LSUNDataset``; ``usage`` is
    'train', 'test', 'valid' or 'all' (None means 'all'); ``classes`` a list of LSUN class names.
    """

    def __init__(self, dataset_dir, usage=None, classes=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        usage = check_usage(usage, USAGES)
        if classes is not None:
            type_check(classes, (list,), "classes")
            for name in classes:
                type_check(name, (str,), "classes")
                if name not in CATEGORIES:
                    raise ValueError(f"Input classes is not within the valid set of "
                                     f"{CATEGORIES}.")
        check_common_args("LSUNDataset", num_samples, num_parallel_workers, shuffle, sampler,
                          num_shards, shard_id, decode, None, refuse_pk_sampler=False)
        self.dataset_dir, self.usage, self.decode = dataset_dir, usage, decode
        self.classes = list(classes or [])
        super().__init__(functools.partial(LSUNSource, dataset_dir, usage, self.classes, decode),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=LSUNSource.column_names)

    def get_class_indexing(self):
        """{} as MindSpore 2.10's (its labels number folders, not classes)."""
        return {}
