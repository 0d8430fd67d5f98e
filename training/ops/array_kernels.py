"""Array operations on numpy-backend Tensors that record gradients (the numpy side of
training.ops; the torch side calls torch directly)."""
import numpy as np

from training.tensor import Tensor, _unbroadcast, as_array


def torch_of(*values):
    """The torch module when any value (or item of a list or tuple) is a torch tensor, else
    None: torch is imported only then."""
    for value in values:
        if isinstance(value, (list, tuple)):
            found = torch_of(*value)
            if found is not None:
                return found
        elif type(value).__module__.startswith("torch"):
            import torch
            return torch
    return None


def np_dtype_of(value):
    """The numpy dtype of a Tensor, numpy array or torch tensor (None for anything else)."""
    if isinstance(value, (Tensor, np.ndarray, np.generic)):
        return value.dtype
    if torch_of(value):
        import torch
        return torch.empty(0, dtype=value.dtype).numpy().dtype
    return None


def host_array(value):
    """The values of a Tensor, array or torch tensor as a numpy array (a host copy for torch)."""
    if torch_of(value):
        return value.detach().cpu().numpy()
    return np.asarray(as_array(value))


def torch_dtype(torch, dtype):
    return torch.from_numpy(np.empty(0, dtype)).dtype


def as_tensor(value, dtype=None):
    if isinstance(value, Tensor):
        return value if dtype is None else cast(value, dtype)
    return Tensor(np.asarray(as_array(value), dtype=dtype))


def cast(x, dtype):
    source = x.data.dtype
    out = x.data.astype(dtype)
    differentiable = out.dtype.kind == "f" and source.kind == "f"
    return Tensor.from_op(out, (x if differentiable else None,),
                          lambda g: (g.astype(source),))


def concat(tensors, axis):
    tensors = [as_tensor(t) for t in tensors]
    arrays = [t.data for t in tensors]
    out = np.concatenate(arrays, axis=axis)
    bounds = np.cumsum([a.shape[axis] for a in arrays])[:-1]
    return Tensor.from_op(out, tuple(tensors), lambda g: tuple(np.split(g, bounds, axis=axis)))


def stack(tensors, axis):
    tensors = [as_tensor(t) for t in tensors]
    out = np.stack([t.data for t in tensors], axis=axis)
    count = len(tensors)
    return Tensor.from_op(out, tuple(tensors), lambda g: tuple(
        np.squeeze(part, axis=axis) for part in np.split(g, count, axis=axis)))


def split(x, sections, axis):
    """`sections`: a number of equal parts, or a list of part sizes."""
    if isinstance(sections, int):
        size = x.shape[axis]
        if size % sections:
            raise ValueError(f"For 'Split', the size of axis {axis} ({size}) must be divisible by "
                             f"output_num ({sections})")
        bounds = list(range(size // sections, size, size // sections))
    else:
        bounds = list(np.cumsum(sections)[:-1])
        if sum(sections) != x.shape[axis]:
            raise ValueError(f"For 'split', the sizes {list(sections)} must add up to the size "
                             f"of axis {axis} ({x.shape[axis]})")
    starts = [0] + bounds
    stops = bounds + [x.shape[axis]]
    index = [slice(None)] * x.ndim
    parts = []
    for start, stop in zip(starts, stops):
        index[axis] = slice(start, stop)
        parts.append(x[tuple(index)])
    return tuple(parts)


def tile(x, multiples):
    multiples = tuple(multiples)
    reps = (1,) * (len(multiples) - x.ndim) + multiples
    shape = (1,) * (len(multiples) - x.ndim) + x.shape
    original = x.shape

    def backward(g):
        interleaved = []
        for rep, n in zip(reps, shape):
            interleaved += [rep, n]
        summed = g.reshape(interleaved).sum(axis=tuple(range(0, len(interleaved), 2)))
        return (summed.reshape(original),)
    return Tensor.from_op(np.tile(x.data, multiples), (x,), backward)


def gather(params, indices, axis):
    idx = np.asarray(as_array(indices)).astype(np.int64)
    axis = axis % params.ndim
    if idx.size and (idx.min() < -params.shape[axis] or idx.max() >= params.shape[axis]):
        raise ValueError(f"For 'Gather', indices must be in [0, {params.shape[axis]}) on axis "
                         f"{axis}, but got values in [{idx.min()}, {idx.max()}]")
    data = params.data

    def backward(g):
        full = np.zeros_like(data)
        moved = np.moveaxis(full, axis, 0)
        grad = np.moveaxis(g, tuple(range(axis, axis + idx.ndim)), tuple(range(idx.ndim)))
        np.add.at(moved, idx, grad)
        return (full,)
    return Tensor.from_op(np.take(data, idx, axis=axis), (params,), backward)


def unary(x, forward, derivative, gradient=None):
    """An element-wise op: derivative(x, out) is d out / d x, or gradient(g) the input's
    gradient in the op's own rounding order."""
    xd = x.data
    out = forward(xd)
    return Tensor.from_op(out, (x,), gradient and (lambda g: gradient(g)) or (
        lambda g: (g * derivative(xd, out),)))


def maximum(x, y, pick_first):
    """Element-wise max (pick_first = x >= y) or min, the gradient going to the chosen input."""
    x, y = as_tensor(x), as_tensor(y)
    mask = pick_first(x.data, y.data)
    out = np.where(mask, x.data, y.data)
    return Tensor.from_op(out, (x, y), lambda g: (_unbroadcast(g * mask, x.shape),
                                                  _unbroadcast(g * ~mask, y.shape)))


def one_hot(indices, depth, on_value, off_value, axis):
    idx = np.asarray(as_array(indices)).astype(np.int64)
    on = np.asarray(as_array(on_value))
    off = np.asarray(as_array(off_value))
    hot = np.moveaxis(np.arange(depth) == idx[..., None], -1, axis)
    return Tensor(np.where(hot, on, off).astype(np.result_type(on, off)))


def positions(shape):
    """Each element's flat position in an array of `shape`: data-movement ops (flip, roll,
    pad, gather_d, ...) compute where each output element comes from by moving these."""
    return np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape)


def arrange(x, where_from, fill=0):
    """The elements of `x` (a Tensor or a torch tensor) at the flat positions `where_from`
    (an int64 array; -1 gives `fill`). The gradient adds each output's back at its source, so
    every op made this way is differentiable on both backends."""
    where_from = np.array(where_from, np.int64)     # a contiguous copy: torch refuses flipped views
    torch = torch_of(x)
    if torch:
        index = torch.as_tensor(where_from, device=x.device)
        taken = x.reshape(-1)[index.clamp(min=0)]
        if (where_from >= 0).all():
            return taken
        return torch.where(index >= 0, taken, torch.as_tensor(fill, dtype=x.dtype,
                                                              device=x.device))
    x = as_tensor(x)
    inside = where_from >= 0
    out = np.where(inside, x.data.reshape(-1)[np.where(inside, where_from, 0)],
                   np.asarray(fill, x.dtype)).astype(x.dtype, copy=False)
    shape = x.shape

    def backward(g):
        full = np.zeros(int(np.prod(shape, dtype=np.int64)), g.dtype)
        np.add.at(full, where_from[inside], g[inside])
        return (full.reshape(shape),)
    return Tensor.from_op(out, (x,), backward)
