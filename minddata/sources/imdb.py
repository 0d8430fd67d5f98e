"""IMDBDataset: the IMDb movie reviews (``aclImdb``), one text file per review in
``{train,test}/{pos,neg}/``.

As MindSpore 2.10 reads them (measured): a row is ``text`` (a 0-d string array) and ``label``
(a 0-d int32 array: 1 for ``pos``, 0 for ``neg``; MindSpore's documentation says uint32, its
data are int32); usage 'all' (None) reads train before test, each folder's ``pos`` before its
``neg`` and every file there (any name, ``unsup`` and other folders aside) in the byte order
of the names. A selected ``pos`` or ``neg`` folder that is missing is a RuntimeError when the
data is first counted or read; a file that is not UTF-8 one when it is read.

Where MindSpore differs (the README, "Reading files"): it serves only the last non-empty line
of a file and fails on an empty one; here the file's text is served whole but for the line
breaks that end it (an IMDb review is one line, so the two agree on the real data set), an
empty file an empty string, and a folder inside ``pos``/``neg`` is no row (MindSpore fails).
"""
import functools
import os
import re

import numpy as np

from . import _arrays
from ._file_rows import file_stamps
from ._no_rows import FailsWhenReadIfEmpty
from ._source_base import RowSource
from ._usage_folder import UsageFolderDataset

LABELS = (("pos", 1), ("neg", 0))


def review_files(dataset_dir, usage):
    """(path, label) of every review ``usage`` reads, in MindSpore's order."""
    found = []
    for split in (["train", "test"] if usage == "all" else [usage]):
        for folder, label in LABELS:
            directory = os.path.join(dataset_dir, split, folder)
            if not os.path.isdir(directory):
                raise RuntimeError(f"Invalid file, failed to open IMDB dataset directory: "
                                   f"{directory} does not exist or is not a directory.")
            # byte order of the UTF-8 names is code point order, str's sort
            found += [(os.path.join(directory, name), label) for name in
                      sorted(os.listdir(directory))
                      if os.path.isfile(os.path.join(directory, name))]
    return found


def review_text(path):
    """A review file's text without the line breaks that end it."""
    with open(path, "rb") as f:
        data = re.sub(rb"(\r?\n)+\Z", b"", f.read())
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuntimeError(f"Invalid file, IMDB review {path} is not UTF-8 text ({exc}).") \
            from exc


class ImdbSource(FailsWhenReadIfEmpty, RowSource):
    """The reviews' paths and labels, listed at open; each file read when its row is."""

    column_names = ["text", "label"]

    def __init__(self, dataset_dir, usage):
        self._dir, self._usage = dataset_dir, usage
        files = review_files(dataset_dir, usage)
        self._paths = [path for path, _ in files]
        self._labels = np.array([label for _, label in files], dtype=np.int32)
        if not files:
            self._no_rows = (f"Invalid data, IMDBDataset API can't read the data file (interface "
                             f"mismatch or no data found). Check file in directory: "
                             f"{dataset_dir} (usage '{usage}' selects no review file).")

    def __len__(self):
        return len(self._paths)

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"IMDBDataset {self._dir}")
        return [(np.array(review_text(self._paths[i])), label)
                for i, label in zip(ids.tolist(), _arrays.scalars(self._labels[ids]))]

    def provenance(self, row_id):
        return self._paths[int(row_id)]

    def describe(self):
        return f"IMDBDataset(usage={self._usage!r}, files={file_stamps(self._paths)})"


class IMDBDataset(UsageFolderDataset):
    """IMDb reviews: columns ``text`` (string) and ``label`` (int32, 1 pos, 0 neg). Same
    signature, defaults and errors as ``mindspore.dataset.IMDBDataset``; see the module
    docstring for what differs."""

    def _make_source_factory(self, dataset_dir, usage):
        return functools.partial(ImdbSource, dataset_dir, usage)

    def _output_columns(self):
        return ImdbSource.column_names
