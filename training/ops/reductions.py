"""`mindspore.ops` reductions, scans and searches (prod, all, any, argmin, max/min with
indices, cumsum, cumprod, sort, topk, norm, count_nonzero) on both backends, with MindSpore's
argument names and output types (indices int32 from the primitives, int64 from argmin)."""
import builtins

import numpy as np

from training.ops import array_kernels as K
from training.ops.elementwise import check_kind
from training.tensor import Tensor


def _axes(axis, ndim, op):
    """A tuple of non-negative axes; () and None mean every axis."""
    if axis is None or axis == () or axis == []:
        return tuple(builtins.range(ndim))
    axes = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    for a in axes:
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise TypeError(f"For '{op}', 'axis' must be an int or a tuple of ints, but got "
                            f"{axis!r}")
        if not -builtins.max(ndim, 1) <= a < builtins.max(ndim, 1):
            raise ValueError(f"For '{op}', 'axis' must be in [{-builtins.max(ndim, 1)}, {builtins.max(ndim, 1)}), "
                             f"but got {a}")
    axes = tuple(sorted({a % builtins.max(ndim, 1) for a in axes}))
    return axes if ndim else ()


def _keep(g, axes, keep_dims):
    return g if keep_dims else np.expand_dims(g, axes)


def _dtype(x, op):
    dtype = K.np_dtype_of(x)
    if dtype is None:
        raise TypeError(f"For '{op}', the input must be a Tensor, but got {type(x).__name__}")
    return dtype


def prod(input, axis=None, keep_dims=False, dtype=None):  # noqa: A002
    """The product over axis; the gradient is the product of the other elements."""
    op = "ReduceProd"
    check_kind(_dtype(input, op), "number", op)
    axes = _axes(axis, len(input.shape), op)
    torch = K.torch_of(input)
    if torch:
        out = input
        for a in sorted(axes, reverse=True):
            out = out.prod(a, keepdim=keep_dims)
        return out if dtype is None else out.to(K.torch_dtype(torch, np.dtype(dtype)))
    x = K.as_tensor(input)
    data = x.data
    out = np.asarray(data.prod(axis=axes, keepdims=keep_dims)).astype(data.dtype)

    def backward(g):
        moved = np.moveaxis(data, axes, builtins.range(-len(axes), 0))
        flat = moved.reshape(moved.shape[:moved.ndim - len(axes)] + (-1,))
        ones = np.ones_like(flat[..., :1])
        before = np.cumprod(np.concatenate([ones, flat[..., :-1]], -1), -1)
        after = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], -1), -1)[..., ::-1]
        others = (before * after).reshape(moved.shape)
        others = np.moveaxis(others, builtins.range(-len(axes), 0), axes)
        return (_keep(g, axes, keep_dims) * others,)
    result = Tensor.from_op(out, (x,), backward) if data.dtype.kind == "f" else Tensor(out)
    return result if dtype is None else K.cast(result, np.dtype(dtype))


def _logical_reduce(input, axis, keep_dims, op, reduce):  # noqa: A002
    _dtype(input, op)
    axes = _axes(axis, len(input.shape), op)
    torch = K.torch_of(input)
    if torch:
        out = input.bool()
        for a in sorted(axes, reverse=True):
            out = getattr(out, reduce)(a, keepdim=keep_dims)
        return out
    return Tensor(np.asarray(getattr(np, reduce)(input.data, axis=axes, keepdims=keep_dims)))


def all(input, axis=None, keep_dims=False):  # noqa: A001,A002  (MindSpore's names)
    return _logical_reduce(input, axis, keep_dims, "ReduceAll", "all")


def any(input, axis=None, keep_dims=False):  # noqa: A001,A002
    return _logical_reduce(input, axis, keep_dims, "ReduceAny", "any")


def count_nonzero(x, axis=(), keep_dims=False, dtype=np.int32):
    from training.ops.functional import _np_dtype
    axes = _axes(axis, len(x.shape), "count_nonzero")
    torch = K.torch_of(x)
    if torch:
        out = (x != 0).sum(dim=axes, keepdim=keep_dims) if axes else (x != 0).long()
        return out.to(K.torch_dtype(torch, _np_dtype(dtype)))
    return Tensor(np.asarray(np.count_nonzero(x.data, axis=axes, keepdims=keep_dims)
                             ).astype(_np_dtype(dtype)))


def _with_index(input, axis, keep_dims, op, largest, index_dtype):  # noqa: A002
    """(values, indices) of the max (largest) or min over one axis; the gradient goes to the
    first extreme element."""
    shape = tuple(input.shape)
    _dtype(input, op)
    axis = _axes(axis, len(shape), op)[0] if shape else 0
    data = K.host_array(input)
    if data.size == 0:
        raise ValueError(f"For '{op}', the input must not be empty, but got shape {shape}")
    index = (np.argmax if largest else np.argmin)(data.reshape(shape or (1,)), axis=axis)
    index = np.expand_dims(index, axis) if shape else index.reshape(())
    where = np.take_along_axis(K.positions(shape), index, axis) if shape else \
        K.positions(shape)
    if not keep_dims and shape:
        index, where = np.squeeze(index, axis), np.squeeze(where, axis)
    values = K.arrange(input, where)
    torch = K.torch_of(input)
    indices = torch.as_tensor(index.astype(index_dtype), device=input.device) if torch else \
        Tensor(index.astype(index_dtype))
    return values, indices


def argmin(input, axis=None, keepdims=False):  # noqa: A002
    """int64 indices; every element flattened for axis None."""
    if axis is None:
        flat = input.reshape((-1,))
        _, index = _with_index(flat, 0, False, "Argmin", False, np.int64)
        return index if not keepdims else index.reshape((1,) * len(input.shape))
    return _with_index(input, axis, keepdims, "Argmin", False, np.int64)[1]


def max(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001,A002
    """(values, int64 indices) over axis; for None, the maximum of every element and its flat
    index."""
    return _extreme_pair(input, axis, keepdims, initial, where, True)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001,A002
    return _extreme_pair(input, axis, keepdims, initial, where, False)


def _extreme_pair(input, axis, keepdims, initial, where, largest):  # noqa: A002
    op = "max" if largest else "min"
    if initial is not None or where is not None:
        raise ValueError(f"For '{op}', 'initial' and 'where' are not provided")
    if axis is None:
        values, index = _with_index(input.reshape((-1,)), 0, False, op, largest, np.int64)
        if keepdims:
            ones = (1,) * len(input.shape)
            return values.reshape(ones), index.reshape(ones)
        return values, index
    return _with_index(input, axis, keepdims, op, largest, np.int64)


def cumsum(x, axis, dtype=None):
    return _scan(x, axis, dtype, "CumSum", False, False, np.cumsum)


def cumprod(input, dim, dtype=None):  # noqa: A002
    return _scan(input, dim, dtype, "CumProd", False, False, np.cumprod)


def _scan(x, axis, dtype, op, exclusive, reverse, scan):
    """cumsum or cumprod along axis (exclusive: shifted by one; reverse: from the end)."""
    from training.ops.functional import cast
    shape = tuple(_shape_of(x, op))
    axis = _axes(axis, len(shape), op)[0] if shape else 0
    if dtype is not None:
        x = cast(x, dtype)
    check_kind(K.np_dtype_of(x), "number", op)
    torch = K.torch_of(x)
    if torch:
        y = x.flip(axis) if reverse else x
        if exclusive:
            pad = [0, 0] * (len(shape) - 1 - axis) + [1, 0]
            identity = 0 if scan is np.cumsum else 1
            y = torch.nn.functional.pad(y, pad, value=identity).narrow(axis, 0, shape[axis])
        out = y.cumsum(axis) if scan is np.cumsum else y.cumprod(axis)
        return out.flip(axis) if reverse else out
    x = K.as_tensor(x)
    data = np.flip(x.data, axis) if reverse else x.data
    if exclusive:
        identity = np.zeros_like if scan is np.cumsum else np.ones_like
        first = identity(np.take(data, [0], axis))
        data = np.concatenate([first, np.take(data, builtins.range(shape[axis] - 1), axis)],
                              axis)
    out = scan(data, axis=axis).astype(x.dtype)

    def backward(g):
        g = np.flip(g, axis) if reverse else g
        if scan is np.cumsum:
            grad = np.flip(np.cumsum(np.flip(g, axis), axis), axis)
        else:
            with np.errstate(all="ignore"):
                grad = np.flip(np.cumsum(np.flip(g * out, axis), axis), axis) / data
        if exclusive:
            grad = np.concatenate([np.take(grad, builtins.range(1, shape[axis]), axis),
                                   np.zeros_like(np.take(grad, [0], axis))], axis)
        return (np.flip(grad, axis) if reverse else grad,)
    return Tensor.from_op(np.flip(out, axis).copy() if reverse else out, (x,), backward) \
        if x.dtype.kind == "f" else Tensor(np.flip(out, axis).copy() if reverse else out)


def _shape_of(x, op):
    _dtype(x, op)
    return x.shape


def sort(input_x, axis=-1, descending=False):
    """(sorted values, int32 indices) along axis, stable."""
    shape = tuple(_shape_of(input_x, "Sort"))
    axis = _axes(axis, len(shape), "Sort")[0] if shape else 0
    data = K.host_array(input_x).reshape(shape or (1,))
    key = -data if descending and data.dtype.kind != "b" else data
    order = np.argsort(~key if data.dtype.kind == "b" and descending else key, axis=axis,
                       kind="stable")
    where = np.take_along_axis(K.positions(shape or (1,)), order, axis).reshape(shape)
    torch = K.torch_of(input_x)
    indices = order.astype(np.int32).reshape(shape)
    return K.arrange(input_x, where), (torch.as_tensor(indices, device=input_x.device)
                                       if torch else Tensor(indices))


def topk(input, k, dim=None, largest=True, sorted=True):  # noqa: A002
    """(the k largest (smallest) values along dim (the last axis for None), int32 indices)."""
    shape = tuple(_shape_of(input, "TopK"))
    dim = -1 if dim is None else dim
    axis = _axes(dim, len(shape), "TopK")[0] if shape else 0
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise TypeError(f"For 'TopK', 'k' must be an int, but got {k!r}")
    size = shape[axis] if shape else 1
    if not 0 <= k <= size:
        raise ValueError(f"For 'TopK', 'k' must be in [0, {size}], but got {k}")
    data = K.host_array(input).reshape(shape or (1,))
    order = np.argsort(-data if largest else data, axis=axis, kind="stable")
    order = np.take(order, builtins.range(k), axis)
    where = np.take_along_axis(K.positions(shape or (1,)), order, axis)
    torch = K.torch_of(input)
    indices = order.astype(np.int32)
    if not shape:
        where, indices = where.reshape(()), indices.reshape(())
    return K.arrange(input, where), (torch.as_tensor(indices, device=input.device)
                                     if torch else Tensor(indices))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002,N803
    """Vector norms over dim (every element for None): ord None or 2 (Euclidean), inf, -inf,
    0 (count of non-zeros), any other number p (sum |x|^p)^(1/p); 'fro' over two axes."""
    from training.ops import functional as F
    if dtype is not None:
        A = F.cast(A, dtype)
    check_kind(_dtype(A, "norm"), "float", "norm")
    axes = _axes(dim, len(A.shape), "norm")
    if ord == "fro" or ord is None:
        ord = 2
    if isinstance(ord, str) or not isinstance(ord, (int, float)) or isinstance(ord, bool):
        raise ValueError(f"For 'norm', 'ord' must be None, 'fro' or a number (vector norms), "
                         f"but got {ord!r}")
    magnitude = F.abs(A)
    if ord == float("inf"):
        return F.amax(magnitude, axes, keepdim)
    if ord == float("-inf"):
        return F.amin(magnitude, axes, keepdim)
    if ord == 0:
        return F.sum(F.cast(F.not_equal(A, 0), A.dtype), axes, keepdim)
    return F.pow(F.sum(F.pow(magnitude, ord), axes, keepdim), 1.0 / ord)


def lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):  # noqa: A002
    """The primitive LpNorm: (sum |x|^p)^(1/p) over axis (the gradient with epsilon)."""
    return norm(input, p, axis, keep_dims)


def l2_normalize(x, axis=0, epsilon=1e-4):
    """x / sqrt(max(sum(x^2) over axis, epsilon))."""
    from training.ops import functional as F
    axes = _axes(axis, len(x.shape), "L2Normalize")
    squared = F.sum(F.square(x), axes, True)
    return x / F.sqrt(F.maximum(squared, epsilon))


__all__ = ["prod", "all", "any", "count_nonzero", "argmin", "max", "min", "cumsum", "cumprod",
           "sort", "topk", "norm", "lp_norm", "l2_normalize"]
