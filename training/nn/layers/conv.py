"""Conv2d, Conv1d and Conv2dTranspose (NCHW / NCL), im2col + BLAS in
training.backends.numpy.conv."""
import math

import numpy as np

from training.backends.dispatch import is_torch, torch_kernels
from training.backends.numpy.conv import (_pair, conv2d, conv_transpose2d, pads_for,
                                          refuse_mixed_types)
from training.backends.numpy.conv_nd import conv_nd, torch_conv_nd
from training.backends.numpy.pooling import pool_pads
from training.nn import initializer
from training.nn.layers.basic import Pad
from training.nn.cell import Cell
from training.tensor import Parameter, Tensor, as_array

PAD_MODES = ("same", "valid", "pad")


class _Conv(Cell):
    """Argument checks and parameters shared by the convolutions; `weight_shape` is the
    MindSpore layout of each layer's weight."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                 dilation, group, has_bias, weight_init, bias_init, weight_shape, bias_fan_in,
                 dtype):
        super().__init__()
        name = self.cls_name
        for arg, value in (("in_channels", in_channels), ("out_channels", out_channels),
                           ("group", group)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"For '{name}', '{arg}' must be a positive int, but got {value!r}")
        if in_channels % group or out_channels % group:
            raise ValueError(f"For '{name}', in_channels ({in_channels}) and out_channels "
                             f"({out_channels}) must be divisible by group ({group})")
        if pad_mode not in PAD_MODES:
            raise ValueError(f"For '{name}', 'pad_mode' must be one of {PAD_MODES}, but got "
                             f"{pad_mode!r}")
        if pad_mode != "pad" and padding not in (0, (0, 0, 0, 0)):
            raise ValueError(f"For '{name}', 'padding' must be 0 when pad_mode is '{pad_mode}', "
                             f"but got {padding!r}")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        self.pad_mode, self.padding, self.group, self.has_bias = pad_mode, padding, group, has_bias
        self.weight = Parameter(initializer.initialize(weight_init, weight_shape, dtype, "weight"),
                                name="weight")
        if has_bias:
            bias = initializer.bias_uniform(bias_fan_in, (out_channels,), dtype) \
                if bias_init is None else initializer.initialize(bias_init, (out_channels,), dtype)
            self.bias = Parameter(bias, name="bias")
        else:
            self.bias = None

    def check_window(self, x, size, kernel, stride, dilation, padding):
        """A ValueError naming the layer where the dilated kernel is larger than the padded
        input (MindSpore's for an undilated one; with dilation MindSpore gives an empty
        output: README)."""
        top, bottom, left, right = pads_for(self.pad_mode, padding, size, kernel, stride,
                                            dilation)
        padded = (size[0] + top + bottom, size[1] + left + right)
        window = tuple((k - 1) * d + 1 for k, d in zip(kernel, dilation))
        if padded[0] < window[0] or padded[1] < window[1]:
            raise ValueError(f"For '{self.cls_name}' layer '{self.scope_name()}', the input "
                             f"after padding must be at least as large as the dilated kernel "
                             f"{window[-1] if len(size) == 1 else window}, but got input shape "
                             f"{tuple(x.shape)} (padded {padded})")

    def extend_repr(self):
        return f"input_channels={self.in_channels}, output_channels={self.out_channels}, " \
               f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class Conv2d(_Conv):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=np.float32):
        if data_format != "NCHW":
            raise ValueError(f"For 'Conv2d', only data_format 'NCHW' is supported, got {data_format!r}")
        kernel = _pair(kernel_size, "kernel_size")
        super().__init__(in_channels, out_channels, kernel, _pair(stride, "stride"), pad_mode,
                         padding, _pair(dilation, "dilation"), group, has_bias, weight_init,
                         bias_init, (out_channels, in_channels // group) + kernel,
                         in_channels // group * math.prod(kernel), dtype)

    def construct(self, x):
        self.check_input(x, x.ndim == 4 and x.shape[1] == self.in_channels,
                         f"(N, {self.in_channels}, H, W)")
        self.check_window(x, tuple(x.shape[2:]), self.kernel_size, self.stride, self.dilation,
                          self.padding)
        kernel = torch_kernels().conv2d if is_torch(x) else conv2d
        return kernel(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                      self.dilation, self.group)


def _int(value, name, cls):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"For '{cls}', '{name}' must be a positive int, but got {value!r}")
    return value


def _as_4d(weight_init, cls, channels):
    """A 1-D convolution's weight_init array as MindSpore takes it, (`channels`, kernel_size),
    with the height axis of its (.., 1, kernel_size) weight; any other weight_init as it is."""
    if not isinstance(weight_init, (Tensor, np.ndarray)):
        return weight_init
    if np.ndim(weight_init) != 3:
        raise ValueError(f"For '{cls}', a 'weight_init' array must be 3-D ({channels}, "
                         f"kernel_size), but got shape {tuple(np.shape(weight_init))}")
    return np.expand_dims(as_array(weight_init), 2)


class Conv1d(_Conv):
    """1-D convolution over (N, C, L); weight (out_channels, in_channels / group, 1, kernel_size),
    MindSpore's shape (its checkpoints load as they are). Runs as a 2-D convolution over a
    height of one."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=np.float32):
        kernel = _int(kernel_size, "kernel_size", "Conv1d")
        weight_init = _as_4d(weight_init, "Conv1d", "out_channels, in_channels / group")
        super().__init__(in_channels, out_channels, kernel, _int(stride, "stride", "Conv1d"),
                         pad_mode, padding, _int(dilation, "dilation", "Conv1d"), group, has_bias,
                         weight_init, bias_init, (out_channels, in_channels // group, 1, kernel),
                         in_channels // group * kernel, dtype)

    def construct(self, x):
        self.check_input(x, x.ndim == 3 and x.shape[1] == self.in_channels,
                         f"(N, {self.in_channels}, L)")
        padding = self.padding if isinstance(self.padding, int) else self.padding[0]
        self.check_window(x, (1, x.shape[2]), (1, self.kernel_size), (1, self.stride),
                          (1, self.dilation), (0, 0, padding, padding))
        kernel = torch_kernels().conv2d if is_torch(x) else conv2d
        out = kernel(x.reshape(x.shape[:2] + (1, x.shape[2])), self.weight, self.bias,
                     (1, self.stride), self.pad_mode, (0, 0, padding, padding),
                     (1, self.dilation), self.group)
        return out.reshape(out.shape[:2] + (out.shape[3],))


class Conv2dTranspose(_Conv):
    """Transposed 2-D convolution; weight (in_channels, out_channels, kh, kw). Output size:
    'same' H * stride, 'valid' (H - 1) * stride + dilation * (k - 1) + 1 (H * stride where
    that is more), 'pad' (H - 1) * stride + dilation * (k - 1) + 1 - padding (top + bottom),
    then output_padding rows and columns of zeros."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=np.float32):
        kernel = _pair(kernel_size, "kernel_size")
        super().__init__(in_channels, out_channels, kernel, _pair(stride, "stride"), pad_mode,
                         padding, _pair(dilation, "dilation"), group, has_bias, weight_init,
                         bias_init, (in_channels, out_channels // group) + kernel,
                         out_channels // group * math.prod(kernel), dtype)
        self.output_padding = _output_padding(output_padding, pad_mode, self.stride,
                                              self.dilation)

    def _pads(self, size):
        if self.pad_mode == "valid":
            return 0, 0, 0, 0
        if self.pad_mode == "pad":
            p = self.padding
            return (p,) * 4 if isinstance(p, int) else tuple(p)
        pads = []
        for n, k, s, d in zip(size, self.kernel_size, self.stride, self.dilation):
            total = max((n - 1) * s + (k - 1) * d + 1 - n * s, 0)
            pads += [total // 2, total - total // 2]
        return tuple(pads)

    def construct(self, x):
        self.check_input(x, x.ndim == 4 and x.shape[1] == self.in_channels,
                         f"(N, {self.in_channels}, H, W)")
        extra = (0, 0)
        if self.pad_mode != "pad":  # MindSpore's output is at least H * stride: a dilated
            # kernel shorter than the stride leaves rows and columns of bias alone at the
            # bottom and right
            extra = tuple(max(s - (k - 1) * d - 1, 0) for k, s, d in
                          zip(self.kernel_size, self.stride, self.dilation))
        kernel = torch_kernels().conv_transpose2d if is_torch(x) else conv_transpose2d
        out = kernel(x, self.weight, self.bias, self.stride, self._pads(tuple(x.shape[2:])),
                     self.dilation, extra, self.group)
        if any(self.output_padding):    # MindSpore's: rows and columns of zeros (no bias) at
            # the bottom and right, not torch's (the transposed convolution's own values there)
            out = Pad(((0, 0), (0, 0), (0, self.output_padding[0]),
                       (0, self.output_padding[1])))(out)
        return out


def _output_padding(output_padding, pad_mode, stride, dilation):
    """Conv2dTranspose's output_padding, refused as MindSpore refuses it: outside 'pad' mode,
    or not below the larger of stride and dilation."""
    pair = _pair(output_padding, "output_padding")
    if any(pair) and pad_mode != "pad":
        raise ValueError(f"For 'Conv2dTranspose', when output_padding is not zero, pad_mode "
                         f"must be 'pad', but got {pad_mode!r}")
    for value, s, d in zip(pair, stride, dilation):
        if not 0 <= value < max(s, d):
            raise ValueError(f"For 'Conv2dTranspose', output_padding must be in range of "
                             f"[0, max(stride, dilation)) = [0, {max(s, d)}), but got "
                             f"{output_padding!r}")
    return pair


class Conv1dTranspose(Conv2dTranspose):
    """Transposed 1-D convolution over (N, C, L); weight (in_channels, out_channels / group,
    1, kernel_size), MindSpore's shape. Runs as Conv2dTranspose over a height of one."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=np.float32):
        for name, value in (("kernel_size", kernel_size), ("stride", stride),
                            ("dilation", dilation), ("padding", padding)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"For 'Conv1dTranspose', the type of '{name}' should be 'int', "
                                f"but got type '{type(value).__name__}'.")
        weight_init = _as_4d(weight_init, "Conv1dTranspose", "in_channels, out_channels / group")
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                         (0, 0, padding, padding), 0, (1, dilation), group, has_bias,
                         weight_init, bias_init, dtype)

    def construct(self, x):
        if x.ndim != 3:
            raise ValueError(f"For 'Conv1dTranspose', the dimension of input must be 3d, but "
                             f"got {x.ndim}.")
        if not is_torch(x):     # (MindSpore names its primitive here)
            refuse_mixed_types(x, self.weight, "Conv2DBackpropInput")
        out = super().construct(x.reshape(tuple(x.shape[:2]) + (1, x.shape[2])))
        return out.reshape(tuple(out.shape[:2]) + (out.shape[3],))


def _triple(value, name):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * 3
    if isinstance(value, (tuple, list)) and len(value) == 3 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    raise TypeError(f"For 'Conv3d', '{name}' must be an int or a tuple of three ints, but got "
                    f"{value!r}")


class Conv3d(_Conv):
    """3-D convolution over (N, C, D, H, W); weight (out_channels, in_channels / group, kd, kh,
    kw); padding an int or (head, tail, top, bottom, left, right) in 'pad' mode."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCDHW", dtype=np.float32):
        if data_format != "NCDHW":
            raise ValueError(f"For 'Conv3d', only data_format 'NCDHW' is supported, got "
                             f"{data_format!r}")
        kernel = _triple(kernel_size, "kernel_size")
        pads = padding if isinstance(padding, int) else tuple(padding)
        if not isinstance(pads, int) and len(pads) != 6:
            raise ValueError(f"For 'Conv3d', 'padding' must be an int or a tuple of six ints, "
                             f"but got {padding!r}")
        super().__init__(in_channels, out_channels, kernel, _triple(stride, "stride"), pad_mode,
                         0 if pads in (0, (0,) * 6) else pads, _triple(dilation, "dilation"),
                         group, has_bias, weight_init, bias_init,
                         (out_channels, in_channels // group) + kernel,
                         in_channels // group * math.prod(kernel), dtype)

    def _pads(self, size):
        if self.pad_mode == "pad":
            p = self.padding
            flat = (p,) * 6 if isinstance(p, int) else p
            return [(flat[0], flat[1]), (flat[2], flat[3]), (flat[4], flat[5])]
        return pool_pads(self.pad_mode, (0, 0, 0), size, self.kernel_size, self.stride,
                         self.dilation)

    def construct(self, x):
        if x.ndim != 5:
            raise ValueError(f"For primitive[Conv3D], the x shape size must be equal to 5, but "
                             f"got {x.ndim}.")
        self.check_input(x, x.shape[1] == self.in_channels, f"(N, {self.in_channels}, D, H, W)")
        pads = self._pads(tuple(x.shape[2:]))
        window = [(k - 1) * d + 1 for k, d in zip(self.kernel_size, self.dilation)]
        padded = [n + b + a for n, (b, a) in zip(x.shape[2:], pads)]
        if any(p < w for p, w in zip(padded, window)):
            raise ValueError(f"For 'Conv3d' layer '{self.scope_name()}', the input after "
                             f"padding must be at least as large as the dilated kernel "
                             f"{tuple(window)}, but got input shape {tuple(x.shape)}")
        kernel = torch_conv_nd if is_torch(x) else conv_nd
        return kernel(x, self.weight, self.bias, self.stride, pads, self.dilation, self.group)
