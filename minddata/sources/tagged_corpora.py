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

from ._corpus_folder import (CorpusFolderDataset, ParsedRowsSource, WorkersLastSignature,
                             open_files)
from ._file_rows import FileOrderSampling, text_lines


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


class TaggedSentencesSource(ParsedRowsSource):
    """The sentences of the files, read once at open."""

    def __init__(self, files, api, separator, column_names):
        self.column_names, self._separator = list(column_names), separator
        self._set_rows(api, files, [sentences(path, api, separator) for path in files],
                       "sentence")

    def _arrays_of(self, entry):
        return tuple(np.array(column, dtype=np.str_) for column in entry[1:])

    def provenance(self, row_id):
        k = int(np.searchsorted(self._starts, row_id, side="right")) - 1
        return f"{self._files[k]} line {self._entries[int(row_id)][0]}"


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
