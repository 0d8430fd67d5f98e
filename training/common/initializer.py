"""Weight initializers (`mindspore.common.initializer`): classes with MindSpore's parameters
and distributions, the string aliases layers accept ('normal', 'he_uniform', ...) and
`initializer(init, shape, dtype)`.

Fans follow MindSpore: a (out, in, *kernel) shape has fan_in = in * prod(kernel) and
fan_out = out * prod(kernel). Every draw comes from the generator `set_seed` seeds."""
import math
import numbers

import numpy as np

from training.common import seed as _seed
from training.common.dtype import float32
from training.tensor import Tensor

_ALIASES = {}


def _register(*aliases):
    def decorate(cls):
        for alias in aliases:
            _ALIASES[alias] = cls
        return cls
    return decorate


def _calculate_fan_in_and_fan_out(shape):
    if len(shape) < 2:
        raise ValueError(f"'fan_in' and 'fan_out' can not be computed for a tensor with fewer than "
                         f"2 dimensions, but got shape {tuple(shape)}")
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _fan(shape, mode):
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' must be 'fan_in' or 'fan_out', but got {mode!r}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def calculate_gain(nonlinearity, param=None):
    """The recommended gain of a nonlinearity (leaky_relu's uses `param` as negative slope)."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, numbers.Number):
            raise ValueError(f"'negative_slope' must be a number, but got {slope!r}")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity!r}; expected one of "
                     f"{sorted(linear + ('tanh', 'relu', 'leaky_relu', 'selu'))}")


class Initializer:
    """Base class: `init(arr)` fills a numpy array in place."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _initialize(self, arr):
        raise NotImplementedError

    def __call__(self, arr):
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"For '{type(self).__name__}', the input must be a numpy array, but "
                            f"got {type(arr).__name__}")
        self._initialize(arr)
        return arr


@_register("zeros", "zero")
class Zero(Initializer):
    def _initialize(self, arr):
        arr.fill(0)


@_register("ones", "one")
class One(Initializer):
    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        arr.fill(self.value)


@_register("normal")
class Normal(Initializer):
    """N(mean, sigma^2)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _initialize(self, arr):
        arr[...] = _seed.rng().normal(self.mean, self.sigma, arr.shape)


@_register("uniform")
class Uniform(Initializer):
    """U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr):
        arr[...] = _seed.rng().uniform(-self.scale, self.scale, arr.shape)


@_register("truncatednormal", "truncated_normal")
class TruncatedNormal(Initializer):
    """N(mean, sigma^2) restricted to [a, b] (values outside are drawn again). As in MindSpore,
    a and b are absolute bounds, not multiples of sigma."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        if not a < b:
            raise ValueError(f"For 'TruncatedNormal', 'a' must be less than 'b', but got a={a}, b={b}")
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _initialize(self, arr):
        if self.sigma == 0:
            arr[...] = min(max(self.mean, self.a), self.b)
            return
        low, high = (self.a - self.mean) / self.sigma, (self.b - self.mean) / self.sigma
        arr[...] = self.mean + self.sigma * _truncated_standard_normal(arr.shape, low, high)


def _truncated_standard_normal(shape, a, b):
    out = _seed.rng().standard_normal(shape)
    bad = (out < a) | (out > b)
    while bad.any():
        out[bad] = _seed.rng().standard_normal(int(bad.sum()))
        bad = (out < a) | (out > b)
    return out


@_register("xavier_uniform", "xavieruniform")
class XavierUniform(Initializer):
    """U(-bound, bound), bound = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        arr[...] = _seed.rng().uniform(-bound, bound, arr.shape)


@_register("xavier_normal", "xaviernormal")
class XavierNormal(Initializer):
    """N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        arr[...] = _seed.rng().normal(0.0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)),
                                      arr.shape)


class _He(Initializer):
    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity
        calculate_gain(nonlinearity, negative_slope)  # checks the arguments now

    def _std(self, shape):
        return calculate_gain(self.nonlinearity, self.negative_slope) / math.sqrt(
            _fan(shape, self.mode))


@_register("he_uniform", "heuniform")
class HeUniform(_He):
    """U(-bound, bound), bound = sqrt(3) * gain / sqrt(fan) (Kaiming uniform)."""

    def _initialize(self, arr):
        bound = math.sqrt(3.0) * self._std(arr.shape)
        arr[...] = _seed.rng().uniform(-bound, bound, arr.shape)


@_register("he_normal", "henormal")
class HeNormal(_He):
    """N(0, std^2), std = gain / sqrt(fan) (Kaiming normal)."""

    def _initialize(self, arr):
        arr[...] = _seed.rng().normal(0.0, self._std(arr.shape), arr.shape)


@_register("identity", "eye")
class Identity(Initializer):
    def _initialize(self, arr):
        if arr.ndim != 2:
            raise ValueError(f"For 'Identity', the shape must have 2 dimensions, but got {arr.shape}")
        arr[...] = np.eye(*arr.shape)


@_register("dirac")
class Dirac(Initializer):
    """Identity-preserving convolution weights (out, in, *kernel): in each of `groups` groups
    of output channels, channel d of the group passes input channel d through the kernel's
    centre (size // 2 in each dimension); zeros elsewhere."""

    def __init__(self, groups=1):
        super().__init__(groups=groups)
        self.groups = groups

    def _initialize(self, arr):
        if arr.ndim not in (3, 4, 5):
            raise ValueError(f"For Dirac initializer, only support to initialize tensor with "
                             f"dimension of 3, 4 or 5, but got {arr.ndim}.")
        out_channels = arr.shape[0]
        if out_channels % self.groups:
            raise ValueError(f"For Dirac initializer, the first dimension of the initialized "
                             f"tensor must be divisible by groups, but got first dimension "
                             f"{out_channels}, groups {self.groups}.")
        per_group = out_channels // self.groups
        centre = tuple(size // 2 for size in arr.shape[2:])
        arr.fill(0)
        for group in range(self.groups):
            for channel in range(min(per_group, arr.shape[1])):
                arr[(group * per_group + channel, channel) + centre] = 1


@_register("orthogonal")
class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix of the flattened shape (rows = shape[0]), times gain."""

    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        if arr.ndim < 2:
            raise ValueError(f"For 'Orthogonal', the shape must have at least 2 dimensions, but "
                             f"got {arr.shape}")
        rows, cols = arr.shape[0], int(np.prod(arr.shape[1:]))
        flat = _seed.rng().standard_normal((rows, cols))
        q, r = np.linalg.qr(flat.T if rows < cols else flat)
        q = q * np.sign(np.diag(r))
        arr[...] = (self.gain * (q.T if rows < cols else q)).reshape(arr.shape)


@_register("variance_scaling", "variancescaling")
class VarianceScaling(Initializer):
    """Variance scale / n (n = fan_in, fan_out or their mean), drawn from a truncated normal,
    an untruncated normal or a uniform distribution."""

    _TRUNCATED_STD = 0.87962566103423978  # std of N(0, 1) truncated to [-2, 2]

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal"):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0:
            raise ValueError(f"For 'VarianceScaling', 'scale' must be > 0, but got {scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"For 'VarianceScaling', 'mode' must be 'fan_in', 'fan_out' or "
                             f"'fan_avg', but got {mode!r}")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"For 'VarianceScaling', 'distribution' must be 'uniform', "
                             f"'truncated_normal' or 'untruncated_normal', got {distribution!r}")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        variance = self.scale / max(1.0, n)
        if self.distribution == "truncated_normal":
            std = math.sqrt(variance) / self._TRUNCATED_STD
            arr[...] = std * _truncated_standard_normal(arr.shape, -2.0, 2.0)
        elif self.distribution == "untruncated_normal":
            arr[...] = _seed.rng().normal(0.0, math.sqrt(variance), arr.shape)
        else:
            bound = math.sqrt(3.0 * variance)
            arr[...] = _seed.rng().uniform(-bound, bound, arr.shape)


def _as_initializer(init):
    if isinstance(init, Initializer):
        return init
    if isinstance(init, numbers.Number) and not isinstance(init, bool):
        return Constant(init)
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"Unknown initializer name {init!r}; expected one of "
                             f"{sorted(_ALIASES)}")
        return cls()
    raise TypeError(f"For 'initializer', 'init' must be a Tensor, an Initializer, a str or a "
                    f"number, but got {type(init).__name__}")


def _check_shape(shape):
    shape = (shape,) if isinstance(shape, int) else shape
    if not isinstance(shape, (tuple, list)) or any(
            not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n <= 0 for n in shape):
        raise ValueError(f"For 'initializer', 'shape' must be a tuple or list of positive ints, "
                         f"but got {shape!r}")
    return tuple(int(n) for n in shape)


def initializer(init, shape=None, dtype=float32):
    """A Tensor of `shape` and `dtype` initialized by `init` (an Initializer, an alias such as
    'normal', a number, or a Tensor / array whose shape must match)."""
    if isinstance(init, (Tensor, np.ndarray)):
        value = np.asarray(init.data if isinstance(init, Tensor) else init)
        if shape is not None and tuple(value.shape) != _check_shape(shape):
            raise ValueError(f"For 'initializer', the shape of 'init' {tuple(value.shape)} must "
                             f"equal 'shape' {tuple(shape)}")
        return Tensor(value.astype(dtype, copy=True))
    if shape is None:
        raise ValueError("For 'initializer', 'shape' must be given unless 'init' is a Tensor")
    arr = np.zeros(_check_shape(shape), dtype=np.float64)
    _as_initializer(init)(arr)
    return Tensor(arr.astype(dtype))
