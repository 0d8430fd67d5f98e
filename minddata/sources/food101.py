"""Food101Dataset: ``images/<class>/<id>.jpg`` listed by ``meta/train.txt`` and
``meta/test.txt``.

Each non-empty line of the list (``apple_pie/1005649``) is one row: the image
``images/<line>.jpg`` and its ``label``, the class name as a string. Usage 'train' reads
``train.txt``, 'test' ``test.txt`` and 'all' (the default) both, train's rows first. The classes
are the sub-folders of ``images``; a line's class is the folder it names. (MindSpore takes the
first class, in sorted order, whose name is *contained* in the line, which labels
``hot_dog/...`` as ``dog`` when both classes exist; this source falls back to that rule only for
a line whose folder is no class.)
"""
import functools
import os

import numpy as np

from ._image_rows import (ImageRowsDataset, ImageRowsSource, check_choice, check_image_args,
                          read_text)
from ._validation import check_dir

USAGES = ["train", "test", "all"]


def food101_classes(image_dir):
    """Sorted class folder names of ``images``; MindSpore's errors when there is none."""
    if not os.path.exists(image_dir):
        raise RuntimeError(f"Invalid path, Food101 image path: {image_dir} does not exist.")
    if not os.path.isdir(image_dir):
        raise RuntimeError(f"Invalid path, Food101 image path: {image_dir} is not a folder.")
    classes = sorted(n for n in os.listdir(image_dir) if os.path.isdir(os.path.join(image_dir, n)))
    if not classes:
        raise RuntimeError(f"Invalid path, no subfolder found under path: {image_dir}")
    return classes


def class_of_line(line, classes, class_set):
    folder = line.rsplit("/", 1)[0] if "/" in line else None
    if folder in class_set:
        return folder
    return next((c for c in classes if c in line), "")


def read_list(path):
    """The non-empty lines of a list file (a CRLF's ``\\r`` dropped)."""
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, failed to open text:{path}, the file is damaged or "
                           f"permission denied.")
    lines = (line.rstrip("\r") for line in read_text(path, "Food101 list").split("\n"))
    return [line for line in lines if line]


class Food101Source(ImageRowsSource):
    _api = "Food101Dataset"

    def __init__(self, dataset_dir, usage, decode):
        super().__init__(dataset_dir, decode)
        self._usage = usage
        image_dir = os.path.join(dataset_dir, "images")
        classes = food101_classes(image_dir)
        lists = [os.path.join(dataset_dir, "meta", name + ".txt")
                 for name in (["train", "test"] if usage == "all" else [usage])]
        lines = [line for path in lists for line in read_list(path)]
        if not lines:
            raise RuntimeError(f"No valid train.txt or test.txt file under path: {image_dir} "
                               f"({' and '.join(lists)} hold no line).")
        class_set = set(classes)
        labels = np.array([class_of_line(line, classes, class_set) for line in lines],
                          dtype=np.str_)
        self._set_rows([[os.path.join(image_dir, line + ".jpg") for line in lines]], [labels],
                       lists)

    def _options(self):
        return f"usage={self._usage}"


class Food101Dataset(ImageRowsDataset):
    """Food-101: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and ``label`` (the class name, a string). Same signature, defaults and
    errors as ``mindspore.dataset.Food101Dataset``; ``usage`` 'train', 'test' or 'all'."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        dataset_dir = check_dir(dataset_dir)
        if usage is not None:
            check_choice(usage, USAGES, "usage")
        decode = check_image_args("Food101Dataset", decode, num_samples, num_parallel_workers,
                                  shuffle, sampler, num_shards, shard_id)
        self.dataset_dir, self.usage, self.decode = dataset_dir, usage or "all", decode
        self._start(functools.partial(Food101Source, dataset_dir, self.usage, decode),
                    ["image", "label"], num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
