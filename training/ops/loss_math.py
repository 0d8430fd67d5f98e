"""The differentiable element-wise math the loss functions (training.ops.losses) are written
in, once for both backends: `math_of(x)` gives the numpy-backend version for Tensors (recording
gradients) or the torch version for torch tensors (autograd as usual). Each loss formula then
runs on either backend with the same tie and clamping rules."""
import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy import functional as NF
from training.ops import array_kernels as K
from training.tensor import Tensor, as_array


class NumpyMath:
    """Math on numpy-backend Tensors; `xp` (numpy) works on their detached values."""
    xp = np

    def __init__(self, like):
        self.dtype = like.dtype

    def tensor(self, value):
        return value if isinstance(value, Tensor) else Tensor(np.asarray(as_array(value)))

    def const(self, value, dtype=None):
        """A constant (number, array, Tensor, torch-free) of the loss's float dtype."""
        return Tensor(np.asarray(as_array(value), dtype or self.dtype))

    def values(self, x):
        """x's values without gradient, for masks and derivatives."""
        return as_array(x)

    def with_derivative(self, x, value, derivative):
        """An element-wise result of value (x's shape) whose gradient is g * derivative."""
        return Tensor.from_op(np.asarray(value, self.dtype), (x,), lambda g: (g * derivative,))

    def where(self, mask, a, b):
        """a where the (constant) mask holds, else b; the gradient goes to the chosen one."""
        mask, a, b = np.asarray(mask, bool), self._operand(a), self._operand(b)
        shape = np.broadcast_shapes(mask.shape, a.shape, b.shape)
        if a.shape != shape:    # a mask wider than both: the result takes its shape
            a = a + self.const(np.zeros(shape))
        return K.maximum(a, b, lambda x, y: np.broadcast_to(mask, np.broadcast(x, y).shape))

    def clamp_min(self, x, low, tie_gradient=1.0):
        """max(x, low); at a tie x gets tie_gradient of the gradient (MindSpore's Maximum
        splits it in halves, its ReLU-like uses give all)."""
        xd = self.values(x)
        derivative = np.where(xd > low, 1.0, np.where(xd == low, tie_gradient, 0.0))
        # NaN gives low, as MindSpore's (x > low ? x : low)
        return self.with_derivative(x, np.where(xd > low, xd, low), derivative.astype(self.dtype))

    def divide(self, a, b):
        """a / b (its gradient for b stays finite in float16: see Tensor.__truediv__)."""
        return self._operand(a) / self._operand(b)

    def softplus(self, x):
        """log(1 + exp(x)), without overflow."""
        return K.unary(x, lambda a: np.logaddexp(0, a).astype(a.dtype),
                       lambda a, out: (1.0 / (1.0 + np.exp(-a))).astype(a.dtype))

    def sigmoid(self, x):
        return NF.sigmoid(x)

    def log_softmax(self, x, axis):
        return self.in_float32(lambda wide: NF.log_softmax(wide, axis), x)

    def softmax(self, x, axis):
        return self.in_float32(lambda wide: NF.softmax(wide, axis), x)

    def tanh(self, x):
        return NF.tanh(x)

    def reduced(self, x, how):
        """x.mean() or x.sum() (how), float16 accumulated in float32 (MindSpore's CPU kernels
        and torch's do; numpy's float16 sum rounds at every step)."""
        return self.in_float32(lambda wide: getattr(wide, how)(), x)

    @staticmethod
    def in_float32(function, x):
        """function(x), computed in float32 for a float16 x (as MindSpore's float16 kernels:
        float16 would overflow in between)."""
        if x.dtype != np.float16:
            return function(x)
        return K.cast(function(K.cast(x, np.float32)), np.float16)

    def _operand(self, value):
        return value if isinstance(value, Tensor) else self.const(value)


class TorchMath(NumpyMath):
    """The same on torch tensors (on the device of the loss's input)."""

    def __init__(self, like):
        import torch
        self.xp = self.torch = torch
        self.dtype, self.device = like.dtype, like.device

    def tensor(self, value):
        if is_torch(value):
            return value
        return self.torch.as_tensor(np.asarray(as_array(value)), device=self.device)

    def const(self, value, dtype=None):
        """dtype: a numpy one (the loss's own without)."""
        if dtype is not None:
            value = np.asarray(as_array(value.detach().cpu() if is_torch(value) else value),
                               dtype)
            return self.torch.as_tensor(value, device=self.device)
        if is_torch(value):
            return value.detach().to(self.dtype)
        return self.torch.as_tensor(np.asarray(as_array(value)), dtype=self.dtype,
                                    device=self.device)

    def values(self, x):
        return x.detach() if is_torch(x) else self.tensor(x)

    def with_derivative(self, x, value, derivative):
        return _with_derivative(self.torch).apply(x, value.to(self.dtype),
                                                  derivative.to(self.dtype))

    def where(self, mask, a, b):
        mask = self.tensor(mask).bool()
        return self.torch.where(mask, self._operand(a), self._operand(b))

    def clamp_min(self, x, low, tie_gradient=1.0):
        xd = x.detach()
        derivative = self.torch.where(xd > low, 1.0, self.torch.where(xd == low, tie_gradient,
                                                                       0.0))
        return self.with_derivative(x, self.torch.where(xd > low, xd, low), derivative)

    def softplus(self, x):
        return self.torch.nn.functional.softplus(x)

    def sigmoid(self, x):
        return x.sigmoid()

    def log_softmax(self, x, axis):
        return x.log_softmax(dim=axis)

    def softmax(self, x, axis):
        return x.softmax(dim=axis)

    def tanh(self, x):
        return x.tanh()

    def reduced(self, x, how):
        return getattr(x, how)()

    def in_float32(self, function, x):
        if x.dtype != self.torch.float16:
            return function(x)
        return function(x.float()).half()

    def _operand(self, value):
        return value if is_torch(value) else self.const(value)


def _with_derivative(torch):
    """The autograd function giving `value` with the gradient g * derivative (made once, when
    torch is first needed)."""
    global _WITH_DERIVATIVE
    if _WITH_DERIVATIVE is None:
        class WithDerivative(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, value, derivative):
                ctx.save_for_backward(derivative)
                return value

            @staticmethod
            def backward(ctx, grad):
                return grad * ctx.saved_tensors[0], None, None
        _WITH_DERIVATIVE = WithDerivative
    return _WITH_DERIVATIVE


_WITH_DERIVATIVE = None


def math_of(x):
    """The math for x's backend."""
    return TorchMath(x) if is_torch(x) else NumpyMath(x)
