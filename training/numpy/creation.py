"""mindspore.numpy's array creation: from data (array, asarray, ...), filled (zeros, full,
*_like), ranges (arange, linspace, ...), matrices (eye, tri, tril, diag, ...) and grids
(meshgrid, indices). Results are training Tensors; the ones made from a tensor (tril, diag,
meshgrid, ...) keep its backend and gradient."""
import builtins

import numpy as np

from training.numpy._core import (as_tensor, dtype_of, int_argument, is_tensor, np_dtype,
                                  shape_argument, shape_of, torch_of)
from training.ops import array_kernels as K
from training.ops import functional as F
from training.tensor import Tensor


# --- from data -------------------------------------------------------------------------------
def array(obj, dtype=None, copy=True, ndmin=0):  # noqa: A002  (numpy's names)
    """A tensor of `obj` (Python ints int32, floats float32), cast to `dtype`, with at least
    `ndmin` dimensions (ones in front)."""
    out = as_tensor(obj, "array", dtype)
    if copy and out is obj:
        out = F.identity(out)
    missing = int_argument(ndmin, "array", "ndmin") - len(shape_of(out))
    return F.reshape(out, (1,) * missing + shape_of(out)) if missing > 0 else out


def asarray(a, dtype=None):
    return as_tensor(a, "asarray", dtype)


def asfarray(a, dtype=np.float32):
    """`a` as a float tensor: an integer or bool `dtype` gives float32."""
    dtype = np_dtype(dtype)
    return as_tensor(a, "asfarray", dtype if dtype.kind == "f" else np.float32)


def copy(a):
    return F.identity(as_tensor(a, "copy"))


# --- filled ----------------------------------------------------------------------------------
def _filled(shape, value, dtype, op):
    return Tensor(np.full(shape_argument(shape, op), value, np_dtype(dtype)))


def zeros(shape, dtype=np.float32):
    return _filled(shape, 0, dtype, "zeros")


def ones(shape, dtype=np.float32):
    return _filled(shape, 1, dtype, "ones")


def empty(shape, dtype=np.float32):
    """Zeros (MindSpore's empty is filled too)."""
    return _filled(shape, 0, dtype, "empty")


def full(shape, fill_value, dtype=None):
    """`fill_value` (a number, list or tensor, broadcast) everywhere; its type without
    `dtype` (Python ints int32, floats float32)."""
    shape = shape_argument(shape, "full")
    value = as_tensor(fill_value, "full")
    dtype = np_dtype(dtype) or dtype_of(value)
    return Tensor(np.broadcast_to(K.host_array(value).astype(dtype), shape).copy())


def _like(a, value, dtype, op):
    a = as_tensor(a, op)
    dtype = np_dtype(dtype) or dtype_of(a)
    torch = torch_of(a)
    array_ = np.full(shape_of(a), K.host_array(as_tensor(value, op)), dtype)
    return torch.as_tensor(array_, device=a.device) if torch else Tensor(array_)


def zeros_like(a, dtype=None):
    return _like(a, 0, dtype, "zeros_like")


def ones_like(a, dtype=None):
    return _like(a, 1, dtype, "ones_like")


def empty_like(prototype, dtype=None):
    return _like(prototype, 0, dtype, "empty_like")


def full_like(a, fill_value, dtype=None):
    return _like(a, fill_value, dtype, "full_like")


# --- ranges ----------------------------------------------------------------------------------
def _number(value, op, name):
    if is_tensor(value) and not shape_of(value):
        value = K.host_array(value).item()
    if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, bool):
        raise TypeError(f"For '{op}', '{name}' must be an int or a float, but got {value!r}")
    return value


def arange(start, stop=None, step=None, dtype=None):
    """int32 for int arguments, float32 if one is a float; an empty range is a ValueError,
    as MindSpore's (it has no zero-size tensors here)."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    values = [_number(v, "arange", n) for v, n in zip((start, stop, step),
                                                      ("start", "stop", "step"))]
    if values[2] == 0:
        raise ValueError("For 'arange', 'step' must not be 0.")
    kind = np.float32 if builtins.any(isinstance(v, (float, np.floating)) for v in values) \
        else np.int32
    out = np.arange(*values, dtype=np.float64).astype(np_dtype(dtype) or kind)
    if not out.size:
        raise ValueError("For 'arange', zero shape Tensor is not currently supported.")
    return Tensor(out)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values, float32 (another `dtype` truncates); with `retstep`,
    (values, the step)."""
    num = int_argument(num, "linspace", "num")
    if num < 0:
        raise ValueError(f"For 'linspace', 'num' must be non-negative, but got {num}")
    first, last = (np.asarray(K.host_array(as_tensor(v, "linspace")), np.float64)
                   for v in (start, stop))
    values, step = np.linspace(first, last, num, endpoint=endpoint, retstep=True, axis=axis)
    out = Tensor(values.astype(np.float32).astype(np_dtype(dtype) or np.float32))
    return (out, Tensor(np.asarray(step, np.float32))) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    exponents = linspace(start, stop, num, endpoint, dtype=np.float32, axis=axis)
    return Tensor(np.power(np.float32(base), exponents.data).astype(np_dtype(dtype) or
                                                                     np.float32))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    first, last = (np.asarray(K.host_array(as_tensor(v, "geomspace")), np.float64)
                   for v in (start, stop))
    values = np.geomspace(first, last, int_argument(num, "geomspace", "num"), endpoint,
                          axis=axis)
    return Tensor(values.astype(np.float32).astype(np_dtype(dtype) or np.float32))


# --- matrices --------------------------------------------------------------------------------
def eye(N, M=None, k=0, dtype=np.float32):  # noqa: N803  (numpy's names)
    N = int_argument(N, "eye", "N")
    M = N if M is None else int_argument(M, "eye", "M")
    return Tensor(np.eye(N, M, int_argument(k, "eye", "k"), np_dtype(dtype)))


def identity(n, dtype=np.float32):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=np.float32):  # noqa: N803
    N = int_argument(N, "tri", "N")
    M = N if M is None else int_argument(M, "tri", "M")
    return Tensor(np.tri(N, M, int_argument(k, "tri", "k"), np_dtype(dtype)))


def _square_of_vector(m, op):
    """A 1-D input repeated into a square matrix, as numpy's tril/triu take it."""
    m = as_tensor(m, op)
    if len(shape_of(m)) == 1:
        return F.broadcast_to(m, (shape_of(m)[0],) * 2)
    if not shape_of(m):
        raise ValueError(f"For '{op}', input m's rank should be larger than 0, but got 0")
    return m


def tril(m, k=0):
    return F.tril(_square_of_vector(m, "tril"), int_argument(k, "tril", "k"))


def triu(m, k=0):
    return F.triu(_square_of_vector(m, "triu"), int_argument(k, "triu", "k"))


def diag(v, k=0):
    """A 1-D input on the k-th diagonal of a square matrix; a 2-D input's k-th diagonal."""
    v = as_tensor(v, "diag")
    k = int_argument(k, "diag", "k")
    shape = shape_of(v)
    if len(shape) == 1:
        size = shape[0] + abs(k)
        where = np.full((size, size), -1, np.int64)
        rows = np.arange(shape[0]) + builtins.max(-k, 0)
        where[rows, rows + k] = np.arange(shape[0])
        return K.arrange(v, where)
    if len(shape) == 2:
        return K.arrange(v, np.diagonal(K.positions(shape), k))
    raise ValueError(f"For 'diag', the input must be 1-D or 2-D, but got {len(shape)}-D")


def diagflat(v, k=0):
    return diag(F.reshape(as_tensor(v, "diagflat"), (-1,)), k)


def vander(x, N=None, increasing=False):  # noqa: N803
    """Columns x^(N-1) ... x^0 (increasing: x^0 ...); int32 input stays int32."""
    x = as_tensor(x, "vander")
    if len(shape_of(x)) != 1:
        raise ValueError(f"For 'vander', x must be 1-D, but got shape {shape_of(x)}")
    N = shape_of(x)[0] if N is None else int_argument(N, "vander", "N")
    columns = [F.ones_like(x)] if N else []
    for _ in range(N - 1):      # products, not powers: a finite gradient at negative x
        columns.append(columns[-1] * x)
    if not columns:
        return K.arrange(x, np.zeros((shape_of(x)[0], 0), np.int64))
    return F.stack(columns if increasing else columns[::-1], 1)


# --- grids and index arrays ------------------------------------------------------------------
def meshgrid(*xi, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', 'indexing' must be 'xy' or 'ij', but got "
                         f"{indexing!r}")
    tensors = [as_tensor(x, "meshgrid") for x in xi]
    vectors = [F.reshape(t, (-1,)) for t in tensors]
    count = len(vectors)
    grids = []
    for i, vector in enumerate(vectors):
        shape = [1] * count
        shape[i] = shape_of(vector)[0]
        if indexing == "xy" and count > 1 and i < 2:
            shape[0], shape[1] = shape[1], shape[0]
        grid = F.reshape(vector, tuple(shape))
        if not sparse:
            full_shape = [shape_of(v)[0] for v in vectors]
            if indexing == "xy" and count > 1:
                full_shape[0], full_shape[1] = full_shape[1], full_shape[0]
            grid = F.broadcast_to(grid, tuple(full_shape))
        grids.append(grid)
    return tuple(grids)


def indices(dimensions, dtype=np.int32, sparse=False):
    """A tuple of grids, one per axis, each holding its index along that axis."""
    dimensions = shape_argument(dimensions, "indices")
    return meshgrid(*[arange(n, dtype=dtype) for n in dimensions], sparse=sparse,
                    indexing="ij")


def _triangle_indices(keep, op):
    rows, columns = np.nonzero(keep)
    return Tensor(rows.astype(np.int32)), Tensor(columns.astype(np.int32))


def tril_indices(n, k=0, m=None):
    n = int_argument(n, "tril_indices", "n")
    return _triangle_indices(np.tri(n, n if m is None else m, k, bool), "tril_indices")


def triu_indices(n, k=0, m=None):
    n = int_argument(n, "triu_indices", "n")
    return _triangle_indices(~np.tri(n, n if m is None else m, k - 1, bool), "triu_indices")


def tril_indices_from(arr, k=0):
    shape = shape_of(as_tensor(arr, "tril_indices_from"))
    if len(shape) != 2:
        raise ValueError(f"For 'tril_indices_from', input array must be 2-d, but got {shape}")
    return tril_indices(shape[0], k, shape[1])


def triu_indices_from(arr, k=0):
    shape = shape_of(as_tensor(arr, "triu_indices_from"))
    if len(shape) != 2:
        raise ValueError(f"For 'triu_indices_from', input array must be 2-d, but got {shape}")
    return triu_indices(shape[0], k, shape[1])


def diag_indices(n, ndim=2):
    index = Tensor(np.arange(int_argument(n, "diag_indices", "n"), dtype=np.int32))
    return (index,) * int_argument(ndim, "diag_indices", "ndim")


def ix_(*args):
    """Open grids of 1-D index tensors: the k-th reshaped to have its length on axis k."""
    count = len(args)
    out = []
    for k, a in enumerate(args):
        a = as_tensor(a, "ix_")
        if len(shape_of(a)) != 1:
            raise ValueError("For 'ix_', cross index must be 1 dimensional")
        out.append(F.reshape(a, (1,) * k + (-1,) + (1,) * (count - k - 1)))
    return tuple(out)


class _Grid:
    """mgrid / ogrid: `grid[0:2, 0:3]` gives the index grids (int32, or float32 for float
    bounds or a complex step: its count of points, ends included)."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        parts = key if isinstance(key, tuple) else (key,)
        vectors = []
        for part in parts:
            start = 0 if part.start is None else part.start
            step = 1 if part.step is None else part.step
            if isinstance(step, complex):
                vectors.append(linspace(start, part.stop, int(abs(step))))
            else:
                vectors.append(arange(start, part.stop, step))
        grids = meshgrid(*vectors, sparse=self.sparse, indexing="ij")
        if len(grids) == 1:
            return grids[0]
        return grids if self.sparse else F.stack(list(grids), 0)


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


def _window(name, values):
    def function(M):  # noqa: N803  (numpy's name)
        M = int_argument(M, name, "M")
        return Tensor(np.asarray(values(M), np.float32).reshape(-1) if M > 0 else
                      np.zeros(0, np.float32))
    function.__name__ = function.__qualname__ = name
    return function


bartlett = _window("bartlett", np.bartlett)
blackman = _window("blackman", np.blackman)
hamming = _window("hamming", np.hamming)
hanning = _window("hanning", np.hanning)


def unravel_index(indices, shape, order="C"):
    """The coordinates of flat indices in an array of `shape`, int32."""
    index = K.host_array(as_tensor(indices, "unravel_index"))
    coordinates = np.unravel_index(index, shape_argument(shape, "unravel_index"), order)
    return tuple(Tensor(np.asarray(c, np.int32)) for c in coordinates)


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    """The flat indices of coordinates in an array of `dims`, int32 (out-of-range ones
    clipped or wrapped)."""
    coordinates = [K.host_array(as_tensor(c, "ravel_multi_index")) for c in multi_index]
    flat = np.ravel_multi_index(coordinates, shape_argument(dims, "ravel_multi_index"),
                                mode, order)
    return Tensor(np.asarray(flat, np.int32))


__all__ = ["ix_", "mgrid", "ogrid", "bartlett", "blackman", "hamming", "hanning", "unravel_index",
           "ravel_multi_index", "array", "asarray", "asfarray", "copy", "zeros", "ones", "empty",
           "full", "zeros_like", "ones_like", "empty_like", "full_like", "arange", "linspace",
           "logspace", "geomspace", "eye", "identity", "tri", "tril", "triu", "diag", "diagflat",
           "vander", "meshgrid", "indices", "tril_indices", "triu_indices", "tril_indices_from",
           "triu_indices_from", "diag_indices"]
