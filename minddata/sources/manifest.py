"""ManifestDataset: images listed in a Manifest file (JSON lines).

Each line of the file is one JSON object::

    {"source": "/data/cat1.jpg", "usage": "train",
     "annotation": [{"name": "cat", "type": "modelarts/image_classification"}]}

As MindSpore reads it: ``source`` is the image's path (absolute, or relative to the current
directory; here also, failing that, to the manifest's folder); ``usage`` (compared in lower
case) selects the lines of the ``usage`` argument; each ``annotation`` entry's ``name`` is a
label. A source file that is not a JPEG, PNG, GIF or BMP (by its first bytes) is skipped; a
missing or unreadable one is an error. Rows keep the file's line order.

Labels: without ``class_indexing``, the names found in the selected lines sorted, numbered from
0; with it, only the names it maps are kept (with its numbers) and a line left without any is
dropped. ``label`` is a 0-d ``int32`` for one label and a 1-D ``int32`` array for several (in the
line's order). ``image`` is the file's bytes as 1-D ``uint8`` (``decode=True``: HWC RGB).
"""
import functools
import json
import os

import numpy as np

from ._source_base import SourceDataset
from ._validation import check_class_indexing, check_file, check_sampling_args, type_check
from .image_folder import ImageFolderSource

USAGES = ("train", "eval", "inference")

# First bytes of the image formats MindSpore reads from a manifest (JPEG, PNG, GIF, BMP).
_IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PN", b"GIF", b"BM")


def _image_path(source, manifest):
    """The path of a manifest line's ``source``: as given (relative to the current directory,
    as MindSpore reads it), or relative to the manifest's folder when only that exists."""
    if os.path.isabs(source) or os.path.exists(source):
        return os.path.realpath(source)
    beside = os.path.join(os.path.dirname(manifest), source)
    return os.path.realpath(beside if os.path.exists(beside) else source)


def _is_image(path, where):
    try:
        with open(path, "rb") as f:
            head = f.read(3)
    except FileNotFoundError:
        raise RuntimeError(f"Invalid file path, {path} does not exist ({where}).") from None
    except OSError as exc:
        raise RuntimeError(f"Invalid manifest file, failed to open {path} ({where}): "
                           f"{exc}") from exc
    if len(head) < 3:
        raise RuntimeError(f"Invalid manifest file, failed to read {path} ({where}): the "
                           f"image file is damaged or too short ({len(head)} bytes).")
    return head.startswith(_IMAGE_MAGIC)


def _field(obj, key, manifest, number):
    value = obj.get(key, "") if isinstance(obj, dict) else ""
    if not isinstance(value, str) or not value:
        raise RuntimeError(f"Invalid manifest file, '{key}' is missing in file: {manifest} at "
                           f"line {number} (expected a non-empty string).")
    return value


def scan_manifest(manifest, usage, class_indexing):
    """(image paths, labels of each as a list of names, class_indexing dict) of the lines of
    ``usage``, in MindSpore's order and numbering."""
    try:
        with open(manifest, "rb") as f:
            lines = f.read().split(b"\n")
    except OSError as exc:
        raise RuntimeError(f"Invalid file, failed to open {manifest}: manifest file is damaged "
                           f"or permission denied! ({exc})") from exc
    paths, names, seen = [], [], set()
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except ValueError as exc:
            raise RuntimeError(f"Invalid manifest file, parse ManiFest file: {manifest} failed "
                               f"at line {number}: {exc}") from exc
        where = f"{manifest} line {number}"
        path = _image_path(_field(obj, "source", manifest, number), manifest)
        if not _is_image(path, where):
            continue
        if _field(obj, "usage", manifest, number).lower() != usage:
            continue
        annotations = obj.get("annotation")
        if not isinstance(annotations, list):
            raise RuntimeError(f"Invalid manifest file, 'annotation' is missing in file: "
                               f"{manifest} at line {number} (expected a list of objects with "
                               f"a 'name').")
        labels = []
        for entry in annotations:
            name = entry.get("name", "") if isinstance(entry, dict) else ""
            if not isinstance(name, str) or not name:
                raise RuntimeError(f"Invalid manifest file, 'name' attribute of label is "
                                   f"missing in file: {manifest} at line {number}.")
            if not class_indexing or name in class_indexing:
                labels.append(name)
                seen.add(name)
        if labels:
            paths.append(path)
            names.append(labels)
    if class_indexing:
        indexing = dict(class_indexing)
    else:
        indexing = {name: i for i, name in enumerate(sorted(seen))}
    return paths, names, indexing


class ManifestSource(ImageFolderSource):
    """The images of one usage of a manifest; reads as ImageFolderSource does."""

    _api = "ManifestDataset"

    def __init__(self, dataset_file, usage, class_indexing, decode):
        self._dir, self._usage, self._decode, self._decrypt = dataset_file, usage, decode, None
        self._extensions = None
        self._paths, names, self._class_indexing = scan_manifest(dataset_file, usage,
                                                                 class_indexing)
        if not self._paths:
            raise RuntimeError(f"Invalid data, ManifestDataset API can't read the data file "
                               f"(interface mismatch or no data found). Check file path: "
                               f"{dataset_file} (no line of usage '{usage}' names an image file"
                               + (f" with a label of class_indexing {sorted(class_indexing)})."
                                  if class_indexing else ")."))
        self._labels = [np.array([self._class_indexing[n] for n in row], dtype=np.int32)
                        .reshape(() if len(row) == 1 else (len(row),)) for row in names]
        self._single = all(label.ndim == 0 for label in self._labels)

    def describe(self):
        st = os.stat(self._dir)
        return (f"ManifestDataset(file={self._dir!r}, size={st.st_size}, mtime={st.st_mtime_ns}, "
                f"usage={self._usage}, rows={len(self._paths)}, "
                f"class_indexing={sorted(self._class_indexing.items())}, decode={self._decode})")

    def column_values(self, name):
        if name != "label" or not self._single:
            return None
        return np.array(self._labels, dtype=np.int32)


class ManifestDataset(SourceDataset):
    """Images listed in a Manifest file: columns ``image`` (file bytes as uint8, or decoded HWC
    RGB with ``decode=True``) and ``label`` int32 (0-d, or 1-D for several labels).

    Same signature, defaults and errors as ``mindspore.dataset.ManifestDataset``; see the module
    docstring for the format."""

    def __init__(self, dataset_file, usage="train", num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, class_indexing=None, decode=False, num_shards=None,
                 shard_id=None, cache=None):
        dataset_file = check_file(dataset_file, "dataset_file")
        if shuffle is not None:     # MindSpore's type checks come before the conflicts
            type_check(shuffle, (bool,), "shuffle")
        type_check(decode, (bool,), "decode")
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        type_check(usage, (str,), "usage")
        if usage not in USAGES:
            raise RuntimeError(f"ManifestDataset: usage {usage!r} does not match any mode in "
                               f"[{' '.join(USAGES)}].")
        check_class_indexing(class_indexing)
        self.dataset_file, self.usage, self.decode = dataset_file, usage, decode
        self.class_indexing = dict(class_indexing or {})
        super().__init__(functools.partial(ManifestSource, dataset_file, usage,
                                           dict(class_indexing or {}), decode),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=ManifestSource.column_names)
