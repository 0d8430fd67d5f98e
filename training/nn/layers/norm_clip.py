"""ClipByNorm (MindSpore 2.10's nn.ClipByNorm): x * clip_norm / max(||x||_2, clip_norm), the
L2 norm over `axis` (every axis: None), in float32; float16/float32 inputs only, as
MindSpore's ClipByNorm primitive checks them."""
import numpy as np

from training.nn.cell import Cell
from training.ops import functional as F


def _float_name(value, argument):
    name = str(getattr(value, "dtype", type(value).__name__)).split(".")[-1]
    if not hasattr(value, "shape"):
        raise TypeError("For 'ClipByNorm', the input args must be tensor.")
    if name not in ("float16", "float32"):
        raise TypeError(f"For primitive[ClipByNorm], the input argument[{argument}] must be a "
                        f"type of {{Float16, Float32}}, but got {name.capitalize()}.")


def clip_by_norm(x, clip_norm, axis=None):
    """`x` scaled down where its L2 norm over `axis` is above `clip_norm` (broadcast)."""
    _float_name(x, "x")
    _float_name(clip_norm, "clip_norm")
    axes = tuple(range(x.ndim)) if axis is None else \
        tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise ValueError(f"The value in attribute `axis` should be within [{-x.ndim}, "
                             f"{x.ndim}) range.")
    x, clip_norm = F.cast(x, np.float32), F.cast(clip_norm, np.float32)
    axes = tuple(sorted({a % x.ndim for a in axes}))   # (an axis named twice counts once)
    norm = F.sqrt(F.sum(x * x, axes, True))
    return x * clip_norm / F.maximum(norm, clip_norm)


class ClipByNorm(Cell):
    def __init__(self, axis=None):
        super().__init__()
        if axis is not None and (not isinstance(axis, (int, tuple, list)) or
                                 isinstance(axis, bool)):
            raise TypeError(f"For 'ClipByNorm', the type of 'axis' should be one of '['int', "
                            f"'tuple', 'list']', but got type '{type(axis).__name__}'.")
        self.axis = axis

    def construct(self, x, clip_norm):
        return clip_by_norm(x, clip_norm, self.axis)
