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
            bound = builtins.max(ndim, 1)
            raise ValueError(f"For '{op}', 'axis' must be in [{-bound}, {bound}), but got {a}")
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
    """The product over axis; integers multiply in int64, as MindSpore's function (its
    primitive ReduceProd keeps the type)."""
    if axis is None and keep_dims:
        raise ValueError("For ProdExt, when axis is None, keep_dims can only set to false, but "
                         "got keep_dims=True.")
    if dtype is None and (axis is None or isinstance(axis, int)) and getattr(
            K.np_dtype_of(input), "kind", "") in "iu":
        dtype = np.int64        # (over None or an int axis; a tuple keeps the type, as measured)
    return reduce_prod(input, axis, keep_dims, dtype)


def reduce_prod(input, axis=None, keep_dims=False, dtype=None):  # noqa: A002
    """The product over axis; the gradient is the product of the other elements."""
    op = "ReduceProd"
    check_kind(_dtype(input, op), "number", op)
    axes = _axes(axis, len(input.shape), op)
    torch = K.torch_of(input)
    if torch:       # float16 multiplied in float32, as MindSpore's kernel (300 * 300 is inf)
        out = input.float() if input.dtype == torch.float16 else input
        for a in sorted(axes, reverse=True):
            out = out.prod(a, keepdim=keep_dims)
        return out.to(input.dtype if dtype is None else K.torch_dtype(torch, np.dtype(dtype)))
    x = K.as_tensor(input)
    data = x.data
    out = np.asarray(data.prod(axis=axes, keepdims=keep_dims)).astype(data.dtype)

    def backward(g):
        """out / x where x is not 0, as MindSpore 2.10 (measured: in float16 the product of
        the others overflows or rounds otherwise: [300, 300, 1e-3, 2] gives 0.6006 and
        90.06, not 0.6001 and inf); at a 0 the product of the others."""
        if data.size == 0:
            return (np.zeros_like(data),)
        kept = _keep(out, axes, keep_dims)
        with np.errstate(all="ignore"):
            others = np.where(data != 0, kept / data, 0).astype(data.dtype)
        if (data == 0).any():
            others = np.where(data != 0, others, _others_product(data, axes))
        return (_keep(g, axes, keep_dims) * others,)
    result = Tensor.from_op(out, (x,), backward) if data.dtype.kind == "f" else Tensor(out)
    return result if dtype is None else K.cast(result, np.dtype(dtype))


def _others_product(data, axes):
    """The product of every other element over axes, for each element (no division)."""
    moved = np.moveaxis(data, axes, builtins.range(-len(axes), 0))
    flat = moved.reshape(moved.shape[:moved.ndim - len(axes)] + (-1,))
    ones = np.ones_like(flat[..., :1])
    before = np.cumprod(np.concatenate([ones, flat[..., :-1]], -1), -1)
    after = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], -1), -1)[..., ::-1]
    others = (before * after).reshape(moved.shape)
    return np.moveaxis(others, builtins.range(-len(axes), 0), axes)


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
    """int32 indices (int64 for a 0-d input, as measured); for axis None the flat index
    (keepdims then unused), as MindSpore's."""
    kind = np.int32 if input.shape else np.int64
    if axis is None:
        return _with_index(input.reshape((-1,)), 0, False, "Argmin", False, kind)[1]
    return _with_index(input, axis, keepdims, "Argmin", False, kind)[1]


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
    if axis is None:        # keepdims unused, as MindSpore's
        return _with_index(input.reshape((-1,)), 0, False, op, largest, np.int64)
    return _with_index(input, axis, keepdims, op, largest, np.int64)


def cumsum(x, axis, dtype=None):
    return _scan(x, axis, dtype, "CumSum", False, False, np.cumsum)


def cumprod(input, dim, dtype=None):  # noqa: A002
    """Integers multiply in int64, as MindSpore's function (its primitive CumProd keeps the
    type)."""
    if dtype is None and getattr(K.np_dtype_of(input), "kind", "") in "iu":
        dtype = np.int64
    return _scan(input, dim, dtype, "CumProd", False, False, np.cumprod)


def _scan(x, axis, dtype, op, exclusive, reverse, scan):
    """cumsum or cumprod along axis (exclusive: shifted by one; reverse: from the end)."""
    from training.ops.functional import cast
    shape = tuple(_shape_of(x, op))
    if not shape:
        raise ValueError(f"For primitive[{op}], the rank of 'x' must be greater than 0, but got 0.")
    axis = _axes(axis, len(shape), op)[0]
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
        out = (y.cumsum(axis) if scan is np.cumsum else y.cumprod(axis)).to(x.dtype)
        return out.flip(axis) if reverse else out
    x = K.as_tensor(x)
    data = np.flip(x.data, axis) if reverse else x.data
    if exclusive and shape[axis]:
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
        if exclusive and shape[axis]:
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
    if not shape:
        raise ValueError("For Sort, the input must have at least 1 dimension, but got 0.")
    axis = _axes(axis, len(shape), "Sort")[0]
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
    if not shape:
        raise RuntimeError("For 'TopK', the dimension of input must be greater than 0, but got "
                           "empty input.")
    dim = -1 if dim is None else dim
    axis = _axes(dim, len(shape), "TopK")[0]
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise TypeError(f"For 'TopK', 'k' must be an int, but got {k!r}")
    if not 0 < k <= shape[axis]:
        raise ValueError(f"For primitive[TopK], the k must be in (0,{shape[axis]}], but got {k}.")
    data = K.host_array(input)
    order = np.argsort(-data if largest else data, axis=axis, kind="stable")
    order = np.take(order, builtins.range(k), axis)
    where = np.take_along_axis(K.positions(shape), order, axis)
    torch = K.torch_of(input)
    indices = order.astype(np.int32)
    return K.arrange(input, where), (torch.as_tensor(indices, device=input.device)
                                     if torch else Tensor(indices))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002,N803
    """torch.linalg.norm's rules, as MindSpore's: a vector norm over an int dim, of every
    element for ord None and dim None, or of a 1-D input; a matrix norm over two axes (a
    2-tuple dim, or a 2-D input with ord given): 'fro', 'nuc', inf, -inf, 1, -1, 2, -2."""
    from training.ops import functional as F
    if dtype is not None:
        A = F.cast(A, dtype)
    ndim = len(A.shape)
    matrix = isinstance(dim, (tuple, list)) and len(dim) == 2 or (
        dim is None and ord is not None and ndim == 2)
    if matrix:
        return _matrix_norm(A, ord, (0, 1) if dim is None else tuple(dim), keepdim)
    if dim is None and ord is not None and ndim > 2:
        raise ValueError(f"For 'norm', an input of {ndim} dimensions needs 'dim' when 'ord' is "
                         f"given")
    if isinstance(ord, str):
        raise TypeError(f"For norm, ord mode can not be str for vectors, but got {ord}.")
    if ord is not None and (
            not isinstance(ord, (int, float)) or isinstance(ord, bool)):
        raise ValueError(f"For 'norm', a vector norm's 'ord' must be a number, but got {ord!r}")
    axes = _axes(dim, ndim, "norm")
    if ord == 0:        # a count of non-zeros, int64 for integers as MindSpore's
        kind = _dtype(A, "norm")
        return F.sum(F.cast(F.not_equal(A, 0), kind if kind.kind == "f" else np.int64), axes,
                     keepdim)
    if _dtype(A, "norm").kind != "f" and (ord is None or dim is None and ord not in (
            float("inf"), float("-inf"))):
        A = F.cast(A, np.float32)       # (MindSpore refuses integers with a dim)
    if ord is None:
        ord = 2
    elif dim is not None and ord not in (float("inf"), float("-inf")) and \
            _dtype(A, "norm") == np.float64:
        raise TypeError("For primitive[LpNorm], the input argument[input] must be a type of "
                        "{Tensor[Float16], Tensor[Float32]}, but got Tensor[Float64]")
    if ord not in (float("inf"), float("-inf")):      # (the extremes keep integers)
        check_kind(_dtype(A, "norm"), "float", "norm")
    magnitude = F.abs(A)
    if ord in (float("inf"), float("-inf")) and 0 in tuple(A.shape):
        raise ValueError("ArgMaxWithValue cannot deal with empty input. Please try other inputs")
    if ord == float("inf"):
        return F.amax(magnitude, axes, keepdim)
    if ord == float("-inf"):
        return F.amin(magnitude, axes, keepdim)
    return F.pow(F.sum(F.pow(magnitude, ord), axes, keepdim), 1.0 / ord)


_MATRIX_ORDS = ("fro", "nuc", float("inf"), float("-inf"), 1, -1, 2, -2)


def _matrix_norm(A, ord, dim, keepdim):  # noqa: A002
    from training.ops import functional as F
    if ord not in _MATRIX_ORDS or isinstance(ord, bool):
        raise ValueError(f"For norm, the ord mode must be in {list(_MATRIX_ORDS)}, but got "
                         f"{ord!r}")
    A = _matrix_norm_input(A, ord)
    rows, columns = _axes(dim, len(A.shape), "norm") if dim[0] != dim[1] else (None, None)
    if rows is None:
        raise ValueError(f"For 'norm', 'dim' must name two different axes, but got {dim}")
    rows, columns = dim[0] % len(A.shape), dim[1] % len(A.shape)
    magnitude = F.abs(A)
    if ord == "fro":
        return F.sqrt(F.sum(F.square(A), (rows, columns), keepdim))
    if ord in (float("inf"), float("-inf"), 1, -1):
        summed, over = (columns, rows) if ord in (float("inf"), float("-inf")) else \
            (rows, columns)
        if A.shape[over] == 0:
            raise ValueError(f"{'ArgMax' if ord > 0 else 'ArgMin'}WithValue cannot deal with "
                             f"empty input. Please try other inputs")
        pick = F.amax if ord > 0 else F.amin
        # (torch sums int32 in int64; MindSpore keeps the type for inf)
        out = F.cast(pick(F.sum(magnitude, summed, True), over, True), _dtype(A, "norm"))
        return out if keepdim else F.squeeze(out, (rows, columns))
    if 0 in (A.shape[rows], A.shape[columns]):
        raise RuntimeError(f"For Svd, the input can not be a empty tensor, but got: "
                           f"{list(A.shape)}")
    return _singular_norm(A, ord, rows, columns, keepdim)


def _matrix_norm_input(A, ord):  # noqa: A002
    """A in the type MindSpore 2.10 computes the matrix norm ord in: integers and bools sum
    in int64 for 1 and -1, keep their type for inf and -inf (bools refused), and are float32
    for 'fro' (bools refused), 'nuc', 2 and -2, as float16 is for the singular values
    (measured: norm of int32 [[-2, -1, 0], [1, 2, 3]] is int64 3 for ord 1, int32 6 for inf,
    float32 3.9396 for 2)."""
    from training.ops import functional as F
    kind = _dtype(A, "norm")
    if kind.kind == "f":
        return F.cast(A, np.float32) if kind == np.float16 and ord in (2, -2, "nuc") else A
    if kind == np.bool_ and ord in ("fro", float("inf"), float("-inf")):
        refused = "Square" if ord == "fro" else "ArgMaxWithValue" if ord > 0 else \
            "ArgMinWithValue"
        raise TypeError(f"Select CPU operator[{refused}] fail! Unsupported data type!")
    if ord in (1, -1):
        return F.cast(A, np.int64)
    return A if ord in (float("inf"), float("-inf")) else F.cast(A, np.float32)


def _singular_norm(A, ord, rows, columns, keepdim):  # noqa: A002
    """The largest (2) or smallest (-2) singular value, or their sum ('nuc'), over the axes
    rows and columns; the gradient u v^T of the singular vectors used."""
    torch = K.torch_of(A)
    if torch:
        return torch.linalg.matrix_norm(A, ord, dim=(rows, columns), keepdim=keepdim)
    x = K.as_tensor(A)
    moved = np.moveaxis(x.data, (rows, columns), (-2, -1))
    u, sigma, vh = np.linalg.svd(moved, full_matrices=False)
    chosen = {2: builtins.slice(0, 1), -2: builtins.slice(-1, None),
              "nuc": builtins.slice(None)}[ord]
    out = sigma[..., chosen].sum(-1).astype(x.dtype)
    if keepdim:
        out = np.expand_dims(out, (rows, columns))

    def backward(g):
        g = g if not keepdim else np.squeeze(g, (rows, columns))
        grad = u[..., :, chosen] @ vh[..., chosen, :] * g[..., None, None]
        return (np.moveaxis(grad, (-2, -1), (rows, columns)).astype(x.dtype),)
    return Tensor.from_op(np.asarray(out), (x,), backward)


def lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):  # noqa: A002
    """The primitive LpNorm: (sum |x|^p)^(1/p) over axis, float16 and float32 only."""
    if _dtype(input, "LpNorm") not in (np.float16, np.float32):
        raise TypeError(f"For primitive[LpNorm], the input argument[input] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32]}}, but got {input.dtype}")
    axes = _axes(axis, len(input.shape), "LpNorm")
    torch = K.torch_of(input)
    if torch:
        return torch.linalg.vector_norm(input, p, axes, keep_dims)
    x = K.as_tensor(input)
    data = x.data
    out = np.power(np.sum(np.power(np.abs(data), p), axes, keepdims=True), 1.0 / p)

    def backward(g):
        """sign(x) |x|^(p-1) / max(norm, epsilon)^(p-1): zero at a zero vector."""
        g = _keep(g, axes, keep_dims)
        scale = np.power(np.maximum(out, epsilon), p - 1)
        return ((g * np.sign(data) * np.power(np.abs(data), p - 1) / scale).astype(data.dtype),)
    result = out if keep_dims else np.squeeze(out, axes)
    return Tensor.from_op(np.asarray(result, data.dtype), (x,), backward)


def l2_normalize(x, axis=0, epsilon=1e-4):
    """x / sqrt(max(sum(x^2) over axis, epsilon))."""
    from training.ops import functional as F
    check_kind(_dtype(x, "L2Normalize"), "float", "L2Normalize")
    if not x.shape:
        raise TypeError("For 'L2Normalize', input shape size must be > 0.")
    if np.asarray(epsilon, _dtype(x, "L2Normalize")) == 0:
        raise RuntimeError("For 'L2Normalize', the parameter of 'epsilon' can not be zero.")
    axes = _axes(axis, len(x.shape), "L2Normalize")
    squared = F.sum(F.square(x), axes, True)
    return x / F.sqrt(F.clamp(squared, epsilon))


def var(input, axis=None, ddof=0, keepdims=False):  # noqa: A002
    """The variance over axis (every axis for None), dividing by n - ddof. float16 with ddof
    0 or 1 is MindSpore's ReduceStd squared: computed in float32 (var([300, -300, 200, 0]) is
    52512 in MindSpore 2.10; the float16 sum of the squared deviations gave inf)."""
    from training.ops import functional as F
    axes = _var_axes(input, axis, "var")
    if _dtype(input, "var") == np.float16 and ddof in (0, 1):
        return F.square(_reduce_std(input, axes, ddof, keepdims))
    count = int(np.prod([input.shape[a] for a in axes], dtype=np.int64))
    centred = input - F.mean(input, axes, True)
    scale = 1.0 / (count - ddof) if count > ddof else float("nan")
    return F.sum(F.square(centred), axes, keepdims) * scale


def std(input, axis=None, ddof=0, keepdims=False):  # noqa: A002
    from training.ops import functional as F
    axes = _var_axes(input, axis, "std")
    if _dtype(input, "std") == np.float16 and ddof in (0, 1):
        return _reduce_std(input, axes, ddof, keepdims)
    return F.sqrt(var(input, axis, ddof, keepdims))


def _var_axes(input, axis, op):  # noqa: A002
    check_kind(_dtype(input, op), "float", op)
    if not input.shape and axis is not None:
        raise ValueError(f"The 'axis' must be in the range of [-0, 0), but got {axis}.")
    return _axes(axis, len(input.shape), op)


def _reduce_std(input, axes, ddof, keep_dims):  # noqa: A002
    """MindSpore's ReduceStd of float16: the standard deviation and its gradient
    g * (x - mean) / ((n - ddof) * std) computed in float32, rounded to float16 (MindSpore's
    gradient of var overflows there: inf for var([300, -300, 200, 0]), where this gives 125)."""
    torch = K.torch_of(input)
    if torch:
        return torch.std(input.float(), dim=axes or None, correction=int(ddof),
                         keepdim=keep_dims).to(input.dtype)
    x = K.as_tensor(input)
    wide = x.data.astype(np.float32)
    divisor = np.float32(int(np.prod([wide.shape[a] for a in axes])) - int(ddof))
    deviation = wide - wide.mean(axis=axes, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.sqrt(np.square(deviation).sum(axis=axes, keepdims=True) / divisor)

    def backward(g):
        g = _keep(g, axes, keep_dims).astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            return ((g * deviation / (divisor * spread)).astype(np.float16),)
    out = spread if keep_dims else np.squeeze(spread, axes)
    return Tensor.from_op(np.asarray(out).astype(np.float16), (x,), backward)


def logsumexp(input, dim, keepdim=False):  # noqa: A002
    """log(sum(exp(input))) over dim, shifted by the maximum so that large values stay
    finite."""
    from training.ops import functional as F
    check_kind(_dtype(input, "logsumexp"), "float", "logsumexp")
    axes = _axes(dim, len(input.shape), "logsumexp")
    empty = 0 in tuple(input.shape)        # (no maximum to shift by)
    shift = 0.0 if empty else F.stop_gradient(F.amax(input, axes, True))
    out = F.log(F.sum(F.exp(input - shift), axes, True)) + shift
    return out if keepdim else F.squeeze(out, axes)


__all__ = ["var", "std", "logsumexp", "prod", "all", "any", "count_nonzero", "argmin", "max",
           "min", "cumsum", "cumprod", "sort", "topk", "norm", "lp_norm", "l2_normalize"]
