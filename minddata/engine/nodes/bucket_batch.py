"""The bucket_batch_by_length node."""
import numpy as np

from ...state_check import COUNT, check_node_state
from ..node import ReplayNode
from .batch import stack_column


def _int_length(length):
    """An element_length_function's result as an int; MindSpore refuses anything else (a
    float too) when the pipeline runs."""
    a = np.asarray(length)
    if a.size != 1 or a.dtype.kind not in "iu":
        raise RuntimeError(f"bucket_batch_by_length: element_length_function returned "
                           f"{length!r}; Unable to cast Python instance of type "
                           f"{type(length)} to C++ type 'int'")
    return int(a.reshape(-1)[0])


class BucketBatchIter(ReplayNode):
    name = "BucketBatchByLength"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]])
        self.ds = ds
        self.cols = ds.children[0].col_names()

    def _start_epoch(self, epoch):
        self.buckets = [[] for _ in self.ds.batch_sizes]
        self.child_done = False
        self.flush_at = 0

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, returned=COUNT)
        super().reset(state)

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
        return int(np.searchsorted(ds.boundaries, _int_length(length), side="right"))

    def _emit(self, b):
        rows = self.buckets[b]
        self.buckets[b] = []
        ds = self.ds
        cols = list(zip(*rows))
        out = []
        for k, name in enumerate(self.cols):
            # As MindSpore: without pad_info (None or {}) every column is padded to the batch's
            # largest row (pad value 0); with one, the columns it names.
            pad = ds.pad_info.get(name) if ds.pad_info else (None, None)
            if ds.pad_to_boundary and name in ds.pad_info:
                pad = self._to_boundary(pad, b)
            out.append(stack_column(name, cols[k], pad, "bucket_batch_by_length"))
        return tuple(out)

    def _to_boundary(self, pad, b):
        """A column's pad_info entry under pad_to_bucket_boundary, as MindSpore 2.10 reads it:
        every None in the shape becomes the bucket's boundary minus 1 (the last bucket has
        none: RuntimeError); a shape of None still pads to the batch's largest row."""
        shape, value = pad
        if shape is None or None not in shape:
            return pad
        if b >= len(self.ds.boundaries):
            raise RuntimeError(f"bucket_batch_by_length: pad_to_bucket_boundary cannot pad rows "
                               f"of the last bucket (longer than every boundary). Invalid data, "
                               f"requested to pad to bucket boundary failed, bucket index should "
                               f"be less than {len(self.ds.boundaries) + 1}, but got {b}")
        return (tuple(self.ds.boundaries[b] - 1 if d is None else d for d in shape), value)

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
