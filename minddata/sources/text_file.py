"""TextFileDataset: one row per line of text files.

As in MindSpore: ``dataset_files`` are paths or glob patterns (the matched files sorted); every
non-empty line is a row with one column ``text``, a 0-d string array (numpy ``str_``), in file
order. A CRLF line ending loses its ``\\r`` (MindSpore keeps it in the text).

The files are read whole when the pipeline opens the source, so rows are random-access and
shard like the other sources here (round robin, see the README's "Reading files").
"""
import functools

import numpy as np

from ._file_rows import FileOrderSampling, TextLinesRowSource, file_stamps
from ._source_base import Shuffle, SourceDataset
from ._validation import check_dataset_files, check_sampling_args


class TextFileSource(TextLinesRowSource):
    """Every non-empty line of the files, read once at open."""

    column_names = ["text"]

    def __init__(self, files):
        self._read_lines(files, "TextFileDataset", lambda path, number, text: text,
                         "Invalid data, TextFileDataset API can't read the data file (interface "
                         "mismatch or no data found). Check text file:")

    def read_rows(self, ids):
        return [(np.array(line),) for line in self._parsed(ids)]

    def describe(self):
        return f"TextFileDataset(files={file_stamps(self._files)})"


class TextFileDataset(FileOrderSampling, SourceDataset):
    """Lines of text files, column ``text`` (string). Same signature, defaults
    (``shuffle=Shuffle.GLOBAL``) and errors as ``mindspore.dataset.TextFileDataset``."""

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        files = check_dataset_files(dataset_files)
        check_sampling_args(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        self.dataset_files = files
        super().__init__(functools.partial(TextFileSource, files),
                         num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=None,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         shuffle_modes=(Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE),
                         column_names=TextFileSource.column_names)
