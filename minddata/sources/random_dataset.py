"""RandomDataset: rows of random data in the columns of a Schema, or of a random schema.

As MindSpore 2.10 (measured): each value of a row is one random byte repeated over the whole
array and read as the column's type (so a float column may hold any float, a NaN included; a
bool column is True unless the byte is 0). A shape's -1 dimension is drawn for each row, from
1 to 32. Without a schema, the columns are drawn: 1 to 4 columns ``c0, c1, ...``, each of one
of the twelve numeric types (bool to float64), of rank 1 to 4, each dimension 1 to 32 or
drawn for each row. The number of rows:

- without a schema: ``num_samples`` if given, else ``total_rows``;
- with a schema (a Schema or a JSON schema file): ``total_rows`` if given, else the schema's
  ``numRows`` (``num_samples`` is ignored, as MindSpore ignores it there);
- 0 or none of them: drawn, from 1 to 1024.

``shuffle``, ``num_shards`` and ``shard_id`` are checked and have no effect: MindSpore's
RandomDataset reads its rows in order whatever they are, and every shard reads all of them.
``columns_list`` picks and orders the schema's columns; without a schema it is ignored.

The drawn schema and row count come from the seed set with ``ds.config.set_seed`` (MindSpore's
default 5489 unless set) when the dataset is built, and a row's values from that seed and its
row id: the same seed gives the same rows, every epoch and every run. (MindSpore reads the seed
when the pipeline starts and, unseeded, draws another schema for each pipeline, so that its
``get_col_names()`` can name other columns than the iteration gives.)
"""
import functools

import numpy as np

from .. import config, seeds
from ._arrays import as_int_ids, check_ids
from ._source_base import RowSource, SourceDataset
from ._validation import check_sampling_args, type_check
from .schema import Schema

# MindSpore's limits of what it draws.
MAX_COLUMNS, MAX_RANK, MAX_DIM, MAX_ROWS = 4, 4, 32, 1024
# The types MindSpore draws a column's type from: its numeric types, bool to float64.
DRAWN_TYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
               "float16", "float32", "float64")
# seeds' op position of this source's draws: a constant, as the draws happen before any
# pipeline (and its positions) exists. Stream 0 draws the schema and row count; row i draws
# from stream i + 1.
_SEED_POSITION = 0x52414E44
_LAYOUT_STREAM = 0


def _fill(rng, dtype, shape):
    """One column's value: its -1 dimensions drawn, every byte the same drawn byte."""
    shape = tuple(int(rng.integers(1, MAX_DIM + 1)) if d == -1 else d for d in shape)
    byte = rng.integers(0, 256, dtype=np.uint8)
    if dtype == np.bool_:       # a bool array must hold 0 or 1, whatever the byte
        return np.full(shape, byte != 0)
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    return np.full(size, byte, np.uint8).view(dtype).reshape(shape)


class RandomRows(RowSource):
    """``num_rows`` rows of ``columns`` ((name, dtype, shape) with -1 for a dimension drawn
    per row), row i drawn from ``seed`` and i alone."""

    def __init__(self, num_rows, columns, seed):
        self._num_rows = num_rows
        self._columns = columns
        self._seed = seed
        self.column_names = [name for name, _, _ in columns]

    def __len__(self):
        return self._num_rows

    def read_rows(self, ids):
        ids = as_int_ids(ids)
        check_ids(ids, self._num_rows, self.describe())
        return [self._row(int(i)) for i in ids]

    def _row(self, row_id):
        stream = _LAYOUT_STREAM + 1 + row_id
        rng = np.random.default_rng(seeds.derive_seed(self._seed, 0, stream, _SEED_POSITION))
        return tuple(_fill(rng, dtype, shape) for _, dtype, shape in self._columns)

    def describe(self):
        columns = [(name, dtype.name, list(shape)) for name, dtype, shape in self._columns]
        return f"RandomDataset(rows={self._num_rows}, seed={self._seed}, columns={columns})"


def _drawn_columns(rng):
    """MindSpore's random schema; a drawn dimension of 0 stands for one drawn per row (-1)."""
    columns = []
    for i in range(int(rng.integers(1, MAX_COLUMNS + 1))):
        dtype = np.dtype(DRAWN_TYPES[int(rng.integers(len(DRAWN_TYPES)))])
        dims = rng.integers(0, MAX_DIM + 1, size=int(rng.integers(1, MAX_RANK + 1)))
        columns.append((f"c{i}", dtype, tuple(int(d) or -1 for d in dims)))
    return columns


def _schema_columns(schema, columns_list):
    """((name, dtype, shape) of the columns to read, numRows) of a Schema or schema file."""
    if not isinstance(schema, Schema):
        schema = Schema(schema)         # MindSpore's errors for a path that is not a file
    columns = schema.columns
    if not columns:
        raise RuntimeError('Invalid data, "columns" field is missing in JSON schema string.')
    if columns_list:
        by_name = {c["name"]: c for c in columns}
        missing = [n for n in columns_list if n not in by_name]
        if missing:
            raise RuntimeError(f"Invalid data, failed to find column: {missing[0]} in JSON "
                               f"schema file.")
        columns = [by_name[n] for n in columns_list]
    return [_column_spec(c) for c in columns], schema.num_rows


def _column_spec(column):
    if column["type"] in ("string", "bytes"):
        raise RuntimeError(f"RandomDataset cannot make column {column['name']!r} of type "
                           f"{column['type']}: Failed to create empty tensor, number of elements "
                           f"should be 0 when data type is string.")
    # A column without a shape (add_column's default, or a rank alone) is a scalar, as
    # MindSpore makes it.
    return column["name"], np.dtype(column["type"]), tuple(column.get("shape", ()))


def _check_columns_list(columns_list):
    if columns_list is None:
        return
    type_check(columns_list, (list,), "columns_list")
    for i, name in enumerate(columns_list):
        type_check(name, (str,), f"columns_list[{i}]")
        if not name:
            raise RuntimeError(f"RandomDataset: 'columns_list' [{i}] must not be empty")
        if name in columns_list[:i]:
            raise RuntimeError(f"RandomDataset: 'columns_list' : Invalid parameter, duplicate "
                               f"column names are not allowed: {name}")


def _check_arguments(total_rows, columns_list, num_samples, shuffle, num_shards, shard_id):
    """MindSpore's checks, in its order: the ints, shuffle (a bool only), columns_list, the
    sharding rules, then total_rows' range."""
    for name, value in (("num_samples", num_samples), ("num_shards", num_shards),
                        ("shard_id", shard_id), ("total_rows", total_rows)):
        if value is not None:
            type_check(value, (int,), name)
    if shuffle is not None:
        type_check(shuffle, (bool,), "shuffle")
    _check_columns_list(columns_list)
    check_sampling_args(num_samples, None, None, None, num_shards, shard_id)
    if total_rows is not None and total_rows < 0:
        raise RuntimeError(f"RandomDataset: 'total_rows' must be greater than or equal to 0, "
                           f"got: {total_rows}")


class RandomDataset(SourceDataset):
    """Rows of random data (see the module's text). Same signature, defaults and argument
    errors as ``mindspore.dataset.RandomDataset``."""

    def __init__(self, total_rows=None, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, cache=None, shuffle=None, num_shards=None,
                 shard_id=None):
        _check_arguments(total_rows, columns_list, num_samples, shuffle, num_shards, shard_id)
        seed = config.get_seed()
        draws = seeds.rng(seed, 0, _SEED_POSITION, _LAYOUT_STREAM)
        if schema is None:
            columns = _drawn_columns(draws)
            num_rows = num_samples or total_rows
            # num_samples decides the count here: the core keeps it, so that serialize writes it.
            counted_samples = num_samples
        else:
            columns, schema_rows = _schema_columns(schema, columns_list)
            num_rows = schema_rows if total_rows is None else total_rows
            counted_samples = None
        if not num_rows:
            num_rows = int(draws.integers(1, MAX_ROWS + 1))
        self.total_rows = total_rows
        self.schema = schema
        self.columns_list = columns_list
        # MindSpore reads every row in order, whatever shuffle and the sharding say.
        super().__init__(functools.partial(RandomRows, num_rows, columns, seed),
                         num_samples=counted_samples, shuffle=False, num_shards=None,
                         shard_id=None, sampler=None, num_parallel_workers=num_parallel_workers,
                         cache=cache, column_names=[name for name, _, _ in columns])
