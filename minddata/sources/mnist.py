"""MnistDataset: the MNIST idx files (``train-images-idx3-ubyte`` etc.) of one folder.

Files are found as MindSpore finds them: any file whose name contains ``<prefix>-images`` and
``idx3-ubyte`` is an image file, ``<prefix>-labels`` and ``idx1-ubyte`` a label file, where the
prefix is ``train`` or ``t10k`` for usage 'train'/'test' and empty for 'all'. Image and label files
are sorted by path and paired in that order, so with usage 'all' the ``t10k`` (test) rows come
before the ``train`` rows, as in MindSpore.

Rows: ``image`` (rows, cols, 1) uint8 (28x28 for MNIST) and ``label`` uint32, 0-d.

The datasets stored in the same idx layout (Fashion-MNIST, KMNIST, EMNIST, QMNIST:
mnist_variants.py) reuse this reader through an ``IdxLayout``, which says how a dataset names its
files and reads its label file.
"""
import functools
import os
import struct

import numpy as np

from . import _arrays
from ._file_rows import MultiFileRowSource, file_stamps
from ._no_rows import FailsWhenReadIfEmpty
from ._usage_folder import UsageFolderDataset

IMAGE_MAGIC = 2051
LABEL_MAGIC = 2049


class IdxLayout:
    """How one dataset of the idx layout names and reads its files: the API its errors name,
    the word MindSpore's no-data message uses for its files, the image and label files a usage
    selects, and the label file's format (MNIST's: one byte per label)."""

    label_magic = LABEL_MAGIC
    #: dims of one label after the count (none: a byte), and bytes per label value
    label_dims, label_itemsize = 0, 1

    def __init__(self, api_name, file_word, usage_keys):
        self.api_name, self.file_word = api_name, file_word
        # usage -> (substrings an image file's name contains, those a label file's contains)
        self.usage_keys = usage_keys

    def find(self, dataset_dir, usage):
        """Sorted (image_files, label_files) of ``dataset_dir`` for ``usage``."""
        image_keys, label_keys = self.usage_keys[usage]
        images, labels = [], []
        for name in os.listdir(dataset_dir):
            path = os.path.join(dataset_dir, name)
            if not os.path.isfile(path):
                continue
            if all(key in name for key in image_keys):
                images.append(path)
            elif all(key in name for key in label_keys):
                labels.append(path)
        return sorted(images), sorted(labels)

    def labels(self, payload, count, path):
        """The uint32 labels of a label file's payload (uint8 array of ``count`` labels)."""
        return payload.astype(np.uint32)

    def kept(self, usage, count):
        """The slice of a file's ``count`` rows that ``usage`` reads (all of them)."""
        return slice(0, count)

    def describe_options(self):
        """Options beyond the files that change the rows, for ``describe()`` (none here)."""
        return ""


def prefix_keys(prefixes):
    """MNIST's file rule: ``<prefix>-images`` and ``idx3-ubyte`` in an image file's name,
    ``<prefix>-labels`` and ``idx1-ubyte`` in a label file's, where usage 'all' has the empty
    prefix (every file)."""
    return {usage: ((prefix + "-images", "idx3-ubyte"), (prefix + "-labels", "idx1-ubyte"))
            for usage, prefix in dict(prefixes, all="").items()}


MNIST = IdxLayout("MnistDataset", "mnist", prefix_keys({"train": "train", "test": "t10k"}))


def _read_idx(path, magic, ndim_after_count, itemsize=1):
    """(count, dims, payload as uint8 array) of one idx file, checking its header and size;
    an item is ``prod(dims)`` values of ``itemsize`` bytes."""
    with open(path, "rb") as f:
        data = f.read()
    header_len = 4 * (2 + ndim_after_count)
    if len(data) < header_len:
        raise RuntimeError(f"Invalid MNIST file {path}: {len(data)} bytes, shorter than its "
                           f"{header_len}-byte header.")
    fields = struct.unpack(f">{2 + ndim_after_count}I", data[:header_len])
    if fields[0] != magic:
        raise RuntimeError(f"Invalid MNIST file {path}: magic number {fields[0]}, expected {magic}.")
    count, dims = fields[1], fields[2:]
    item = (int(np.prod(dims)) if dims else 1) * itemsize
    expected = header_len + count * item
    if len(data) < expected:
        raise RuntimeError(f"Invalid MNIST file {path}: it declares {count} items "
                           f"({expected} bytes) but has only {len(data)} bytes.")
    payload = np.frombuffer(data, dtype=np.uint8, count=count * item, offset=header_len)
    return count, dims, payload


def count_mnist_rows(dataset_dir, usage, layout=MNIST):
    """Rows of the selected idx files from their headers (8 bytes each), or None when the
    files are missing or do not pair up or a header is not a valid idx header (opening them
    reports it)."""
    try:
        image_files, label_files = layout.find(dataset_dir, usage)
    except RuntimeError:
        return None
    if len(image_files) != len(label_files):
        return None
    total = 0
    for image_path, label_path in zip(image_files, label_files):
        counts = [_header_count(image_path, IMAGE_MAGIC),
                  _header_count(label_path, layout.label_magic)]
        if None in counts or counts[0] != counts[1]:
            return None
        kept = layout.kept(usage, counts[0])
        total += len(range(counts[0])[kept])
    return total


def _header_count(path, magic):
    with open(path, "rb") as f:
        head = f.read(8)
    if len(head) < 8:
        return None
    found, count = struct.unpack(">2I", head)
    return count if found == magic else None


def load_mnist_pair(image_path, label_path, layout=MNIST):
    """(images (N, rows, cols, 1) uint8, labels (N, ...) uint32) of one image/label file pair."""
    n_img, (rows, cols), pixels = _read_idx(image_path, IMAGE_MAGIC, 2)
    n_lab, _, label_bytes = _read_idx(label_path, layout.label_magic, layout.label_dims,
                                      layout.label_itemsize)
    if n_img != n_lab:
        raise RuntimeError(f"Invalid MNIST data: {image_path} holds {n_img} images but "
                           f"{label_path} holds {n_lab} labels.")
    return pixels.reshape(n_img, rows, cols, 1), layout.labels(label_bytes, n_lab, label_path)


class MnistSource(FailsWhenReadIfEmpty, MultiFileRowSource):
    """All rows of the selected idx files, loaded once into memory (MNIST is 55 MB at most;
    EMNIST by_class, the largest of the layout, 700 MB)."""

    column_names = ["image", "label"]

    def __init__(self, dataset_dir, usage, layout=MNIST):
        self._dir, self._usage, self._layout = dataset_dir, usage, layout
        image_files, label_files = layout.find(dataset_dir, usage)
        if len(image_files) != len(label_files):
            raise RuntimeError(f"Invalid data, num of images is not equal to num of labels in "
                               f"{dataset_dir}: image files {image_files}, label files {label_files}.")
        pairs = []
        for image_path, label_path in zip(image_files, label_files):
            images, labels = load_mnist_pair(image_path, label_path, layout)
            kept = layout.kept(usage, len(labels))
            pairs.append((images[kept], labels[kept]))
        if not sum(len(p[1]) for p in pairs):
            found = (f"no row of the files {image_files}" if image_files
                     else "no *-images-idx3-ubyte / *-labels-idx1-ubyte files")
            self._no_rows = (f"Invalid data, {layout.api_name} API can't read the data file "
                             f"(interface mismatch or no data found). Check {layout.file_word} "
                             f"file in directory: {dataset_dir} (usage '{usage}' selects {found}).")
        # No file: one empty pair, so the arrays below exist with no row.
        pairs = pairs or [(np.zeros((0, 28, 28, 1), np.uint8), np.zeros(0, np.uint32))]
        shapes = {p[0].shape[1:] for p in pairs}
        if len(shapes) > 1:
            raise RuntimeError(f"Invalid MNIST data in {dataset_dir}: image sizes differ between "
                               f"files {image_files}: {sorted(shapes)}.")
        self._images = np.concatenate([p[0] for p in pairs]) if len(pairs) > 1 else pairs[0][0]
        self._labels = np.concatenate([p[1] for p in pairs]) if len(pairs) > 1 else pairs[0][1]
        self._files = image_files
        self._starts = np.cumsum([0] + [len(p[1]) for p in pairs])

    def __len__(self):
        return len(self._labels)

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"{self._layout.api_name} {self._dir}")
        images = self._images[ids]          # one gather; each row is a private view of it
        return list(zip(_arrays.rows_of(images), _arrays.scalars(self._labels[ids])))

    def describe(self):
        return (f"{self._layout.api_name}(dir={self._dir!r}, usage={self._usage!r}, "
                f"{self._layout.describe_options()}files={file_stamps(self._files)})")


class MnistDataset(UsageFolderDataset):
    """MNIST from its idx files: columns ``image`` (28, 28, 1) uint8 and ``label`` uint32.

    Same signature, defaults and errors as ``mindspore.dataset.MnistDataset``; ``usage`` is
    'train', 'test' or 'all' (None means 'all').
    """

    #: how the dataset names its files (a subclass of the same layout sets its own)
    _layout = MNIST

    def _make_source_factory(self, dataset_dir, usage):
        return functools.partial(MnistSource, dataset_dir, usage, self._layout)

    def _count_rows(self):
        return count_mnist_rows(self.dataset_dir, self.usage, self._layout)

    def _output_columns(self):
        return MnistSource.column_names
