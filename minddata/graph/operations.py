"""A map's operations as the transforms package compiles them (runs of native ops fused into
one plan): what the planner decides native batches from and the engine runs. The op contract
they follow is transforms_c/contract.py's."""
from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Tuple

import numpy as np

import transforms_c
from transforms_c import _batch
from transforms_c.contract import FusableOperation, FusedPlanLike, NativeStep, Operation


def op_name(op: object) -> str:
    if isinstance(op, FusedPlanLike):   # a fused plan: name the ops it runs
        return f"{type(op).__name__}({'+'.join(op_name(o) for o in op.ops)})"
    return getattr(op, "__name__", None) or type(op).__name__


def takes_pil(op: Any) -> bool:
    """Whether a map hands a PIL image to ``op`` as it is: an op with a Pillow path, a Python op
    or callable (a fused plan: its first op); an op MindSpore runs in C++ only (``pil_input``
    "array": ToTensor) gets an array."""
    first = op.ops[0] if isinstance(op, FusedPlanLike) else op
    return getattr(first, "pil_input", "own") != "array"


def may_give_pil(op: Any) -> bool:
    """Whether an op of a map may give a PIL image: ToPIL, Decode(to_pil=True), the PIL path's
    ops (each declares ``gives_pil``), or a Compose holding one."""
    members = getattr(op, "transforms", None)
    if isinstance(members, (list, tuple)):
        return any(may_give_pil(member) for member in members)
    return bool(getattr(op, "gives_pil", False))


def compile_operations(ops: Iterable[Any]) -> List[Any]:
    """The ops with each run of fusable native ops replaced by one fused plan."""
    return list(transforms_c.compile_operations(list(ops)))


def pil_boundaries(operations: Sequence[Any], map_ends: Sequence[int]) -> List[int]:
    """The ends among ``map_ends`` (the op counts at which the maps merged into one ended)
    where a PIL image may arrive: an op since the end before may give one (a plain Python
    callable may too). There a PIL image becomes an array, as MindSpore hands a map's output
    to the next map; elsewhere only arrays cross an end, and fusing across it is exact."""
    boundaries, start = [], 0
    for end in sorted(e for e in set(map_ends) if 0 < e < len(operations)):
        if any(may_give_pil(op) or not isinstance(op, Operation)
               for op in operations[start:end]):
            boundaries.append(end)
        start = end
    return boundaries


def compile_segments(operations: Sequence[Any], boundaries: Sequence[int]
                     ) -> Tuple[List[Any], List[bool]]:
    """compile_operations over the parts between ``boundaries``, so that no fused plan runs
    across one; with, per compiled op, whether a part ends after it."""
    ops: List[Any] = []
    ends: List[bool] = []
    for start, stop in zip([0, *boundaries], [*boundaries, len(operations)]):
        part = compile_operations(operations[start:stop])
        ops += part
        ends += [False] * (len(part) - 1) + [stop < len(operations)]
    return ops, ends


def compile_map_operations(operations: Sequence[Any]) -> Optional[FusedPlanLike]:
    """The one fused native plan a map's operations compile to (a single fusable op becomes a
    plan of one op), or None when they are not one run of native ops."""
    ops = compile_operations(operations)
    if len(ops) != 1:
        return None
    op = ops[0]
    if isinstance(op, FusedPlanLike):
        return op
    if (not isinstance(op, FusableOperation) or op.fusion_phase(0) is None
            or not op.ends_fused_run):
        return None
    plan: FusedPlanLike = transforms_c.FusedPlan([op])
    return plan


def row_layout(steps: Sequence[NativeStep], image_shape: Optional[Tuple[int, ...]]
               ) -> Optional[Tuple[Tuple[int, ...], np.dtype, Tuple[int, int, int]]]:
    """(row shape, dtype, (height, width, channels)) of the plan's output, or None when it
    depends on the image. Each native step declares what it does to the shape (src/steps/)."""
    layout = _batch.row_layout(steps, image_shape)
    if layout is None:
        return None
    hwc, float_output, chw = layout
    shape = (hwc[2], hwc[0], hwc[1]) if chw else hwc
    return shape, np.dtype(np.float32 if float_output else np.uint8), hwc
