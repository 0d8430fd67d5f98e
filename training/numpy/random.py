"""mindspore.numpy's random tensors: rand (uniform [0, 1)), randn (standard normal), randint,
drawn from training's default generator (training.set_seed seeds it)."""
import numpy as np

from training.common.seed import default_generator
from training.numpy._core import int_argument, np_dtype, shape_argument
from training.tensor import Tensor


def _shape(shape):
    return shape_argument(shape[0] if len(shape) == 1 and not isinstance(shape[0], int)
                          else shape, "rand")


def rand(*shape, dtype=np.float32):
    """Uniform values in [0, 1) of `shape` (ints, or one tuple)."""
    dtype = np_dtype(dtype)
    if dtype.kind != "f":
        raise TypeError(f"For 'rand', dtype must be a float type, but got {dtype}")
    return Tensor(default_generator.numpy.random(_shape(shape)).astype(dtype))


def randn(*shape, dtype=np.float32):
    """Standard normal values of `shape` (ints, or one tuple)."""
    dtype = np_dtype(dtype)
    if dtype.kind != "f":
        raise TypeError(f"For 'randn', dtype must be a float type, but got {dtype}")
    return Tensor(default_generator.numpy.standard_normal(_shape(shape)).astype(dtype))


def randint(minval, maxval=None, shape=None, dtype=np.int32):
    """Integers in [minval, maxval) ([0, minval) without maxval) of `shape` (one value, as
    shape (1,), without it)."""
    if maxval is None:
        minval, maxval = 0, minval
    minval, maxval = (int_argument(v, "randint", n) for v, n in ((minval, "minval"),
                                                                  (maxval, "maxval")))
    if maxval <= minval:
        raise ValueError(f"For 'randint', maxval must be greater than minval, but got "
                         f"{minval} and {maxval}")
    dtype = np_dtype(dtype)
    if dtype.kind not in "iu":
        raise TypeError(f"For 'randint', dtype must be an integer type, but got {dtype}")
    size = (1,) if shape is None else shape_argument(shape, "randint")
    return Tensor(default_generator.numpy.integers(minval, maxval, size).astype(dtype))


__all__ = ["rand", "randn", "randint"]
