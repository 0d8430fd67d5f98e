"""batch / padded_batch: group rows into batches (the logical node; the engine builds them,
minddata/engine/nodes/batch.py)."""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ..cache.identity import describe_operation
from .checks import INT32_MAX as _INT32_MAX
from .checks import (PipelineArgumentError, check_columns, check_max_rowsize,
                     check_num_parallel_workers, out_of_range, wrong_type)
from .map import placement
from .node import LogicalNode


def _check_batch_size(batch_size: Any) -> Union[int, Callable[..., Any]]:
    """MindSpore's checks; a bool is an int there (True batches rows one by one)."""
    if callable(batch_size):
        if _positional_params(batch_size) not in (None, 1):
            raise ValueError("callable batch_size should take one parameter (BatchInfo).")
        return batch_size
    if not isinstance(batch_size, int):
        raise TypeError(f"batch_size should either be an int or a callable, but got "
                        f"{type(batch_size).__name__}")
    if batch_size == -1:
        # MindSpore accepts -1 here and fails when the pipeline starts (a RuntimeError).
        raise PipelineArgumentError(
            f"{out_of_range('batch_size', batch_size, 1, _INT32_MAX)} [ERROR] Batch size "
            f"cannot be -1 without using batch sampler.")
    if not 1 <= batch_size <= _INT32_MAX:
        raise out_of_range("batch_size", batch_size, 1, _INT32_MAX)
    return int(batch_size)


def _positional_params(fn: Callable[..., Any]) -> Optional[int]:
    """How many parameters ``fn`` takes (MindSpore counts them to check a batch_size callable
    and a per_batch_map against input_columns); None when unknown (a builtin) or any number
    (``*args``)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return None
    return len(params)


def _check_per_batch_map(per_batch_map: Any, in_cols: Optional[List[str]]) -> None:
    if per_batch_map is None:
        if in_cols is not None:
            raise ValueError("input_columns can be specified only when per_batch_map is set.")
        return
    if not callable(per_batch_map):
        raise TypeError(f"per_batch_map must be callable: {per_batch_map!r} is not a callable "
                        f"object")
    n = _positional_params(per_batch_map)
    if in_cols is not None and n is not None and n != len(in_cols) + 1:
        raise ValueError(f"The signature of per_batch_map should match with input columns: "
                         f"{len(in_cols)} columns and the BatchInfo, but it takes {n} "
                         f"parameters.")


def _batch_column_error(child_cols: Sequence[str], in_cols: Sequence[str],
                        out_cols: Sequence[str]) -> Optional[str]:
    """What is wrong with per_batch_map's columns, or None. MindSpore finds it when the
    pipeline starts (a RuntimeError), so a batch written with it is refused when its columns
    are asked for (col_names): when an iterator starts, or get_col_names()."""
    missing = [c for c in in_cols if c not in child_cols]
    if missing:
        return (f"batch: input_columns {missing} are not columns of the dataset "
                f"{list(child_cols)}. [ERROR] Invalid input_columns, '{missing[0]}' of "
                f"'input_columns' doesn't exist.")
    kept = [c for c in out_cols if c in child_cols and c not in in_cols]
    if kept:
        return (f"batch: output_columns {kept} would duplicate columns the batch keeps. [ERROR] "
                f"Invalid output_columns, columns that are not involved in 'per_batch_map' "
                f"should not be in output_columns, but got columns that are not in "
                f"input_columns: {kept}")
    return None


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
            # MindSpore finds it when the pipeline starts (a RuntimeError).
            raise PipelineArgumentError(f"pad_info column {col!r} is not a column of the "
                                        f"dataset {list(columns)}. [ERROR] Invalid pad_info, "
                                        f"column name: {col} does not exist.")
        if spec is None:
            spec = (None, 0)
        if not isinstance(spec, (tuple, list)) or len(spec) != 2:
            raise ValueError(f"value of pad_info should be a tuple of size 2: (pad_shape, "
                             f"pad_value), got {spec!r} for column {col!r}.")
        out[col] = (_check_pad_shape(spec[0]), spec[1])
    return out


def _check_pad_shape(shape: Any) -> Optional[Tuple[Any, ...]]:
    """None, or a list of dimensions each a positive int or None (the largest row's)."""
    if shape is None:
        return None
    if not isinstance(shape, (list, tuple)):
        raise wrong_type("shape in pad_info", shape, list)
    for d in shape:
        if d is not None and (isinstance(d, bool) or not isinstance(d, int)):
            raise wrong_type("dim of shape in pad_info", d, int)
        if d is not None and not 1 <= d <= _INT32_MAX:
            raise out_of_range("dim of shape in pad_info", d, 1, _INT32_MAX)
    return tuple(shape)


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
        # the arguments are checked in MindSpore 2.10's order (its check_batch): the size, the
        # workers, drop_remainder, max_rowsize, input_columns without a per_batch_map, the
        # columns, python_multiprocessing
        size = _check_batch_size(batch_size)
        super().__init__([child], check_num_parallel_workers(num_parallel_workers))
        self.batch_size = size
        if not isinstance(drop_remainder, bool):
            raise wrong_type('drop_remainder', drop_remainder, bool)
        self.max_rowsize = check_max_rowsize(max_rowsize)
        if per_batch_map is None and input_columns is not None:
            raise ValueError("input_columns can be specified only when per_batch_map is set.")
        in_cols = check_columns("input_columns", input_columns)
        _check_per_batch_map(per_batch_map, in_cols)
        out_cols = check_columns("output_columns", output_columns)
        if not isinstance(python_multiprocessing, bool):
            raise wrong_type('python_multiprocessing', python_multiprocessing, bool)
        if per_batch_map is None and out_cols is not None:
            # MindSpore ignores them without a word (see README: deviations): refused after
            # every check MindSpore makes
            raise ValueError("output_columns can be specified only when per_batch_map is set.")
        self.python_multiprocessing = python_multiprocessing
        self.drop_remainder = drop_remainder
        self.per_batch_map = per_batch_map
        child_cols = child.col_names()
        self.pad_all = pad_info == {}
        self.pad_info = check_pad_info(pad_info, child_cols) or {}
        self.placement: List[Tuple[str, int]] = []
        self._column_error: Optional[str] = None
        self._columns = list(child_cols)
        if per_batch_map is not None:
            in_cols = in_cols if in_cols is not None else list(child_cols)
            out_cols = out_cols if out_cols is not None else in_cols
            self._column_error = _batch_column_error(child_cols, in_cols, out_cols)
            if self._column_error is None:
                self.placement = placement(child_cols, in_cols, out_cols)
                self._columns = [out_cols[j] if src == "out" else child_cols[j]
                                 for src, j in self.placement]
        self.in_cols = in_cols
        self.out_cols = out_cols

    def col_names(self) -> List[str]:
        if self._column_error is not None:
            raise PipelineArgumentError(self._column_error)
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
