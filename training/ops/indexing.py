"""`mindspore.ops` shape, indexing and creation functions (gather_d, gather_nd, scatter_nd,
broadcast_to, roll, flip, pad, tril, einsum, arange, ...) on both backends. Data movement is
computed on element positions (array_kernels.arrange), so each such op has its gradient on
the numpy backend and torch's autograd on torch tensors with one implementation."""
import builtins

import numpy as np

from training.ops import array_kernels as K
from training.ops.elementwise import elementwise, result_dtype
from training.tensor import Tensor, as_array


def _shape(x, op, name="input"):
    if K.np_dtype_of(x) is None:
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(x).__name__}")
    return tuple(x.shape)


def _axis(axis, ndim, op, name="axis"):
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got {axis!r}")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"For '{op}', '{name}' must be in [{-max(ndim, 1)}, {max(ndim, 1)}), "
                         f"but got {axis}")
    return axis % max(ndim, 1)


def _indices(indices, op, name="indices"):
    index = np.asarray(as_array(indices.detach().cpu() if K.torch_of(indices) else indices))
    if index.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', '{name}' must be an int32 or int64 Tensor, but got "
                        f"{index.dtype}")
    return index.astype(np.int64)


def _in_range(index, size, op, name="index"):
    if index.size and (index.min() < -size or index.max() >= size):
        raise RuntimeError(f"For '{op}', each value of '{name}' must be in [{-size}, {size}), but "
                         f"got values in [{index.min()}, {index.max()}]")
    return np.where(index < 0, index + size, index)


# --- gathering and scattering ------------------------------------------------------------------
def gather_elements(input, dim, index):  # noqa: A002  (MindSpore's argument name)
    """out[i][j] = input[index[i][j]][j] for dim 0 (numpy's take_along_axis)."""
    shape = _shape(input, "GatherD")
    dim = _axis(dim, len(shape), "GatherD", "dim")
    index = _indices(index, "GatherD", "index")
    if index.ndim != len(shape) or any(i > s for a, (i, s) in enumerate(
            zip(index.shape, shape)) if a != dim):
        raise ValueError(f"For 'GatherD', 'index' must have the input's rank and no larger size "
                         f"on the other axes, but got shapes {index.shape} and {shape}")
    index = _in_range(index, shape[dim], "GatherD")
    cut = [builtins.slice(0, n) for n in index.shape]
    cut[dim] = builtins.slice(None)     # the index's size on every axis but dim, all of dim
    return K.arrange(input, np.take_along_axis(K.positions(shape)[tuple(cut)], index, dim))


def gather_d(x, dim, index):
    return gather_elements(x, dim, index)


def gather_nd(input_x, indices):
    """out[i] = input_x[indices[i]] where the last axis of indices indexes the first axes."""
    shape = _shape(input_x, "GatherNd", "input_x")
    index = _indices(indices, "GatherNd")
    if index.ndim < 1 or index.shape[-1] > len(shape):
        raise ValueError(f"For 'GatherNd', the last dimension of 'indices' must be at most the "
                         f"rank of 'input_x' ({len(shape)}), but got shape {index.shape}")
    depth = index.shape[-1]
    index = np.stack([_in_range(index[..., k], shape[k], "GatherNd", "indices")
                      for k in builtins.range(depth)], -1) if depth else index
    return K.arrange(input_x, K.positions(shape)[tuple(np.moveaxis(index, -1, 0))])


def _scatter(op, base, index, updates, mode):
    """base (a Tensor, torch tensor or an array) with updates written ("update") or added
    ("add") at index (the last axis indexing base's first axes)."""
    shape = tuple(base.shape)
    depth = index.shape[-1]
    if depth > len(shape) or tuple(updates.shape) != index.shape[:-1] + shape[depth:]:
        raise ValueError(f"For '{op}', 'updates' must have shape indices.shape[:-1] + "
                         f"shape[indices.shape[-1]:] = {index.shape[:-1] + shape[depth:]}, but "
                         f"got {tuple(updates.shape)}")
    index = np.stack([_in_range(index[..., k], shape[k], op, "indices")
                      for k in builtins.range(depth)], -1)
    where = K.positions(shape)[tuple(np.moveaxis(index, -1, 0))].reshape(-1)
    torch = K.torch_of(base, updates)
    if torch:
        flat = base.reshape(-1)
        index_t = torch.as_tensor(where, device=flat.device)
        values = updates.reshape(-1).to(flat.dtype)
        if mode == "add":
            return flat.index_add(0, index_t, values).reshape(shape)
        return flat.index_put((index_t,), values).reshape(shape)
    base, updates = K.as_tensor(base), K.as_tensor(updates)
    out = base.data.copy().reshape(-1)
    if mode == "add":
        np.add.at(out, where, updates.data.reshape(-1).astype(out.dtype))
    else:
        out[where] = updates.data.reshape(-1)
    written = np.zeros(out.size, bool)
    written[where] = True

    def backward(g):
        flat = g.reshape(-1)
        kept = flat if mode == "add" else np.where(written, 0, flat)
        return kept.reshape(shape), flat[where].reshape(updates.shape)
    return Tensor.from_op(out.reshape(shape), (base, updates), backward)


def scatter_nd(indices, updates, shape):
    """Zeros of `shape` with `updates` added at `indices`."""
    shape = tuple(shape)
    if not shape or any(not isinstance(n, (int, np.integer)) or n <= 0 for n in shape):
        raise ValueError(f"For 'ScatterNd', 'shape' must be a tuple of positive ints, but got "
                         f"{shape}")
    torch = K.torch_of(updates)
    zeros = torch.zeros(shape, dtype=updates.dtype, device=updates.device) if torch else \
        np.zeros(shape, K.np_dtype_of(updates) or np.asarray(updates).dtype)
    return _scatter("ScatterNd", zeros, _indices(indices, "ScatterNd"), updates, "add")


def tensor_scatter_update(input_x, indices, updates):
    return _scatter("TensorScatterUpdate", input_x, _indices(indices, "TensorScatterUpdate"),
                    updates, "update")


def tensor_scatter_add(input_x, indices, updates):
    return _scatter("TensorScatterAdd", input_x, _indices(indices, "TensorScatterAdd"),
                    updates, "add")


def masked_select(input, mask):  # noqa: A002
    """The elements where `mask` (broadcast with input) is true, as a 1-D tensor."""
    shape = np.broadcast_shapes(_shape(input, "MaskedSelect"), tuple(mask.shape))
    chosen = np.broadcast_to(_bool_mask(mask, "MaskedSelect"), shape)
    return K.arrange(broadcast_to(input, shape), K.positions(shape)[chosen])


def _bool_mask(mask, op):
    array = np.asarray(as_array(mask.detach().cpu() if K.torch_of(mask) else mask))
    if array.dtype != np.bool_:
        raise TypeError(f"For '{op}', 'mask' must be a bool Tensor, but got {array.dtype}")
    return array


def masked_fill(input_x, mask, value):
    """input_x with `value` where `mask` (broadcast) is true."""
    chosen = _bool_mask(mask, "MaskedFill")
    torch = K.torch_of(input_x, value)
    return elementwise("MaskedFill", [input_x, value], lambda x, v: np.where(chosen, v, x),
                       lambda g, x, v, out: (np.where(chosen, 0, g), np.where(chosen, g, 0)),
                       torch_forward=torch and (lambda x, v: torch.where(
                           torch.as_tensor(chosen, device=_device(x, v)), v, x)))


def where(condition, input, other):  # noqa: A002
    chosen = _bool_mask(condition, "where")
    torch = K.torch_of(input, other)
    return elementwise("Select", [input, other], lambda x, y: np.where(chosen, x, y),
                       lambda g, x, y, out: (np.where(chosen, g, 0), np.where(chosen, 0, g)),
                       torch_forward=torch and (lambda x, y: torch.where(
                           torch.as_tensor(chosen, device=_device(x, y)), x, y)))


def _device(*tensors):
    """The device of the torch tensors (a number among them is a 0-d CPU tensor)."""
    return next((t.device for t in tensors if t.dim()), tensors[0].device)


# --- moving and reshaping ----------------------------------------------------------------------
def broadcast_to(input, shape):  # noqa: A002
    """-1 in `shape` keeps the input's size."""
    have = _shape(input, "BroadcastTo")
    shape = tuple(shape)
    lead = len(shape) - len(have)
    if lead < 0:
        raise ValueError(f"For 'BroadcastTo', 'shape' {shape} must have at least the input's "
                         f"rank {len(have)}")
    if any(n == -1 and i < lead for i, n in enumerate(shape)):
        raise ValueError(f"For 'BroadcastTo', -1 in 'shape' {shape} is only allowed for the "
                         f"input's axes")
    shape = tuple(have[i - lead] if n == -1 else n for i, n in enumerate(shape))
    try:
        where = np.broadcast_to(K.positions(have), shape)
    except ValueError:
        raise ValueError(f"For 'BroadcastTo', the input of shape {have} cannot be broadcast to "
                         f"{shape}") from None
    return K.arrange(input, where)


def roll(input, shifts, dims=None):  # noqa: A002
    shape = _shape(input, "Roll")
    where = K.positions(shape)
    return K.arrange(input, np.roll(where, shifts, dims))


def flip(input, dims):  # noqa: A002
    shape = _shape(input, "ReverseV2")
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f"For 'flip', 'dims' must be a tuple or list of ints, but got {dims!r}")
    dims = tuple(dims)
    return K.arrange(input, np.flip(K.positions(shape), tuple(
        _axis(d, len(shape), "ReverseV2", "dims") for d in dims)))


def reverse(x, axis):
    return flip(x, axis)


def _triangle(input, diagonal, op, lower):  # noqa: A002
    shape = _shape(input, op)
    if len(shape) < 2:
        raise ValueError(f"For '{op}', the input must have at least 2 dimensions, but got "
                         f"{len(shape)}")
    if not isinstance(diagonal, (int, np.integer)) or isinstance(diagonal, bool):
        raise TypeError(f"For '{op}', 'diagonal' must be an int, but got {diagonal!r}")
    keep = (np.tri if lower else lambda n, m, k: ~np.tri(n, m, k - 1, bool))(
        shape[-2], shape[-1], diagonal).astype(bool)
    return K.arrange(input, np.where(keep, K.positions(shape), -1))


def tril(input, diagonal=0):  # noqa: A002
    return _triangle(input, diagonal, "Tril", True)


def triu(input, diagonal=0):  # noqa: A002
    return _triangle(input, diagonal, "Triu", False)


def diag(input):  # noqa: A002
    """A tensor of rank 2k with input (rank k) on its diagonal: out[i, j] = input[i] where
    i == j."""
    shape = _shape(input, "Diag")
    if not shape:
        raise ValueError("For 'Diag', the input must have at least 1 dimension")
    size = int(np.prod(shape, dtype=np.int64))
    where = np.full((size, size), -1, np.int64)
    where[np.arange(size), np.arange(size)] = np.arange(size)
    return K.arrange(input, where.reshape(shape + shape))


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
              "circular": "wrap"}


def pad(input_x, padding, mode="constant", value=None):
    """`padding` pairs (before, after) from the last axis backwards, as torch's; negative
    amounts crop."""
    shape = _shape(input_x, "pad", "input_x")
    padding = tuple(padding)
    if len(padding) % 2 or len(padding) // 2 > len(shape) or any(
            not isinstance(p, (int, np.integer)) or isinstance(p, bool) for p in padding):
        raise ValueError(f"For 'pad', 'padding' must be pairs of ints for at most {len(shape)} "
                         f"axes, but got {padding}")
    if mode not in _PAD_MODES:
        raise ValueError(f"For 'pad', 'mode' must be one of {list(_PAD_MODES)}, but got {mode!r}")
    if mode != "constant" and len(shape) < len(padding) // 2 + 1:     # (a batch axis)
        raise ValueError(f"For primitive[PadV3], the input dims for edge, reflect or circular "
                         f"mode must be greater than or equal to {len(padding) // 2 + 1}, but "
                         f"got {len(shape)}.")
    if mode != "constant" and value is not None:
        raise ValueError(f"For 'pad', 'value' is only used in 'constant' mode, but got mode "
                         f"{mode!r}")
    pairs = [(0, 0)] * len(shape)
    for i in builtins.range(len(padding) // 2):
        pairs[len(shape) - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    return _pad_positions(input_x, shape, pairs, _PAD_MODES[mode], value or 0)


def _pad_positions(x, shape, pairs, np_mode, fill):
    where = K.positions(shape)
    crop = tuple(builtins.slice(max(-a, 0), n - max(-b, 0)) for (a, b), n in zip(pairs, shape))
    where = where[crop]
    grow = [(max(a, 0), max(b, 0)) for a, b in pairs]
    if np_mode == "constant":
        where = np.pad(where, grow, constant_values=-1)
    else:
        if np_mode == "reflect" and any(max(a, b) >= n for (a, b), n in zip(grow, where.shape)):
            raise ValueError(f"For 'pad', reflect padding {pairs} must be smaller than the "
                             f"input's sizes {shape}")
        where = np.pad(where, grow, mode=np_mode)
    return K.arrange(x, where, fill)


def mirror_pad(input_x, paddings, mode):
    """paddings: one (before, after) row per axis; mode 'REFLECT' or 'SYMMETRIC'."""
    shape = _shape(input_x, "MirrorPad", "input_x")
    pairs = np.asarray(as_array(paddings)).astype(np.int64).reshape(-1, 2)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For 'MirrorPad', 'mode' must be 'REFLECT' or 'SYMMETRIC', but got "
                         f"{mode!r}")
    if len(pairs) != len(shape) or (pairs < 0).any() or any(
            max(p) > n - (mode == "REFLECT") for p, n in zip(pairs.tolist(), shape)):
        raise ValueError(f"For 'MirrorPad', 'paddings' must hold one pair of amounts below the "
                         f"size for each of the {len(shape)} axes, but got {pairs.tolist()}")
    return K.arrange(input_x, np.pad(K.positions(shape), pairs.tolist(), mode=mode.lower()))


def slice(input_x, begin, size):  # noqa: A001  (MindSpore's name)
    shape = _shape(input_x, "Slice", "input_x")
    begin, size = tuple(begin), tuple(size)
    if len(begin) != len(shape) or len(size) != len(shape):
        raise ValueError(f"For 'Slice', 'begin' and 'size' must have {len(shape)} elements, but "
                         f"got {begin} and {size}")
    stops = [n if s == -1 else b + s for b, s, n in zip(begin, size, shape)]
    if any(b < 0 or stop > n or stop < b for b, stop, n in zip(begin, stops, shape)):
        raise ValueError(f"For 'Slice', the slice begin={begin} size={size} must be inside the "
                         f"input's shape {shape}")
    return K.arrange(input_x, K.positions(shape)[tuple(
        builtins.slice(b, stop) for b, stop in zip(begin, stops))])


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """Python's x[b0:e0:s0, b1:e1:s1, ...] with TensorFlow's bit masks: bit i of begin_mask
    (end_mask) ignores begin[i] (end[i]), of shrink_axis_mask takes the element begin[i] and
    drops the axis, of new_axis_mask inserts an axis, of ellipsis_mask stands for the axes
    not given."""
    shape = _shape(input_x, "StridedSlice", "input_x")
    begin, end, strides = tuple(begin), tuple(end), tuple(strides)
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"For 'StridedSlice', 'begin', 'end' and 'strides' must have one "
                         f"length, but got {len(begin)}, {len(end)} and {len(strides)}")
    if 0 in strides:
        raise ValueError("For 'StridedSlice', no element of 'strides' may be 0")
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            index.append(b)
        else:
            index.append(builtins.slice(None if begin_mask & bit else b,
                                       None if end_mask & bit else e, s))
    try:
        where = K.positions(shape)[tuple(index)]
    except IndexError as exc:
        raise ValueError(f"For 'StridedSlice', {exc}") from None
    return K.arrange(input_x, where)


def unstack(input_x, axis=0):
    shape = _shape(input_x, "Unstack", "input_x")
    axis = _axis(axis, len(shape), "Unstack")
    where = np.moveaxis(K.positions(shape), axis, 0)
    return tuple(K.arrange(input_x, part) for part in where)


def unbind(input, dim=0):  # noqa: A002
    return unstack(input, dim)


def repeat_interleave(input, repeats, axis=None):  # noqa: A002
    """Each element `repeats` times along axis (of the flattened input for None), numpy's
    repeat."""
    shape = _shape(input, "repeat_interleave")
    where = K.positions(shape)
    return K.arrange(input, np.repeat(where, repeats, axis if axis is None else _axis(
        axis, len(shape), "repeat_interleave")))


def narrow(input, axis, start, length):  # noqa: A002
    shape = _shape(input, "narrow")
    axis = _axis(axis, len(shape), "narrow")
    if not 0 <= start < shape[axis] or not 1 <= length <= shape[axis] - start:
        raise ValueError(f"For 'narrow', start ({start}) and length ({length}) must lie inside "
                         f"axis {axis} of size {shape[axis]}")
    return K.arrange(input, np.take(K.positions(shape), builtins.range(start, start + length),
                                    axis))


def chunk(input, chunks, axis=0):  # noqa: A002
    """`chunks` parts of ceil(size / chunks) along axis (fewer when they run out)."""
    shape = _shape(input, "chunk")
    axis = _axis(axis, len(shape), "chunk")
    if not isinstance(chunks, int) or isinstance(chunks, bool) or chunks <= 0:
        raise ValueError(f"For 'chunk', 'chunks' must be a positive int, but got {chunks!r}")
    step = -(-shape[axis] // chunks) or 1
    where = K.positions(shape)
    return tuple(K.arrange(input, np.take(where, builtins.range(
        start, min(start + step, shape[axis])), axis))
        for start in builtins.range(0, shape[axis], step))


def meshgrid(*inputs, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'Meshgrid', 'indexing' must be 'xy' or 'ij', but got "
                         f"{indexing!r}")
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])
    shapes = [_shape(x, "Meshgrid") for x in inputs]
    if len(inputs) < 2 or any(len(s) != 1 for s in shapes):
        raise ValueError(f"For 'Meshgrid', the inputs must be at least two 1-D tensors, but got "
                         f"shapes {shapes}")
    grids = np.meshgrid(*[K.positions(s) for s in shapes], indexing=indexing)
    return tuple(K.arrange(x, grid) for x, grid in zip(inputs, grids))


def bias_add(input_x, bias, data_format="NCHW"):
    """input_x + bias along the channel axis (1 for NCHW/NCDHW, the last for NHWC)."""
    shape = _shape(input_x, "BiasAdd", "input_x")
    if len(shape) < 2 or len(tuple(bias.shape)) != 1:
        raise ValueError(f"For 'BiasAdd', 'input_x' must have at least 2 dimensions and 'bias' "
                         f"1, but got shapes {shape} and {tuple(bias.shape)}")
    channel = len(shape) - 1 if data_format == "NHWC" else 1
    if bias.shape[0] != shape[channel]:
        raise ValueError(f"For 'BiasAdd', 'bias' must have {shape[channel]} elements (the "
                         f"channels), but got {bias.shape[0]}")
    view = [1] * len(shape)
    view[channel] = shape[channel]
    return input_x + bias.reshape(tuple(view))


def identity(x):
    torch = K.torch_of(x)
    if torch:
        return x.clone()
    return K.arrange(x, K.positions(_shape(x, "Identity")))


def einsum(equation, *operands):
    """numpy's (torch's) einsum, with the gradient of each operand on the numpy backend."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    torch = K.torch_of(*operands)
    if torch:
        return torch.einsum(equation, *operands)
    tensors = [K.as_tensor(x) for x in operands]
    inputs, output = _explicit(equation.replace(" ", ""), len(tensors))
    arrays = [t.data for t in tensors]
    out = np.asarray(np.einsum(f"{','.join(inputs)}->{output}", *arrays))

    def backward(g):
        grads = []
        for i, x in enumerate(arrays):
            if len(set(inputs[i].replace("...", ""))) != len(inputs[i].replace("...", "")):
                grads.append(None)      # a repeated index (a diagonal): not differentiated
                continue
            others = [s for j, s in enumerate(inputs) if j != i] + [inputs[i]]
            grads.append(np.einsum(f"{output},{','.join(others)}->{inputs[i]}", g,
                                   *[a for j, a in enumerate(arrays) if j != i],
                                   np.ones_like(x)))
        return tuple(grads)
    return Tensor.from_op(out, tuple(tensors), backward)


def _explicit(equation, count):
    """(input subscripts, output subscripts) of an equation, with numpy's implicit output."""
    inputs, arrow, output = equation.partition("->")
    inputs = inputs.split(",")
    if len(inputs) != count:
        raise ValueError(f"For 'Einsum', the equation {equation!r} names {len(inputs)} "
                         f"operands, but got {count}")
    if not arrow:
        letters = "".join(inputs).replace("...", "")
        output = ("..." if "..." in equation else "") + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1))
    return inputs, output


# --- creation ----------------------------------------------------------------------------------
def _numpy_dtype(dtype):
    """A dtype given as MindSpore's (training's) or numpy's, as numpy's (None stays None)."""
    from training.ops.functional import _np_dtype
    return _np_dtype(dtype)


def eye(n, m=None, dtype=None):
    m = n if m is None else m
    for name, value in (("n", n), ("m", m)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise TypeError(f"For 'Eye', '{name}' must be an int, but got {value!r}")
    return Tensor(np.eye(n, m, dtype=_numpy_dtype(dtype) or np.float32))


def arange(start=0, end=None, step=1, *, dtype=None):
    """int64 for int arguments, float32 if any is a float, else `dtype`."""
    if end is None:
        start, end = 0, start
    values = [as_array(v).item() if np.ndim(as_array(v)) == 0 and not isinstance(
        v, (int, float)) else v for v in (start, end, step)]
    for name, value in zip(("start", "end", "step"), values):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise TypeError(f"For 'arange', '{name}' must be an int or a float, but got "
                            f"{value!r}")
    start, end, step = values
    if step == 0 or (end - start) * step < 0:
        raise ValueError(f"For 'arange', 'step' ({step}) must be non-zero and lead from "
                         f"'start' ({start}) to 'end' ({end})")
    kind = np.float32 if any(isinstance(v, float) for v in values) else np.int64
    return Tensor(np.arange(start, end, step, dtype=np.float64).astype(
        _numpy_dtype(dtype) or kind))


def range(start, end, step, maxlen=1000000):  # noqa: A001  (MindSpore's name)
    """arange of Tensors start, end, step (the primitive Range), their dtype."""
    values = [as_array(v) for v in (start, end, step)]
    dtype = result_dtype([np.asarray(v) for v in values], "Range")
    count = int(np.ceil((values[1].item() - values[0].item()) / values[2].item())) \
        if values[2].item() else -1
    if values[2].item() == 0 or count < 0 or count > maxlen:
        raise ValueError(f"For 'Range', 'delta' must be non-zero, lead from 'start' to 'limit' "
                         f"and give at most maxlen={maxlen} elements, but got {values}")
    return Tensor(np.arange(values[0].item(), values[1].item(), values[2].item()).astype(dtype))


def linspace(start, end, steps):
    if not isinstance(steps, (int, np.integer)) or isinstance(steps, bool) or steps <= 0:
        raise ValueError(f"For 'LinSpace', 'steps' must be a positive int, but got {steps!r}")
    first, last = (float(as_array(v)) for v in (start, end))
    return Tensor(np.linspace(first, last, steps).astype(np.float32))


def full(size, fill_value, *, dtype=None):
    size = (size,) if isinstance(size, int) else tuple(size)
    if dtype is None:       # a bool is an int, as MindSpore's
        dtype = np.int64 if isinstance(fill_value, int) else np.float32
    return Tensor(np.full(size, as_array(fill_value), _numpy_dtype(dtype)))


def full_like(input, fill_value, *, dtype=None):  # noqa: A002
    torch = K.torch_of(input)
    if torch:
        return torch.full_like(input, fill_value, dtype=None if dtype is None else
                               K.torch_dtype(torch, _numpy_dtype(dtype)))
    return Tensor(np.full(input.shape, fill_value, _numpy_dtype(dtype) or
                          input.dtype))


def size(input_x):
    return int(np.prod(_shape(input_x, "Size", "input_x"), dtype=np.int64))


def numel(input):  # noqa: A002
    return size(input)


def rank(input_x):
    return len(_shape(input_x, "Rank", "input_x"))


def scalar_to_tensor(input_x, dtype=np.float32):
    if not isinstance(input_x, (int, float)):
        raise TypeError(f"For 'scalar_to_tensor', 'input_x' must be an int or a float, but got "
                        f"{type(input_x).__name__}")
    return Tensor(np.asarray(input_x, _numpy_dtype(dtype)))


def tuple_to_array(input_x):
    if not isinstance(input_x, tuple) or not input_x:
        raise TypeError(f"For 'tuple_to_array', 'input_x' must be a non-empty tuple, but got "
                        f"{input_x!r}")
    kind = np.float32 if any(isinstance(v, float) for v in input_x) else np.int64
    return Tensor(np.asarray(input_x, kind))


__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "builtins", "np", "K", "Tensor", "as_array", "elementwise", "result_dtype")]
