"""mint's tensor creation and random sampling, torch-style: a size as ints or one tuple, a
`dtype` keyword (float32 by default; arange of ints int64), and samples from
training.set_seed's stream (numpy's generator; torch's on torch tensors' devices is not used:
the values are drawn on the host)."""
import numpy as np

from training.mint._core import (dtype_of, host_array, new_tensor, np_dtype, shape_of,
                                 tensor_argument, torch_of)
from training.ops import functional as ops
from training.tensor import Tensor


def _size(size, op):
    """size given as ints (*size) or as one tuple or list."""
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = tuple(size[0])
    for n in size:
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
            raise TypeError(f"For '{op}', 'size' must be ints or a tuple of ints, but got "
                            f"{size!r}")
        if n < 0:
            raise ValueError(f"For '{op}', 'size' must hold non-negative ints, but got "
                             f"{tuple(size)}")
    return tuple(int(n) for n in size)


def _like_device(array, like=None):
    return new_tensor(array, like) if like is not None and torch_of(like) else Tensor(array)


def zeros(*size, dtype=None):
    return Tensor(np.zeros(_size(size, "zeros"), np_dtype(dtype) or np.float32))


def ones(*size, dtype=None):
    return Tensor(np.ones(_size(size, "ones"), np_dtype(dtype) or np.float32))


def empty(*size, dtype=None, device=None):
    return zeros(*size, dtype=dtype)


def full(size, fill_value, *, dtype=None):
    """fill_value's type by default: bool, int64 for an int, float32 for a float."""
    kind = np_dtype(dtype) or (np.bool_ if isinstance(fill_value, bool) else np.int64 if
                               isinstance(fill_value, int) else np.float32)
    if hasattr(fill_value, "dtype"):
        fill_value = host_array(fill_value)
    return Tensor(np.full(_size((size,), "full"), fill_value, kind))


def _like(input, fill, dtype, op):
    tensor_argument(input, op)
    kind = np_dtype(dtype) or dtype_of(input)
    return _like_device(np.full(shape_of(input), fill, kind), input)


def zeros_like(input, *, dtype=None):  # noqa: A002
    return _like(input, 0, dtype, "zeros_like")


def ones_like(input, *, dtype=None):  # noqa: A002
    return _like(input, 1, dtype, "ones_like")


def empty_like(input, *, dtype=None, device=None):  # noqa: A002
    return _like(input, 0, dtype, "empty_like")


def full_like(input, fill_value, *, dtype=None):  # noqa: A002
    return _like(input, fill_value, dtype, "full_like")


def arange(start=0, end=None, step=1, *, dtype=None):
    """int64 for int arguments, float32 when one is a float (torch's)."""
    if end is None:
        start, end = 0, start
    values = [host_array(v).item() if hasattr(v, "dtype") else v for v in (start, end, step)]
    if values[2] == 0:
        raise ValueError("For 'arange', 'step' must not be 0.")
    if (values[1] - values[0]) * values[2] < 0:
        raise ValueError(f"For 'arange', 'start' ({values[0]}), 'end' ({values[1]}) and 'step' "
                         f"({values[2]}) give no elements in the step's direction.")
    integral = all(isinstance(v, (int, np.integer)) for v in values)
    kind = np_dtype(dtype) or (np.int64 if integral else np.float32)
    return Tensor(np.arange(*values, dtype=np.float64 if not integral else np.int64
                            ).astype(kind))


def linspace(start, end, steps, *, dtype=None):
    return Tensor(np.linspace(start, end, steps).astype(np_dtype(dtype) or np.float32))


def eye(n, m=None, dtype=None):
    return Tensor(np.eye(n, m, dtype=np_dtype(dtype) or np.float32))


# --- random --------------------------------------------------------------------------------
def _rng():
    from training.common.seed import rng
    return rng()


def rand(*size, generator=None, dtype=None, device=None):
    return Tensor(_rng().random(_size(size, "rand")).astype(np_dtype(dtype) or np.float32))


def randn(*size, generator=None, dtype=None, device=None):
    return Tensor(_rng().standard_normal(_size(size, "randn")).astype(
        np_dtype(dtype) or np.float32))


def randint(*args, generator=None, dtype=None, device=None):
    """randint(high, size) or randint(low, high, size): int64 by default."""
    if len(args) == 2:
        (low, high), size = (0, args[0]), args[1]
    elif len(args) == 3:
        low, high, size = args
    else:
        raise TypeError(f"For 'randint', expect (high, size) or (low, high, size), but got "
                        f"{len(args)} arguments")
    if low >= high:
        raise ValueError(f"For 'randint', 'low' ({low}) must be below 'high' ({high}).")
    return Tensor(_rng().integers(low, high, _size((size,), "randint")).astype(
        np_dtype(dtype) or np.int64))


def rand_like(input, *, dtype=None, device=None):  # noqa: A002
    return _like_device(_rng().random(shape_of(input)).astype(np_dtype(dtype) or
                                                              dtype_of(input)), input)


def randn_like(input, *, dtype=None, device=None):  # noqa: A002
    return _like_device(_rng().standard_normal(shape_of(input)).astype(
        np_dtype(dtype) or dtype_of(input)), input)


def randint_like(input, *args, dtype=None, device=None):  # noqa: A002
    low, high = (0, args[0]) if len(args) == 1 else args
    return _like_device(_rng().integers(low, high, shape_of(input)).astype(
        np_dtype(dtype) or dtype_of(input)), input)


def randperm(n, *, generator=None, dtype=np.int64):
    return Tensor(_rng().permutation(n).astype(np_dtype(dtype)))


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Samples of N(mean, std): tensors broadcast, or numbers with `size`."""
    tensors = [v for v in (mean, std) if hasattr(v, "dtype")]
    if tensors:
        shape = np.broadcast_shapes(*[shape_of(v) for v in tensors])
        noise = _like_device(_rng().standard_normal(shape).astype(dtype_of(tensors[0])),
                             tensors[0])
        return ops.add(ops.mul(noise, std), mean)
    return Tensor((_rng().standard_normal(_size((size,), "normal")) * std + mean).astype(
        np.float32))


def bernoulli(input, *, generator=None, p=None):  # noqa: A002
    chance = host_array(input) if p is None else p
    draws = _rng().random(shape_of(input)) < chance
    return _like_device(draws.astype(dtype_of(input)), input)


def multinomial(input, num_samples, replacement=False, *, generator=None):  # noqa: A002
    weights = np.atleast_2d(host_array(input)).astype(np.float64)
    rows = []
    for w in weights:
        if not replacement and num_samples > np.count_nonzero(w):
            raise ValueError("For 'multinomial', cannot draw more samples than non-zero "
                             "weights without replacement")
        rows.append(_rng().choice(len(w), num_samples, replacement, w / w.sum()))
    out = np.array(rows, np.int64)
    return _like_device(out if host_array(input).ndim == 2 else out[0], input)


def polar(abs, angle):  # noqa: A002
    return new_tensor(host_array(abs) * np.exp(1j * host_array(angle)), abs)

