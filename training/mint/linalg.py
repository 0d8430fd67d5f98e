"""`mindspore.mint.linalg`: inv, vector_norm, matrix_norm, norm, qr."""
import numpy as np

from training.mint._core import dims, dtype_of, host_array, new_tensor, public_names, shape_of
from training.mint.products import inverse as inv  # noqa: F401
from training.mint.reductions import norm as _norm
from training.ops import functional as ops


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    return _norm(x, ord, dim, keepdim, dtype=dtype)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """'fro', 'nuc', 1, -1, inf, -inf, 2, -2 over the two dims."""
    rows, cols = dims(dim, len(shape_of(A)), "matrix_norm")
    if ord == "fro":
        return _norm(A, 2, (rows, cols), keepdim, dtype=dtype)
    magnitude = ops.abs(A if dtype_of(A).kind == "f" else ops.cast(A, np.float32))
    if ord in (1, -1, float("inf"), float("-inf")):
        summed_over, then = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = ops.sum(magnitude, summed_over, True)
        pick = ops.amax if ord > 0 else ops.amin
        out = pick(sums, then, True)
        return out if keepdim else ops.squeeze(out, (rows, cols))
    if ord in ("nuc", 2, -2):
        values = np.linalg.svd(np.moveaxis(host_array(A), (rows, cols), (-2, -1)),
                               compute_uv=False)
        result = values.sum(-1) if ord == "nuc" else values.max(-1) if ord == 2 else \
            values.min(-1)
        if keepdim:
            result = np.expand_dims(np.expand_dims(result, rows), cols)
        return new_tensor(result.astype(dtype_of(A)), A)
    raise ValueError(f"For 'matrix_norm', 'ord' must be 'fro', 'nuc', 1, -1, 2, -2, inf or "
                     f"-inf, but got {ord!r}")


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm (ord None, a number, dim an int or None on a 1-D input) or a matrix norm
    (dim a pair, or a 2-D input with ord given)."""
    ndim = len(shape_of(A))
    if isinstance(dim, (tuple, list)) and len(dim) == 2 or dim is None and ord is not None \
            and ndim == 2:
        return matrix_norm(A, "fro" if ord is None else ord, (-2, -1) if dim is None else dim,
                           keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def qr(A, mode="reduced"):
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"For 'qr', 'mode' must be 'reduced', 'complete' or 'r', but got "
                         f"{mode!r}")
    q, r = np.linalg.qr(host_array(A), "complete" if mode == "complete" else "reduced")
    return new_tensor(q, A) if mode != "r" else new_tensor(np.zeros(0, q.dtype), A), \
        new_tensor(r, A)


__all__ = public_names(globals())


def __dir__():
    return __all__
