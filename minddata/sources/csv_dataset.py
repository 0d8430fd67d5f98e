"""CSVDataset: rows of CSV files, parsed with pyarrow.

As in MindSpore: ``dataset_files`` are paths or glob patterns (matches sorted); without
``column_names`` the first line of every file is its header (all headers must agree); with them,
every line is data. ``column_defaults`` gives each column's type by the Python type of its default
(int -> int32, float -> float32, str -> string; columns past the list are strings). As MindSpore
2.10 does (measured), an empty field of a string column is '' and one of an int or float column
is a RuntimeError naming the file and line: the defaults fill nothing in. Every value comes out
as a 0-d array.

Files are read whole when the pipeline opens the source, so rows are random-access (and shard
like any other source, see the deviation noted in the README, "Reading files").
"""
import csv
import functools
import os

import numpy as np

from . import _arrays
from ._file_rows import MultiFileRowSource, file_stamps
from ._no_rows import FailsWhenReadIfEmpty
from ._source_base import Shuffle, SourceDataset
from ._validation import check_dataset_files, check_sampling_args, type_check

_KINDS = {int: ("int32", np.int32), float: ("float32", np.float32), str: ("string", None)}


def _kind_of(default):
    if isinstance(default, float):
        return float
    if isinstance(default, int):   # bool counts as int, as in MindSpore
        return int
    return str


def _read_header(path, delimiter):
    with open(path, newline="", encoding="utf-8") as f:
        try:
            return next(csv.reader(f, delimiter=delimiter))
        except StopIteration:
            raise RuntimeError(f"Invalid csv file {path}: it is empty, so it has no header line "
                               f"(pass column_names to read headerless files).") from None
        except (csv.Error, UnicodeDecodeError) as exc:
            raise RuntimeError(f"Invalid csv file {path}: cannot parse its header line: {exc}") from exc


def _read_table(path, names, skip_header, delimiter):
    """The file's fields as pyarrow string arrays, one per column (empty fields are '')."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    if os.path.getsize(path) == 0:
        return [pa.array([], type=pa.string()) for _ in names]
    # Generated names keep duplicates or odd header texts from confusing pyarrow; all columns are
    # read as strings so that our own conversion (defaults, int32/float32) decides every value.
    generated = [f"c{i}" for i in range(len(names))]
    try:
        table = pacsv.read_csv(
            path,
            read_options=pacsv.ReadOptions(column_names=generated, skip_rows=1 if skip_header else 0),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=True),
            convert_options=pacsv.ConvertOptions(
                column_types={g: pa.string() for g in generated},
                strings_can_be_null=False, quoted_strings_can_be_null=False))
    except (pa.ArrowInvalid, UnicodeDecodeError) as exc:
        raise RuntimeError(f"Invalid file, failed to parse csv file: {path}: {exc} (expected "
                           f"{len(names)} columns {names} per line, delimiter {delimiter!r}).") from exc
    return [table.column(g).combine_chunks() for g in generated]


def _convert(column, kind, default, path, name):
    """pyarrow string array -> numpy array of the column's type (an empty field of a number
    column is MindSpore's RuntimeError)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if kind is str:
        return np.asarray(column.to_pylist(), dtype=object)
    column = pc.utf8_trim_whitespace(column)
    empty = pc.index(column, "").as_py()
    if empty >= 0:
        raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at data line {empty + 1}, "
                           f"type does not match: column '{name}' is empty, where a value of "
                           f"type {_KINDS[kind][0]} is expected (column_defaults gives the type, "
                           f"not a value for empty fields)")
    target = pa.int32() if kind is int else pa.float32()
    try:
        return pc.cast(column, target).to_numpy(zero_copy_only=False)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        raise RuntimeError(f"Invalid csv, csv file: {path} parse failed, type does not match: "
                           f"column '{name}' must hold {_KINDS[kind][0]} values (its "
                           f"column_defaults entry is {default!r}): {exc}") from exc


def _duplicate_names(names):
    """MindSpore's words for a repeated column name."""
    first = next(n for i, n in enumerate(names) if n in names[:i])
    return (f"'column_names' : Invalid parameter, duplicate column names are not allowed: "
            f"{first} (column names {names}).")


class CsvSource(FailsWhenReadIfEmpty, MultiFileRowSource):
    """All rows of the files, converted column by column once at open."""

    _row_unit = "data line"

    def __init__(self, files, field_delim, column_defaults, column_names):
        self._files, self._delim = files, field_delim
        defaults = list(column_defaults or [])
        header = None if column_names is not None else _read_header(files[0], field_delim)
        names = list(column_names) if column_names is not None else header
        if len(set(names)) != len(names):   # as MindSpore, when a pipeline opens the files
            raise RuntimeError(f"CSVDataset {files[0]}: {_duplicate_names(names)}")
        if len(defaults) > len(names):
            raise RuntimeError(f"CSVDataset: column_defaults has {len(defaults)} entries but the "
                               f"files have {len(names)} columns {names}: Invalid parameter, the "
                               f"size of column_names should be equal to the size of "
                               f"'column_defaults'.")
        self.column_names = names
        kinds = [_kind_of(d) for d in defaults] + [str] * (len(names) - len(defaults))
        fills = defaults + [None] * (len(names) - len(defaults))
        per_file, counts = [], []
        for path in files:
            if header is not None:
                file_header = _read_header(path, field_delim)
                if file_header != header:
                    raise RuntimeError(f"Invalid csv file {path}: its header {file_header} differs "
                                       f"from {header} in {files[0]}.")
            fields = _read_table(path, names, header is not None, field_delim)
            per_file.append([_convert(col, k, d, path, n)
                             for col, k, d, n in zip(fields, kinds, fills, names)])
            counts.append(len(fields[0]) if fields else 0)
        self._columns = [np.concatenate([f[k] for f in per_file]) for k in range(len(names))]
        self._starts = np.cumsum([0] + counts)
        if not self._starts[-1]:
            self._no_rows = (f"Invalid data, CSVDataset API can't read the data file (interface "
                             f"mismatch or no data found). Check csv file path: "
                             f"{' '.join(files)} (no data line).")

    def __len__(self):
        return int(self._starts[-1])

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"CSVDataset {self._files}")
        columns = [_arrays.scalars(col[ids]) for col in self._columns]
        return list(zip(*columns))

    def describe(self):
        stamps = file_stamps(self._files)
        return f"CSVDataset(files={stamps}, delim={self._delim!r}, columns={self.column_names})"



class CSVDataset(SourceDataset):
    """Rows of CSV files. Same signature, defaults (``shuffle=Shuffle.GLOBAL``) and errors as
    ``mindspore.dataset.CSVDataset``; values are 0-d int32 / float32 / string arrays."""

    def __init__(self, dataset_files, field_delim=',', column_defaults=None, column_names=None,
                 num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, cache=None):
        files = check_dataset_files(dataset_files)
        field_delim = ',' if field_delim is None else field_delim   # None: MindSpore's default
        type_check(field_delim, (str,), "field delim")
        if field_delim in ['"', '\r', '\n'] or len(field_delim) != 1:
            raise ValueError("field_delim is invalid.")
        if column_defaults is not None:
            if not isinstance(column_defaults, list):
                raise TypeError("column_defaults should be type of list.")
            for item in column_defaults:
                if not isinstance(item, (str, int, float)):
                    raise TypeError("column type in column_defaults is invalid.")
        if column_names is not None:
            type_check(column_names, (list,), "column_names")
            if not all(isinstance(item, str) for item in column_names):
                raise TypeError("column_names should be a list of str.")
            if not column_names:
                raise ValueError("column_names should not be empty.")
        check_sampling_args(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        # MindSpore's public attributes.
        self.dataset_files, self.field_delim = files, field_delim
        self.column_defaults, self.column_names = column_defaults, column_names
        super().__init__(functools.partial(CsvSource, files, field_delim, column_defaults, column_names),
                         num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=None,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         shuffle_modes=(Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE),
                         column_names=column_names)

