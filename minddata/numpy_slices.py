"""NumpySlicesDataset: rows sliced from in-memory arrays along their first dimension."""
import numpy as np

from .dataset import check_columns, check_num_parallel_workers
from .ops.source import SourceDataset
from .sources.base import RowSource


def _columns_of(data, column_names):
    """(names, list of arrays) from a list, tuple, dict or numpy array."""
    if isinstance(data, dict):
        names = [str(k) for k in data]
        cols = [np.asarray(v) for v in data.values()]
    elif isinstance(data, tuple):
        cols = [np.asarray(v) for v in data]
        names = [f"column_{i}" for i in range(len(cols))]
    elif isinstance(data, (list, np.ndarray)):
        cols = [np.asarray(data)]
        names = ["column_0"]
    else:
        raise TypeError(f"data must be a list, tuple, dict or numpy array, got "
                        f"{type(data).__name__}")
    if column_names is not None:
        column_names = check_columns("column_names", column_names)
        if len(column_names) != len(cols):
            raise ValueError(f"column_names has {len(column_names)} names but data has "
                             f"{len(cols)} columns")
        names = column_names
    if not cols:
        raise ValueError("data must contain at least one column")
    for name, c in zip(names, cols):
        if c.ndim == 0:
            raise ValueError(f"column {name!r} is a scalar; NumpySlicesDataset slices along the "
                             f"first dimension")
        if c.dtype == object:
            raise TypeError(f"column {name!r} is ragged or holds Python objects; give arrays of "
                            f"one shape and a numeric or string dtype")
    lengths = {len(c) for c in cols}
    if len(lengths) != 1:
        raise ValueError(f"all columns must have the same first dimension, got "
                         f"{dict(zip(names, (len(c) for c in cols)))}")
    return names, cols


class _SliceSource(RowSource):
    def __init__(self, names, cols):
        self.column_names = names
        self.cols = cols

    def __len__(self):
        return len(self.cols[0])

    def read_rows(self, ids):
        ids = np.asarray(ids, dtype=np.int64)
        picked = [c[ids] for c in self.cols]
        # Rows are tuples of arrays: 0-d arrays for scalar columns, not numpy scalars.
        per_col = [list(p) if p.ndim > 1 else [np.asarray(x) for x in p] for p in picked]
        return list(zip(*per_col)) if per_col else []

    def provenance(self, row_id):
        return f"NumpySlicesDataset row {int(row_id)}"

    def describe(self):
        return f"NumpySlices({self.column_names}@{id(self.cols[0]):x})"


class NumpySlicesDataset(SourceDataset):
    _op_name = "NumpySlicesDataset"

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        check_num_parallel_workers(num_parallel_workers)
        names, cols = _columns_of(data, column_names)

        def factory(names=names, cols=cols):
            return _SliceSource(names, cols)

        super().__init__(factory, num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, column_names=names)
        self.num_parallel_workers = num_parallel_workers
