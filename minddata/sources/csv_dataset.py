"""CSVDataset: rows of CSV files, parsed with pyarrow.

As in MindSpore: ``dataset_files`` are paths or glob patterns (matches sorted); without
``column_names`` the first line of every file is its header (all headers must agree); with them,
every line is data. ``column_defaults`` gives each column's type by the Python type of its default
(int -> int32, float -> float32, str -> string; columns past the list are strings). As MindSpore
2.10 does (measured), an empty field of a string column is '' and one of an int or float column
is a RuntimeError naming the file and line: the defaults fill nothing in. Every value comes out
as a 0-d array. A number field is a decimal int (``+5``, `` 12``) or float (``1e3``, ``.5``,
``inf``, ``nan``) in the type's range, else the RuntimeError (MindSpore 2.10 raises for values
past the range too, but reads the number at the start of ``1e3`` or ``12abc`` in an int column:
refused here); a quote that does not enclose a whole field is one too, as in MindSpore.

Files are read whole when the pipeline opens the source, so rows are random-access (and shard
like any other source, see the deviation noted in the README, "Reading files").
"""
import csv
import functools
import os
import re

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
    """The first row of the file (its header), decoding no more of the file than it spans."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\xef\xbb\xbf"):    # a BOM is no part of the first name (MindSpore
        data = data[3:]                     # 2.10 keeps it there: a deviation)

    def lines():
        # lazily, so that only the header's lines are split off and decoded (the lines bytes'
        # splitlines() gives, without listing the whole file's)
        start = 0
        for end in re.finditer(rb"\r\n|\r|\n", data):
            yield data[start:end.end()].decode("utf-8")
            start = end.end()
        if start < len(data):
            yield data[start:].decode("utf-8")
    try:
        return next(csv.reader(lines(), delimiter=delimiter))
    except StopIteration:
        raise RuntimeError(f"Invalid csv file {path}: it is empty, so it has no header line "
                           f"(pass column_names to read headerless files).") from None
    except (csv.Error, UnicodeDecodeError) as exc:
        raise RuntimeError(f"Invalid csv file {path}: cannot parse its header line: {exc}") from exc


def _check_quotes(path, delimiter):
    """A RuntimeError, as MindSpore 2.10 raises (measured), where a quote is not part of a
    whole quoted field: a quote inside an unquoted field (``a,1"2``, ``a, "1"``), text after a
    closing quote (``"1"2``), or a quoted field the file ends inside. pyarrow would read the
    first two as text (``1"2``, `` "1"``, ``12``)."""
    with open(path, "rb") as f:
        data = f.read()
    if b'"' not in data:
        return
    d = re.escape(delimiter.encode("utf-8"))
    # a whole quoted field: it starts a field (the file's start, or after a delimiter or line
    # end) and ends one; what remains of the quotes once they are gone is in the wrong place
    field = re.compile(rb'(?:(?<=^)|(?<=' + d + rb')|(?<=[\r\n]))"(?:[^"]|"")*"(?=' + d +
                       rb'|[\r\n]|\Z)')
    stray = field.sub(b"", data).find(b'"')
    if stray < 0:
        return
    # the stray quote's line: count the line ends before it in the file itself
    remaining, position = 0, 0
    for match in field.finditer(data):
        if match.start() - position + remaining > stray:
            break
        remaining += match.start() - position
        position = match.end()
    at = position + (stray - remaining)
    line = data[:at].count(b"\n") + 1
    raise RuntimeError(f"Invalid file, failed to parse csv file: {path} at line {line}. Error "
                       f"message: Invalid csv file, a quote that does not enclose a whole field "
                       f"(a quote inside an unquoted field, text after a closing quote, or a "
                       f"quoted field the file ends in): {data[max(0, at - 20):at + 20]!r}.")


def _read_table(path, names, skip_header, delimiter):
    """The file's fields as pyarrow string arrays, one per column (empty fields are '')."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    if os.path.getsize(path) == 0:
        return [pa.array([], type=pa.string()) for _ in names]
    _check_quotes(path, delimiter)
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
        if skip_header and "Could not skip initial" in str(exc):
            # the header line alone, with no line break after it: no data line (as MindSpore
            # 2.10 reads it, measured: a file b"c0,c1" beside others adds no row)
            return [pa.array([], type=pa.string()) for _ in names]
        raise RuntimeError(f"Invalid file, failed to parse csv file: {path}: {exc} (expected "
                           f"{len(names)} columns {names} per line, delimiter {delimiter!r}).") from exc
    return [table.column(g).combine_chunks() for g in generated]


# What a number column reads (after the spaces around it): decimal integers, and decimal floats,
# inf, infinity and nan (any case). MindSpore 2.10 reads a number at the start of the field and
# drops what follows ('1e3' -> 1 and '12abc' -> 12 in an int column, measured): refused here.
_INT_TEXT = r"^[+-]?[0-9]+$"
_FLOAT_TEXT = (r"^[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[iI][nN][fF]([iI][nN][iI][tT]"
               r"[yY])?|[nN][aA][nN])$")
_SPACES = " \t\n\v\f\r"        # what C's isspace() skips, as MindSpore's stoi/stof
_FLOAT32_TINY = float(np.finfo(np.float32).tiny)


def _first(mask):
    """The index of the first True of a pyarrow boolean array, or -1."""
    flags = mask.to_numpy(zero_copy_only=False)
    return int(np.argmax(flags)) if flags.any() else -1


def _convert(column, kind, default, path, name):
    """pyarrow string array -> numpy array of the column's type. An empty field of a number
    column, or one that is not a number of its type, is MindSpore's RuntimeError ("type does
    not match"); a number outside the type's range too ("value out of range"), as MindSpore
    2.10 measured: int32 past its bounds, and a float32 that overflows to inf or underflows
    below the smallest normal float32 (1e40, 1e-40)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if kind is str:
        return np.asarray(column.to_pylist(), dtype=object)
    column = pc.utf8_trim(column, _SPACES)
    type_name = _KINDS[kind][0]
    empty = pc.index(column, "").as_py()
    if empty >= 0:
        raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at data line {empty + 1}, "
                           f"type does not match: column '{name}' is empty, where a value of "
                           f"type {type_name} is expected (column_defaults gives the type, "
                           f"not a value for empty fields)")
    bad = _first(pc.invert(pc.match_substring_regex(column, _INT_TEXT if kind is int
                                                    else _FLOAT_TEXT)))
    if bad >= 0:
        raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at data line {bad + 1}, "
                           f"type does not match: column '{name}' holds "
                           f"{column[bad].as_py()!r}, which is not a number of type {type_name} "
                           f"(its column_defaults entry is {default!r}).")

    def out_of_range(index):
        return RuntimeError(f"Invalid csv, {path} parse failed at data line {index + 1} : value "
                            f"out of range: column '{name}' holds {column[index].as_py()!r}, "
                            f"outside the range of {type_name}.")
    if kind is int:
        column = pc.replace_substring_regex(column, r"^\+", "")
        # past 10 digits (leading zeros aside) an int is past int32, and maybe past int64
        digits = pc.utf8_length(pc.replace_substring_regex(column, r"^-?0*", ""))
        long = _first(pc.greater(digits, 10))
        if long >= 0:
            raise out_of_range(long)
        wide = pc.cast(column, pa.int64()).to_numpy(zero_copy_only=False)
        outside = (wide < -2 ** 31) | (wide > 2 ** 31 - 1)
        if outside.any():
            raise out_of_range(int(np.argmax(outside)))
        return wide.astype(np.int32)
    values = pc.cast(column, pa.float32()).to_numpy(zero_copy_only=False)
    exact = pc.cast(column, pa.float64()).to_numpy(zero_copy_only=False)
    with np.errstate(invalid="ignore"):
        outside = (np.isinf(values) & np.isfinite(exact)) | (
            (np.abs(values) < _FLOAT32_TINY) & (exact != 0))
    if outside.any():
        raise out_of_range(int(np.argmax(outside)))
    return values


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
        if not field_delim.isascii():   # MindSpore 2.10 takes 'é' and never splits on it
            raise ValueError(f"field_delim is invalid: {field_delim!r} is not an ASCII "
                             f"character (UTF-8 files split on one byte).")
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
            if len(column_defaults or []) > len(column_names):
                # MindSpore 2.10 raises this when the pipeline is built (get_col_names, measured)
                raise RuntimeError(f"Invalid parameter, the size of column_names should be equal "
                                   f"to the size of 'column_defaults', but got size of "
                                   f"'column_defaults': {len(column_defaults)}, size of "
                                   f"column_names: {len(column_names)}.")
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

