"""MaxPool2d and AvgPool2d (NCHW)."""
from training.backends.dispatch import is_torch, torch_kernels
from training.backends.numpy.conv import _pair, avg_pool2d, max_pool2d
from training.nn.cell import Cell
from training.ops.array_kernels import concat


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
        kernel = torch_kernels().max_pool2d if is_torch(x) else max_pool2d
        return kernel(x, self.kernel_size, self.stride, self.pad_mode, self.padding)


class AvgPool2d(_Pool2d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        self.count_include_pad = count_include_pad

    def construct(self, x):
        self._check(x)
        kernel = torch_kernels().avg_pool2d if is_torch(x) else avg_pool2d
        return kernel(x, self.kernel_size, self.stride, self.pad_mode, self.padding,
                      self.count_include_pad)


class AdaptiveAvgPool2d(Cell):
    """Averages over bins that split H and W into `output_size` parts (bin i spans
    [floor(i * H / out), ceil((i + 1) * H / out)))."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = (output_size, output_size) if isinstance(output_size, int) or \
            output_size is None else tuple(output_size)

    def construct(self, x):
        self.check_input(x, x.ndim in (3, 4), "(N, C, H, W) or (C, H, W)")
        h, w = x.shape[-2:]
        oh = self.output_size[0] or h
        ow = self.output_size[1] or w
        if is_torch(x):  # torch's bins are the same
            import torch.nn.functional as F
            return F.adaptive_avg_pool2d(x, (oh, ow))
        if (oh, ow) == (1, 1):
            return x.mean(axis=(-2, -1), keep_dims=True)
        rows = []
        for i in range(oh):
            top, bottom = (i * h) // oh, -(-((i + 1) * h) // oh)
            cells = [x[..., top:bottom, (j * w) // ow:-(-((j + 1) * w) // ow)]
                     .mean(axis=(-2, -1), keep_dims=True) for j in range(ow)]
            rows.append(_concat(cells, x.ndim - 1))
        return _concat(rows, x.ndim - 2)


def _concat(parts, axis):
    if is_torch(parts[0]):
        import torch
        return torch.cat(parts, axis)
    return concat(parts, axis)
