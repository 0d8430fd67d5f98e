"""mindspore.numpy's reductions, scans and searches with its measured result types: sum of
integers or bools is int64, mean of integers keeps their type, std and var of integers are
float32, argmax gives int64 and argmin int32, cumsum of bools int32, nansum keeps the type,
nanstd and nanvar are float32. Built on training.ops (gradients on both backends)."""
import numpy as np

from training.numpy._core import as_tensor, axis_tuple, cast, dtype_of, one_axis, shape_of
from training.ops import functional as F

_I32, _I64, _F32 = np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float32)


def _input(a, op, dtype=None):
    return cast(as_tensor(a, op), dtype) if dtype is not None else as_tensor(a, op)


def _no_bool(a, op, error=TypeError):
    if dtype_of(a).kind == "b":
        raise error(f"For '{op}', the input must not be a bool Tensor")
    return a


def _sum(a, axes, keepdims):
    """F.sum over `axes` (() reduces nothing here, as numpy's)."""
    if not axes and shape_of(a):
        return F.identity(a)
    return F.sum(a, axes if axes else None, keepdims)


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001  (numpy's)
    a = _input(a, "sum", dtype)
    axes = axis_tuple(axis, len(shape_of(a)), "sum")
    out = _sum(a, axes, keepdims)
    if dtype is None and dtype_of(a).kind in "biu":
        out = cast(out, _I64)
    return out if initial is None else out + initial


def _mean(a, axes, keepdims, op):
    """The mean in the input's float type, or in float64 truncated back for integers."""
    kind = dtype_of(a)
    if not axes and shape_of(a):
        return F.identity(a)
    if kind.kind == "f":
        return F.mean(a, axes, keepdims)
    return cast(F.mean(cast(a, np.float64), axes, keepdims), kind)


def mean(a, axis=None, keepdims=False, dtype=None):
    a = _no_bool(_input(a, "mean", dtype), "ReduceMean", RuntimeError)
    return _mean(a, axis_tuple(axis, len(shape_of(a)), "mean"), keepdims, "mean")


def _extreme(a, axis, keepdims, initial, where, op, largest):
    a = as_tensor(a, op)
    axes = axis_tuple(axis, len(shape_of(a)), op)
    if 0 in shape_of(a):
        raise ValueError(f"For '{op}', zero-size tensors are not supported.")
    _no_bool(a, op)
    if where is not None and where is not True:
        if initial is None:
            raise ValueError(f"For '{op}', initial value must be set when where is used")
        mask = as_tensor(where, op)
        a = F.where(F.broadcast_to(cast(mask, np.bool_), shape_of(a)), a,
                    F.full_like(a, initial))
    if not axes and shape_of(a):
        out = F.identity(a)
    else:
        out = (F.amax if largest else F.amin)(a, axes if axes else None, keepdims)
    if initial is not None:
        out = cast((F.maximum if largest else F.minimum)(out, initial), dtype_of(a))
    return out


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    return _extreme(a, axis, keepdims, initial, where, "amax", True)


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    return _extreme(a, axis, keepdims, initial, where, "amin", False)


max, min = amax, amin  # noqa: A001  (numpy's names)


def ptp(x, axis=None, keepdims=False):
    """max - min along axis."""
    return amax(x, axis, keepdims) - amin(x, axis, keepdims)


def _spread(x, axis, ddof, keepdims, op, variance):
    x = _no_bool(as_tensor(x, op), op, RuntimeError)
    if dtype_of(x).kind != "f":
        x = cast(x, _F32)
    axes = axis_tuple(axis, len(shape_of(x)), op)
    out = F.var(x, axes if axes else None, ddof, keepdims)
    return out if variance else F.sqrt(out)


def var(x, axis=None, ddof=0, keepdims=False):
    return _spread(x, axis, ddof, keepdims, "var", True)


def std(x, axis=None, ddof=0, keepdims=False):
    return _spread(x, axis, ddof, keepdims, "std", False)


def average(x, axis=None, weights=None, returned=False):
    """The mean along axis, weighted by `weights` (of x's shape, or 1-D along one axis);
    with `returned` also the sum of the weights."""
    x = _no_bool(as_tensor(x, "average"), "average", RuntimeError)
    axes = axis_tuple(axis, len(shape_of(x)), "average")
    if weights is None:
        out = _mean(x, axes, False, "average")
        count = float(np.prod([shape_of(x)[i] for i in axes]))
        return (out, F.full_like(out, count)) if returned else out
    w = as_tensor(weights, "average")
    if shape_of(w) != shape_of(x):
        if len(shape_of(w)) != 1 or len(axes) != 1 or shape_of(w)[0] != shape_of(x)[axes[0]]:
            raise ValueError(f"For 'average', the weights of shape {shape_of(w)} must have "
                             f"the shape of x {shape_of(x)} or be 1-D along one axis")
        view = [1] * len(shape_of(x))
        view[axes[0]] = shape_of(w)[0]
        w = F.broadcast_to(F.reshape(w, tuple(view)), shape_of(x))
    total = _sum(w, axes, False)
    out = _sum(x * w, axes, False) / total
    if dtype_of(x).kind in "iu":        # integers stay integers, as MindSpore's
        out = cast(out, dtype_of(x))
    return (out, F.broadcast_to(total, shape_of(out))) if returned else out


def _searched(a, op):
    """The input of argmax/argmin; an empty one is a RuntimeError, as MindSpore's."""
    a = as_tensor(a, op)
    if 0 in shape_of(a):
        raise RuntimeError(f"For '{op}', the input must not be empty, but got shape "
                           f"{shape_of(a)}")
    return a


def argmax(a, axis=None):
    """int64 indices; for axis None the index in the flattened input."""
    a = _searched(a, "argmax")
    if dtype_of(a).kind == "b":
        a = cast(a, _I32)
    if axis is None:
        return F.argmax(F.reshape(a, (-1,)))
    return F.argmax(a, one_axis(axis, len(shape_of(a)), "argmax"))


def argmin(a, axis=None):
    """int32 indices (int64 of a 0-d input), as MindSpore's."""
    a = _searched(a, "argmin")
    kind = _I32 if shape_of(a) else _I64
    if dtype_of(a).kind == "b":
        a = cast(a, _I32)
    if axis is None:
        return cast(F.argmin(F.reshape(a, (-1,)), 0), kind)
    return cast(F.argmin(a, one_axis(axis, len(shape_of(a)), "argmin")), kind)


def _scan(a, axis, dtype, op, scan):
    a = _input(a, op, dtype)
    if dtype_of(a).kind == "b":
        a = cast(a, _I32)
    if axis is None:
        a, axis = F.reshape(a, (-1,)), 0
    return scan(a, one_axis(axis, len(shape_of(a)), op), dtype_of(a))


def cumsum(a, axis=None, dtype=None):
    return _scan(a, axis, dtype, "cumsum", F.cumsum)


def cumprod(a, axis=None, dtype=None):
    return _scan(a, axis, dtype, "cumprod", F.cumprod)


def count_nonzero(x, axis=None, keepdims=False):
    x = _no_bool(as_tensor(x, "count_nonzero"), "count_nonzero")
    axes = axis_tuple(axis, len(shape_of(x)), "count_nonzero")
    return F.count_nonzero(x, axes, keepdims, np.int32)


def sometrue(a, axis=None, keepdims=False):
    a = as_tensor(a, "sometrue")
    return F.any(a, axis_tuple(axis, len(shape_of(a)), "sometrue"), keepdims)


# --- ignoring NaN ----------------------------------------------------------------------------
def _nan_replaced(a, value):
    """a with NaN replaced by value (floats only; others have no NaN)."""
    if dtype_of(a).kind != "f":
        return a
    return F.where(F.isnan(a), F.full_like(a, value), a)


def nansum(a, axis=None, dtype=None, keepdims=False):
    """The sum of the non-NaN elements, in the input's type (bools too)."""
    a = _input(a, "nansum", dtype)
    axes = axis_tuple(axis, len(shape_of(a)), "nansum")
    return cast(_sum(_nan_replaced(a, 0), axes, keepdims), dtype_of(a))


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """float32 for every input but float64."""
    a = _input(a, "nanmean", dtype)
    if dtype_of(a) != np.float64:
        a = cast(a, _F32)
    axes = axis_tuple(axis, len(shape_of(a)), "nanmean")
    count = _sum(cast(F.logical_not(F.isnan(a)), dtype_of(a)), axes, keepdims)
    return _sum(_nan_replaced(a, 0), axes, keepdims) / count


def nanmax(a, axis=None, keepdims=False):
    a = as_tensor(a, "nanmax")
    return amax(_nan_replaced(a, -np.inf), axis, keepdims)


def nanmin(a, axis=None, keepdims=False):
    a = as_tensor(a, "nanmin")
    return amin(_nan_replaced(a, np.inf), axis, keepdims)


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """float32 for every input (float64 too), as measured."""
    a = cast(_input(a, "nanvar", dtype), _F32)
    axes = axis_tuple(axis, len(shape_of(a)), "nanvar")
    present = cast(F.logical_not(F.isnan(a)), _F32)
    count = _sum(present, axes, True)
    centred = (_nan_replaced(a, 0) - _sum(_nan_replaced(a, 0), axes, True) / count) * present
    return _sum(centred * centred, axes, keepdims) / (_sum(present, axes, keepdims) - ddof)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    return F.sqrt(nanvar(a, axis, dtype, ddof, keepdims))


def nancumsum(a, axis=None, dtype=None):
    a = _input(a, "nancumsum", dtype)
    return cumsum(_nan_replaced(a, 0), axis)


__all__ = ["sum", "mean", "amax", "amin", "max", "min", "ptp", "var", "std", "average",
           "argmax", "argmin", "cumsum", "cumprod", "count_nonzero", "sometrue", "nansum",
           "nanmean", "nanmax", "nanmin", "nanvar", "nanstd", "nancumsum"]
