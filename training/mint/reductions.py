"""mint's reductions and scans, torch-style: `dim`, `keepdim`, `dtype`; integer sums, products
and cumulative sums are int64; max/min with a dim give (values, int64 indices)."""
import collections

import numpy as np

from training.mint._core import (HALF_SINGLE, NUMBERS, cast, dims, dtype_of, host_array,
                                 int64_tensor, one_dim, shape_of, supported, tensor_argument,
                                 widened)
from training.ops import functional as ops

# torch.return_types-like results: scripts read .values / .indices or unpack them.
ValuesIndices = collections.namedtuple("ValuesIndices", ("values", "indices"))


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001,A002
    x = widened(tensor_argument(input, "sum"), dtype)
    # (in x's type: torch sums int32 in int64)
    return cast(ops.sum(x, dims(dim, len(shape_of(x)), "sum"), keepdim), dtype_of(x))


def nansum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """The sum without NaN; an integer tensor's in its type (mint's, not sum's int64),
    bool's int64."""
    if dtype_of(input).kind == "f":
        input = ops.where(ops.isnan(input), ops.zeros_like(input), input)
    elif dtype is None and dtype_of(input) != np.bool_:
        dtype = dtype_of(input)
    return sum(input, dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """The mean; of an integer tensor in its type, truncated (mint's CPU: mean of int32
    [1, -2, 3, 0, 4, -1] is 0)."""
    x = tensor_argument(input, "mean")
    if dtype is None and dtype_of(x) == np.bool_:   # (measured: MindSpore 2.10's ReduceMean)
        raise RuntimeError("For 'ReduceMean', unsupported reduce operation for bool.")
    if dtype is not None:
        x = cast(x, dtype)
    axes = dims(dim, len(shape_of(x)), "mean")
    kind = dtype_of(x)
    if kind.kind in "biu":
        return cast(ops.mean(cast(x, np.float64), axes, keepdim), kind)
    return ops.mean(x, axes, keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    x = widened(tensor_argument(input, "prod"), dtype)
    if dim is None:
        if keepdim:
            raise ValueError("For ProdExt, when axis is None, keep_dims can only set to false, "
                             f"but got keep_dims={keepdim}.")
        return ops.prod(x, tuple(range(len(shape_of(x)))), keepdim)
    return ops.prod(x, one_dim(dim, len(shape_of(x)), "prod"), keepdim)


def _extreme(name, input, dim, keepdim, other):
    if other is None and hasattr(dim, "dtype"):         # max(input, other)
        other = dim
    if other is not None:
        return (ops.maximum if name == "max" else ops.minimum)(input, other)
    if dim is None:
        if dtype_of(input) == np.bool_:     # (measured: MindSpore 2.10's CPU Reduce kernel)
            raise RuntimeError(f"For '{name}', the input's type Bool is not supported")
        return (ops.amax if name == "max" else ops.amin)(input, None, False)
    axis = one_dim(dim, len(shape_of(input)), name)
    supported(input, "MaxDim" if name == "max" else "MinDim", NUMBERS)
    values, indices = (ops.max if name == "max" else ops.min)(input, axis, keepdim)
    return ValuesIndices(values, cast(indices, np.int64))


def max(input, dim=None, keepdim=False, *, out=None, other=None):  # noqa: A001,A002
    """max(input): the largest element (0-d); max(input, dim, keepdim): (values, indices);
    max(input, other): the element-wise maximum."""
    return _extreme("max", tensor_argument(input, "max"), dim, keepdim, other)


def min(input, dim=None, keepdim=False, *, out=None, other=None):  # noqa: A001,A002
    return _extreme("min", tensor_argument(input, "min"), dim, keepdim, other)


def _dim_given(dim, op):
    """amax/amin/any take a dim or () for every axis: None is MindSpore 2.10's TypeError."""
    if dim is None:
        raise TypeError(f"For '{op}', 'dim' must be an int or a tuple of ints, but got None")


def amax(input, dim=(), keepdim=False):  # noqa: A002
    _dim_given(dim, "amax")
    supported(input, "ReduceMax", NUMBERS)
    return ops.amax(input, dims(dim, len(shape_of(input)), "amax"), keepdim)


def amin(input, dim=(), keepdim=False):  # noqa: A002
    _dim_given(dim, "amin")
    supported(input, "ReduceMin", NUMBERS)
    return ops.amin(input, dims(dim, len(shape_of(input)), "amin"), keepdim)


def argmax(input, dim=None, keepdim=False):  # noqa: A002
    return _arg(ops.argmax, input, dim, keepdim, "argmax")


def argmin(input, dim=None, keepdim=False):  # noqa: A002
    return _arg(ops.argmin, input, dim, keepdim, "argmin")


def _arg(op, input, dim, keepdim, name):
    x = tensor_argument(input, name)
    if dim is None:
        out = op(ops.reshape(x, (-1,)), 0, False)
        return cast(ops.reshape(out, (1,) * len(shape_of(x))) if keepdim else out, np.int64)
    return cast(op(x, one_dim(dim, len(shape_of(x)), name), keepdim), np.int64)


def all(input, dim=None, keepdim=False):  # noqa: A001,A002
    return ops.all(cast(input, np.bool_), dims(dim, len(shape_of(input)), "all"), keepdim)


def any(input, dim=None, keepdim=False):  # noqa: A001,A002
    """dim an int or None (a tuple is MindSpore 2.10's TypeError)."""
    if isinstance(dim, (tuple, list)):
        raise TypeError(f"any(): argument 'dim' (position 2) must be int, not "
                        f"{type(dim).__name__}.")
    found = ops.any(cast(input, np.bool_), dims(dim, len(shape_of(input)), "any"), keepdim)
    return cast(found, np.uint8) if dtype_of(input) == np.uint8 else found  # (torch's, mint's)


def var(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    supported(input, "Var", HALF_SINGLE)
    return ops.var(input, dims(dim, len(shape_of(input)), "var"), correction, keepdim)


def std(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    supported(input, "Std", HALF_SINGLE)
    return ops.std(input, dims(dim, len(shape_of(input)), "std"), correction, keepdim)


def var_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    return var(input, dim, correction=correction, keepdim=keepdim), \
        mean(input, dim, keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    return std(input, dim, correction=correction, keepdim=keepdim), \
        mean(input, dim, keepdim)


def logsumexp(input, dim, keepdim=False):  # noqa: A002
    return ops.logsumexp(supported(input, "LogSumExp", HALF_SINGLE), dims(dim, len(shape_of(input)),
                                                              "logsumexp"), keepdim)


def cumsum(input, dim, dtype=None):  # noqa: A002
    x = widened(tensor_argument(input, "cumsum"), dtype)
    return ops.cumsum(x, one_dim(dim, len(shape_of(x)), "cumsum"))


def cumprod(input, dim, dtype=None):  # noqa: A002
    x = widened(tensor_argument(input, "cumprod"), dtype)
    return ops.cumprod(x, one_dim(dim, len(shape_of(x)), "cumprod"))


def _cumulative(input, dim, better, name):
    """(values, int64 indices) of the running extreme along `dim` (the last index of ties)."""
    axis = one_dim(dim, len(shape_of(input)), name)
    data = np.moveaxis(host_array(input), axis, -1)
    index = np.zeros(data.shape, np.int64)
    best = data[..., :1].copy()
    for k in range(1, data.shape[-1] if data.ndim else 0):
        take = better(data[..., k:k + 1], best) | (data[..., k:k + 1] == best) | \
            np.isnan(data[..., k:k + 1])
        best = np.where(take, data[..., k:k + 1], best)
        index[..., k] = np.where(take[..., 0], k, index[..., k - 1])
    index = np.moveaxis(index, -1, axis)
    from training.mint.array_ops import gather
    indices = int64_tensor(index, input)
    return ValuesIndices(gather(input, axis, indices), indices)


def cummax(input, dim):  # noqa: A002
    return _cumulative(supported(input, "Cummax", NUMBERS), dim, np.greater, "cummax")


def cummin(input, dim):  # noqa: A002
    return _cumulative(input, dim, np.less, "cummin")


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """The vector p-norm over `dim` (every element by default); 'fro' is p = 2."""
    x = input if dtype is None else cast(input, dtype)
    x = x if dtype_of(x).kind == "f" else cast(x, np.float32)
    axes = dims(dim, len(shape_of(x)), "norm")
    p = 2.0 if p in ("fro", None) else p
    if p == "nuc":
        raise ValueError("For 'norm', 'nuc' takes a matrix: use mint.linalg.matrix_norm")
    magnitude = ops.abs(x)
    if p == float("inf"):
        return ops.amax(magnitude, axes, keepdim)
    if p == float("-inf"):
        return ops.amin(magnitude, axes, keepdim)
    if p == 0:
        return ops.sum(cast(ops.not_equal(x, 0), dtype_of(x)), axes, keepdim)
    if p == 2:
        return ops.sqrt(ops.sum(ops.square(x), axes, keepdim))
    return ops.pow(ops.sum(ops.pow(magnitude, float(p)), axes, keepdim), 1.0 / p)


def count_nonzero(input, dim=None):  # noqa: A002
    return ops.sum(cast(ops.not_equal(input, 0), np.int64), dims(dim, len(shape_of(input)),
                                                                  "count_nonzero"))


def median(input, dim=None, keepdim=False):  # noqa: A002
    """The lower median (torch's): of every element (0-d), or (values, indices) along dim."""
    from training.mint.array_ops import sort
    if dim is None:
        flat = ops.reshape(input, (-1,))
        values = sort(flat).values
        return values[(int(np.prod(shape_of(input))) - 1) // 2]
    axis = one_dim(dim, len(shape_of(input)), "median")
    ordered = sort(input, dim=axis)
    middle = (shape_of(input)[axis] - 1) // 2
    from training.mint.array_ops import narrow
    values = narrow(ordered.values, axis, middle, 1)
    indices = narrow(ordered.indices, axis, middle, 1)
    if not keepdim:
        values, indices = ops.squeeze(values, axis), ops.squeeze(indices, axis)
    return ValuesIndices(values, indices)
