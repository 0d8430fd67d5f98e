"""mindspore.numpy's statistics and sets: cov, corrcoef (with gradients, via training.ops),
bincount, digitize, histogram, histogram_bin_edges, interp, unique, intersect1d, setdiff1d
(computed on the host: counts, positions and sets have no gradient). Result types as
MindSpore 2.10's: bincount and histogram counts are float32, digitize int32."""
import numpy as np

from training.numpy._core import as_tensor, cast, dtype_of, new_tensor, shape_of
from training.ops import array_kernels as K
from training.ops import functional as F

_F32 = np.dtype(np.float32)


def _host(a, op):
    a = as_tensor(a, op)
    return a, K.host_array(a)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None,
        dtype=None):
    """The covariance matrix of the variables (rows, or columns without rowvar); float32
    for integers; no frequency or analytic weights here."""
    if fweights is not None or aweights is not None:
        raise NotImplementedError("For 'cov', fweights and aweights are not provided")
    m = cast(as_tensor(m, "cov"), _F32)       # float64 too, as MindSpore's
    if len(shape_of(m)) > 2:
        raise ValueError(f"For 'cov', m has more than 2 dimensions: {shape_of(m)}")
    rows = F.reshape(m, (1, -1)) if len(shape_of(m)) < 2 else m if rowvar else F.transpose(
        m, (1, 0))
    if y is not None:
        y = cast(as_tensor(y, "cov"), dtype_of(rows))
        y = F.reshape(y, (1, -1)) if len(shape_of(y)) < 2 else y if rowvar else F.transpose(
            y, (1, 0))
        rows = F.concat([rows, y], 0)
    count = shape_of(rows)[1]
    ddof = (0 if bias else 1) if ddof is None else ddof
    centred = rows - F.mean(rows, 1, True)
    out = F.matmul(centred, F.transpose(centred, (1, 0))) * (1.0 / (count - ddof))
    out = F.squeeze(out) if shape_of(out) == (1, 1) else out
    return out if dtype is None else cast(out, dtype)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    c = cov(x, y, rowvar, dtype=dtype)
    if not shape_of(c):
        return c / c
    diagonal = F.sqrt(K.arrange(c, np.diagonal(K.positions(shape_of(c)))))
    return F.clamp(c / F.reshape(diagonal, (-1, 1)) / F.reshape(diagonal, (1, -1)), -1.0, 1.0)


def bincount(x, weights=None, minlength=0, length=None):
    """The count (the sum of weights) of each non-negative int, float32 as MindSpore's."""
    x, values = _host(x, "bincount")
    if values.dtype.kind not in "iu" or values.ndim != 1:
        raise TypeError(f"For 'bincount', x must be a 1-D integer tensor, but got "
                        f"{values.dtype}{values.shape}")
    if values.size and values.min() < 0:
        raise ValueError("For 'bincount', x must be non-negative")
    w = None if weights is None else _host(weights, "bincount")[1]
    counts = np.bincount(values, w, max(minlength, length or 0))
    if length is not None:
        counts = counts[:length]
    return new_tensor(counts.astype(np.float32), x)


def digitize(x, bins, right=False):
    """The index of the bin each value falls into, int32."""
    x, values = _host(x, "digitize")
    edges = _host(bins, "digitize")[1]
    return new_tensor(np.digitize(values, edges, right).astype(np.int32), x)


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002  (numpy's names)
    """float32 edges; `bins` equal bins from the minimum to the maximum have their gradient
    (to those elements)."""
    a, values = _host(a, "histogram_bin_edges")
    if not isinstance(bins, int) or range is not None or not values.size:
        bins = bins if isinstance(bins, int) else _host(bins, "histogram_bin_edges")[1]
        return new_tensor(np.histogram_bin_edges(values, bins, range).astype(np.float32), a)
    flat = F.reshape(cast(a, _F32), (-1,))
    low, high = F.amin(flat), F.amax(flat)
    if values.min() == values.max():       # numpy's: a bin of width 1 around the value
        low, high = low - 0.5, high + 0.5
    steps = new_tensor(np.linspace(0, 1, bins + 1).astype(np.float32), a)
    return low + (high - low) * steps


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002
    """(counts, bin edges), both float32."""
    a, values = _host(a, "histogram")
    bins = bins if isinstance(bins, int) else _host(bins, "histogram")[1]
    w = None if weights is None else _host(weights, "histogram")[1]
    counts, edges = np.histogram(values, bins, range, density=density, weights=w)
    return new_tensor(counts.astype(np.float32), a), new_tensor(edges.astype(np.float32), a)


def interp(x, xp, fp, left=None, right=None):
    """Piecewise linear interpolation of (xp, fp) at x, float32."""
    x, values = _host(x, "interp")
    out = np.interp(values, _host(xp, "interp")[1], _host(fp, "interp")[1], left, right)
    return new_tensor(out.astype(np.float64 if values.dtype == np.float64 else np.float32), x)


def unique(x, return_inverse=False):
    """The sorted unique elements of the flattened input (and the indices that rebuild it,
    int32)."""
    x, values = _host(x, "unique")
    found, inverse = np.unique(values, return_inverse=True)
    out = new_tensor(found.astype(values.dtype), x)
    return (out, new_tensor(inverse.reshape(-1).astype(np.int32), x)) if return_inverse \
        else out


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    ar1, first = _host(ar1, "intersect1d")
    second = _host(ar2, "intersect1d")[1]
    if return_indices:
        raise NotImplementedError("For 'intersect1d', return_indices is not provided")
    return new_tensor(np.intersect1d(first, second, assume_unique), ar1)


def setdiff1d(ar1, ar2, assume_unique=False):
    ar1, first = _host(ar1, "setdiff1d")
    return new_tensor(np.setdiff1d(first, _host(ar2, "setdiff1d")[1], assume_unique), ar1)


__all__ = ["cov", "corrcoef", "bincount", "digitize", "histogram_bin_edges", "histogram",
           "interp", "unique", "intersect1d", "setdiff1d"]
