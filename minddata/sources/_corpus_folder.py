"""What the text corpora MindSpore reads from a folder by ``usage`` share (AG News, Amazon
Review, DBpedia, Sogou News, Yahoo Answers, Yelp Review, SST-2, Penn Treebank, WikiText,
EnWik9): MindSpore's checks of ``dataset_dir`` and ``usage``, the files a usage selects, and
the hand-over to the core as a file source read like CSVDataset / TextFileDataset (shuffle
``Shuffle.GLOBAL``, ``FILES`` or ``INFILE``; shards and ``num_samples`` as theirs).

MindSpore lists a corpus's files when the dataset is built; a file of the usage that is missing
then is an error or not, at one step or another, as each corpus does (``open_files``).
"""
import os

import numpy as np

from . import _arrays
from ._file_rows import MultiFileRowSource, file_stamps
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


class ParsedRowsSource(FailsWhenReadIfEmpty, MultiFileRowSource):
    """A corpus's rows parsed at open, one entry per row (SQuAD's questions, CoNLL2000/UDPOS
    sentences, Multi30k pairs); subclasses call ``_set_rows`` and give ``_arrays_of(entry)``,
    the row's numpy values."""

    def _set_rows(self, api, files, per_file, unit):
        """``per_file``: each file's entries; with none, no row and MindSpore's error naming
        the files (and ``unit``, what a row is) when a pass starts."""
        self._api, self._files = api, files
        self._entries = [entry for entries in per_file for entry in entries]
        self._starts = np.cumsum([0] + [len(entries) for entries in per_file], dtype=np.int64)
        if not self._entries:
            self._no_rows = (f"Invalid data, {api} API can't read the data file (interface "
                             f"mismatch or no data found). Check file path: {' '.join(files)} "
                             f"(no {unit}).")

    def __len__(self):
        return len(self._entries)

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"{self._api} {self._files}")
        return [self._arrays_of(self._entries[i]) for i in ids.tolist()]

    def describe(self):
        there = [path for path in self._files if os.path.exists(path)]    # IWSLT's train files
        return f"{self._api}(files={file_stamps(there)})"


def open_files(files, open_present, column_names, missing="fails before rows"):
    """``open_present(paths)``'s RowSource over those of ``files`` that are there; a missing
    one, as each corpus of MindSpore 2.10 does (measured), ``missing``:

    - "fails before rows": fails when read where a file with rows comes after it (the reader
      reaches it and raises), not where only files without rows follow it (the reader stops
      at the last row first);
    - "skipped": no error;
    - "fails": the RuntimeError at once (``get_dataset_size()`` too).

    With none of them there, no row and the error when read."""
    there = [path for path in files if os.path.isfile(path)]
    if missing == "fails" and len(there) < len(files):
        raise RuntimeError(MissingFileSource(column_names, first_absent(files))._no_rows)
    if not there:
        return MissingFileSource(column_names, files[0])
    source = open_present(there)
    if missing == "fails before rows":
        rows = {path: end - start for path, (start, end) in zip(there, source.file_row_ranges())}
        for k, path in enumerate(files):
            if path not in rows and any(rows.get(after, 0) for after in files[k + 1:]):
                source._no_rows = MissingFileSource(column_names, path)._no_rows
                break
    return source


def first_absent(paths):
    return next(path for path in paths if not os.path.isfile(path))


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


class WorkersLastSignature:
    """Mixed in before a CorpusFolderDataset: MindSpore's signature of the corpora whose
    ``num_parallel_workers`` comes after ``shard_id`` (Sogou News, Yelp Review, CoNLL2000,
    UDPOS)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        super().__init__(dataset_dir, usage=usage, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, cache=cache)
