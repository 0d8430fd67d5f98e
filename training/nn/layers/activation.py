"""Activation layers."""
import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy import functional as F
from training.nn.cell import Cell
from training.tensor import Parameter, Tensor


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
        if is_torch(x) and isinstance(self.axis, (tuple, list)):
            # over several axes at once, as documented (torch's softmax takes one)
            return (x - x.logsumexp(tuple(self.axis), keepdim=True)).exp()
        return x.softmax(self.axis) if is_torch(x) else F.softmax(x, self.axis)


class LeakyReLU(Cell):
    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        if is_torch(x):  # alpha * x where x <= 0, for any alpha (as the numpy kernel)
            return x.where(x > 0, x * self.alpha)
        scale = np.where(x.data > 0, 1.0, self.alpha).astype(x.dtype)
        return Tensor.from_op(x.data * scale, (x,), lambda g: (g * scale,))


class GELU(Cell):
    """x * Phi(x): the tanh approximation with approximate=True (MindSpore's default), the
    exact erf form with approximate=False."""

    def __init__(self, approximate=True):
        super().__init__()
        self.approximate = approximate

    def construct(self, x):
        if is_torch(x):
            return _torch_f().gelu(x, approximate="tanh" if self.approximate else "none")
        if not self.approximate:
            return _exact_gelu(x)
        c = np.sqrt(2 / np.pi).astype(x.dtype)
        inner = c * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + F.tanh(inner))


def _erf(z):
    """erf to 1.5e-7 (Abramowitz and Stegun 7.1.26): below float32's resolution."""
    t = 1.0 / (1.0 + 0.3275911 * np.abs(z))
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
                                                                          + t * 1.061405429))))
    return np.sign(z) * (1.0 - poly * np.exp(-z * z))


def _exact_gelu(x):
    xd = x.data.astype(np.float64)
    cdf = 0.5 * (1.0 + _erf(xd / np.sqrt(2.0)))
    pdf = np.exp(-0.5 * xd * xd) / np.sqrt(2 * np.pi)
    grad = (cdf + xd * pdf).astype(x.dtype)
    return Tensor.from_op((xd * cdf).astype(x.dtype), (x,), lambda g: (g * grad,))


def _relu6(x):
    if is_torch(x):
        return _torch_f().relu6(x)
    mask = (x.data > 0) & (x.data < 6)
    return Tensor.from_op(np.clip(x.data, 0, 6), (x,), lambda g: (g * mask,))


class ReLU6(Cell):
    """min(max(x, 0), 6)."""

    def construct(self, x):
        return _relu6(x)


class HSwish(Cell):
    """x * ReLU6(x + 3) / 6."""

    def construct(self, x):
        return x * _relu6(x + 3.0) * (1.0 / 6)


class HSigmoid(Cell):
    """ReLU6(x + 3) / 6."""

    def construct(self, x):
        return _relu6(x + 3.0) * (1.0 / 6)


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
        return x.log_softmax(self.axis) if is_torch(x) else F.log_softmax(x, self.axis)
