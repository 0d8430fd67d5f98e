"""The tagged-sentence corpora: CoNLL2000 chunking (``train.txt`` / ``test.txt``, a word per
line as ``word pos_tag chunk_tag`` split at every space) and UDPOS
(``en-ud-tag.v2.{train,dev,test}.txt``, ``word universal stanford`` split at every tab).

A row is a sentence: its lines up to an empty line (or one of spaces), each column a 1-D string
array of the sentence's words or tags. As in MindSpore 2.10 (measured): spaces around a line are
stripped; fields past the third are ignored and an empty field between two separators is an
empty string; usage 'all' (the default) reads the files sorted (CoNLL2000: test, train; UDPOS:
dev, test, train; its usage 'valid' reads the dev file).

Where MindSpore differs (the README, "Reading files"): it drops a file's last sentence where no
empty line follows it, counts the word lines for ``get_dataset_size()`` (not the sentences it
serves), and fails on CRLF line ends, whose CR is dropped here as TextFileDataset drops it. A
line of fewer than three fields is a RuntimeError naming the file and line (MindSpore: one
without a cause).
"""
import functools
import os

import numpy as np

from . import _arrays
from ._corpus_folder import CorpusFolderDataset, WorkersLastSignature, open_files
from ._file_rows import FileOrderSampling, MultiFileRowSource, file_stamps, text_lines
from ._no_rows import FailsWhenReadIfEmpty


def sentences(path, api, separator):
    """[(line number, words, tags, tags)] of a file: its sentences, each with the number of
    its first line."""
    found, current, first = [], [], None
    for number, line in text_lines(path, api, blank_lines=True) + [(None, "")]:
        line = line.strip(" ")
        if not line:
            if current:
                found.append((first,) + tuple(zip(*current)))
            current = []
            continue
        fields = line.split(separator)
        if len(fields) < 3:
            raise RuntimeError(f"Invalid data, {api} file {path} line {number}: {line!r} holds "
                               f"{len(fields)} field(s), where a word and its two tags "
                               f"separated by {separator!r} are expected.")
        first = number if not current else first
        current.append(fields[:3])
    return found


class TaggedSentencesSource(FailsWhenReadIfEmpty, MultiFileRowSource):
    """The sentences of the files, read once at open."""

    def __init__(self, files, api, separator, column_names):
        self.column_names, self._api, self._separator = list(column_names), api, separator
        self._files, self._sentences, counts = files, [], []
        for path in files:
            found = sentences(path, api, separator)
            self._sentences += found
            counts.append(len(found))
        self._starts = np.cumsum([0] + counts, dtype=np.int64)
        if not self._sentences:
            self._no_rows = (f"Invalid data, {api} API can't read the data file (interface "
                             f"mismatch or no data found). Check file path: {' '.join(files)} "
                             f"(no sentence).")

    def __len__(self):
        return len(self._sentences)

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"{self._api} {self._files}")
        return [tuple(np.array(column, dtype=np.str_) for column in self._sentences[i][1:])
                for i in ids.tolist()]

    def provenance(self, row_id):
        k = int(np.searchsorted(self._starts, row_id, side="right")) - 1
        return f"{self._files[k]} line {self._sentences[int(row_id)][0]}"

    def describe(self):
        return f"{self._api}(files={file_stamps(self._files)}, sep={self._separator!r})"


def open_tagged_corpus(files, api, separator, column_names):
    return open_files(files, lambda there: TaggedSentencesSource(there, api, separator,
                                                                 column_names), column_names)


class _TaggedCorpusDataset(FileOrderSampling, WorkersLastSignature, CorpusFolderDataset):
    """``FILES`` names each usage's file; ``SEPARATOR`` splits a line's fields."""
    FILES = {}
    SEPARATOR = " "

    def _source_factory(self, dataset_dir, usage):
        names = sorted(self.FILES.values()) if usage == "all" else [self.FILES[usage]]
        return functools.partial(open_tagged_corpus, [os.path.join(dataset_dir, name)
                                                      for name in names],
                                 type(self).__name__, self.SEPARATOR, self.COLUMNS)


class CoNLL2000Dataset(_TaggedCorpusDataset):
    """CoNLL2000 chunking: columns ``word``, ``pos_tag``, ``chunk_tag`` (1-D strings, one per
    word of a sentence), as ``mindspore.dataset.CoNLL2000Dataset``."""
    COLUMNS = ["word", "pos_tag", "chunk_tag"]
    FILES = {"train": "train.txt", "test": "test.txt"}


class UDPOSDataset(_TaggedCorpusDataset):
    """UDPOS: columns ``word``, ``universal``, ``stanford`` (1-D strings, one per word of a
    sentence), as ``mindspore.dataset.UDPOSDataset``."""
    USAGES = ("train", "valid", "test", "all")
    COLUMNS = ["word", "universal", "stanford"]
    FILES = {"train": "en-ud-tag.v2.train.txt", "valid": "en-ud-tag.v2.dev.txt",
             "test": "en-ud-tag.v2.test.txt"}
    SEPARATOR = "\t"
