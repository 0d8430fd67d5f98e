"""Cells of MindSpore 2.10's nn that wrap one computation: Norm, OneHot, Range, MatMul, with
its arguments, dtypes and checks (values measured there)."""
import numpy as np

from training.backends.dispatch import is_torch
from training.nn.cell import Cell
from training.ops import functional as F
from training.tensor import Tensor


class Norm(Cell):
    """sqrt(sum(x^2)) over `axis` (every axis: ()), an integer input counted as float32."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        if not all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
            raise TypeError(f"For 'Squeeze', the type of 'axis' should be one of '[list of int, "
                            f"int, tuple of int]', but got {type(axis)}.")
        self.axis, self.keep_dims = tuple(axes), keep_dims

    def construct(self, x):
        if str(x.dtype).split(".")[-1] not in ("float16", "float32", "float64"):
            x = F.cast(x, np.float32)
        return F.sqrt(F.sum(x * x, self.axis or tuple(range(x.ndim)), self.keep_dims))


class OneHot(Cell):
    """`on_value` at each index along a new axis `axis` of `depth`, `off_value` elsewhere (an
    index outside [0, depth): a row of off_value), in `dtype`."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=np.float32):
        super().__init__()
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices):
        kind = str(indices.dtype).split(".")[-1]
        if kind not in ("int32", "int64"):
            raise TypeError(f"For primitive[OneHot], the input argument[indices] must be a type "
                            f"of {{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{kind}].")
        if is_torch(indices):
            import torch
            hot = (torch.arange(self.depth, device=indices.device) == indices.unsqueeze(-1))
            hot = hot.movedim(-1, self.axis)
            out = torch.where(hot, torch.tensor(float(self.on_value), device=indices.device),
                              torch.tensor(float(self.off_value), device=indices.device))
            return F.cast(out, self.dtype)
        return F.cast(F.one_hot(indices, self.depth, self.on_value, self.off_value, self.axis),
                      self.dtype)


class Range(Cell):
    """The numbers from `start` (0 with `limit` None: start is the limit) up to `limit` by
    `delta`: int32 when all are ints, else float32."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if delta == 0:
            raise ValueError("For 'Range', the 'delta' can not be zero.")
        self.start, self.limit = (0, start) if limit is None else (start, limit)
        self.delta = delta

    def construct(self):
        values = (self.start, self.limit, self.delta)
        dtype = np.int32 if all(isinstance(v, int) for v in values) else np.float32
        return Tensor(np.arange(*values).astype(dtype))


class MatMul(Cell):
    """x1 @ x2 (broadcast over leading axes), each transposed in its last two axes first
    where asked."""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1, x2):
        if self.transpose_x1:
            x1 = x1.swapaxes(-1, -2) if is_torch(x1) else x1.transpose(
                tuple(range(x1.ndim - 2)) + (x1.ndim - 1, x1.ndim - 2))
        if self.transpose_x2:
            x2 = x2.swapaxes(-1, -2) if is_torch(x2) else x2.transpose(
                tuple(range(x2.ndim - 2)) + (x2.ndim - 1, x2.ndim - 2))
        return F.matmul(x1, x2)
