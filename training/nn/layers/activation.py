"""Activation layers."""
import numpy as np

from training.backends.numpy import functional as F
from training.nn.cell import Cell
from training.tensor import Tensor


class ReLU(Cell):
    def construct(self, x):
        return F.relu(x)


class Sigmoid(Cell):
    def construct(self, x):
        return F.sigmoid(x)


class Tanh(Cell):
    def construct(self, x):
        return F.tanh(x)


class Softmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return F.softmax(x, self.axis)


class LeakyReLU(Cell):
    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        scale = np.where(x.data > 0, 1.0, self.alpha).astype(x.dtype)
        return Tensor.from_op(x.data * scale, (x,), lambda g: (g * scale,))


class GELU(Cell):
    """tanh approximation (MindSpore's default approximate=True)."""

    def __init__(self, approximate=True):
        super().__init__()
        self.approximate = approximate

    def construct(self, x):
        c = np.sqrt(2 / np.pi).astype(x.dtype)
        inner = c * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + F.tanh(inner))
