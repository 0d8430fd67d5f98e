"""RenderedSST2Dataset: the SST-2 sentences rendered as images,
``{train,valid,test}/{class}/*.png``.

As MindSpore 2.10 reads them (measured): a row is ``image`` (the file's bytes, 1-D uint8, or
with ``decode=True`` the HWC RGB image) and ``label`` (uint32, the class folder's index in the
sorted class names); usage ``'val'`` reads ``valid/``, ``'all'`` (None) the three folders in the
order of their names (test, train, valid: those that are there); classes and files (``*.png``
only) in name order. The usage's split folder missing, or no image at all, is a RuntimeError.

Where MindSpore differs (the README, "Reading files"): with usage 'all' the class indices are
those of the sorted names of every split's classes (MindSpore numbers them in the order it
meets them, folder by folder in the order the file system lists the folders: the same where
every split has the same classes, as the data set's negative/positive).
"""
import functools
import os

import numpy as np

from ._image_rows import (ImageRowsDataset, ImageRowsSource, check_choice, check_image_args,
                          sorted_entries)
from ._validation import check_dir

USAGES = ["val", "all", "train", "test"]
_FOLDERS = {"train": "train", "val": "valid", "test": "test"}


class RenderedSST2Source(ImageRowsSource):
    _api = "RenderedSST2Dataset"

    def __init__(self, dataset_dir, usage, decode):
        super().__init__(dataset_dir, decode)
        self._usage = usage
        splits = [os.path.join(dataset_dir, name) for name in
                  (sorted(_FOLDERS.values()) if usage == "all" else [_FOLDERS[usage]])]
        if usage == "all":          # the split folders that are there
            splits = [split for split in splits if os.path.isdir(split)]
        elif not os.path.isdir(splits[0]):
            raise RuntimeError(f"Invalid path, RenderedSST2 folder: {splits[0]} does not exist.")
        classes = sorted({name for split in splits for name in os.listdir(split)
                          if os.path.isdir(os.path.join(split, name))})
        paths, labels = [], []
        for split in splits:
            for label, name in enumerate(classes):
                folder = os.path.join(split, name)
                if not os.path.isdir(folder):
                    continue
                images = sorted_entries(folder, lambda n: n.endswith(".png"))
                paths += images
                labels += [label] * len(images)
        if not paths:
            raise RuntimeError(f"Invalid data, no .png image found in {', '.join(splits)}.")
        self._set_rows([paths], [np.array(labels, dtype=np.uint32)])

    def _options(self):
        return f"usage={self._usage}"


class RenderedSST2Dataset(ImageRowsDataset):
    """Rendered SST-2: columns ``image`` and ``label`` (uint32). Same signature, defaults and
    errors as ``mindspore.dataset.RenderedSST2Dataset``; see the module docstring."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        dataset_dir = check_dir(dataset_dir)
        if usage is not None:
            check_choice(usage, USAGES, "")
        decode = check_image_args("RenderedSST2Dataset", decode, num_samples,
                                  num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.dataset_dir, self.usage, self.decode = dataset_dir, usage or "all", decode
        self._start(functools.partial(RenderedSST2Source, dataset_dir, self.usage, decode),
                    ["image", "label"], num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
