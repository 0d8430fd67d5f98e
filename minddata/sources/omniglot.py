"""OmniglotDataset: ``images_background/<alphabet>/<character>/*.png`` (``background=True``, the
default) or ``images_evaluation/...`` (``background=False``).

An image folder two levels deep: every ``<alphabet>/<character>`` folder is a class, labelled
(int32) by its position among them in sorted order; its entries are the rows, sorted by name,
as ImageFolderDataset reads a class folder.
"""
import functools
import os

import numpy as np

from ._image_rows import ImageRowsDataset, check_image_args
from ._validation import check_dir, type_check
from .image_folder import ImageFolderSource


def _sub_folders(folder):
    return sorted(n for n in os.listdir(folder) if os.path.isdir(os.path.join(folder, n)))


def scan_omniglot(folder):
    """(paths, labels int32, {"alphabet/character": label}) in MindSpore's row order."""
    if not os.path.isdir(folder):
        raise RuntimeError(f"Invalid dataset_dir, {folder} may not exist or the path is not a "
                           f"directory.")
    classes = sorted(f"{a}/{c}" for a in _sub_folders(folder)
                     for c in _sub_folders(os.path.join(folder, a)))
    paths, labels = [], []
    for label, name in enumerate(classes):
        class_dir = os.path.join(folder, name)
        entries = sorted(os.listdir(class_dir))
        paths.extend(os.path.join(class_dir, n) for n in entries)
        labels.extend([label] * len(entries))
    return paths, np.array(labels, dtype=np.int32), {n: i for i, n in enumerate(classes)}


class OmniglotSource(ImageFolderSource):
    """An image folder of character folders, read as ImageFolderSource reads."""

    _api = "OmniglotDataset"

    def __init__(self, dataset_dir, background, decode):
        self._decode, self._decrypt, self._extensions = decode, None, None
        self._dir = os.path.join(dataset_dir,
                                 "images_background" if background else "images_evaluation")
        self._paths, self._labels, self._class_indexing = scan_omniglot(self._dir)
        if not self._paths:
            self._no_rows = (f"Invalid data, OmniglotDataset API can't read the data file "
                             f"(interface mismatch or no data found). Check file path: "
                             f"{self._dir} (no character folder holds a file).")

    def describe(self):
        return "Omniglot:" + super().describe()


class OmniglotDataset(ImageRowsDataset):
    """Omniglot characters: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and ``label`` int32. Same signature, defaults and errors as
    ``mindspore.dataset.OmniglotDataset``."""

    def __init__(self, dataset_dir, background=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        dataset_dir = check_dir(dataset_dir)
        background = True if background is None else background
        type_check(background, (bool,), "background")
        decode = check_image_args("OmniglotDataset", decode, num_samples, num_parallel_workers,
                                  shuffle, sampler, num_shards, shard_id)
        self.dataset_dir, self.background, self.decode = dataset_dir, background, decode
        self._start(functools.partial(OmniglotSource, dataset_dir, background, decode),
                    ["image", "label"], num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
