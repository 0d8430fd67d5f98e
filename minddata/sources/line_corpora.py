"""The language-modelling corpora MindSpore reads a line to a row: Penn Treebank
(``ptb.{train,test,valid}.txt``), WikiText-2/103 (``wiki.{train,test,valid}.tokens``) and
EnWik9 (the one file ``enwik9``); one column ``text``, a 0-d string array.

As in MindSpore 2.10 (measured): Penn Treebank and WikiText read lines as TextFileDataset does
(an empty line is no row); ``usage='all'`` (the default) reads the files of the three splits,
sorted (test, train, valid), a missing one failing as ``_corpus_folder.open_files`` says. EnWik9 serves every line,
an empty one too (but for the nothing after the file's last line break), and shuffles by
default (``shuffle=True``). The lines are TextFileDataset's (text_file.py), with its
differences from MindSpore (a CRLF ending loses its ``\\r``).
"""
import functools
import os

from ._corpus_folder import CorpusFolderDataset, open_files
from ._file_rows import FileOrderSampling, TextLinesRowSource, file_stamps
from .text_file import TextFileSource

_NO_DATA = ("Invalid data, {api} API can't read the data file (interface mismatch or no data "
            "found). Check file path:")


class CorpusLinesSource(TextFileSource):
    """The lines of a corpus's files (blank ones too with ``blank_lines``), column ``text``."""

    def __init__(self, files, api, blank_lines):
        self._api_name = api
        self._read_lines(files, api, lambda path, number, text: text,
                         _NO_DATA.format(api=api), blank_lines)

    def describe(self):
        return f"{self._api_name}(files={file_stamps(self._files)})"


def open_line_corpus(files, api, blank_lines=False):
    """The RowSource of a line corpus's ``files`` (those missing as ``open_files`` says)."""
    return open_files(files, lambda there: CorpusLinesSource(there, api, blank_lines), ["text"])


class _SplitFilesDataset(FileOrderSampling, CorpusFolderDataset):
    """One text file per split, ``PATTERN`` naming it from the split."""
    USAGES = ("train", "valid", "test", "all")
    COLUMNS = ["text"]
    PATTERN = None

    def _source_factory(self, dataset_dir, usage):
        splits = ["train", "test", "valid"] if usage == "all" else [usage]
        files = sorted(os.path.join(dataset_dir, self.PATTERN.format(split)) for split in splits)
        return functools.partial(open_line_corpus, files, type(self).__name__)


class PennTreebankDataset(_SplitFilesDataset):
    """Penn Treebank, column ``text``, as ``mindspore.dataset.PennTreebankDataset``."""
    PATTERN = "ptb.{}.txt"


class WikiTextDataset(_SplitFilesDataset):
    """WikiText-2 or WikiText-103, column ``text``, as ``mindspore.dataset.WikiTextDataset``."""
    PATTERN = "wiki.{}.tokens"


class EnWik9Dataset(FileOrderSampling, CorpusFolderDataset):
    """EnWik9: every line of ``dataset_dir/enwik9``, column ``text``, as
    ``mindspore.dataset.EnWik9Dataset`` (no ``usage``; ``shuffle=True`` by default)."""
    COLUMNS = ["text"]

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=True,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, cache=cache)

    def _source_factory(self, dataset_dir, usage):
        return functools.partial(open_line_corpus, [os.path.join(dataset_dir, "enwik9")],
                                 "EnWik9Dataset", True)

