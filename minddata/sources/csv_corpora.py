"""The text-classification corpora MindSpore reads as CSV files: AG News, Amazon Review, DBpedia,
Sogou News, Yahoo Answers and Yelp Review (``train.csv`` / ``test.csv``, no header, every column
a string), and SST-2 (``train.tsv`` / ``dev.tsv`` / ``test.tsv``, tab-separated, the columns
named by the file's header line; ``test.tsv``'s first column, the sentence's index, is dropped).

As in MindSpore 2.10 (measured): ``usage='all'`` (the default but for SST-2, whose default is
``'train'``) reads ``test.csv`` before ``train.csv`` (the paths sorted; Sogou News and Yelp
Review read train.csv first); every value is a 0-d string array; a missing file fails at one
step or another, or is skipped, as each corpus of MindSpore does (``MISSING``). The files are
parsed by CSVDataset's reader (csv_dataset.py), so quoting, line ends and sharding are
CSVDataset's, with the differences from MindSpore the README lists for it.
"""
import functools
import os

from ._corpus_folder import CorpusFolderDataset, WorkersLastSignature, open_files
from .csv_dataset import CsvSource


class FirstColumnDroppedSource(CsvSource):
    """A CSV file with a header line, without its first column (SST-2's ``test.tsv``, whose
    first field is the sentence's index, which MindSpore skips)."""

    def __init__(self, files, field_delim):
        super().__init__(files, field_delim, None, None)
        self.column_names = self.column_names[1:]
        self._columns = self._columns[1:]


def open_csv_corpus(files, field_delim, column_names, missing, drop_first_column=False):
    """The RowSource of a CSV corpus's ``files``; column_names None: the header line's;
    ``missing``: what a missing file does (``open_files``)."""
    if drop_first_column:
        return open_files(files, lambda there: FirstColumnDroppedSource(there, field_delim),
                          column_names, missing)
    return open_files(files, lambda there: CsvSource(there, field_delim, None, column_names),
                      column_names, missing)


class _TrainTestCsvDataset(CorpusFolderDataset):
    """``train.csv`` and ``test.csv`` of a folder, no header, the columns ``COLUMNS``; usage
    'all' reads them sorted (test first) or, ``TRAIN_FIRST``, train first; a missing one does
    what ``MISSING`` says (``_corpus_folder.open_files``): each as MindSpore 2.10's (measured)."""
    TRAIN_FIRST = False
    MISSING = "fails before rows"

    def _source_factory(self, dataset_dir, usage):
        names = ["train.csv", "test.csv"] if usage == "all" else [usage + ".csv"]
        files = [os.path.join(dataset_dir, name) for name in names]
        return functools.partial(open_csv_corpus, files if self.TRAIN_FIRST else sorted(files),
                                 ",", list(self.COLUMNS), self.MISSING)


class AGNewsDataset(_TrainTestCsvDataset):
    """AG News: columns ``index``, ``title``, ``description`` (strings), as
    ``mindspore.dataset.AGNewsDataset``."""
    COLUMNS = ["index", "title", "description"]


class AmazonReviewDataset(_TrainTestCsvDataset):
    """Amazon Review (polarity or full): columns ``label``, ``title``, ``content`` (strings),
    as ``mindspore.dataset.AmazonReviewDataset``."""
    COLUMNS = ["label", "title", "content"]
    MISSING = "fails"


class DBpediaDataset(_TrainTestCsvDataset):
    """DBpedia: columns ``class``, ``title``, ``content`` (strings), as
    ``mindspore.dataset.DBpediaDataset``."""
    COLUMNS = ["class", "title", "content"]
    MISSING = "skipped"


class YahooAnswersDataset(_TrainTestCsvDataset):
    """Yahoo Answers: columns ``class``, ``title``, ``content``, ``answer`` (strings), as
    ``mindspore.dataset.YahooAnswersDataset``."""
    COLUMNS = ["class", "title", "content", "answer"]
    MISSING = "skipped"


class _WorkersLastCsvDataset(WorkersLastSignature, _TrainTestCsvDataset):
    """Sogou News and Yelp Review: usage 'all' reads train.csv first."""
    TRAIN_FIRST = True


class SogouNewsDataset(_WorkersLastCsvDataset):
    """Sogou News: columns ``index``, ``title``, ``content`` (strings), as
    ``mindspore.dataset.SogouNewsDataset`` (whose ``num_parallel_workers`` comes after
    ``shard_id``)."""
    COLUMNS = ["index", "title", "content"]
    MISSING = "skipped"


class YelpReviewDataset(_WorkersLastCsvDataset):
    """Yelp Review (polarity or full): columns ``label``, ``text`` (strings), as
    ``mindspore.dataset.YelpReviewDataset`` (whose ``num_parallel_workers`` comes after
    ``shard_id``)."""
    COLUMNS = ["label", "text"]


class SST2Dataset(CorpusFolderDataset):
    """SST-2: ``usage`` ``'train'`` (the default), ``'dev'`` (columns ``sentence``, ``label``)
    or ``'test'`` (``sentence``), strings, as ``mindspore.dataset.SST2Dataset``; the column
    names are those of the file's header line."""
    USAGES = ("train", "test", "dev")
    DEFAULT_USAGE = "train"

    def _source_factory(self, dataset_dir, usage):
        return functools.partial(open_csv_corpus, [os.path.join(dataset_dir, usage + ".tsv")],
                                 "\t", None, "fails before rows", usage == "test")
