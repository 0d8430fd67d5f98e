"""What the training.numpy modules share: array_like arguments as tensors with
mindspore.numpy's types (Python ints int32, floats float32), dtypes, axes and their errors."""
import builtins

import numpy as np

from training.ops import array_kernels as K
from training.ops import functional as F
from training.tensor import Tensor

torch_of = K.torch_of
dtype_of = K.np_dtype_of


def is_tensor(value):
    """A training Tensor or a torch tensor (numpy arrays are array_like, not tensors)."""
    return isinstance(value, Tensor) or bool(torch_of(value)) and hasattr(value, "dtype")


def python_array(value, op):
    """A Python number or (nested) list or tuple as an array: ints int32, floats float32,
    as mindspore.numpy's (a list of tensors is stacked)."""
    try:
        array = np.asarray(value if not isinstance(value, (list, tuple)) else
                           [K.host_array(v) if is_tensor(v) else v for v in value])
    except ValueError as exc:
        raise ValueError(f"For '{op}', the nested sequence must be rectangular: {exc}") from None
    if array.dtype.kind not in "biuf":
        raise TypeError(f"For '{op}', input data must be `int`, `float`, `bool`, `Tensor`, "
                        f"`list`, `tuple`, but got {type(value).__name__}")
    if array.dtype.kind in "iu" and (isinstance(value, (list, tuple)) or type(value) is int):
        return array.astype(np.int32)
    if array.dtype == np.float64 and (isinstance(value, (list, tuple)) or type(value) is float):
        return array.astype(np.float32)
    return array


def as_tensor(value, op="asarray", dtype=None):
    """`value` (a tensor, a number, a list or tuple, a numpy array) as a tensor; a torch
    tensor stays one (the torch backend); `dtype` casts."""
    if not is_tensor(value):
        if not isinstance(value, (bool, int, float, list, tuple, np.ndarray, np.generic)):
            raise TypeError(f"For '{op}', expect input to be array like, but got "
                            f"{type(value).__name__}")
        value = Tensor(python_array(value, op) if not isinstance(
            value, (np.ndarray, np.generic)) else np.asarray(value))
    return value if dtype is None else cast(value, dtype)


def cast(value, dtype):
    """`value` in `dtype` (gradients flow between float types); the same object where it has
    the type already."""
    dtype = np_dtype(dtype)
    if dtype_of(value) == dtype:
        return value
    return F.cast(value, dtype)


def np_dtype(dtype):
    """A dtype given as a numpy type, a name or a torch dtype, as numpy's (None stays None)."""
    if dtype is None:
        return None
    try:
        return F._np_dtype(dtype)
    except TypeError:
        raise TypeError(f"data type {dtype!r} not understood") from None


def operands(op, *values):
    """The arguments of an element-wise function as tensors: lists, numpy arrays and Python
    numbers too (ints int32, floats float32, as mindspore.numpy makes them: 0.5 beside a
    float16 tensor gives float32, 2 beside it float16)."""
    for v in values:
        if not is_tensor(v) and not isinstance(v, (bool, int, float, list, tuple, np.ndarray,
                                                   np.generic)):
            raise TypeError(f"For '{op}', the inputs must be array like, but got "
                            f"{type(v).__name__}")
    return [as_tensor(v, op) for v in values]


def shape_of(value):
    return tuple(value.shape)


def axis_tuple(axis, ndim, op, name="axis"):
    """`axis` (None: every axis; an int or a tuple or list of ints) as sorted non-negative
    axes; TypeError for other types, ValueError out of range or repeated."""
    if axis is None:
        return tuple(builtins.range(ndim))
    axes = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    bound = builtins.max(ndim, 1)
    for a in axes:
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise TypeError(f"For '{op}', '{name}' must be an int or a tuple of ints, but got "
                            f"{axis!r}")
        if not -bound <= a < bound:
            raise ValueError(f"For '{op}', the {name} value must be in [{-bound},{bound}), "
                             f"but got {a}.")
    normal = [a % bound for a in axes]
    if len(set(normal)) != len(normal):
        raise ValueError(f"For '{op}', '{name}' must hold different axes, but got {axis!r}")
    return tuple(sorted(normal)) if ndim else ()


def one_axis(axis, ndim, op, name="axis"):
    """A single int axis, non-negative; TypeError for a tuple or a non-int."""
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got {axis!r}")
    return axis_tuple(axis, ndim, op, name)[0] if ndim else 0


def int_argument(value, op, name):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got {value!r}")
    return int(value)


def shape_argument(shape, op):
    """A shape given as an int, a tuple or list of ints or a 1-D integer tensor."""
    if is_tensor(shape):
        shape = K.host_array(shape).tolist()
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    if not isinstance(shape, (tuple, list)) or not builtins.all(
            isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in shape):
        raise TypeError(f"For '{op}', only int, tuple, list and tensor are allowed for shape, "
                        f"but got {type(shape).__name__}")
    if builtins.any(n < 0 for n in shape):
        raise ValueError(f"For '{op}', each entry in shape should no less than 0, but got "
                         f"{tuple(shape)}")
    return tuple(int(n) for n in shape)


def new_tensor(array, like=None):
    """A tensor of `array`: a torch tensor on `like`'s device where `like` is one."""
    torch = torch_of(like) if like is not None else None
    if torch:
        return torch.as_tensor(np.array(array), device=like.device)     # (contiguous, 0-d kept)
    return Tensor(np.asarray(array))
