"""bucket_batch_by_length: group rows into buckets by length and batch each bucket with its
own batch size, padding as asked."""
import numpy as np

from ..cache.identity import describe_operation
from ..dataset import Dataset, check_columns
from ..engine.node import ReplayNode
from .batch import check_pad_info, stack_column


class BucketBatchDataset(Dataset):
    _op_name = "BucketBatchByLength"

    def __init__(self, child, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function=None, pad_info=None, pad_to_bucket_boundary=False,
                 drop_remainder=False):
        super().__init__([child])
        cols = check_columns("column_names", column_names, allow_none=False)
        have = child._col_names()
        missing = [c for c in cols if c not in have]
        if missing:
            raise ValueError(f"bucket_batch_by_length: column_names {missing} are not columns "
                             f"of the dataset {have}")
        if not isinstance(bucket_boundaries, list) or not bucket_boundaries:
            raise TypeError("bucket_boundaries must be a non-empty list of int")
        for b in bucket_boundaries:
            if isinstance(b, bool) or not isinstance(b, int) or b <= 0:
                raise ValueError(f"bucket_boundaries must contain positive ints, got {b!r}")
        if any(a >= b for a, b in zip(bucket_boundaries, bucket_boundaries[1:])):
            raise ValueError("bucket_boundaries must be strictly increasing")
        if not isinstance(bucket_batch_sizes, list):
            raise TypeError("bucket_batch_sizes must be a list of int")
        if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
            raise ValueError("bucket_batch_sizes must have one more entry than "
                             "bucket_boundaries")
        for s in bucket_batch_sizes:
            if isinstance(s, bool) or not isinstance(s, int) or s <= 0:
                raise ValueError(f"bucket_batch_sizes must contain positive ints, got {s!r}")
        if element_length_function is None and len(cols) != 1:
            raise ValueError("element_length_function is required when column_names has more "
                             "than one column")
        if element_length_function is not None and not callable(element_length_function):
            raise TypeError("element_length_function must be callable")
        for name, v in (("pad_to_bucket_boundary", pad_to_bucket_boundary),
                        ("drop_remainder", drop_remainder)):
            if not isinstance(v, bool):
                raise TypeError(f"{name} must be of type bool, but got {type(v).__name__}")
        self.column_names = cols
        self.index = [have.index(c) for c in cols]
        self.boundaries = list(bucket_boundaries)
        self.batch_sizes = list(bucket_batch_sizes)
        self.length_fn = element_length_function
        self.pad_info = check_pad_info(pad_info, have) or {}
        self.pad_to_boundary = pad_to_bucket_boundary
        self.drop_remainder = drop_remainder

    def _size(self):
        return None

    def _batch_size(self):
        return None

    def _describe_self(self):
        # Cache keys: every argument that shapes the batches; the length function by its code.
        length = None if self.length_fn is None else describe_operation(self.length_fn)
        return (f"BucketBatch({self.boundaries}, {self.batch_sizes}, {self.column_names}, "
                f"length={length}, pad={self.pad_info}, to_boundary={self.pad_to_boundary}, "
                f"drop={self.drop_remainder})")

    def _build_iter(self, ctx):
        return BucketBatchIter(self, ctx)


class BucketBatchIter(ReplayNode):
    name = "BucketBatchByLength"

    def __init__(self, ds, ctx):
        super().__init__(ctx, [ctx.build(ds.children[0])])
        self.ds = ds
        self.cols = ds.children[0]._col_names()

    def _start_epoch(self, epoch):
        self.buckets = [[] for _ in self.ds.batch_sizes]
        self.child_done = False
        self.flush_at = 0

    def _bucket_of(self, row):
        ds = self.ds
        args = tuple(row[i] for i in ds.index)
        if ds.length_fn is not None:
            try:
                length = ds.length_fn(*args)
            except BaseException as e:
                raise self.fail(e, self.children[0].provenance())
        else:
            a = np.asarray(args[0])
            length = a.shape[0] if a.ndim else 1
        length = int(np.asarray(length).reshape(-1)[0])
        return int(np.searchsorted(ds.boundaries, length, side="right"))

    def _emit(self, b):
        rows = self.buckets[b]
        self.buckets[b] = []
        ds = self.ds
        cols = list(zip(*rows))
        out = []
        for k, name in enumerate(self.cols):
            pad = ds.pad_info.get(name)
            if pad is not None and ds.pad_to_boundary:
                shape, value = pad
                if b >= len(ds.boundaries):
                    raise RuntimeError("bucket_batch_by_length: pad_to_bucket_boundary cannot pad "
                                       "rows of the last bucket (longer than every boundary)")
                shape = list(shape) if shape is not None else [None] * np.ndim(cols[k][0])
                if shape:
                    shape[0] = ds.boundaries[b] - 1 if shape[0] is None else shape[0]
                pad = (tuple(shape), value)
            out.append(stack_column(name, cols[k], pad, "bucket_batch_by_length"))
        return tuple(out)

    def _next(self):
        ds = self.ds
        child = self.children[0]
        while not self.child_done:
            row = self.pull(child)
            if row is None:
                self.child_done = True
                break
            b = self._bucket_of(row)
            self.buckets[b].append(row)
            if len(self.buckets[b]) >= ds.batch_sizes[b]:
                return self._emit(b)
        while self.flush_at < len(self.buckets):
            b = self.flush_at
            self.flush_at += 1
            if self.buckets[b] and not ds.drop_remainder:
                return self._emit(b)
        return None
