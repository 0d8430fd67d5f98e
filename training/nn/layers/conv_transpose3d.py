"""Conv3dTranspose (NCDHW), as MindSpore 2.10's: weight (in_channels, out_channels / group, kd,
kh, kw), its checks and output sizes (measured against a direct scatter of every input
element); training.backends.numpy.conv_nd runs it."""
import math

import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy.conv_nd import conv_transpose_nd, torch_conv_transpose_nd
from training.nn.layers.conv import _Conv

NAME = "Conv3DTranspose"    # (MindSpore's primitive names most of the errors)


def _triple(value, name, positive=True):
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if isinstance(value, tuple) and len(value) != 3:
        raise ValueError(f"For 'Conv3dTranspose', the parameter '{name}' must be an int or a "
                         f"tuple of three ints, but got {value!r}")
    if not (isinstance(value, tuple) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"For 'Conv3dTranspose', the type of '{name}' should be int or a tuple "
                        f"of three ints, but got {value!r}")
    if any(v < 1 if positive else v < 0 for v in value):
        raise ValueError(f"For 'Conv3dTranspose', '{name}' must be "
                         f"{'positive' if positive else 'non-negative'}, but got {value}")
    return value


class Conv3dTranspose(_Conv):
    """Transposed 3-D convolution. Output size per axis: 'same' D * stride, 'valid'
    (D - 1) * stride + dilation * (k - 1) + 1 (D * stride where that is more), 'pad' that
    less padding (head + tail ...) plus output_padding, which, unlike Conv2dTranspose's,
    holds the transposed convolution's own values (MindSpore's Conv3DTranspose, measured)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, output_padding=0, has_bias=False,
                 weight_init=None, bias_init=None, data_format="NCDHW", dtype=np.float32):
        if data_format != "NCDHW":
            raise ValueError(f"For '{NAME}', the 'format' should be 'NCDHW', but got "
                             f"{data_format!r}")
        if not isinstance(has_bias, bool):
            raise TypeError(f"For 'Conv3dTranspose', the 'has_bias' must be a bool, but got "
                            f"{type(has_bias).__name__}.")
        kernel, stride = _triple(kernel_size, "kernel_size"), _triple(stride, "stride")
        dilation = _triple(dilation, "dilation")
        if dilation[0] != 1:
            raise ValueError(f"For '{NAME}', the depth of parameter 'dilation' must be 1, but "
                             f"got {dilation[0]}.")
        if not isinstance(padding, (int, tuple)) or isinstance(padding, bool):
            raise TypeError(f"For 'Conv3dTranspose', the type of 'padding' should be int or "
                            f"tuple, but got {type(padding).__name__}")
        pads = (padding,) * 6 if isinstance(padding, int) else padding
        if len(pads) != 6:
            raise ValueError(f"For 'Conv3dTranspose', 'padding size' must be 6, but got "
                             f"{len(pads)}")
        if any(not isinstance(p, int) or p < 0 for p in pads):
            raise ValueError(f"For '{NAME}', each 'pad item' must be a non-negative int, but "
                             f"got {padding!r}")
        output_padding = _triple(output_padding, "output_padding", positive=False)
        if pad_mode in ("same", "valid") and any(output_padding):
            raise ValueError(f"For '{NAME}', the 'output_padding' must be zero or (0, 0, 0) "
                             f"when 'pad_mode' is not \"pad\", but got 'output_padding' is "
                             f"{output_padding} and 'pad_mode' is {pad_mode}.")
        for axis, value, s, d in zip("dhw", output_padding, stride, dilation):
            if value >= max(s, d):
                raise ValueError(f"For '{NAME}', the 'output_padding_{axis} belonging [0, "
                                 f"max(stride_{axis}, dilation_{axis}))' must be in range of "
                                 f"[0, {max(s, d)}), but got {value} with type 'int'.")
        super().__init__(in_channels, out_channels, kernel, stride, pad_mode,
                         0 if not any(pads) else pads, dilation, group, has_bias, weight_init,
                         bias_init, (in_channels, out_channels // group) + kernel,
                         out_channels // group * math.prod(kernel), dtype)
        self.output_padding = output_padding

    def _pads_and_extra(self, size):
        """[(before, after)] cropped per axis, and the zeros first grown at each axis' end."""
        if self.pad_mode == "pad":
            p = (0,) * 6 if self.padding == 0 else self.padding
            return [(p[0], p[1]), (p[2], p[3]), (p[4], p[5])], self.output_padding
        extra = tuple(max(s - (k - 1) * d - 1, 0) for k, s, d in
                      zip(self.kernel_size, self.stride, self.dilation))
        if self.pad_mode == "valid":
            return [(0, 0)] * 3, extra
        pads = []
        for n, k, s, d in zip(size, self.kernel_size, self.stride, self.dilation):
            total = max((n - 1) * s + (k - 1) * d + 1 - n * s, 0)
            pads.append((total // 2, total - total // 2))
        return pads, extra

    def construct(self, x):
        if x.ndim != 5:
            raise ValueError(f"For primitive[{NAME}], the x shape size must be equal to 5, but "
                             f"got {x.ndim}.")
        self.check_input(x, x.shape[1] == self.in_channels, f"(N, {self.in_channels}, D, H, W)")
        pads, extra = self._pads_and_extra(tuple(x.shape[2:]))
        kernel = torch_conv_transpose_nd if is_torch(x) else conv_transpose_nd
        return kernel(x, self.weight, self.bias, self.stride, pads, self.dilation, extra,
                      self.group)

    def extend_repr(self):
        return super().extend_repr() + f", output_padding={self.output_padding}"
