"""CelebADataset: the images of one folder labelled by ``list_attr_celeba.txt``.

``list_attr_celeba.txt``: a first line with the number of images, a second with the attribute
names, then one line per image: its file name (in ``dataset_dir``) and one value per attribute
(1 or -1). Rows follow the file's lines (empty lines skipped); ``extensions`` keeps the names
ending in one of them (compared case-sensitively with the text from the last dot). ``usage``
other than 'all' keeps the images that ``list_eval_partition.txt`` (``<name> <0|1|2>`` lines:
train, valid, test) puts in that part.

Rows: ``image`` the file's bytes (1-D uint8) or, with ``decode=True``, HWC uint8 RGB, and
``attr`` uint32 (number of attributes,): 1 where the file says 1, 0 elsewhere.
"""
import functools
import os

import numpy as np

from ._image_files import check_common_args, decrypt_key, file_stamp, read_each, read_image
from ._no_rows import FailsWhenReadIfEmpty
from ._source_base import RowSource, SourceDataset
from ._validation import check_dir, type_check
from .image_folder import _extension

ATTR_FILE = "list_attr_celeba.txt"
PARTITION_FILE = "list_eval_partition.txt"
USAGES = ("all", "train", "valid", "test")
_PARTITION_OF_USAGE = {"train": 0, "valid": 1, "test": 2}


def _lines(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except OSError as exc:
        raise RuntimeError(f"Invalid file, failed to open CelebA {what} file: {path} "
                           f"({exc.strerror or exc})") from exc


def read_partition(dataset_dir):
    """Image name -> partition (0 train, 1 valid, 2 test) of ``list_eval_partition.txt``."""
    path = os.path.join(dataset_dir, PARTITION_FILE)
    parts = {}
    for number, line in enumerate(_lines(path, "partition"), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2 or not fields[1].lstrip("-").isdigit():
            raise RuntimeError(f"Invalid data, line {number} of {path} should be '<image name> "
                               f"<0|1|2>', got {line!r}")
        parts[fields[0]] = int(fields[1])
    return parts


def read_attributes(dataset_dir, usage, extensions):
    """(image names, attr uint32 (N, A)) in the attribute file's order."""
    path = os.path.join(dataset_dir, ATTR_FILE)
    lines = _lines(path, "attr")
    if not lines or not lines[0].strip().isdigit():
        raise RuntimeError(f"Invalid data, failed to convert rows_num from attr_file to unsigned "
                           f"long: the first line of {path} should be the number of images, got "
                           f"{(lines[0] if lines else '')!r}")
    parts = read_partition(dataset_dir) if usage != "all" else None
    wanted = set(extensions) if extensions else None
    names, values = [], []
    for number, line in enumerate(lines[2:], 3):
        fields = line.split()
        if not fields:
            continue
        name = fields[0]
        if parts is not None and parts.get(name) != _PARTITION_OF_USAGE[usage]:
            continue
        if wanted is not None and _extension(name) not in wanted:
            continue
        try:
            attrs = [int(v) for v in fields[1:]]
        except ValueError:
            raise RuntimeError(f"Invalid data, failed to convert to int: line {number} of {path} "
                               f"has a value that is not an integer: {line!r}") from None
        if values and len(attrs) != len(values[0]):
            raise RuntimeError(f"Invalid data, line {number} of {path} has {len(attrs)} "
                               f"attributes where the lines before have {len(values[0])}")
        names.append(name)
        values.append(attrs)
    attr = ((np.array(values, dtype=np.int64) == 1).astype(np.uint32) if values
            else np.zeros((0, 0), np.uint32))
    return names, attr


class CelebASource(FailsWhenReadIfEmpty, RowSource):
    """The attribute file's rows; a read opens each requested image (decoding it if asked)."""

    column_names = ["image", "attr"]

    def __init__(self, dataset_dir, usage, extensions, decode, decrypt):
        self._dir, self._usage, self._decode, self._decrypt = dataset_dir, usage, decode, decrypt
        self._extensions = list(extensions) if extensions else None
        self._names, self._attr = read_attributes(dataset_dir, usage, extensions)
        if not self._names:
            self._no_rows = (f"Invalid data, CelebADataset API can't read the data file "
                             f"(interface mismatch or no data found). Check file path: "
                             f"{os.path.join(dataset_dir, ATTR_FILE)} lists no image for usage "
                             f"'{usage}'" + (f" with extensions {self._extensions}."
                                             if self._extensions else "."))

    def __len__(self):
        return len(self._names)

    def _read_one(self, i):
        path = os.path.join(self._dir, self._names[i])
        return (read_image(path, self._decode, self._decrypt, "CelebADataset"),
                self._attr[i].copy())

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"CelebADataset {self._dir}")

    def provenance(self, row_id):
        return f"{os.path.join(self._dir, self._names[int(row_id)])} (row {int(row_id)})"

    def describe(self):
        files = [file_stamp(os.path.join(self._dir, ATTR_FILE))]
        if self._usage != "all":
            files.append(file_stamp(os.path.join(self._dir, PARTITION_FILE)))
        return (f"CelebADataset(dir={self._dir!r}, usage={self._usage!r}, files={files}, "
                f"extensions={self._extensions}, decode={self._decode}, "
                f"decrypt={decrypt_key(self._decrypt)})")

    def column_values(self, name):
        return self._attr.copy() if name == "attr" else None


class CelebADataset(SourceDataset):
    """CelebA faces: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and ``attr`` (40 attributes as uint32 0/1).

    Same signature, defaults and errors as ``mindspore.dataset.CelebADataset``; ``usage`` is
    'all' (default), 'train', 'valid' or 'test'.
    """

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage="all",
                 sampler=None, decode=False, extensions=None, num_samples=None, num_shards=None,
                 shard_id=None, cache=None, decrypt=None):
        dataset_dir = check_dir(dataset_dir)
        if extensions is not None:
            type_check(extensions, (list,), "extensions")
            for ext in extensions:
                type_check(ext, (str,), "extensions")
        usage = "all" if usage is None else usage
        if usage not in USAGES:
            raise ValueError("usage should be 'all', 'train', 'valid' or 'test'.")
        check_common_args("CelebADataset", num_samples, num_parallel_workers, shuffle, sampler,
                          num_shards, shard_id, decode, decrypt)
        self.dataset_dir, self.usage, self.decode, self.decrypt = dataset_dir, usage, decode, decrypt
        self.extensions = list(extensions or [])      # MindSpore's attribute, [] for None
        super().__init__(functools.partial(CelebASource, dataset_dir, usage, extensions, decode,
                                           decrypt),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=CelebASource.column_names)
