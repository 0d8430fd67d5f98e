"""bucket_batch_by_length: group rows into buckets by length and batch each bucket with its
own batch size, padding as asked (the logical node; minddata/engine/nodes/bucket_batch.py runs
it)."""
from __future__ import annotations

from typing import Any, Callable, List, Optional

from ..cache.identity import describe_operation
from .batch import check_pad_info
from .checks import check_columns, check_known_columns, wrong_type
from .node import LogicalNode


def _check_column_names(column_names: Any) -> List[str]:
    if isinstance(column_names, list):
        for k, c in enumerate(column_names):
            if not isinstance(c, str):
                raise wrong_type(f"column_names[{k}]", c, str)
        if len(set(column_names)) != len(column_names):
            raise ValueError(f"Every column name should not be same with others in "
                             f"column_names: {column_names}")
    return check_columns("column_names", column_names, allow_none=False)


def _int_list(name: str, value: Any) -> List[int]:
    """MindSpore's checks: a list of int (a bool counts as one, as there)."""
    if not isinstance(value, list):
        raise wrong_type(name, value, list)
    if not all(isinstance(v, int) for v in value):
        raise TypeError(f"{name} should be a list of int, got {value!r}.")
    return value


def _check_boundaries(boundaries: Any) -> None:
    if isinstance(boundaries, list) and not boundaries:
        raise ValueError("bucket_boundaries cannot be empty.")
    _int_list("bucket_boundaries", boundaries)
    if any(b <= 0 for b in boundaries):
        raise ValueError(f"bucket_boundaries must only contain positive numbers, got "
                         f"{boundaries}.")
    if any(a >= b for a, b in zip(boundaries, boundaries[1:])):
        raise ValueError(f"bucket_boundaries should be strictly increasing, got {boundaries}.")


def _check_batch_sizes(sizes: Any, boundaries: List[int]) -> None:
    if isinstance(sizes, list) and len(sizes) != len(boundaries) + 1:
        raise ValueError(f"bucket_batch_sizes must contain one element more than "
                         f"bucket_boundaries: {len(sizes)} sizes for {len(boundaries)} "
                         f"boundaries.")
    _int_list("bucket_batch_sizes", sizes)
    if any(s <= 0 for s in sizes):
        raise ValueError(f"bucket_batch_sizes should be a list of positive numbers, got "
                         f"{sizes}.")


class BucketBatch(LogicalNode):
    kind = "BucketBatchByLength"

    def __init__(self, child: LogicalNode, column_names: Any, bucket_boundaries: List[int],
                 bucket_batch_sizes: List[int],
                 element_length_function: Optional[Callable[..., Any]] = None,
                 pad_info: Any = None, pad_to_bucket_boundary: bool = False,
                 drop_remainder: bool = False) -> None:
        super().__init__([child])
        # MindSpore 2.10's order (its check_bucket_batch_by_length): the three lists' types,
        # the two bools, the column names, the length function, the boundaries, the sizes;
        # an unknown column last (MindSpore: when the pipeline starts)
        for name, v in (("column_names", column_names), ("bucket_boundaries", bucket_boundaries),
                        ("bucket_batch_sizes", bucket_batch_sizes)):
            if not isinstance(v, list):
                raise wrong_type(name, v, list)
        for name, v in (("pad_to_bucket_boundary", pad_to_bucket_boundary),
                        ("drop_remainder", drop_remainder)):
            if not isinstance(v, bool):
                raise wrong_type(name, v, bool)
        cols = _check_column_names(column_names)
        if element_length_function is None and len(cols) != 1:
            raise ValueError("element_length_function is required when column_names has more "
                             "than one column: if element_length_function is not specified, "
                             "exactly one column name should be passed.")
        if element_length_function is not None and not callable(element_length_function):
            raise TypeError(f"element_length_function object is not callable: "
                            f"{element_length_function!r}")
        _check_boundaries(bucket_boundaries)
        _check_batch_sizes(bucket_batch_sizes, bucket_boundaries)
        have = child.col_names()
        check_known_columns("bucket_batch_by_length", "column_names", cols, have)
        self.length_columns = cols
        self.index = [have.index(c) for c in cols]
        self.boundaries = [int(b) for b in bucket_boundaries]
        self.batch_sizes = [int(s) for s in bucket_batch_sizes]
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
