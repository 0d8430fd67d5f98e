"""MaxPool2d and AvgPool2d (NCHW)."""
from training.backends.numpy.conv import _pair, avg_pool2d, max_pool2d
from training.nn.cell import Cell


class _Pool2d(Cell):
    def __init__(self, kernel_size, stride, pad_mode, padding, data_format):
        super().__init__()
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.stride = _pair(stride, "stride")
        if str(pad_mode).lower() not in ("same", "valid", "pad"):
            raise ValueError(f"For '{self.cls_name}', 'pad_mode' must be 'same', 'valid' or 'pad', "
                             f"but got {pad_mode!r}")
        if data_format != "NCHW":
            raise ValueError(f"For '{self.cls_name}', only data_format 'NCHW' is supported")
        self.pad_mode, self.padding = str(pad_mode).lower(), padding

    def _check(self, x):
        self.check_input(x, x.ndim == 4, "(N, C, H, W)")
        if self.pad_mode == "valid":
            self.check_input(x, x.shape[2] >= self.kernel_size[0] and x.shape[3] >= self.kernel_size[1],
                             f"(N, C, H >= {self.kernel_size[0]}, W >= {self.kernel_size[1]})")


class MaxPool2d(_Pool2d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)

    def construct(self, x):
        self._check(x)
        return max_pool2d(x, self.kernel_size, self.stride, self.pad_mode, self.padding)


class AvgPool2d(_Pool2d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        self.count_include_pad = count_include_pad

    def construct(self, x):
        self._check(x)
        return avg_pool2d(x, self.kernel_size, self.stride, self.pad_mode, self.padding,
                          self.count_include_pad)
