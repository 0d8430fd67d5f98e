"""mindspore.numpy's polynomials, convolutions, integration and differences: polyval, polyadd,
polysub, polymul, polyder, polyint, convolve, correlate, trapz, gradient, unwrap. Built on
training.ops (gradients on both backends) except unwrap (computed on the host)."""
import numpy as np

from training.numpy._core import as_tensor, cast, dtype_of, new_tensor, one_axis, shape_of
from training.numpy.array_ops import concatenate, flip
from training.ops import array_kernels as K
from training.ops import functional as F
from training.ops.elementwise import result_dtype

_F32 = np.dtype(np.float32)


def _vector(a, op):
    a = as_tensor(a, op)
    if len(shape_of(a)) != 1:
        raise ValueError(f"For '{op}', the input must be 1-D, but got shape {shape_of(a)}")
    return a


def _floats(*tensors):
    """The tensors in float32 where none is a float (MindSpore's polynomial results)."""
    return [t if dtype_of(t).kind == "f" else cast(t, _F32) for t in tensors]


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-D inputs ('full', 'same', 'valid'): a
    matrix of a's elements shifted (-1: 0) times v."""
    a, v = _vector(a, "convolve"), _vector(v, "convolve")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"For 'convolve', mode must be 'full', 'same' or 'valid', but got "
                         f"{mode!r}")
    if shape_of(a)[0] < shape_of(v)[0]:
        a, v = v, a
    n, m = shape_of(a)[0], shape_of(v)[0]
    if not m:
        raise ValueError("For 'convolve', the inputs must not be empty")
    rows = np.arange(n + m - 1)[:, None] - np.arange(m)[None, :]
    shifted = K.arrange(a, np.where((rows >= 0) & (rows < n), rows, -1))
    dtype = result_dtype([a, v], "convolve")
    out = F.matmul(cast(shifted, dtype), F.reshape(cast(v, dtype), (m, 1)))
    out = F.reshape(out, (n + m - 1,))
    if mode == "same":
        start = (m - 1) // 2
        return F.narrow(out, 0, start, n) if n else out
    if mode == "valid":
        return F.narrow(out, 0, m - 1, n - m + 1)
    return out


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-D inputs: convolve(a, v reversed); float32 for
    integers, as MindSpore's."""
    a, v = _floats(_vector(a, "correlate"), _vector(v, "correlate"))
    if shape_of(a)[0] >= shape_of(v)[0]:
        return convolve(a, flip(v), mode)
    return flip(convolve(flip(a), v, mode))


def polyval(p, x):
    """p[0] * x**(n-1) + ... + p[n-1], by Horner's rule; float32 for integer inputs."""
    p, x = _floats(_vector(p, "polyval"), as_tensor(x, "polyval"))
    out = F.zeros_like(x)
    for coefficient in F.unstack(p, 0):
        out = out * x + coefficient
    return out


def _aligned(a1, a2, op):
    a1, a2 = _vector(a1, op), _vector(a2, op)
    n = max(shape_of(a1)[0], shape_of(a2)[0])
    return [F.pad(t, (n - shape_of(t)[0], 0)) for t in (a1, a2)]


def polyadd(a1, a2):
    return F.add(*_aligned(a1, a2, "polyadd"))


def polysub(a1, a2):
    return F.sub(*_aligned(a1, a2, "polysub"))


def polymul(a1, a2):
    return convolve(a1, a2)


def polyder(p, m=1):
    """The m-th derivative's coefficients; integers stay integers."""
    p = _vector(p, "polyder")
    if m < 0:
        raise ValueError("For 'polyder', order of derivative must be positive")
    for _ in range(m):
        n = shape_of(p)[0]
        if n <= 1:      # a constant's derivative: no coefficient (float32, as MindSpore's)
            return cast(K.arrange(p, np.zeros(0, np.int64)), _F32)
        p = F.narrow(p, 0, 0, n - 1) * new_tensor(np.arange(n - 1, 0, -1).astype(
            dtype_of(p)), p)
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative's coefficients with integration constants k (0); float32 for
    integers."""
    (p,) = _floats(_vector(p, "polyint"))
    if m < 0:
        raise ValueError("For 'polyint', order of integral must be positive")
    constants = np.zeros(m) if k is None else np.broadcast_to(np.asarray(k, np.float64), (m,))
    for constant in constants:
        n = shape_of(p)[0]
        p = concatenate([p / new_tensor(np.arange(n, 0, -1).astype(dtype_of(p)), p),
                         new_tensor(np.asarray([constant], dtype_of(p)), p)])
    return p


def trapz(y, x=None, dx=1.0, axis=-1):
    """The integral along axis by the trapezoidal rule, float32 (float64 too, as
    MindSpore's)."""
    y = cast(as_tensor(y, "trapz"), _F32)
    axis = one_axis(axis, len(shape_of(y)), "trapz")
    n = shape_of(y)[axis]
    if n < 2:       # no interval: 0
        return F.sum(y, axis) * 0
    pairs = F.narrow(y, axis, 1, n - 1) + F.narrow(y, axis, 0, n - 1)
    if x is None:
        return F.sum(pairs, axis) * (dx / 2)
    x = cast(as_tensor(x, "trapz"), _F32)
    widths = F.narrow(x, -1, 1, n - 1) - F.narrow(x, -1, 0, n - 1)
    if len(shape_of(x)) == 1 and len(shape_of(y)) > 1:
        view = [1] * len(shape_of(y))
        view[axis] = n - 1
        widths = F.reshape(widths, tuple(view))
    return F.sum(pairs * widths, axis) / 2


def gradient(f, *varargs, axis=None, edge_order=1):
    """Central differences inside, one-sided ones at the edges, per axis (spacing varargs:
    one number per axis or one for all); a list for several axes."""
    (f,) = _floats(as_tensor(f, "gradient"))
    if edge_order != 1:
        raise NotImplementedError("For 'gradient', only edge_order=1 is provided")
    ndim = len(shape_of(f))
    axes = list(range(ndim)) if axis is None else [
        one_axis(a, ndim, "gradient") for a in (axis if isinstance(axis, (list, tuple))
                                                 else [axis])]
    spacing = list(varargs) * len(axes) if len(varargs) == 1 else list(varargs) or \
        [1.0] * len(axes)
    out = []
    for a, step in zip(axes, spacing):
        n = shape_of(f)[a]
        if n < 2:
            raise ValueError("For 'gradient', shape of array too small to calculate a numerical "
                             "gradient, at least (edge_order + 1) elements are required.")
        first = F.narrow(f, a, 1, 1) - F.narrow(f, a, 0, 1)
        last = F.narrow(f, a, n - 1, 1) - F.narrow(f, a, n - 2, 1)
        parts = [first]
        if n > 2:
            parts.append((F.narrow(f, a, 2, n - 2) - F.narrow(f, a, 0, n - 2)) / 2)
        out.append(concatenate(parts + [last], a) / step)
    return out[0] if len(out) == 1 else out


def unwrap(p, discont=np.pi, axis=-1):
    """Phase jumps above discont along axis turned into their 2 pi complements (float32 for
    integers); the corrections are constants, so the gradient is the output's."""
    (p,) = _floats(as_tensor(p, "unwrap"))
    values = K.host_array(p)
    corrections = np.unwrap(values, discont, axis) - values
    return p + new_tensor(corrections.astype(dtype_of(p)), p)


__all__ = ["convolve", "correlate", "polyval", "polyadd", "polysub", "polymul", "polyder",
           "polyint", "trapz", "gradient", "unwrap"]
