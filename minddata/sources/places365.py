"""Places365Dataset: the Places365 folder (``categories_places365.txt``, the file lists and the
image folders).

The rows are the ``<path> <label>`` pairs of the usage's list, in file order:
``places365_train_standard.txt`` ('train-standard', the default),
``places365_train_challenge.txt`` ('train-challenge') or ``places365_val.txt`` ('val'). A path
is read in ``data_256_standard`` / ``data_256_challenge`` / ``val_256`` with ``small=True`` (the
default) and in ``data_large_standard`` / ``data_large_challenge`` / ``val_large`` otherwise.
``label`` is the list's number (uint32). ``categories_places365.txt`` (``<name> <label>`` pairs)
must be there and well formed, as MindSpore reads it too.

Unlike MindSpore, a label that is no unsigned 32-bit number, or a list whose last path has no
label, is an error naming the file (MindSpore reads such a label as 0 or drops the path), and
``get_dataset_size()`` does not look for every image file (MindSpore stats all 1.8 million of
train-standard first); a missing image is an error naming it when its row is read.
"""
import functools
import os

import numpy as np

from ._image_rows import (ImageRowsDataset, ImageRowsSource, check_choice, check_image_args,
                          read_text)
from ._validation import check_dir, type_check

USAGES = ["train-standard", "train-challenge", "val"]
CATEGORY_FILE = "categories_places365.txt"
_LIST_FILE = {"train-standard": "places365_train_standard.txt",
              "train-challenge": "places365_train_challenge.txt", "val": "places365_val.txt"}
_IMAGE_FOLDER = {("train-standard", True): "data_256_standard",
                 ("train-challenge", True): "data_256_challenge", ("val", True): "val_256",
                 ("train-standard", False): "data_large_standard",
                 ("train-challenge", False): "data_large_challenge", ("val", False): "val_large"}


def read_pairs(path):
    """``[(name, label)]`` of a file of blank-separated ``<name> <label>`` pairs."""
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, failed to open {path}: Places365 file is damaged or "
                           f"permission denied.")
    tokens = read_text(path, "Places365").split()
    if len(tokens) % 2:
        raise RuntimeError(f"Invalid data, Reading places365 file failed: {path}, its last "
                           f"name {tokens[-1]!r} has no label.")
    pairs = []
    for name, label in zip(tokens[0::2], tokens[1::2]):
        if not label.isdigit() or int(label) > 0xFFFFFFFF:
            raise RuntimeError(f"Invalid data, Reading places365 file failed: {path}, the label "
                               f"of {name!r} is {label!r}, not an unsigned 32-bit number.")
        pairs.append((name, int(label)))
    return pairs


class Places365Source(ImageRowsSource):
    _api = "Places365Dataset"

    def __init__(self, dataset_dir, usage, small, decode):
        super().__init__(dataset_dir, decode)
        self._usage, self._small = usage, small
        categories = os.path.join(dataset_dir, CATEGORY_FILE)
        self._categories = dict(read_pairs(categories))
        listing = os.path.join(dataset_dir, _LIST_FILE[usage])
        pairs = read_pairs(listing)
        if not pairs:
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API "
                               f"Places365Dataset. Please check dataset API or file path: "
                               f"{dataset_dir}.")
        folder = os.path.join(dataset_dir, _IMAGE_FOLDER[(usage, small)])
        self._set_rows([[os.path.join(folder, p.lstrip("/")) for p, _ in pairs]],
                       [np.array([label for _, label in pairs], dtype=np.uint32)],
                       [categories, listing])

    def _options(self):
        return f"usage={self._usage}, small={self._small}"


class Places365Dataset(ImageRowsDataset):
    """Places365 scenes: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and ``label`` uint32. Same signature, defaults and errors as
    ``mindspore.dataset.Places365Dataset`` (see the module docstring)."""

    def __init__(self, dataset_dir, usage=None, small=True, decode=False, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        if usage is not None:
            check_choice(usage, USAGES, "usage")
        small = True if small is None else small
        type_check(small, (bool,), "small")
        decode = check_image_args("Places365Dataset", decode, num_samples, num_parallel_workers,
                                  shuffle, sampler, num_shards, shard_id)
        self.dataset_dir, self.usage = dataset_dir, usage or "train-standard"
        self.small, self.decode = small, decode
        self._start(functools.partial(Places365Source, dataset_dir, self.usage, small, decode),
                    ["image", "label"], num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
