"""batch / padded_batch: group rows into batches (the logical node; the engine builds them,
minddata/engine/nodes/batch.py)."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ..cache.identity import describe_operation
from .checks import INT32_MAX as _INT32_MAX
from .checks import (check_columns, check_known_columns, check_num_parallel_workers,
                     out_of_range, wrong_type)
from .map import place_columns
from .node import LogicalNode


def _check_batch_size(batch_size: Any) -> None:
    if callable(batch_size):
        return
    if isinstance(batch_size, bool) or not isinstance(batch_size, int):
        raise TypeError(f"batch_size must be of type int or a callable, but got "
                        f"{type(batch_size).__name__}")
    if not 1 <= batch_size <= _INT32_MAX:
        raise out_of_range("batch_size", batch_size, 1, _INT32_MAX)


def check_pad_info(pad_info: Any, columns: Optional[Sequence[str]]
                   ) -> Optional[Dict[str, Tuple[Optional[Tuple[Any, ...]], Any]]]:
    if pad_info is None:
        return None
    if not isinstance(pad_info, dict):
        raise TypeError(f"pad_info must be a dict, but got {type(pad_info).__name__}")
    out: Dict[str, Tuple[Optional[Tuple[Any, ...]], Any]] = {}
    for col, spec in pad_info.items():
        if not isinstance(col, str):
            raise TypeError(f"pad_info keys must be column names (str), got {col!r}")
        if columns is not None and col not in columns:
            raise ValueError(f"pad_info column {col!r} is not a column of the dataset {columns}")
        if spec is None:
            spec = (None, 0)
        if not isinstance(spec, (tuple, list)) or len(spec) != 2:
            raise TypeError(f"pad_info[{col!r}] must be a tuple (pad_shape, pad_value)")
        shape, value = spec
        if shape is not None:
            if not isinstance(shape, (list, tuple)):
                raise TypeError(f"pad_info[{col!r}] pad_shape must be a list, got "
                                f"{type(shape).__name__}")
            for d in shape:
                if d is not None and (isinstance(d, bool) or not isinstance(d, int) or d < 1):
                    raise ValueError(f"pad_info[{col!r}] pad_shape entries must be positive "
                                     f"ints or None, got {d!r}")
            shape = tuple(shape)
        out[col] = (shape, value)
    return out


class Batch(LogicalNode):
    kind = "Batch"

    batch_size: Union[int, Callable[..., Any]]
    drop_remainder: bool
    per_batch_map: Optional[Callable[..., Any]]
    in_cols: Optional[List[str]]
    out_cols: Optional[List[str]]
    pad_info: Dict[str, Tuple[Optional[Tuple[Any, ...]], Any]]
    pad_all: bool
    python_multiprocessing: bool
    max_rowsize: Optional[int]

    def __init__(self, child: LogicalNode, batch_size: Union[int, Callable[..., Any]],
                 drop_remainder: bool = False, num_parallel_workers: Optional[int] = None,
                 per_batch_map: Optional[Callable[..., Any]] = None, input_columns: Any = None,
                 output_columns: Any = None, python_multiprocessing: bool = False,
                 max_rowsize: Optional[int] = None, pad_info: Any = None) -> None:
        super().__init__([child], check_num_parallel_workers(num_parallel_workers))
        _check_batch_size(batch_size)
        if not isinstance(drop_remainder, bool):
            raise wrong_type('drop_remainder', drop_remainder, bool)
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError("per_batch_map must be callable")
        if not isinstance(python_multiprocessing, bool):
            raise TypeError("python_multiprocessing must be of type bool")
        in_cols = check_columns("input_columns", input_columns)
        out_cols = check_columns("output_columns", output_columns)
        if per_batch_map is None and (in_cols is not None or out_cols is not None):
            raise ValueError("input_columns and output_columns are only used with per_batch_map")
        child_cols = child.col_names()
        if in_cols is not None:
            check_known_columns("", "input_columns", in_cols, child_cols)
        if max_rowsize is not None and (isinstance(max_rowsize, bool) or
                                        not isinstance(max_rowsize, int)):
            raise TypeError(f"max_rowsize must be of type int, got {type(max_rowsize).__name__}")
        self.python_multiprocessing = python_multiprocessing
        self.max_rowsize = None if max_rowsize == -1 else max_rowsize
        self.batch_size = batch_size
        self.drop_remainder = drop_remainder
        self.per_batch_map = per_batch_map
        self.pad_all = pad_info == {}
        self.pad_info = check_pad_info(pad_info, child_cols) or {}
        if per_batch_map is not None:
            in_cols = in_cols if in_cols is not None else list(child_cols)
            out_cols = out_cols if out_cols is not None else in_cols
            self._columns = place_columns(child_cols, in_cols, out_cols, "batch")
        else:
            self._columns = list(child_cols)    # (in_cols and out_cols are None)
        self.in_cols = in_cols
        self.out_cols = out_cols

    def col_names(self) -> List[str]:
        return list(self._columns)

    def row_count(self) -> Optional[int]:
        n = self.children[0].row_count()
        if n is None or callable(self.batch_size):
            return None
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _batch_size(self) -> Optional[int]:
        # MindSpore's value for a per-batch size chosen by a callable.
        return self.batch_size if not callable(self.batch_size) else -1

    @property
    def keeps_positions(self) -> bool:  # type: ignore[override]
        return isinstance(self.batch_size, int)

    def is_plain(self) -> bool:
        """A fixed batch_size, no per_batch_map and no padding: the batches the planner's
        rewrites (native, process and cached batches) can build."""
        return (self.per_batch_map is None and not self.pad_info and not self.pad_all
                and not callable(self.batch_size))

    def _describe_self(self) -> str:
        # Cache keys: callables by their code and state (cache/identity.py), not their names.
        size = describe_operation(self.batch_size) if callable(self.batch_size) \
            else self.batch_size
        per_batch = None if self.per_batch_map is None else describe_operation(self.per_batch_map)
        return (f"Batch({size}, drop={self.drop_remainder}, map={per_batch}, "
                f"{self.in_cols}->{self.out_cols}, pad={self.pad_info})")
