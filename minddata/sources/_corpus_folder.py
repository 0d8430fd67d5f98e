"""What the text corpora MindSpore reads from a folder by ``usage`` share (AG News, Amazon
Review, DBpedia, Sogou News, Yahoo Answers, Yelp Review, SST-2, Penn Treebank, WikiText,
EnWik9): MindSpore's checks of ``dataset_dir`` and ``usage``, the files a usage selects, and
the hand-over to the core as a file source read like CSVDataset / TextFileDataset (shuffle
``Shuffle.GLOBAL``, ``FILES`` or ``INFILE``; shards and ``num_samples`` as theirs).

MindSpore lists a corpus's files when the dataset is built; a file of the usage that is missing
then is no error until a pipeline reads it (``get_dataset_size()`` is 0, measured in MindSpore
2.10), which ``MissingFileSource`` stands for.
"""
import os

from ._no_rows import FailsWhenReadIfEmpty
from ._source_base import RowSource, Shuffle, SourceDataset
from ._validation import check_dir, check_sampling_args, check_usage


class MissingFileSource(FailsWhenReadIfEmpty, RowSource):
    """No row, and MindSpore's RuntimeError naming the missing file when a pass starts."""

    def __init__(self, column_names, path):
        self.column_names = list(column_names or [])
        self._path = path
        self._no_rows = f"Invalid file path, {path} does not exist."

    def __len__(self):
        return 0

    def read_rows(self, ids):
        raise RuntimeError(self._no_rows)

    def describe(self):
        return f"MissingFile({self._path})"


def first_missing(paths):
    """The first of ``paths`` that is no file, or None."""
    return next((path for path in paths if not os.path.isfile(path)), None)


class CorpusFolderDataset(SourceDataset):
    """A corpus folder whose ``usage`` selects files. Subclasses give ``USAGES`` (in the order
    MindSpore's message lists them), ``DEFAULT_USAGE``, ``COLUMNS`` (None: read from the
    files), and ``_source_factory(dataset_dir, usage)`` (a picklable zero-argument callable
    opening their RowSource)."""

    USAGES = ("train", "test", "all")
    DEFAULT_USAGE = "all"
    COLUMNS = None

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        usage = self.DEFAULT_USAGE if usage is None else check_usage(usage, self.USAGES)
        check_sampling_args(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        self.dataset_dir, self.usage = dataset_dir, usage
        super().__init__(self._source_factory(dataset_dir, usage),
                         num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=None,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         shuffle_modes=(Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE),
                         column_names=self.COLUMNS)

    def _source_factory(self, dataset_dir, usage):
        raise NotImplementedError(f"{type(self).__name__} must implement _source_factory")
