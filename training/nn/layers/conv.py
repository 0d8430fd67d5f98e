"""Conv2d (NCHW), im2col + BLAS in training.backends.numpy.conv."""
import math

import numpy as np

from training.backends.numpy.conv import _pair, conv2d
from training.nn import initializer
from training.nn.cell import Cell
from training.tensor import Parameter

PAD_MODES = ("same", "valid", "pad")


class Conv2d(Cell):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=np.float32):
        super().__init__()
        for name, value in (("in_channels", in_channels), ("out_channels", out_channels),
                            ("group", group)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"For 'Conv2d', '{name}' must be a positive int, but got {value!r}")
        if in_channels % group or out_channels % group:
            raise ValueError(f"For 'Conv2d', in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must be divisible by group ({group})")
        if pad_mode not in PAD_MODES:
            raise ValueError(f"For 'Conv2d', 'pad_mode' must be one of {PAD_MODES}, but got "
                             f"{pad_mode!r}")
        if pad_mode != "pad" and padding not in (0, (0, 0, 0, 0)):
            raise ValueError(f"For 'Conv2d', 'padding' must be 0 when pad_mode is '{pad_mode}', "
                             f"but got {padding!r}")
        if data_format != "NCHW":
            raise ValueError(f"For 'Conv2d', only data_format 'NCHW' is supported, got {data_format!r}")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.stride = _pair(stride, "stride")
        self.dilation = _pair(dilation, "dilation")
        self.pad_mode, self.padding, self.group, self.has_bias = pad_mode, padding, group, has_bias
        shape = (out_channels, in_channels // group) + self.kernel_size
        self.weight = Parameter(initializer.initialize(weight_init, shape, dtype, "weight"),
                                name="weight")
        if has_bias:
            fan_in = in_channels // group * math.prod(self.kernel_size)
            bias = initializer.bias_uniform(fan_in, (out_channels,), dtype) \
                if bias_init is None else initializer.initialize(bias_init, (out_channels,), dtype)
            self.bias = Parameter(bias, name="bias")
        else:
            self.bias = None

    def construct(self, x):
        self.check_input(x, x.ndim == 4 and x.shape[1] == self.in_channels,
                         f"(N, {self.in_channels}, H, W)")
        kh = (self.kernel_size[0] - 1) * self.dilation[0] + 1
        kw = (self.kernel_size[1] - 1) * self.dilation[1] + 1
        if self.pad_mode == "valid":
            self.check_input(x, x.shape[2] >= kh and x.shape[3] >= kw,
                             f"(N, {self.in_channels}, H >= {kh}, W >= {kw})")
        return conv2d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                      self.dilation, self.group)

    def extend_repr(self):
        return f"input_channels={self.in_channels}, output_channels={self.out_channels}, " \
               f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"
