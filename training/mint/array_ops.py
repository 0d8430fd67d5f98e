"""mint's joining, splitting, reshaping, indexing, sorting and selection, torch-style (`dim`,
`dims`, int64 indices). Data movement is done on element positions
(training.ops.array_kernels.arrange), so each function keeps the input's backend and passes
gradients back on numpy-backend Tensors."""
import numpy as np

from training.mint._core import (NUMBERS, cast, dims, dtype_of, host_array, int64_tensor,
                                 moved, new_tensor, one_dim, positions, shape_of,
                                 supported, tensor_argument)
from training.mint.reductions import ValuesIndices
from training.ops import functional as ops


def _tensors(tensors, op):
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"For '{op}', 'tensors' must be a non-empty list or tuple of Tensors, "
                        f"but got {type(tensors).__name__}")
    for t in tensors:
        tensor_argument(t, op, "tensors")
    return list(tensors)


def cat(tensors, dim=0):
    tensors = _tensors(tensors, "cat")
    return ops.concat(tensors, one_dim(dim, len(shape_of(tensors[0])), "cat"))


concat = cat


def stack(tensors, dim=0):
    tensors = _tensors(tensors, "stack")
    return ops.stack(tensors, one_dim(dim, len(shape_of(tensors[0])) + 1, "stack"))


def hstack(tensors):
    tensors = _tensors(tensors, "hstack")
    return cat(tensors, 0 if len(shape_of(tensors[0])) <= 1 else 1)


def dstack(tensors):
    tensors = [t if len(shape_of(t)) >= 3 else ops.reshape(t, (
        (1, 1, -1) if len(shape_of(t)) < 2 else shape_of(t) + (1,)))
        for t in _tensors(tensors, "dstack")]
    return cat(tensors, 2)


def split(tensor, split_size_or_sections, dim=0):
    axis = one_dim(dim, len(shape_of(tensor)), "split")
    return tuple(ops.split(tensor, split_size_or_sections, axis))


def chunk(input, chunks, dim=0):  # noqa: A002
    axis = one_dim(dim, len(shape_of(input)), "chunk")
    return tuple(ops.chunk(input, chunks, axis))


def unbind(input, dim=0):  # noqa: A002
    return tuple(ops.unbind(input, one_dim(dim, len(shape_of(input)), "unbind")))


def reshape(input, shape):  # noqa: A002
    return ops.reshape(input, tuple(shape) if isinstance(shape, (list, tuple)) else (shape,))


def ravel(input):  # noqa: A002
    return ops.reshape(input, (-1,))


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002
    shape = shape_of(input)
    if not shape:
        return ops.reshape(input, (1,))
    first = one_dim(start_dim, len(shape), "flatten", "start_dim")
    last = one_dim(end_dim, len(shape), "flatten", "end_dim")
    if first > last:
        raise ValueError("For 'flatten', 'start_dim' cannot come after 'end_dim'.")
    return ops.reshape(input, shape[:first] + (-1,) + shape[last + 1:])


def permute(input, dims):  # noqa: A002
    ndim = len(shape_of(input))
    order = tuple(one_dim(d, ndim, "permute", "dims") for d in dims)
    if sorted(order) != list(range(ndim)):
        raise ValueError(f"For 'permute', 'dims' must be a permutation of the {ndim} "
                         f"dimensions, but got {tuple(dims)}")
    return ops.transpose(input, order)


def transpose(input, dim0, dim1):  # noqa: A002
    ndim = len(shape_of(input))
    order = list(range(ndim))
    a, b = one_dim(dim0, ndim, "transpose", "dim0"), one_dim(dim1, ndim, "transpose", "dim1")
    order[a], order[b] = order[b], order[a]
    return ops.transpose(input, tuple(order))


def swapaxes(input, axis0, axis1):  # noqa: A002
    return transpose(input, axis0, axis1)


def t(input):  # noqa: A002
    ndim = len(shape_of(input))
    if ndim > 2:
        raise ValueError(f"For 't', the input must be at most 2-D, but got {ndim}-D")
    return transpose(input, 0, 1) if ndim == 2 else input


def unsqueeze(input, dim):  # noqa: A002
    return ops.expand_dims(input, one_dim(dim, len(shape_of(input)) + 1, "unsqueeze"))


def squeeze(input, dim=None):  # noqa: A002
    """Drops the given dims of size 1 (others are kept, as torch's)."""
    shape = shape_of(input)
    if dim is None:
        return ops.reshape(input, tuple(n for n in shape if n != 1))
    axes = dims(dim, len(shape), "squeeze")
    return ops.reshape(input, tuple(n for i, n in enumerate(shape)
                                    if not (i in axes and n == 1)))


def broadcast_to(input, shape):  # noqa: A002
    return ops.broadcast_to(input, tuple(shape))


def tile(input, dims):  # noqa: A002
    return moved(input, np.tile(positions(input), tuple(dims)))


def flip(input, dims):  # noqa: A002
    return moved(input, np.flip(positions(input), tuple(
        one_dim(d, len(shape_of(input)), "flip", "dims") for d in (
            dims if isinstance(dims, (list, tuple)) else (dims,)))))


def roll(input, shifts, dims=None):  # noqa: A002
    where = positions(input)
    if dims is None:
        return moved(input, np.roll(where.reshape(-1), shifts).reshape(where.shape))
    several = isinstance(dims, (tuple, list))
    axes = tuple(one_dim(d, len(shape_of(input)), "roll") for d in (dims if several else (dims,)))
    return moved(input, np.roll(where, shifts, axes if several else axes[0]))


def narrow(input, dim, start, length):  # noqa: A002
    axis = one_dim(dim, len(shape_of(input)), "narrow")
    size = shape_of(input)[axis]
    start = start + size if start < 0 else start
    if not 0 <= start <= size or length < 0 or start + length > size:
        raise ValueError(f"For 'narrow', start ({start}) + length ({length}) exceeds dimension "
                         f"size ({size}).")
    return moved(input, np.take(positions(input), np.arange(start, start + length), axis))


def select(input, dim, index):  # noqa: A002
    axis = one_dim(dim, len(shape_of(input)), "select")
    size = shape_of(input)[axis]
    if not -size <= index < size:
        raise IndexError(f"For 'select', index {index} is out of bounds for dimension {axis} "
                         f"with size {size}")
    return moved(input, np.take(positions(input), index % size, axis))


def _indices(index, op, name="index"):
    tensor_argument(index, op, name)
    if dtype_of(index).kind not in "iu":
        raise TypeError(f"For '{op}', '{name}' must be an integer tensor, but got "
                        f"{dtype_of(index)}")
    return host_array(index).astype(np.int64)


def gather(input, dim, index):  # noqa: A002
    axis = one_dim(dim, len(shape_of(input)), "gather")
    idx = _indices(index, "gather")
    size = shape_of(input)[axis]
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise ValueError(f"For 'gather', index out of range for dimension {axis} with size "
                         f"{size}")
    grid = np.indices(idx.shape, sparse=True)
    grid = list(grid)
    grid[axis] = idx % size
    return moved(input, positions(input)[tuple(grid)])


def index_select(input, dim, index):  # noqa: A002
    axis = one_dim(dim, len(shape_of(input)), "index_select")
    idx = _indices(index, "index_select")
    if idx.ndim > 1:
        raise ValueError("For 'index_select', 'index' must be 0-D or 1-D")
    size = shape_of(input)[axis]
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise IndexError(f"For 'index_select', index out of range in self (size {size})")
    return moved(input, np.take(positions(input), idx.reshape(-1), axis))


def take(input, index):  # noqa: A002
    idx = _indices(index, "take")
    size = int(np.prod(shape_of(input)))
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise IndexError(f"For 'take', index out of range (size {size})")
    return moved(input, positions(input).reshape(-1)[idx % max(size, 1)])


def masked_select(input, mask):  # noqa: A002
    return ops.masked_select(input, mask)


def _scatter(input, dim, index, src, reduce_add, op):
    axis = one_dim(dim, len(shape_of(input)), op)
    idx = _indices(index, op)
    target = positions(input)
    grid = list(np.indices(idx.shape))
    grid[axis] = idx
    places = target[tuple(grid)].reshape(-1)
    if not hasattr(src, "dtype"):
        src = new_tensor(np.full(idx.shape, src, dtype_of(input)), input)
    else:
        src = moved(src, positions(src)[tuple(np.indices(idx.shape))])
    flat_places = new_tensor(places.reshape(-1, 1).astype(np.int64), input)
    values = ops.reshape(cast(src, dtype_of(input)), (-1,))
    base = ops.reshape(input, (-1,))
    if reduce_add:
        out = ops.tensor_scatter_add(base, flat_places, values)
    else:
        out = ops.tensor_scatter_update(base, flat_places, values)
    return ops.reshape(out, shape_of(input))


def scatter(input, dim, index, src=None, *, value=None, reduce=None):  # noqa: A002
    if reduce not in (None, "add"):
        raise ValueError(f"For 'scatter', 'reduce' must be None or 'add', but got {reduce!r}")
    return _scatter(input, dim, index, value if src is None else src, reduce == "add", "scatter")


def scatter_add(input, dim, index, src):  # noqa: A002
    return _scatter(input, dim, index, src, True, "scatter_add")


def index_add(input, dim, index, source, *, alpha=1):  # noqa: A002
    axis = one_dim(dim, len(shape_of(input)), "index_add")
    idx = _indices(index, "index_add").reshape(-1)
    shape = list(shape_of(source))
    expanded = idx.reshape([-1 if i == axis else 1 for i in range(len(shape))])
    full = np.broadcast_to(expanded, shape)
    scaled = source if alpha == 1 else ops.mul(source, alpha)
    return _scatter(input, axis, new_tensor(full.copy()), scaled, True, "index_add")


def where(condition, input=None, other=None):  # noqa: A002
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return ops.where(cast(condition, np.bool_), input, other)


def nonzero(input, *, as_tuple=False):  # noqa: A002
    found = np.argwhere(host_array(input))
    if as_tuple:
        return tuple(int64_tensor(found[:, i], input) for i in range(found.shape[1])) if \
            found.ndim == 2 and found.shape[1] else (int64_tensor(found.reshape(-1), input),)
    return int64_tensor(found, input)


def tril(input, diagonal=0):  # noqa: A002
    return ops.tril(input, diagonal)


def triu(input, diagonal=0):  # noqa: A002
    return ops.triu(input, diagonal)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):  # noqa: A002
    counts = host_array(repeats).astype(np.int64) if hasattr(repeats, "dtype") else repeats
    if dim is None:
        return moved(input, np.repeat(positions(input).reshape(-1), counts))
    axis = one_dim(dim, len(shape_of(input)), "repeat_interleave")
    return moved(input, np.repeat(positions(input), counts, axis))


def diag(input, diagonal=0):  # noqa: A002
    shape = shape_of(input)
    if len(shape) == 1:
        n = shape[0] + abs(diagonal)
        where = np.full((n, n), -1, np.int64)
        rows = np.arange(shape[0]) + max(-diagonal, 0)
        where[rows, rows + diagonal] = np.arange(shape[0])
        return moved(input, where)
    if len(shape) == 2:
        return moved(input, np.diagonal(positions(input), diagonal).copy())
    raise ValueError(f"For 'diag', the input must be 1-D or 2-D, but got {len(shape)}-D")


def diff(input, n=1, dim=-1, prepend=None, append=None):  # noqa: A002
    axis = one_dim(dim, len(shape_of(input)), "diff")
    x = cat([v for v in (prepend, input, append) if v is not None], axis) \
        if prepend is not None or append is not None else input
    for _ in range(n):
        size = shape_of(x)[axis]
        later, earlier = narrow(x, axis, 1, size - 1), narrow(x, axis, 0, size - 1)
        x = ops.logical_xor(later, earlier) if dtype_of(x) == np.bool_ else \
            ops.sub(later, earlier)
    return x


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return tuple(ops.meshgrid(*tensors, indexing=indexing or "ij"))


def sort(input, *, dim=-1, descending=False, stable=False):  # noqa: A002
    """(values, int64 indices); ties in index order (a stable sort)."""
    axis = one_dim(dim, len(shape_of(input)), "sort")
    data = host_array(input)
    order = np.argsort(-data if descending and data.dtype.kind != "b" else
                       (~data if descending else data), axis=axis, kind="stable")
    if descending and data.dtype.kind == "f":       # NaN first, as torch's
        order = np.argsort(np.where(np.isnan(data), -np.inf, -data), axis=axis, kind="stable")
    elif data.dtype.kind == "f":
        order = np.argsort(data, axis=axis, kind="stable")
    values = moved(input, np.take_along_axis(positions(input), order, axis)) if \
        data.ndim else input
    return ValuesIndices(values, int64_tensor(order if data.ndim else np.zeros((), np.int64),
                                              input))


def argsort(input, dim=-1, descending=False, stable=False):  # noqa: A002
    return sort(input, dim=dim, descending=descending, stable=stable).indices


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    supported(input, "TopkExt", NUMBERS)
    axis = one_dim(dim, len(shape_of(input)), "topk")
    size = shape_of(input)[axis] if shape_of(input) else 1
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or not 0 <= k <= size:
        raise ValueError(f"For 'topk', 'k' must be an int in [0, {size}], but got {k!r}")
    ordered = sort(input, dim=axis, descending=largest)
    return ValuesIndices(narrow(ordered.values, axis, 0, k), narrow(ordered.indices, axis, 0, k))


def kthvalue(input, k, dim=-1, keepdim=False):  # noqa: A002
    axis = one_dim(dim, len(shape_of(input)), "kthvalue")
    ordered = sort(input, dim=axis)
    values, indices = (narrow(v, axis, k - 1, 1) for v in ordered)
    if not keepdim:
        values, indices = ops.squeeze(values, axis), ops.squeeze(indices, axis)
    return ValuesIndices(values, indices)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    data = host_array(input)
    values, inverse, counts = np.unique(data if dim is None else data, return_inverse=True,
                                        return_counts=True, axis=dim)
    out = [new_tensor(values, input)]
    if return_inverse:
        out.append(int64_tensor(inverse.reshape(data.shape) if dim is None else inverse, input))
    if return_counts:
        out.append(int64_tensor(counts, input))
    return out[0] if len(out) == 1 else tuple(out)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    data = host_array(input).reshape(-1) if dim is None else host_array(input)
    if dim is not None:
        raise NotImplementedError("unique_consecutive with a dim is not provided")
    starts = np.concatenate([[True], data[1:] != data[:-1]]) if data.size else \
        np.zeros(0, bool)
    out = [new_tensor(data[starts], input)]
    if return_inverse:
        out.append(int64_tensor((np.cumsum(starts) - 1).reshape(host_array(input).shape), input))
    if return_counts:
        out.append(int64_tensor(np.diff(np.append(np.flatnonzero(starts), data.size)), input))
    return out[0] if len(out) == 1 else tuple(out)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    side = side or ("right" if right else "left")
    seq, vals = host_array(sorted_sequence), host_array(values) if hasattr(
        values, "dtype") else np.asarray(values)
    if seq.ndim == 1:
        found = np.searchsorted(seq, vals, side=side, sorter=None if sorter is None else
                                host_array(sorter))
    else:
        found = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(
            seq.reshape(-1, seq.shape[-1]), vals.reshape(-1, vals.shape[-1]))]).reshape(
            vals.shape)
    like = sorted_sequence
    return new_tensor(found.astype(np.int32 if out_int32 else np.int64), like)


def clone(input):  # noqa: A002
    return moved(input, positions(input))


def bincount(input, weights=None, minlength=0):  # noqa: A002
    counts = np.bincount(host_array(input).astype(np.int64), None if weights is None else
                         host_array(weights), minlength)
    return new_tensor(counts if weights is not None else counts.astype(np.int64), input)


def histc(input, bins=100, min=0, max=0):  # noqa: A001,A002
    data = host_array(input)
    low, high = (float(data.min()), float(data.max())) if min == max and data.size else \
        (min, max)
    counts, _ = np.histogram(data, bins, (low, high))
    return new_tensor(counts.astype(data.dtype), input)

