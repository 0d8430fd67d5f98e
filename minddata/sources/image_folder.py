"""ImageFolderDataset: one sub-folder per class, image files inside.

The scan follows MindSpore's ImageFolderOp: the class folders are the direct sub-folders of
``dataset_dir`` in sorted order (no recursion), files in each folder are sorted by name and
filtered by ``extensions`` (compared case-sensitively with the text from the last dot, e.g.
'.JPEG'; None keeps every entry). As in MindSpore, a folder inside a class folder is an entry too:
it counts in the dataset's size and reading it is an error. Without ``class_indexing`` a folder's
label is its position among all sorted sub-folders (empty ones included); with it, only the
folders it names are read and their labels come from it (any int, negative ones included).
A folder with no matching entry has size 0; reading it raises MindSpore's error.

Rows: ``image`` the file's bytes as a 1-D uint8 array (``decode=True``: HWC uint8 RGB) and
``label`` an int32 0-d array.
"""
import functools
import os

import numpy as np

from ._image_files import check_decrypt, decrypt_key, read_each, read_image
from ._no_rows import FailsWhenReadIfEmpty
from ._source_base import RowSource, SourceDataset
from .native_access import ImageFiles
from ._validation import (check_class_indexing, check_dir, check_mappable_shuffle,
                          check_sampling_args, type_check)


def _extension(name):
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""


def scan_image_folder(dataset_dir, extensions, class_indexing):
    """(paths, labels int32 array, class_indexing dict) in MindSpore's row order."""
    folders = sorted(n for n in os.listdir(dataset_dir) if os.path.isdir(os.path.join(dataset_dir, n)))
    if class_indexing:
        missing = sorted(set(class_indexing) - set(folders))
        if missing:
            raise RuntimeError(f"Invalid subdirectory, class: {missing[0]} doesn't exist in "
                               f"{dataset_dir} (named in class_indexing).")
        labels_of = dict(class_indexing)
        folders = [f for f in folders if f in labels_of]
    else:
        labels_of = {name: i for i, name in enumerate(folders)}
    wanted = set(extensions) if extensions else None
    paths, labels = [], []
    for folder in folders:
        folder_path = os.path.join(dataset_dir, folder)
        names = sorted(n for n in os.listdir(folder_path)
                       if wanted is None or _extension(n) in wanted)
        paths.extend(os.path.join(folder_path, n) for n in names)
        labels.extend([labels_of[folder]] * len(names))
    return paths, np.asarray(labels, dtype=np.int32), labels_of


class ImageFolderSource(FailsWhenReadIfEmpty, RowSource):
    """The scanned file list; a read opens each requested file (decoding it if asked).

    Another source of one image file per row (ManifestDataset) reuses the reads by setting
    ``_api``, ``_dir``, ``_decode``, ``_decrypt``, ``_paths`` and ``_labels`` itself."""

    column_names = ["image", "label"]
    _api = "ImageFolderDataset"

    def __init__(self, dataset_dir, extensions, class_indexing, decode, decrypt):
        self._dir, self._decode, self._decrypt = dataset_dir, decode, decrypt
        self._extensions = list(extensions) if extensions else None
        self._paths, self._labels, self._class_indexing = scan_image_folder(
            dataset_dir, extensions, class_indexing)
        if not self._paths:
            self._no_rows = (f"Invalid data, ImageFolderDataset API can't read the data file "
                             f"(interface mismatch or no data found). Check image folder file "
                             f"path: {dataset_dir} (no class folder holds a file"
                             + (f" of extensions {self._extensions})." if self._extensions
                                else ")."))

    def __len__(self):
        return len(self._paths)

    def _read_one(self, i):
        return (read_image(self._paths[i], self._decode, self._decrypt, self._api),
                np.array(self._labels[i]))

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self._paths), f"{self._api} {self._dir}")

    def provenance(self, row_id):
        return f"{self._paths[int(row_id)]} (row {int(row_id)})"

    def describe(self):
        st = os.stat(self._dir)
        return (f"ImageFolderDataset(dir={self._dir!r}, mtime={st.st_mtime_ns}, rows={len(self._paths)}, "
                f"extensions={self._extensions}, class_indexing={sorted(self._class_indexing.items())}, "
                f"decode={self._decode}, decrypt={decrypt_key(self._decrypt)})")

    def class_indexing(self):
        return dict(self._class_indexing)

    def native_column(self, name):
        if name != "image" or self._decode or self._decrypt is not None:
            return None
        return ImageFiles(self._paths)

    def column_values(self, name):
        return np.array(self._labels) if name == "label" else None

    def close(self):
        pass


class ImageFolderDataset(SourceDataset):
    """Images in class sub-folders: columns ``image`` (file bytes as uint8, or decoded HWC RGB
    with ``decode=True``) and ``label`` int32.

    Same signature, defaults and errors as ``mindspore.dataset.ImageFolderDataset``. ``decrypt``
    is a callable taking the image's path and returning its decrypted bytes.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, extensions=None, class_indexing=None, decode=False, num_shards=None,
                 shard_id=None, cache=None, decrypt=None):
        dataset_dir = check_dir(dataset_dir)
        check_decrypt(decrypt)
        check_mappable_shuffle(shuffle)
        type_check(decode, (bool,), "decode")
        if extensions is not None:
            type_check(extensions, (list,), "extensions")
            for ext in extensions:
                type_check(ext, (str,), "extensions")
        check_class_indexing(class_indexing)
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        # MindSpore's public attributes, with its defaults ([] and {} for None).
        self.dataset_dir, self.decode, self.decrypt = dataset_dir, decode, decrypt
        self.extensions = list(extensions or [])
        self.class_indexing = dict(class_indexing or {})
        super().__init__(functools.partial(ImageFolderSource, dataset_dir, extensions, class_indexing,
                                           decode, decrypt),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=ImageFolderSource.column_names)
