"""NumpySlicesDataset: rows sliced from in-memory arrays along their first dimension."""
import numpy as np

from .cache.identity import Deferred, describe_arrays
from .dataset import check_columns, check_num_parallel_workers
from .generator import refuse_unknown_dtype
from .graph.checks import wrong_type
from .ops.source import SourceDataset
from .samplers import user_source_sampling
from .sources.base import RowSource
from .sources.native_access import DecodedImages


def _as_column(values):
    """A numpy array; or a list of per-row arrays for a list of ``bytes`` (a 0-d ``|S<len>``
    array per row, as MindSpore gives them: one array of the longest width would pad the
    shorter values with NULs, and ``tobytes()`` could no longer tell them from stored ones) or
    a list of arrays of different shapes (ragged rows, as MindSpore takes them)."""
    if (isinstance(values, (list, tuple)) and values
            and all(isinstance(v, (bytes, bytearray)) for v in values)):
        return [np.array(bytes(v), dtype=f"S{max(len(v), 1)}") for v in values]
    try:
        column = np.asarray(values)
    except (ValueError, UnicodeDecodeError):
        if not isinstance(values, (list, tuple)):
            raise
        column = None       # ragged, or bytes that are not ASCII beside strs
    if column is not None and column.dtype != object and not _converted_apart(values, column):
        return column
    # One array per row, each value converted alone as MindSpore converts it (measured in
    # MindSpore 2.10): ragged rows; the items of an object array ('a', 2.5 and 1 give a str, a
    # float64 and an int64 row); values of a list numpy would change (see _converted_apart);
    # dicts, which stay dicts (a Python object column, as GeneratorDataset's).
    rows = [v if isinstance(v, dict) else np.asarray(v) for v in values]
    if any(not isinstance(r, dict) and r.dtype == object for r in rows):
        raise TypeError("a ragged column's rows (an object array's items) must be numeric or "
                        "string arrays")
    return rows


def _converted_apart(values, column):
    """Whether the rows of a list or tuple ``values`` must be converted one by one, as
    MindSpore converts them, because numpy's one array ``column`` of them changes dtypes or
    values: numpy values of another dtype than the column's, a
    str column of values not all str (numpy writes 1 as '1', True as 'True', b'a' as 'a'; in
    MindSpore 2.10 they stay an int64, a bool and a bytes row), a bytes column of values not all
    bytes (1 as b'1'), a float column of Python ints only (ints no one integer dtype holds:
    2**63 - 1 and 2**63 give an int64 and a uint64 row, not two rounded floats)."""
    if not isinstance(values, (list, tuple)):
        return False
    if any(isinstance(v, (np.ndarray, np.generic)) and v.dtype != column.dtype for v in values):
        # numpy values of other dtypes: numpy would promote them all (an int8 and an int16
        # array, a float16 and a float32 scalar); MindSpore 2.10 keeps each row's dtype
        return True
    if column.dtype.kind not in "USf":
        return False
    wanted = {"U": str, "S": bytes}.get(column.dtype.kind)
    if wanted is not None:
        return not _leaves_are(values, lambda v: isinstance(v, wanted) or isinstance(
            v, np.ndarray) and v.dtype.kind == column.dtype.kind)
    return _leaves_are(values, lambda v: isinstance(v, int) and not isinstance(v, bool))


def _leaves_are(values, test):
    """Whether every leaf of ``values`` (nested lists and tuples; there is one at least)
    passes ``test``."""
    if isinstance(values, (list, tuple)):
        return bool(values) and all(_leaves_are(v, test) for v in values)
    return test(values)


def _columns_of(data, column_names):
    """(names, list of columns) from a list, tuple, dict or numpy array. The lengths and the
    names are checked before the values are converted, in MindSpore's order."""
    if isinstance(data, (list, tuple, dict, np.ndarray)) and len(data) == 0:
        raise ValueError("Argument data cannot be empty")
    if isinstance(data, dict):
        names = list(data)
        for k, name in enumerate(names):
            if not isinstance(name, str):
                raise wrong_type(f"column_names[{k}]", name, str)     # MindSpore's words
        raw = list(data.values())
    elif isinstance(data, tuple):
        if not isinstance(data[0], (list, tuple, np.ndarray)):
            # MindSpore's check (it also refuses a tuple, which is taken here as a list)
            raise wrong_type("data[0]", data[0], list, np.ndarray)
        raw = list(data)
        names = [f"column_{i}" for i in range(len(raw))]
    elif isinstance(data, (list, np.ndarray)):
        raw = [data]
        names = ["column_0"]
    else:
        # MindSpore's words (a type check of the argument 'data').
        raise TypeError(f"Argument data with value {str(data)[:200]} is not of type "
                        f"[<class 'list'>, <class 'tuple'>, <class 'dict'>, "
                        f"<class 'numpy.ndarray'>], but got {type(data)}.")
    if not raw:
        raise ValueError("data must contain at least one column")
    lengths = [len(c) for c in raw]
    if len(set(lengths)) != 1:
        raise ValueError(f"Data length in each column is not equal: "
                         f"{dict(zip(names, lengths))}")
    if column_names is not None:
        column_names = check_columns("column_names", column_names)
        if len(column_names) != len(raw):
            # MindSpore's words; it says "as data is list" for a list or an array (one column)
            as_list = " as data is list" if isinstance(data, (list, np.ndarray)) else ""
            raise ValueError(f"Num of input column names is {len(column_names)}, but required "
                             f"is {len(raw)}{as_list}.")
        names = column_names
    cols = [_as_column(v) for v in raw]
    for name, c in zip(names, cols):
        for array in c if isinstance(c, list) else [c]:
            if not isinstance(array, dict):
                refuse_unknown_dtype(array, f"NumpySlicesDataset: column {name!r}")
        if isinstance(c, list):     # bytes values, ragged rows, dicts
            continue
        if c.ndim == 0:
            raise ValueError(f"column {name!r} is a scalar; NumpySlicesDataset slices along the "
                             f"first dimension")
    return names, cols


class _SliceSource(RowSource):
    def __init__(self, names, cols):
        self.column_names = names
        self.cols = cols

    def __len__(self):
        return len(self.cols[0])

    def read_rows(self, ids):
        ids = np.asarray(ids, dtype=np.int64)
        per_col = [_pick(c, ids) for c in self.cols]
        return list(zip(*per_col)) if per_col else []

    def provenance(self, row_id):
        return f"NumpySlicesDataset row {int(row_id)}"

    def native_column(self, name):
        return DecodedImages.of(self.cols[self.column_names.index(name)])

    def column_values(self, name):
        col = self.cols[self.column_names.index(name)]
        return col if isinstance(col, np.ndarray) and not col.dtype.hasobject else None

    def describe(self):
        # The arrays' content (hashed when a cache key is built), never their address.
        names, cols = self.column_names, self.cols
        return Deferred(lambda: f"NumpySlices({describe_arrays(names, cols)})")


def _pick(column, ids):
    """One value per id: 0-d arrays for scalar columns (not numpy scalars), fresh copies."""
    if isinstance(column, list):
        return [column[i].copy() for i in ids.tolist()]
    picked = column[ids]
    return list(picked) if picked.ndim > 1 else [np.asarray(x) for x in picked]


class NumpySlicesDataset(SourceDataset):

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        check_num_parallel_workers(num_parallel_workers)
        sampler, shuffle, num_shards, shard_id = user_source_sampling(
            num_samples, sampler, shuffle, num_shards, shard_id)
        names, cols = _columns_of(data, column_names)

        def factory(names=names, cols=cols):
            return _SliceSource(names, cols)

        super().__init__(factory, num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, column_names=names)
        self.num_parallel_workers = num_parallel_workers
