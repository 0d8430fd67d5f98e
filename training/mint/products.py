"""mint's matrix products: matmul, bmm, mm, mv, dot, outer, the add-multiply family
(addmm, baddbmm, addbmm, addmv), einsum, trace, cross, cdist, inverse, vdot."""
import numpy as np

from training.mint._core import NUMBERS, dtype_of, host_array, shape_of, supported, torch_of
from training.mint.array_ops import cat, diag, narrow, unsqueeze
from training.ops import functional as ops
from training.tensor import Tensor


def _same_type(a, b, op):
    supported(a, op, NUMBERS)       # (measured: bool is MindSpore 2.10's TypeError)
    if dtype_of(a) != dtype_of(b):
        raise TypeError(f"For '{op}', the type of 'x2' should be same as 'x1', but got 'x1' "
                        f"with type Tensor[{str(dtype_of(a)).capitalize()}] and 'x2' with type "
                        f"Tensor[{str(dtype_of(b)).capitalize()}].")


def _dims(x, want, op, name):
    if len(shape_of(x)) != want:
        raise ValueError(f"For '{op}', '{name}' must be a {want}-D tensor, but got "
                         f"{len(shape_of(x))}-D")


def matmul(input, other):  # noqa: A002
    _same_type(input, other, "MatMulExt")
    return ops.matmul(input, other)


def bmm(input, mat2):  # noqa: A002
    _dims(input, 3, "bmm", "input")
    _dims(mat2, 3, "bmm", "mat2")
    _same_type(input, mat2, "BatchMatMul")
    return ops.matmul(input, mat2)


def mm(input, mat2):  # noqa: A002
    _dims(input, 2, "mm", "input")
    _dims(mat2, 2, "mm", "mat2")
    return matmul(input, mat2)


def mv(input, vec):  # noqa: A002
    _dims(input, 2, "mv", "input")
    _dims(vec, 1, "mv", "vec")
    return matmul(input, vec)


def dot(input, other):  # noqa: A002
    _dims(input, 1, "dot", "input")
    _dims(other, 1, "dot", "other")
    return matmul(input, other)


vdot = dot


def outer(input, vec2):  # noqa: A002
    return ops.mul(unsqueeze(input, 1), unsqueeze(vec2, 0))


def _add_scaled(input, product, beta, alpha):
    scaled = product if alpha == 1 else ops.mul(product, alpha)
    base = input if beta == 1 else ops.mul(input, beta)
    return ops.add(base, scaled) if beta != 0 else ops.add(ops.mul(input, 0), scaled)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):  # noqa: A002
    return _add_scaled(input, mm(mat1, mat2), beta, alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    return _add_scaled(input, bmm(batch1, batch2), beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    return _add_scaled(input, ops.sum(bmm(batch1, batch2), 0), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):  # noqa: A002
    return _add_scaled(input, mv(mat, vec), beta, alpha)


def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return ops.einsum(equation, *operands)


def trace(input):  # noqa: A002
    _dims(input, 2, "trace", "input")
    return ops.sum(diag(input))


def cross(input, other, dim=None):  # noqa: A002
    """The cross product over `dim` (by default the first dimension of size 3)."""
    supported(input, "Cross", NUMBERS)
    shape = np.broadcast_shapes(shape_of(input), shape_of(other))
    if dim is None:
        dim = next((i for i, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise ValueError("For 'cross', no dimension of size 3 in the inputs")
    a, b = ops.broadcast_to(input, shape), ops.broadcast_to(other, shape)
    parts = [[narrow(v, dim, k, 1) for k in range(3)] for v in (a, b)]
    (a0, a1, a2), (b0, b1, b2) = parts
    return cat([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dim)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    difference = ops.sub(unsqueeze(x1, -2), unsqueeze(x2, -3))
    if p == 2.0:
        return ops.sqrt(ops.sum(ops.square(difference), -1))
    if p == float("inf"):
        return ops.amax(ops.abs(difference), -1)
    return ops.pow(ops.sum(ops.pow(ops.abs(difference), float(p)), -1), 1.0 / p)


def inverse(input):  # noqa: A002
    """The matrix inverse (of each matrix of a batch); its gradient -inv^T g inv^T."""
    torch = torch_of(input)
    if torch:
        return torch.linalg.inv(input)
    inv = np.linalg.inv(host_array(input))

    def backward(g):
        t = np.swapaxes(inv, -1, -2)
        return (-(t @ g @ t),)
    return Tensor.from_op(inv, (input,), backward)
