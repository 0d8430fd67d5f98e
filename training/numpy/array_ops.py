"""mindspore.numpy's shape manipulation, joining and splitting, and indexing. Data movement is
computed on element positions (training.ops.array_kernels.arrange), so each op keeps the
input's backend and has its gradient on numpy-backend Tensors."""
import builtins

import numpy as np

from training.numpy._core import (as_tensor, axis_tuple, cast, dtype_of, int_argument,
                                  is_tensor, new_tensor, one_axis, shape_of)
from training.ops import array_kernels as K
from training.ops import functional as F
from training.ops.elementwise import result_dtype


def _moved(a, where):
    """The elements of `a` at the flat positions `where` (-1: zero)."""
    return K.arrange(a, where)


# --- shapes ----------------------------------------------------------------------------------
def reshape(x, new_shape):
    x = as_tensor(x, "reshape")
    shape = (new_shape,) if isinstance(new_shape, int) else tuple(new_shape)
    try:
        np.empty(shape_of(x), np.bool_).reshape(shape)     # (numpy's check of the shape)
    except ValueError:
        raise ValueError(f"For 'reshape', the shape {shape} is invalid for input of size "
                         f"{int(np.prod(shape_of(x)))}") from None
    return F.reshape(x, shape)


def ravel(x):
    return F.reshape(as_tensor(x, "ravel"), (-1,))


def transpose(a, axes=None):
    a = as_tensor(a, "transpose")
    ndim = len(shape_of(a))
    if axes is None:
        return F.transpose(a, tuple(reversed(range(ndim))))
    axes = tuple(axes)
    if len(axes) != ndim:
        raise ValueError(f"For 'transpose', the axes {axes} must name each of the {ndim} axes")
    normal = [one_axis(x, ndim, "transpose", "axes") for x in axes]
    if len(set(normal)) != ndim:
        raise ValueError(f"For 'transpose', the axes {axes} must be unique")
    return F.transpose(a, tuple(normal))


def moveaxis(a, source, destination):
    a = as_tensor(a, "moveaxis")
    ndim = len(shape_of(a))
    source = [one_axis(s, ndim, "moveaxis", "source") for s in np.atleast_1d(source).tolist()]
    destination = [one_axis(d, ndim, "moveaxis", "destination")
                   for d in np.atleast_1d(destination).tolist()]
    if len(source) != len(destination) or len(set(source)) != len(source):
        raise ValueError("For 'moveaxis', 'source' and 'destination' must have the same "
                         "number of different elements")
    order = [n for n in range(ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return F.transpose(a, tuple(order))


def swapaxes(x, axis1, axis2):
    x = as_tensor(x, "swapaxes")
    ndim = len(shape_of(x))
    order = list(range(ndim))
    a, b = one_axis(axis1, ndim, "swapaxes", "axis1"), one_axis(axis2, ndim, "swapaxes", "axis2")
    order[a], order[b] = order[b], order[a]
    return F.transpose(x, tuple(order))


def rollaxis(x, axis, start=0):
    x = as_tensor(x, "rollaxis")
    ndim = len(shape_of(x))
    axis = one_axis(axis, ndim, "rollaxis")
    start = int_argument(start, "rollaxis", "start")
    if not -ndim <= start <= ndim:
        raise ValueError(f"For 'rollaxis', 'start' must be in [{-ndim}, {ndim}], but got {start}")
    start %= ndim + 1
    if axis < start:
        start -= 1
    return moveaxis(x, axis, start) if axis != start else x


def expand_dims(a, axis):
    a = as_tensor(a, "expand_dims")
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    ndim = len(shape_of(a)) + len(axes)
    normal = axis_tuple(axes, ndim, "expand_dims")
    shape = list(shape_of(a))
    for n in normal:
        shape.insert(n, 1)
    return F.reshape(a, tuple(shape))


def squeeze(a, axis=None):
    """The named axes of size 1 removed (others named stay, as MindSpore's); every one for
    None."""
    a = as_tensor(a, "squeeze")
    shape = shape_of(a)
    axes = axis_tuple(axis, len(shape), "squeeze") if axis is not None else \
        tuple(i for i, n in enumerate(shape) if n == 1)
    return F.reshape(a, tuple(n for i, n in enumerate(shape) if i not in axes or n != 1))


def atleast_1d(*arys):
    return _at_least(arys, 1, lambda shape: shape or (1,))


def atleast_2d(*arys):
    return _at_least(arys, 2, lambda shape: (1,) * (2 - len(shape)) + shape)


def atleast_3d(*arys):
    def three(shape):
        return {0: (1, 1, 1), 1: (1,) + shape + (1,), 2: shape + (1,)}.get(len(shape), shape)
    return _at_least(arys, 3, three)


def _at_least(arys, ndim, shaped):
    out = []
    for a in arys:
        a = as_tensor(a, f"atleast_{ndim}d")
        shape = shape_of(a)
        out.append(F.reshape(a, shaped(shape)) if len(shape) < ndim else a)
    return out[0] if len(out) == 1 else out


def size(a, axis=None):
    """The number of elements (along axis), a Python int."""
    shape = shape_of(as_tensor(a, "size"))
    if axis is None:
        return int(np.prod(shape, dtype=np.int64))
    return shape[one_axis(axis, len(shape), "size")]


# --- joining ---------------------------------------------------------------------------------
def _tensors(arrays, op):
    """The tensors of a sequence (a tensor's rows for a single tensor), in one result type."""
    if is_tensor(arrays):
        arrays = F.unstack(arrays, 0) if shape_of(arrays) else [arrays]
    tensors = [as_tensor(a, op) for a in arrays]
    if not tensors:
        raise ValueError(f"For '{op}', need at least one array")
    dtype = result_dtype(tensors, op)
    return [cast(t, dtype) for t in tensors]


def concatenate(arrays, axis=0):
    tensors = _tensors(arrays, "concatenate")
    if axis is None:
        tensors, axis = [F.reshape(t, (-1,)) for t in tensors], 0
    ndim = len(shape_of(tensors[0]))
    if not ndim:
        raise ValueError("For 'concatenate', zero-dimensional arrays cannot be concatenated")
    axis = one_axis(axis, ndim, "concatenate")
    for t in tensors:
        if len(shape_of(t)) != ndim or any(n != m for i, (n, m) in enumerate(
                zip(shape_of(t), shape_of(tensors[0]))) if i != axis):
            raise ValueError(f"For 'concatenate', the shapes {[shape_of(t) for t in tensors]} "
                             f"must match but along axis {axis}")
    return F.concat(tensors, axis)


def stack(arrays, axis=0):
    tensors = _tensors(arrays, "stack")
    if len({shape_of(t) for t in tensors}) != 1:
        raise ValueError(f"For 'stack', all input arrays must have the same shape, but got "
                         f"{[shape_of(t) for t in tensors]}")
    return F.stack(tensors, one_axis(axis, len(shape_of(tensors[0])) + 1, "stack"))


def hstack(tup):
    tensors = _tensors(tup, "hstack")
    return concatenate(tensors, 0 if len(shape_of(tensors[0])) <= 1 else 1)


def vstack(tup):
    return concatenate([atleast_2d(t) for t in _tensors(tup, "vstack")], 0)


def dstack(tup):
    return concatenate([atleast_3d(t) for t in _tensors(tup, "dstack")], 2)


def column_stack(tup):
    tensors = [F.reshape(t, (-1, 1)) if len(shape_of(t)) <= 1 else t
               for t in _tensors(tup, "column_stack")]
    return concatenate(tensors, 1)


def append(arr, values, axis=None):
    arr, values = as_tensor(arr, "append"), as_tensor(values, "append")
    if axis is None:
        return concatenate([F.reshape(arr, (-1,)), F.reshape(values, (-1,))], 0)
    return concatenate([arr, values], axis)


# --- splitting -------------------------------------------------------------------------------
def _split(x, indices_or_sections, axis, op, equal):
    x = as_tensor(x, op)
    shape = shape_of(x)
    axis = one_axis(axis, len(shape), op)
    size_ = shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(
            indices_or_sections, bool):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"For '{op}', the number of sections must be larger than 0")
        if equal and size_ % sections:
            raise ValueError(f"For '{op}', x_shape[{axis}] must be divisible by output_num = "
                             f"{sections}, but got {size_}")
        each, extra = divmod(size_, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        bounds = np.cumsum([0] + sizes)
    elif isinstance(indices_or_sections, (list, tuple)):
        bounds = np.clip([0] + [int(i) for i in indices_or_sections] + [size_], 0, size_)
        bounds = np.maximum.accumulate(bounds)
    else:
        raise TypeError(f"For '{op}', 'indices_or_sections' must be an int, a list or a tuple, "
                        f"but got {type(indices_or_sections).__name__}")
    where = K.positions(shape)
    return [_moved(x, np.take(where, np.arange(start, stop), axis))
            for start, stop in zip(bounds[:-1], bounds[1:])]


def split(x, indices_or_sections, axis=0):
    return _split(x, indices_or_sections, axis, "split", True)


def array_split(x, indices_or_sections, axis=0):
    return _split(x, indices_or_sections, axis, "array_split", False)


def hsplit(x, indices_or_sections):
    x = as_tensor(x, "hsplit")
    return _split(x, indices_or_sections, 1 if len(shape_of(x)) > 1 else 0, "hsplit", True)


def vsplit(x, indices_or_sections):
    return _split(x, indices_or_sections, 0, "vsplit", True)


def dsplit(x, indices_or_sections):
    return _split(x, indices_or_sections, 2, "dsplit", True)


# --- repeating and moving --------------------------------------------------------------------
def broadcast_to(array, shape):
    return F.broadcast_to(as_tensor(array, "broadcast_to"), tuple(shape))


def broadcast_arrays(*args):
    tensors = [as_tensor(a, "broadcast_arrays") for a in args]
    shape = np.broadcast_shapes(*[shape_of(t) for t in tensors])
    return [F.broadcast_to(t, shape) for t in tensors]


def tile(a, reps):
    a = as_tensor(a, "tile")
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    return _moved(a, np.tile(K.positions(shape_of(a)), reps))


def repeat(a, repeats, axis=None):
    a = as_tensor(a, "repeat")
    where = K.positions(shape_of(a))
    axis = None if axis is None else one_axis(axis, len(shape_of(a)), "repeat")
    return _moved(a, np.repeat(where, repeats, axis))


def flip(m, axis=None):
    m = as_tensor(m, "flip")
    axes = axis_tuple(axis, len(shape_of(m)), "flip")
    return _moved(m, np.flip(K.positions(shape_of(m)), axes))


def fliplr(m):
    m = as_tensor(m, "fliplr")
    if len(shape_of(m)) < 2:
        raise ValueError("For 'fliplr', the input must be at least 2-D")
    return flip(m, 1)


def flipud(m):
    m = as_tensor(m, "flipud")
    if len(shape_of(m)) < 1:
        raise ValueError("For 'flipud', the input must be at least 1-D")
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = as_tensor(a, "roll")
    if axis is not None:
        axis = axis_tuple(axis, len(shape_of(a)), "roll") if not isinstance(axis, int) else \
            one_axis(axis, len(shape_of(a)), "roll")
    return _moved(a, np.roll(K.positions(shape_of(a)), shift, axis))


def rot90(a, k=1, axes=(0, 1)):
    a = as_tensor(a, "rot90")
    return _moved(a, np.rot90(K.positions(shape_of(a)), int_argument(k, "rot90", "k"),
                              tuple(axes)))


# --- indexing --------------------------------------------------------------------------------
def _index_array(indices, op):
    index = K.host_array(as_tensor(indices, op))
    if index.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', the indices must be integers, but got {index.dtype}")
    return index.astype(np.int64)


def take(a, indices, axis=None, mode="clip"):
    """Negative indices count from the end once, then out-of-range ones are clipped ('clip',
    the default) or wrapped ('wrap'); 'raise' is not provided, as MindSpore's."""
    if mode == "raise":
        raise NotImplementedError('"raise" mode is not implemented')
    if mode not in ("clip", "wrap"):
        raise ValueError(f"For 'take', 'mode' must be 'clip', 'wrap' or 'raise', but got "
                         f"{mode!r}")
    a = as_tensor(a, "take")
    index = _index_array(indices, "take")
    if axis is None:
        a, axis = F.reshape(a, (-1,)), 0
    axis = one_axis(axis, len(shape_of(a)), "take")
    size_ = shape_of(a)[axis]
    index = np.where(index < 0, index + size_, index)      # -1 is the last, as MindSpore's
    return _moved(a, np.take(K.positions(shape_of(a)), index, axis, mode=mode))


def take_along_axis(arr, indices, axis):
    arr = as_tensor(arr, "take_along_axis")
    index = _index_array(indices, "take_along_axis")
    if axis is None:
        arr, axis = F.reshape(arr, (-1,)), 0
    axis = one_axis(axis, len(shape_of(arr)), "take_along_axis")
    if index.ndim != len(shape_of(arr)):
        raise ValueError(f"For 'take_along_axis', 'indices' and 'arr' must have the same "
                         f"number of dimensions, but got {index.ndim} and "
                         f"{len(shape_of(arr))}")
    size_ = shape_of(arr)[axis]
    index = np.clip(np.where(index < 0, index + size_, index), 0, builtins.max(size_ - 1, 0))
    return _moved(arr, np.take_along_axis(K.positions(shape_of(arr)), index, axis))


def choose(a, choices, mode="clip"):
    """choices[a] element by element (a, the choices broadcast together)."""
    index = _index_array(a, "choose")
    tensors = _tensors(choices, "choose")
    count = len(tensors)
    if mode == "clip":
        index = np.clip(index, 0, count - 1)
    elif mode == "wrap":
        index = np.mod(index, count)
    else:
        raise ValueError(f"For 'choose', 'mode' must be 'clip' or 'wrap', but got {mode!r}")
    shape = np.broadcast_shapes(index.shape, *[shape_of(t) for t in tensors])
    stacked = F.stack([F.broadcast_to(t, shape) for t in tensors], 0)
    where = np.take_along_axis(K.positions(shape_of(stacked)),
                               np.broadcast_to(index, shape)[None], 0)[0]
    return _moved(stacked, where)


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, else default; the choices' type."""
    if len(condlist) != len(choicelist):
        raise ValueError("For 'select', list of cases must be same length as list of "
                         "conditions")
    choices = _tensors(choicelist, "select")
    conditions = [cast(as_tensor(c, "select"), np.bool_) for c in condlist]
    shape = np.broadcast_shapes(*[shape_of(t) for t in choices + conditions])
    out = F.full_like(F.broadcast_to(choices[0], shape), default)
    for condition, choice in reversed(list(zip(conditions, choices))):
        out = F.where(F.broadcast_to(condition, shape), F.broadcast_to(choice, shape), out)
    return out


def where(condition, x=None, y=None):
    """x where condition, else y; both must be given (MindSpore's)."""
    if x is None or y is None:
        raise TypeError("For 'where', x and y must both be given: expect input to be array "
                        "like.")
    condition = cast(as_tensor(condition, "where"), np.bool_)
    x, y = (as_tensor(v, "where") for v in (x, y))      # a Python float is float32 here
    shape = np.broadcast_shapes(*[shape_of(v) for v in (condition, x, y)])
    return F.where(F.broadcast_to(condition, shape), x, y)


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = as_tensor(a, "diagonal")
    ndim = len(shape_of(a))
    if ndim < 2:
        raise ValueError("For 'diagonal', diagonal requires an array of at least two dimensions")
    axis1, axis2 = (one_axis(x, ndim, "diagonal", n) for x, n in ((axis1, "axis1"),
                                                                   (axis2, "axis2")))
    return _moved(a, np.diagonal(K.positions(shape_of(a)),
                                 int_argument(offset, "diagonal", "offset"), axis1, axis2))


def pad(arr, pad_width, mode="constant", constant_values=0):
    """numpy's pad: 'constant' (a number), 'edge', 'reflect', 'symmetric', 'wrap'."""
    arr = as_tensor(arr, "pad")
    where = K.positions(shape_of(arr))
    if mode == "constant":
        if not isinstance(constant_values, (int, float)):
            raise TypeError("For 'pad', 'constant_values' must be a number here")
        return K.arrange(arr, np.pad(where, pad_width, constant_values=-1), constant_values)
    if mode not in ("edge", "reflect", "symmetric", "wrap"):
        raise NotImplementedError(f"For 'pad', mode {mode!r} is not provided")
    return _moved(arr, np.pad(where, pad_width, mode=mode))


def argwhere(a):
    """The indices of the non-zero elements, int64 (count, ndim)."""
    a = as_tensor(a, "argwhere")
    return new_tensor(np.argwhere(K.host_array(a)).astype(np.int64), a)


def searchsorted(a, v, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', but got "
                         f"{side!r}")
    a = as_tensor(a, "searchsorted")
    sorter = None if sorter is None else K.host_array(as_tensor(sorter, "searchsorted"))
    values = K.host_array(as_tensor(v, "searchsorted"))
    found = np.searchsorted(K.host_array(a), values, side, sorter)
    return new_tensor(np.asarray(found, np.int32), a)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to each 1-D slice along axis; its results stacked where the axis was."""
    arr = as_tensor(arr, "apply_along_axis")
    axis = one_axis(axis, len(shape_of(arr)), "apply_along_axis")
    moved = F.reshape(moveaxis(arr, axis, -1), (-1, shape_of(arr)[axis]))
    outer = tuple(n for i, n in enumerate(shape_of(arr)) if i != axis)
    results = [as_tensor(func1d(row, *args, **kwargs), "apply_along_axis")
               for row in F.unstack(moved, 0)]
    out = F.reshape(F.stack(results, 0), outer + shape_of(results[0]))
    return moveaxis(out, tuple(range(len(outer), len(shape_of(out)))),
                    tuple(range(axis, axis + len(shape_of(results[0]))))) \
        if shape_of(results[0]) else out


def apply_over_axes(func, a, axes):
    """func(a, axis) over each axis in turn, the reduced axis kept (as size 1)."""
    out = as_tensor(a, "apply_over_axes")
    for axis in np.atleast_1d(axes).tolist():
        reduced = as_tensor(func(out, axis), "apply_over_axes")
        out = reduced if len(shape_of(reduced)) == len(shape_of(out)) else \
            expand_dims(reduced, axis)
    return out


def piecewise(x, condlist, funclist, *args, **kw):
    """funclist[i] (a function of x or a number) where condlist[i] holds; one more function
    is the default elsewhere."""
    x = as_tensor(x, "piecewise")
    conditions = [cast(as_tensor(c, "piecewise"), np.bool_) for c in (
        condlist if isinstance(condlist, (list, tuple)) else [condlist])]
    if len(funclist) not in (len(conditions), len(conditions) + 1):
        raise ValueError(f"For 'piecewise', with {len(conditions)} condition(s), either "
                         f"{len(conditions)} or {len(conditions) + 1} functions are expected")
    values = [as_tensor(f(x, *args, **kw) if callable(f) else f, "piecewise")
              for f in funclist]
    if len(values) == len(conditions):
        out = F.zeros_like(x, dtype=dtype_of(values[0]))
    else:
        out = F.broadcast_to(values.pop(), shape_of(x))
    for condition, value in zip(conditions, values):
        out = F.where(condition, F.broadcast_to(cast(value, dtype_of(out)), shape_of(x)), out)
    return out


def array_str(a):
    """The string of a's values (numpy's array_str)."""
    return np.array_str(K.host_array(as_tensor(a, "array_str")))


__all__ = ["apply_along_axis", "apply_over_axes", "piecewise", "array_str", "reshape", "ravel",
           "transpose", "moveaxis", "swapaxes", "rollaxis", "expand_dims", "squeeze", "atleast_1d",
           "atleast_2d", "atleast_3d", "size", "concatenate", "stack", "hstack", "vstack",
           "dstack", "column_stack", "append", "split", "array_split", "hsplit", "vsplit",
           "dsplit", "broadcast_to", "broadcast_arrays", "tile", "repeat", "flip", "fliplr",
           "flipud", "roll", "rot90", "take", "take_along_axis", "choose", "select", "where",
           "diagonal", "pad", "argwhere", "searchsorted"]
