"""Activation layers."""
import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy import functional as F
from training.nn.cell import Cell
from training.ops import activations as A
from training.tensor import Parameter


def _torch_f():
    import torch.nn.functional as TF  # lazily: only torch inputs need it
    return TF


class ReLU(Cell):
    def construct(self, x):
        return _torch_f().relu(x) if is_torch(x) else F.relu(x)


class Sigmoid(Cell):
    def construct(self, x):
        return x.sigmoid() if is_torch(x) else F.sigmoid(x)


class Tanh(Cell):
    def construct(self, x):
        return x.tanh() if is_torch(x) else F.tanh(x)


class Softmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        if isinstance(self.axis, (tuple, list)):
            A.check_softmax_axes(self.axis, len(x.shape))
        if is_torch(x) and isinstance(self.axis, (tuple, list)):
            # over several axes at once, as documented (torch's softmax takes one)
            return (x - x.logsumexp(tuple(self.axis), keepdim=True)).exp()
        return x.softmax(self.axis) if is_torch(x) else F.softmax(x, self.axis)


class LeakyReLU(Cell):
    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        return A.leaky_relu(x, self.alpha)


class GELU(Cell):
    """x * Phi(x): the tanh approximation with approximate=True (MindSpore's default), the
    exact erf form with approximate=False."""

    def __init__(self, approximate=True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', the 'approximate' must be a bool, but got "
                            f"{type(approximate).__name__}.")
        self.approximate = approximate

    def construct(self, x):
        return A.gelu(x, "tanh" if self.approximate else "none")


class ReLU6(Cell):
    """min(max(x, 0), 6)."""

    def construct(self, x):
        return A.relu6(x)


class HSwish(Cell):
    """x * ReLU6(x + 3) / 6."""

    def construct(self, x):
        return A.hardswish(x)


class HSigmoid(Cell):
    """ReLU6(x + 3) / 6."""

    def construct(self, x):
        return A.hardsigmoid(x)


class PReLU(Cell):
    """x where x > 0, else w * x, with a learned slope `w` per channel (axis 1) or shared."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if not isinstance(channel, int) or isinstance(channel, bool) or channel <= 0:
            raise ValueError(f"For 'PReLU', 'channel' must be a positive int, but got {channel!r}")
        from training.nn import initializer
        self.channel = channel
        # named "w": MindSpore lists and saves it as <cell>.w
        self.w = Parameter(initializer.initialize(w, (channel,), np.float32, "w"), name="w")

    def construct(self, x):
        self.check_input(x, self.channel == 1 or (x.ndim >= 2 and x.shape[1] == self.channel),
                         f"(N, {self.channel}, ...)")
        shape = (1, self.channel) + (1,) * (x.ndim - 2) if self.channel > 1 else (1,) * x.ndim
        if is_torch(x):
            from training.backends.torch_cells import param
            return x.where(x > 0, x * param(self.w).reshape(shape))
        slope = self.w.reshape(shape)
        positive = (x.data > 0).astype(x.dtype)
        return x * positive + x * (1.0 - positive) * slope


class LogSoftmax(Softmax):
    def construct(self, x):
        A.check_log_softmax_axis(self.axis, len(x.shape))
        return x.log_softmax(self.axis) if is_torch(x) else F.log_softmax(x, self.axis)


class Softmin(Softmax):
    """softmax(-x) over `axis`."""

    def construct(self, x):
        return A.softmin(x, self.axis)


class Softmax2d(Cell):
    """Softmax over the channels of (C, H, W) or (N, C, H, W)."""

    def construct(self, x):
        return A.softmax2d(x)


def _layer(name, function, doc, **arguments):
    """An activation layer keeping `arguments` (MindSpore's names and defaults, in order) and
    calling `function(x, *their values)`."""
    def __init__(self, *values, **named):
        Cell.__init__(self)
        given = dict(arguments, **dict(zip(arguments, values)), **named)
        unknown = set(given) - set(arguments)
        if unknown or len(values) > len(arguments):
            raise TypeError(f"{name}.__init__() got unexpected arguments "
                            f"{sorted(unknown) or values[len(arguments):]}")
        for key, value in given.items():
            setattr(self, key, value)

    def construct(self, x):
        return function(x, *(getattr(self, key) for key in arguments))
    return type(name, (Cell,), {"__init__": __init__, "construct": construct, "__doc__": doc,
                                "__module__": __name__})


ELU = _layer("ELU", A.elu, "x where x > 0, else alpha * (exp(x) - 1) (alpha 1.0 only, as "
             "MindSpore 2.10).", alpha=1.0)
CELU = _layer("CELU", A.celu, "max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).", alpha=1.0)
SeLU = _layer("SeLU", A.selu, "scale * ELU(x) with SeLU's fixed scale and alpha.")
SiLU = _layer("SiLU", A.silu, "x * sigmoid(x).")
Mish = _layer("Mish", A.mish, "x * tanh(softplus(x)).")
Softsign = _layer("Softsign", A.softsign, "x / (1 + |x|).")
LogSigmoid = _layer("LogSigmoid", A.logsigmoid, "log(sigmoid(x)).")
Tanhshrink = _layer("Tanhshrink", A.tanhshrink, "x - tanh(x).")
FastGelu = _layer("FastGelu", A.fast_gelu, "x * sigmoid(1.702 x).")
HShrink = _layer("HShrink", A.hardshrink, "x where |x| > lambd, else 0.", lambd=0.5)
SoftShrink = _layer("SoftShrink", A.softshrink, "x - lambd above lambd, x + lambd below "
                    "-lambd, else 0.", lambd=0.5)
GLU = _layer("GLU", A.glu, "a * sigmoid(b), a and b the halves of x along `axis`.", axis=-1)


class Threshold(Cell):
    """x where x > threshold, else value."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold, self.value = threshold, value

    def construct(self, x):
        return A.threshold(x, self.threshold, self.value)


class Hardtanh(Cell):
    """x clipped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        if min_val >= max_val:
            raise ValueError(f"For Hardtanh, min_val should be less than max_val,but got "
                             f"{min_val} and {max_val}")
        self.min_val, self.max_val = min_val, max_val

    def construct(self, x):
        return A.hardtanh(x, self.min_val, self.max_val)


class RReLU(Cell):
    """x where x >= 0, else alpha * x with alpha drawn from U(lower, upper) per element at
    every call, in training and evaluation alike (MindSpore 2.10's); seeds: ops.rrelu."""

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        A.check_rrelu_bounds(lower, upper)
        self.lower, self.upper = lower, upper

    def construct(self, x):
        return A.rrelu(x, self.lower, self.upper)
