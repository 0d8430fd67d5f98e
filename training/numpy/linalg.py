"""mindspore.numpy's products and norms: dot, matmul, outer, inner, tensordot, kron, cross,
trace, multi_dot, matrix_power, norm. Built on training.ops (gradients on both backends);
dot, matmul and outer take two tensors of one type, as MindSpore's."""
import numpy as np

from training.numpy._core import as_tensor, cast, dtype_of, int_argument, one_axis, shape_of
from training.numpy.array_ops import diagonal, moveaxis
from training.ops import functional as F
from training.ops.elementwise import result_dtype


def _same_type(op, a, b):
    a, b = as_tensor(a, op), as_tensor(b, op)
    if dtype_of(a) != dtype_of(b):
        raise TypeError(f"For '{op}', the type of 'x2' should be same as 'x1', but got 'x1' "
                        f"with type {dtype_of(a)} and 'x2' with type {dtype_of(b)}.")
    return a, b


def _promoted(op, a, b):
    a, b = as_tensor(a, op), as_tensor(b, op)
    dtype = result_dtype([a, b], op)
    return cast(a, dtype), cast(b, dtype)


def matmul(x1, x2, dtype=None):
    x1, x2 = _same_type("matmul", x1, x2)
    if not shape_of(x1) or not shape_of(x2):
        raise ValueError("For 'matmul', the inputs must not be scalars")
    out = F.matmul(x1, x2)
    return out if dtype is None else cast(out, dtype)


def tensordot(a, b, axes=2):
    """The sum of products over the last `axes` axes of a and the first of b, or over the
    listed pairs."""
    a, b = _promoted("tensordot", a, b)
    if isinstance(axes, (int, np.integer)):
        count = int(axes)
        axes_a = list(range(len(shape_of(a)) - count, len(shape_of(a))))
        axes_b = list(range(count))
    else:
        axes_a, axes_b = ([x] if isinstance(x, int) else list(x) for x in axes)
    axes_a = [one_axis(x, len(shape_of(a)), "tensordot", "axes") for x in axes_a]
    axes_b = [one_axis(x, len(shape_of(b)), "tensordot", "axes") for x in axes_b]
    if len(axes_a) != len(axes_b) or any(shape_of(a)[i] != shape_of(b)[j]
                                         for i, j in zip(axes_a, axes_b)):
        raise ValueError(f"For 'tensordot', shape-mismatch for sum over axes {axes_a} of "
                         f"{shape_of(a)} and {axes_b} of {shape_of(b)}")
    free_a = [i for i in range(len(shape_of(a))) if i not in axes_a]
    free_b = [i for i in range(len(shape_of(b))) if i not in axes_b]
    inner_size = int(np.prod([shape_of(a)[i] for i in axes_a], dtype=np.int64))
    left = F.reshape(F.transpose(a, tuple(free_a + axes_a)), (-1, inner_size))
    right = F.reshape(F.transpose(b, tuple(axes_b + free_b)), (inner_size, -1))
    return F.reshape(F.matmul(left, right), tuple(shape_of(a)[i] for i in free_a) +
                     tuple(shape_of(b)[i] for i in free_b))


def dot(a, b):
    """numpy's dot: 1-D . 1-D the inner product, the last axis of a with the second-last of
    b (the only one of a 1-D b)."""
    a, b = _same_type("dot", a, b)
    if not shape_of(a) or not shape_of(b):
        return F.mul(a, b)
    return tensordot(a, b, ([len(shape_of(a)) - 1], [max(len(shape_of(b)) - 2, 0)]))


def inner(a, b):
    a, b = _promoted("inner", a, b)
    if not shape_of(a) or not shape_of(b):
        return F.mul(a, b)
    return tensordot(a, b, ([len(shape_of(a)) - 1], [len(shape_of(b)) - 1]))


def outer(a, b):
    a, b = _same_type("outer", a, b)
    return F.matmul(F.reshape(a, (-1, 1)), F.reshape(b, (1, -1)))


def kron(a, b):
    """The Kronecker product: blocks a[i, j] * b."""
    a, b = _promoted("kron", a, b)
    ndim = max(len(shape_of(a)), len(shape_of(b)))
    shape_a = (1,) * (ndim - len(shape_of(a))) + shape_of(a)
    shape_b = (1,) * (ndim - len(shape_of(b))) + shape_of(b)
    a = F.reshape(a, tuple(n for m in shape_a for n in (m, 1)))
    b = F.reshape(b, tuple(n for m in shape_b for n in (1, m)))
    return F.reshape(F.mul(a, b), tuple(m * n for m, n in zip(shape_a, shape_b)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of vectors of 3 (or 2: the z component) along the given axes."""
    a, b = _promoted("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, one_axis(axisa, len(shape_of(a)), "cross", "axisa"), -1)
    b = moveaxis(b, one_axis(axisb, len(shape_of(b)), "cross", "axisb"), -1)
    if shape_of(a)[-1] not in (2, 3) or shape_of(b)[-1] not in (2, 3):
        raise ValueError("For 'cross', incompatible dimensions for cross product (dimension "
                         "must be 2 or 3)")
    x = [F.squeeze(v, -1) for v in F.split(a, 1, -1)] + [F.zeros_like(
        F.squeeze(F.split(a, 1, -1)[0], -1))] * (3 - shape_of(a)[-1])
    y = [F.squeeze(v, -1) for v in F.split(b, 1, -1)] + [F.zeros_like(
        F.squeeze(F.split(b, 1, -1)[0], -1))] * (3 - shape_of(b)[-1])
    z = x[0] * y[1] - x[1] * y[0]
    if shape_of(a)[-1] == shape_of(b)[-1] == 2:
        return z
    out = F.stack([x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], z], -1)
    return moveaxis(out, -1, one_axis(axisc, len(shape_of(out)), "cross", "axisc"))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """The sum of a diagonal: integers int64, bools stay bools, as measured."""
    diag = diagonal(a, offset, axis1, axis2)
    kind = dtype_of(diag)
    out = F.sum(diag, -1) if shape_of(diag)[-1] else F.zeros_like(F.sum(diag, -1))
    if dtype is not None:
        return cast(out, dtype)
    return cast(out, np.int64 if kind.kind in "iu" else kind)


def multi_dot(arrays):
    tensors = [as_tensor(a, "multi_dot") for a in arrays]
    if len(tensors) < 2:
        raise ValueError("For 'multi_dot', expecting at least 2 arrays.")
    out = tensors[0]
    for t in tensors[1:]:
        out = dot(out, t)
    return out


def matrix_power(a, n):
    """a @ a @ ... (n times); n = 0 the identity; negative n is not provided, as MindSpore's."""
    a = as_tensor(a, "matrix_power")
    n = int_argument(n, "matrix_power", "n")
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"For 'matrix_power', the input must be square matrices, but got "
                         f"shape {shape}")
    if n < 0:
        raise TypeError("For 'matrix_power', exponent must be greater than or equal to 0")
    if n == 0:
        return F.broadcast_to(cast(F.eye(shape[-1]), dtype_of(a)), shape)
    out = a
    for _ in range(n - 1):
        out = F.matmul(out, a)
    return out


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002  (numpy's names)
    """numpy's vector and matrix norms; integers in float32."""
    x = as_tensor(x, "norm")
    if dtype_of(x).kind != "f":
        x = cast(x, np.float32)
    if axis is None and ord is None:
        return F.norm(F.reshape(x, (-1,)), None, 0, False) if not keepdims else \
            F.reshape(F.norm(F.reshape(x, (-1,))), (1,) * len(shape_of(x)))
    if isinstance(axis, int) or axis is None and len(shape_of(x)) == 1:
        return _vector_norm(x, ord, 0 if axis is None else axis, keepdims)
    return F.norm(x, ord, tuple(axis) if isinstance(axis, list) else axis, keepdims)


def _vector_norm(x, ord, axis, keepdims):  # noqa: A002
    """numpy's vector norms along one axis, in x's float type (float64 too)."""
    axis = one_axis(axis, len(shape_of(x)), "norm")
    magnitude = F.abs(x)
    if ord in (None, 2):
        return F.sqrt(F.sum(F.square(x), axis, keepdims))
    if ord == np.inf:
        return F.amax(magnitude, axis, keepdims)
    if ord == -np.inf:
        return F.amin(magnitude, axis, keepdims)
    if ord == 0:
        return F.sum(cast(F.not_equal(x, 0), dtype_of(x)), axis, keepdims)
    if isinstance(ord, str) or isinstance(ord, bool):
        raise ValueError(f"For 'norm', invalid norm order {ord!r} for vectors")
    return F.pow(F.sum(F.pow(magnitude, ord), axis, keepdims), 1.0 / ord)


__all__ = ["matmul", "tensordot", "dot", "inner", "outer", "kron", "cross", "trace",
           "multi_dot", "matrix_power", "norm"]
