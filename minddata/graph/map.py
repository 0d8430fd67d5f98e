"""map: apply a list of operations to some columns of every row (the logical node; the
engine runs it, minddata/engine/nodes/map.py). Its operations follow the op contract of
transforms_c/contract.py, or are plain Python callables."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from transforms_c._base import check_device_target
from transforms_c.contract import Operation
from transforms_c.transforms import validate_members

from ..cache.identity import describe_operation
from ..callback import check_callbacks
from ..config import check_independent_mode
from ..gpu.plan import op_on_gpu, op_refusal
from .checks import (PipelineArgumentError, check_columns, check_known_columns,
                     check_max_rowsize, check_num_parallel_workers, wrong_type)
from .node import LogicalNode


def place_columns(child_cols: Sequence[str], in_cols: Sequence[str], out_cols: Sequence[str],
                  op: str = "map") -> List[str]:
    """Output column names, in ``placement``'s order; an output named like a column kept
    beside it is refused (MindSpore 2.10 keeps both names and silently loses one's values)."""
    out = [out_cols[j] if src == "out" else child_cols[j]
           for src, j in placement(child_cols, in_cols, out_cols)]
    dup = [c for c in set(out) if out.count(c) > 1]
    if dup:
        raise ValueError(f"{op}: output_columns {out_cols} would duplicate the existing "
                         f"column(s) {sorted(dup)}; rename them or include them in "
                         f"input_columns")
    return out


def placement(child_cols: Sequence[str], in_cols: Sequence[str],
              out_cols: Sequence[str]) -> List[Tuple[str, int]]:
    """Where each output column comes from, in order: ("out", j) for the op's j-th result,
    ("in", k) for child column k. MindSpore 2.10's order (measured, for map and
    per_batch_map): as many outputs as inputs take the inputs' places (result j where
    ``in_cols[j]`` was); otherwise the outputs come first, then the child's columns that were
    not inputs, in the child's order."""
    if len(in_cols) == len(out_cols):
        return [("out", in_cols.index(c)) if c in in_cols else ("in", k)
                for k, c in enumerate(child_cols)]
    return [("out", j) for j in range(len(out_cols))] + \
        [("in", k) for k, c in enumerate(child_cols) if c not in in_cols]


def _op_argument_error(operations: Sequence[Any]) -> Optional[RuntimeError]:
    """The error of an op argument MindSpore 2.10 checks when it builds the pipeline, not when
    the op is made (measured: a map of TypeCast(np.bytes_), even inside RandomApply(prob=0),
    is made, and get_dataset_size or the iterator raises 'TypeCast: Invalid data type'). Kept
    to be raised where the pipeline is built: the ops of this node may never run."""
    try:
        validate_members(operations)
    except RuntimeError as exc:
        return exc
    return None


def _flatten_ops(operations: Any) -> List[Any]:
    if operations is None:
        operations = []
    ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
    if not ops:
        # MindSpore finds it when the pipeline starts, a RuntimeError: this is both.
        raise PipelineArgumentError("map: operations must not be empty. [ERROR] Map: No "
                                    "'operations' are specified.")
    for k, op in enumerate(ops):
        if isinstance(op, type):
            # MindSpore's words (ValueError): vision.HWC2CHW written for vision.HWC2CHW().
            raise ValueError(f"Parameter operations's element of method map should be a dataset "
                             f"processing operation instance, but got: {op}. It may be missing "
                             f"parentheses for instantiation.")
        # An Operation (transforms_c/contract.py) is callable eagerly too; an object that only
        # has `apply` could not run eagerly nor be called by the engine as a plain function.
        if not isinstance(op, Operation) and not callable(op):
            # MindSpore's type (ValueError) and words after ours.
            raise ValueError(f"operations[{k}] is neither a transforms op nor a callable "
                             f"pyfunc: operations must be callables or transform objects, got "
                             f"{type(op).__name__}: {op!r}. Parameter operations's element of "
                             f"method map should be a python function or class method which "
                             f"should be callable, but got: {op}.")
    return ops


def _check_device(device: Optional[str], ops: Sequence[Any]) -> Optional[str]:
    """``map(device=...)``: None (each op's own ``.device()``), "CPU" (every op on the CPU) or
    "GPU" (every op not placed on the CPU by its own ``.device("CPU")``); the ops placed on the
    GPU must have a GPU kernel (minddata/gpu/plan.py)."""
    if device is not None:
        check_device_target(device, "device")
    for k, op in enumerate(ops):
        if op_on_gpu(device, op):
            why = op_refusal(op)
            if why is not None:
                raise ValueError(f"map: operations[{k}] cannot run on the GPU: {why}; place it "
                                 f"on the CPU (.device('CPU')) or in a map of its own")
    return device


class Map(LogicalNode):
    kind = "Map"

    operations: Tuple[Any, ...]
    in_cols: List[str]
    out_cols: List[str]
    columns: List[str]
    python_multiprocessing: bool
    max_rowsize: Optional[int]
    cache: Any
    callbacks: List[Any]
    #: map(device=...): "GPU" places every op on the GPU, "CPU" none, None leaves each op's own
    device: Optional[str]
    #: where the maps that map fusion merged into this one ended (op counts): a PIL image
    #: leaving one of them still becomes an array there (graph/operations.py pil_boundaries)
    map_ends: Tuple[int, ...]

    def __init__(self, child: LogicalNode, operations: Any, input_columns: Any = None,
                 output_columns: Any = None, num_parallel_workers: Optional[int] = None,
                 python_multiprocessing: bool = False, max_rowsize: Any = None,
                 cache: Any = None, callbacks: Any = None, offload: Any = None, *,
                 device: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__([child], check_num_parallel_workers(num_parallel_workers))
        if kwargs:
            raise TypeError(f"map() got unexpected keyword arguments {sorted(kwargs)}")
        # MindSpore 2.10's order (its check_map, then Map's own): the workers,
        # python_multiprocessing, the cache's type, max_rowsize, offload, the columns' types,
        # then the operations; an unknown input column last
        if not isinstance(python_multiprocessing, bool):
            raise wrong_type('python_multiprocessing', python_multiprocessing, bool)
        if cache is not None and not hasattr(cache, "open_stage"):
            raise TypeError(f"cache must be a DatasetCache, got {type(cache).__name__}")
        max_rowsize = check_max_rowsize(max_rowsize)
        if offload is not None and not isinstance(offload, bool):
            # Checked as MindSpore does; there is no device to offload to, so it changes nothing.
            raise wrong_type('offload', offload, bool)
        in_cols = check_columns("input_columns", input_columns)
        out_cols = check_columns("output_columns", output_columns)
        self.operations = tuple(_flatten_ops(operations))
        self._op_error = _op_argument_error(self.operations)
        child_cols = child.col_names()
        if in_cols is None:
            in_cols = [child_cols[0]]
        check_known_columns("map", "input_columns", in_cols, child_cols)
        if out_cols is None:
            out_cols = list(in_cols)
        if cache is not None:
            check_independent_mode("Dataset Cache")
            # Looks into Compose-like containers and fused plans too (their inner ops).
            # Imported here: minddata.cache (and LMDB) load only for pipelines that cache.
            from ..cache.cacheable import assert_cacheable
            assert_cacheable(self.operations)
        self.in_cols = in_cols
        self.out_cols = out_cols
        self.columns = place_columns(child_cols, in_cols, out_cols)
        self.python_multiprocessing = python_multiprocessing
        self.max_rowsize = max_rowsize
        self.cache = cache
        self.callbacks = check_callbacks(callbacks)
        check_independent_mode("Dataset Callbacks", bool(self.callbacks))
        self.device = _check_device(device, self.operations)
        self.map_ends = ()

    def col_names(self) -> List[str]:
        if self._op_error is not None:
            raise self._op_error
        return list(self.columns)

    def _is_random_self(self) -> bool:
        # An Operation states is_random; a plain callable may declare it too.
        return any(getattr(o, "is_random", False) for o in self.operations)

    @property
    def keeps_positions(self) -> bool:  # type: ignore[override]
        # A cached map's rows may come from the store: its state does not pin the source.
        return self.cache is None

    def _shippable_self(self) -> bool:
        return self.cache is None and not self.callbacks

    def _describe_self(self) -> str:
        # Content fingerprints of each operation's code and state (cache keys must identify
        # what the map computes; names and reprs do not).
        ops = ",".join(describe_operation(o) for o in self.operations)
        return f"Map[{ops}]({self.in_cols}->{self.out_cols})"
