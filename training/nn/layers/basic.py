"""Dense, Flatten and Dropout."""
import numpy as np

from training.backends.dispatch import is_torch, torch_kernels
from training.backends.numpy import functional as F
from training.nn import initializer
from training.nn.cell import Cell
from training.tensor import Parameter, Tensor


def _check_positive_int(value, name, cls):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"For '{cls}', '{name}' must be a positive int, but got {value!r}")


def get_activation(name, prim_name=None):
    """MindSpore's activation layer of `name` (None gives None); a KeyError naming the known
    names otherwise."""
    if name is None:
        return None
    from training.nn.layers import activation as act
    table = {"softmin": act.Softmin, "softmax": act.Softmax, "softmax2d": act.Softmax2d,
             "logsoftmax": act.LogSoftmax, "relu": act.ReLU, "relu6": act.ReLU6,
             "rrelu": act.RReLU, "silu": act.SiLU, "tanh": act.Tanh,
             "tanhshrink": act.Tanhshrink, "hardtanh": act.Hardtanh, "gelu": act.GELU,
             "fast_gelu": act.FastGelu, "elu": act.ELU, "sigmoid": act.Sigmoid,
             "softsign": act.Softsign, "prelu": act.PReLU, "leakyrelu": act.LeakyReLU,
             "hswish": act.HSwish, "hsigmoid": act.HSigmoid, "logsigmoid": act.LogSigmoid,
             "softshrink": act.SoftShrink, "hshrink": act.HShrink, "mish": act.Mish}
    if name not in table:
        raise KeyError(f"The 'name' must be in {list(table)}, but got {name}.")
    return table[name]()


def _activation(activation, cls="Dense"):
    """A layer's `activation` argument as a Cell: a Cell or None as it is, a name through
    get_activation (MindSpore's KeyError), anything else MindSpore's TypeError."""
    if activation is None or isinstance(activation, Cell):
        return activation
    if not isinstance(activation, str):
        raise TypeError(f"For '{cls}', the 'activation' must be str or Cell or Primitive, but "
                        f"got {type(activation).__name__}.")
    return get_activation(activation)


class Dense(Cell):
    """y = activation(x @ weight.T + bias), weight of shape (out_channels, in_channels)."""

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 activation=None, dtype=np.float32):
        super().__init__()
        _check_positive_int(in_channels, "in_channels", "Dense")
        _check_positive_int(out_channels, "out_channels", "Dense")
        self.in_channels, self.out_channels, self.has_bias = in_channels, out_channels, has_bias
        self.weight = Parameter(initializer.initialize(weight_init, (out_channels, in_channels),
                                                       dtype, "weight"), name="weight")
        if has_bias:
            bias = initializer.bias_uniform(in_channels, (out_channels,), dtype) \
                if bias_init is None else initializer.initialize(bias_init, (out_channels,), dtype)
            self.bias = Parameter(bias, name="bias")
        else:
            self.bias = None
        self.activation = _activation(activation)

    def construct(self, x):
        self.check_input(x, x.ndim >= 2 and x.shape[-1] == self.in_channels,
                         f"(N, {self.in_channels})")
        out = (torch_kernels().dense if is_torch(x) else F.dense)(x, self.weight, self.bias)
        return self.activation(out) if self.activation is not None else out

    def extend_repr(self):
        return f"input_channels={self.in_channels}, output_channels={self.out_channels}, " \
               f"has_bias={self.has_bias}"


class Flatten(Cell):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x):
        shape = x.shape
        end = self.end_dim % len(shape) if shape else 0
        new = shape[:self.start_dim] + (int(np.prod(shape[self.start_dim:end + 1])),) + shape[end + 1:]
        return x.reshape(new) if isinstance(x, Tensor) or is_torch(x) else np.reshape(x, new)


class Identity(Cell):
    """Gives its input back; its arguments are taken and ignored (as MindSpore's)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, x):
        return x


class Dropout(Cell):
    """Zeroes elements with probability p = 1 - keep_prob in training, scaling the rest by
    1/keep_prob; identity in evaluation."""

    def __init__(self, keep_prob=0.5, p=None, dtype=np.float32):
        super().__init__()
        if p is not None:
            if not 0 <= p < 1:
                raise ValueError(f"For 'Dropout', 'p' must be in [0, 1), but got {p}")
            keep_prob = 1.0 - p
        elif not 0 < keep_prob <= 1:
            raise ValueError(f"For 'Dropout', 'keep_prob' must be in (0, 1], but got {keep_prob}")
        self.keep_prob = keep_prob

    def construct(self, x):
        if not self.training or self.keep_prob == 1.0:
            return x
        if is_torch(x):
            return torch_kernels().dropout(x, self.keep_prob)
        return F.dropout(x, self.keep_prob, initializer.rng())


class Pad(Cell):
    """Pads each axis by `paddings[i] = (before, after)`; mode 'CONSTANT' (zeros, or `value`),
    'REFLECT' or 'SYMMETRIC'."""

    _MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if mode.upper() not in self._MODES:
            raise ValueError(f"For 'Pad', 'mode' must be one of {sorted(self._MODES)}, but got "
                             f"{mode!r}")
        if not isinstance(paddings, (tuple, list)) or any(
                len(p) != 2 or any(not isinstance(v, int) or v < 0 for v in p) for p in paddings):
            raise ValueError(f"For 'Pad', 'paddings' must be a tuple of (before, after) pairs of "
                             f"non-negative ints, but got {paddings!r}")
        self.paddings, self.mode = tuple(tuple(p) for p in paddings), mode.upper()

    def construct(self, x):
        self.check_input(x, x.ndim == len(self.paddings), f"{len(self.paddings)} dimensions")
        if is_torch(x):
            return self._torch_pad(x)
        out = np.pad(x.data, self.paddings, mode=self._MODES[self.mode])
        keep = tuple(slice(before, before + n) for (before, _), n in zip(self.paddings, x.shape))
        if self.mode == "CONSTANT":
            return Tensor.from_op(out, (x,), lambda g: (g[keep],))

        def backward(g):  # reflected cells send their gradient back to their source cell
            source = np.pad(np.arange(x.data.size).reshape(x.shape), self.paddings,
                            mode=self._MODES[self.mode])
            dx = np.zeros(x.data.size, dtype=g.dtype)
            np.add.at(dx, source.ravel(), g.ravel())
            return (dx.reshape(x.shape),)
        return Tensor.from_op(out, (x,), backward)

    def _torch_pad(self, x):
        import torch
        if self.mode == "CONSTANT":
            flat = [v for pair in reversed(self.paddings) for v in pair]  # torch: last axis first
            return torch.nn.functional.pad(x, flat)
        # Reflected cells gather from their source cell; autograd adds their gradients back.
        source = np.pad(np.arange(x.numel()).reshape(tuple(x.shape)), self.paddings,
                        mode=self._MODES[self.mode])
        return x.reshape(-1)[torch.as_tensor(source, device=x.device)]
