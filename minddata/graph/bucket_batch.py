"""bucket_batch_by_length: group rows into buckets by length and batch each bucket with its
own batch size, padding as asked (the logical node; minddata/engine/nodes/bucket_batch.py runs
it)."""
from __future__ import annotations

from typing import Any, Callable, List, Optional

from ..cache.identity import describe_operation
from .batch import check_pad_info
from .checks import check_columns, check_known_columns, wrong_type
from .node import LogicalNode


class BucketBatch(LogicalNode):
    kind = "BucketBatchByLength"

    def __init__(self, child: LogicalNode, column_names: Any, bucket_boundaries: List[int],
                 bucket_batch_sizes: List[int],
                 element_length_function: Optional[Callable[..., Any]] = None,
                 pad_info: Any = None, pad_to_bucket_boundary: bool = False,
                 drop_remainder: bool = False) -> None:
        super().__init__([child])
        cols = check_columns("column_names", column_names, allow_none=False)
        have = child.col_names()
        check_known_columns("bucket_batch_by_length", "column_names", cols, have)
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
                raise wrong_type(name, v, bool)
        self.length_columns = cols
        self.index = [have.index(c) for c in cols]
        self.boundaries = list(bucket_boundaries)
        self.batch_sizes = list(bucket_batch_sizes)
        self.length_fn = element_length_function
        self.pad_info = check_pad_info(pad_info, have) or {}
        self.pad_to_boundary = pad_to_bucket_boundary
        self.drop_remainder = drop_remainder

    def row_count(self) -> Optional[int]:
        return None

    def _describe_self(self) -> str:
        # Cache keys: every argument that shapes the batches; the length function by its code.
        length = None if self.length_fn is None else describe_operation(self.length_fn)
        return (f"BucketBatch({self.boundaries}, {self.batch_sizes}, {self.length_columns}, "
                f"length={length}, pad={self.pad_info}, to_boundary={self.pad_to_boundary}, "
                f"drop={self.drop_remainder})")
