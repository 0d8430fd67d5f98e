"""The text-classification corpora MindSpore reads as CSV files: AG News, Amazon Review, DBpedia,
Sogou News, Yahoo Answers and Yelp Review (``train.csv`` / ``test.csv``, no header, every column
a string), and SST-2 (``train.tsv`` / ``dev.tsv`` / ``test.tsv``, tab-separated, the columns
named by the file's header line; ``test.tsv``'s first column, the sentence's index, is dropped).

As in MindSpore 2.10 (measured): ``usage='all'`` (the default but for SST-2, whose default is
``'train'``) reads ``test.csv`` before ``train.csv`` (the paths sorted); every value is a 0-d
string array. The files are parsed by CSVDataset's reader (csv_dataset.py), so quoting, line
ends and sharding are CSVDataset's, with the differences from MindSpore the README lists for it.
"""
import functools
import os

from ._corpus_folder import CorpusFolderDataset, MissingFileSource, first_missing
from ._source_base import Shuffle
from .csv_dataset import CsvSource


class FirstColumnDroppedSource(CsvSource):
    """A CSV file with a header line, without its first column (SST-2's ``test.tsv``, whose
    first field is the sentence's index, which MindSpore skips)."""

    def __init__(self, files, field_delim):
        super().__init__(files, field_delim, None, None)
        self.column_names = self.column_names[1:]
        self._columns = self._columns[1:]


def open_csv_corpus(files, field_delim, column_names, drop_first_column=False):
    """The RowSource of a CSV corpus's ``files``; column_names None: the header line's."""
    missing = first_missing(files)
    if missing is not None:
        return MissingFileSource(column_names, missing)
    if drop_first_column:
        return FirstColumnDroppedSource(files, field_delim)
    return CsvSource(files, field_delim, None, column_names)


class _TrainTestCsvDataset(CorpusFolderDataset):
    """``train.csv`` and ``test.csv`` of a folder, no header, the columns ``COLUMNS``."""

    def _source_factory(self, dataset_dir, usage):
        names = ["train.csv", "test.csv"] if usage == "all" else [usage + ".csv"]
        files = sorted(os.path.join(dataset_dir, name) for name in names)
        return functools.partial(open_csv_corpus, files, ",", list(self.COLUMNS))


class AGNewsDataset(_TrainTestCsvDataset):
    """AG News: columns ``index``, ``title``, ``description`` (strings), as
    ``mindspore.dataset.AGNewsDataset``."""
    COLUMNS = ["index", "title", "description"]


class AmazonReviewDataset(_TrainTestCsvDataset):
    """Amazon Review (polarity or full): columns ``label``, ``title``, ``content`` (strings),
    as ``mindspore.dataset.AmazonReviewDataset``."""
    COLUMNS = ["label", "title", "content"]


class DBpediaDataset(_TrainTestCsvDataset):
    """DBpedia: columns ``class``, ``title``, ``content`` (strings), as
    ``mindspore.dataset.DBpediaDataset``."""
    COLUMNS = ["class", "title", "content"]


class YahooAnswersDataset(_TrainTestCsvDataset):
    """Yahoo Answers: columns ``class``, ``title``, ``content``, ``answer`` (strings), as
    ``mindspore.dataset.YahooAnswersDataset``."""
    COLUMNS = ["class", "title", "content", "answer"]


class _WorkersLastCsvDataset(_TrainTestCsvDataset):
    """MindSpore's signature of Sogou News and Yelp Review: ``num_parallel_workers`` after
    ``shard_id``."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        super().__init__(dataset_dir, usage=usage, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, cache=cache)


class SogouNewsDataset(_WorkersLastCsvDataset):
    """Sogou News: columns ``index``, ``title``, ``content`` (strings), as
    ``mindspore.dataset.SogouNewsDataset``."""
    COLUMNS = ["index", "title", "content"]


class YelpReviewDataset(_WorkersLastCsvDataset):
    """Yelp Review (polarity or full): columns ``label``, ``text`` (strings), as
    ``mindspore.dataset.YelpReviewDataset``."""
    COLUMNS = ["label", "text"]


class SST2Dataset(CorpusFolderDataset):
    """SST-2: ``usage`` ``'train'`` (the default), ``'dev'`` (columns ``sentence``, ``label``)
    or ``'test'`` (``sentence``), strings, as ``mindspore.dataset.SST2Dataset``; the column
    names are those of the file's header line."""
    USAGES = ("train", "test", "dev")
    DEFAULT_USAGE = "train"

    def _source_factory(self, dataset_dir, usage):
        return functools.partial(open_csv_corpus, [os.path.join(dataset_dir, usage + ".tsv")],
                                 "\t", None, usage == "test")
