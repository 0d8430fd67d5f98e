"""Reading CIFAR-10/100 "python version" batch files (pickled dicts) for the converters.

A batch file holds ``b"data"`` (N x 3072 uint8, channel planes) and label lists. The loader
opens each file once per process (cached) so that items stay small descriptors and the same
loader works in threads and in Ray workers.
"""
import os
import pickle
import threading

import numpy as np

from .bad_input import BadItem, ConversionError
from .conversion import ItemLoader
from .image_encoding import encode_rgb


def load_batch(path, label_keys):
    """(images N x 32 x 32 x 3 uint8, {key: int64 array}) from one pickled batch file."""
    try:
        with open(path, "rb") as f:
            batch = pickle.load(f, encoding="bytes")
    except OSError as exc:
        raise ConversionError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except Exception as exc:   # noqa: BLE001 - any unpickling failure means a corrupt file
        raise ConversionError(f"{path}: not a CIFAR python batch file ({exc})") from None
    if not isinstance(batch, dict) or b"data" not in batch:
        raise ConversionError(f"{path}: not a CIFAR python batch file (no 'data' entry)")
    data = np.asarray(batch[b"data"])
    if data.dtype != np.uint8 or data.ndim != 2 or data.shape[1] != 3072:
        raise ConversionError(f"{path}: 'data' must be N x 3072 uint8, got {data.shape} "
                              f"{data.dtype}")
    labels = {}
    for key in label_keys:
        if key.encode() not in batch:
            raise ConversionError(f"{path}: no '{key}' entry")
        values = np.asarray(batch[key.encode()], dtype=np.int64).reshape(-1)
        if len(values) != len(data):
            raise ConversionError(f"{path}: {len(values)} {key} for {len(data)} images")
        labels[key] = values
    images = data.reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    return images, labels


def read_meta(path, key):
    """Class names from ``batches.meta``/``meta``, or None when the file is absent."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            meta = pickle.load(f, encoding="bytes")
        return [n.decode() if isinstance(n, bytes) else str(n) for n in meta[key.encode()]]
    except Exception as exc:   # noqa: BLE001
        raise ConversionError(f"{path}: cannot read the class names ({exc})") from None


class CifarLoader(ItemLoader):
    """Items are (batch file path, row in file, row id); rows ``{"id", "data", <labels>}``."""

    def __init__(self, label_keys, num_classes, image_format):
        self.label_keys = label_keys          # e.g. {"label": "labels"} row field -> batch key
        self.num_classes = num_classes        # row field -> number of classes
        self.image_format = image_format
        self._cache = {}
        self._lock = threading.Lock()

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_cache"], state["_lock"] = {}, None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _batch(self, path):
        with self._lock:
            if path not in self._cache:
                self._cache[path] = load_batch(path, list(self.label_keys.values()))
            return self._cache[path]

    def load(self, item):
        path, index, row_id = item
        images, labels = self._batch(path)
        row = {"id": row_id}
        for field, key in self.label_keys.items():
            value = int(labels[key][index])
            if not 0 <= value < self.num_classes[field]:
                raise BadItem(f"{path} row {index}", f"{field} {value} outside the class list "
                                                     f"(0..{self.num_classes[field] - 1})")
            row[field] = value
        row["data"] = encode_rgb(images[index], self.image_format)
        return row


def batch_items(paths, label_key):
    """Items for every row of ``paths`` with running ids; reads each file's label count."""
    items = []
    for path in paths:
        _images, labels = load_batch(path, [label_key])
        base = len(items)
        items.extend((path, i, base + i) for i in range(len(labels[label_key])))
    return items
