"""A map's operations as the transforms package compiles them (runs of native ops fused into
one plan): what the planner decides native batches from and the engine runs."""
import numpy as np

import transforms_c
from transforms_c import _batch


def op_name(op):
    inner = getattr(op, "ops", None)
    if isinstance(inner, (list, tuple)) and inner:   # a fused plan: name the ops it runs
        return f"{type(op).__name__}({'+'.join(op_name(o) for o in inner)})"
    return getattr(op, "__name__", None) or type(op).__name__


def compile_operations(ops):
    """The ops with each run of fusable native ops replaced by one fused plan."""
    return list(transforms_c.compile_operations(list(ops)))


def compile_map_operations(operations):
    """The one fused native plan a map's operations compile to (a single fusable op becomes a
    plan of one op), or None when they are not one run of native ops."""
    ops = compile_operations(operations)
    if len(ops) != 1:
        return None
    op = ops[0]
    if hasattr(op, "native_steps"):
        return op
    declare = getattr(op, "fusion_phase", None)
    if declare is None or declare(0) is None or not getattr(op, "ends_fused_run", True):
        return None
    return transforms_c.FusedPlan([op])


def row_layout(steps, image_shape):
    """(row shape, dtype, (height, width, channels)) of the plan's output, or None when it
    depends on the image. Each native step declares what it does to the shape (src/steps/)."""
    layout = _batch.row_layout(steps, image_shape)
    if layout is None:
        return None
    hwc, float_output, chw = layout
    shape = (hwc[2], hwc[0], hwc[1]) if chw else hwc
    return shape, np.dtype(np.float32 if float_output else np.uint8), hwc
