"""What the training.mint modules share: arguments as tensors (training.numpy's rules:
Python ints int32, floats float32), dims as MindSpore's mint checks them, and the
torch-style integer results (sums and products of integers are int64)."""
import numpy as np

from training.numpy._core import (as_tensor, cast, dtype_of, is_tensor, new_tensor,  # noqa: F401
                                  np_dtype, shape_of, torch_of)
from training.ops import array_kernels as K
from training.ops import functional as F

host_array = K.host_array


def tensor_argument(value, op, name="input"):
    """`value` must be a tensor (mint functions take no lists): TypeError naming it."""
    if not is_tensor(value):
        raise TypeError(f"For '{op}', the input argument[{name}] must be Tensor, but got "
                        f"{type(value).__name__}")
    return value


def operand(value, op):
    """A tensor, or a Python number as a tensor (beside a tensor in a binary function)."""
    if is_tensor(value):
        return value
    if isinstance(value, (bool, int, float, np.generic)):
        return value
    raise TypeError(f"For '{op}', the input must be Tensor or number, but got "
                    f"{type(value).__name__}")


def dims(dim, ndim, op, name="dim"):
    """`dim` (None: every axis; an int or a tuple or list of ints) as sorted non-negative
    axes: TypeError for other types, ValueError out of range (MindSpore 2.10's mint)."""
    if dim is None or dim == ():
        return tuple(range(ndim))
    given = tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
    bound = max(ndim, 1)
    for d in given:
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool):
            raise TypeError(f"For '{op}', '{name}' must be an int or a tuple of ints, but got "
                            f"{dim!r}")
        if not -bound <= d < bound:     # (MindSpore 2.10: ValueError where torch's is an
            raise ValueError(              # IndexError, measured for ~30 functions)
                f"For '{op}', dimension out of range (expected to be in range of "
                f"[{-bound}, {bound}), but got {d})")
    normal = sorted({d % bound for d in given})
    if len(normal) != len(given):
        raise ValueError(f"For '{op}', dim {dim!r} appears multiple times")
    return tuple(normal) if ndim else ()


def one_dim(dim, ndim, op, name="dim"):
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got {dim!r}")
    axes = dims(dim, ndim, op, name)        # (checked for a 0-d input too: -1 or 0)
    return axes[0] if ndim else 0


def widened(x, dtype=None):
    """`x` in `dtype`, or, for integer and bool tensors, int64 (torch's and mint's sums)."""
    if dtype is not None:
        return cast(x, dtype)
    if dtype_of(x).kind in "biu":
        return cast(x, np.int64)
    return x


def float_only(x, op):
    if dtype_of(x).kind != "f":
        raise TypeError(f"For primitive[{op}], the input argument[input] must be a type of "
                        f"{{BFloat16, Float16, Float32, Float64}}, but got "
                        f"{str(dtype_of(x)).capitalize()}.")
    return x


def public_names(namespace, helpers=()):
    """A mint module's __all__: its public functions, without this module's helpers and
    `helpers` (other functions it imports to build its own)."""
    hidden = set(globals()) | set(helpers)
    return sorted(name for name, value in namespace.items()
                  if not name.startswith("_") and name not in hidden and callable(value))


def type_name(kind):
    """A numpy type as MindSpore names it: Bool, UInt8, Int32, Float16."""
    name = str(np.dtype(kind))
    return "UInt" + name[4:] if name.startswith("uint") else name.capitalize()


def supported(x, op, types, name="input"):
    """`x` if its type is one of `types` (numpy types), else MindSpore 2.10's TypeError for
    the types its kernel refuses (measured: bool to Cummax and ReduceMax, float64 to PReLU)."""
    kind = dtype_of(x)
    if kind not in types:
        shown = ", ".join(type_name(t) for t in types)
        raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                        f"{{{shown}}}, but got {type_name(kind)}.")
    return x


# the types MindSpore 2.10's CPU kernels take (measured), for supported()
NUMBERS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
           np.float16, np.float32, np.float64)
SIGNED = (np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64)
HALF_SINGLE = (np.float16, np.float32)


def int64_tensor(values, like=None):
    return new_tensor(np.asarray(values, np.int64), like)


def positions(x):
    return K.positions(shape_of(x))


def moved(x, where_from, fill=0):
    """The elements of x at the flat positions `where_from` (gradients flow back)."""
    return K.arrange(x, where_from, fill)

