"""MaxPool2d and AvgPool2d (NCHW)."""
from training.backends.dispatch import is_torch, torch_kernels
from training.backends.numpy.conv import _pair, avg_pool2d, max_pool2d
from training.nn.cell import Cell
from training.ops.array_kernels import concat


def checked_flags(cell, ceil_mode, count_include_pad, padded):
    """(ceil_mode, count_include_pad) of an average pool: MindSpore 2.10's AvgPool1d/2d check
    that they are bools only where they run its AvgPool3D (in 'pad' mode or with padding, a
    ceil_mode, no count_include_pad or a divisor_override: ``padded`` says the rest); on its
    plain AvgPool 0 or None is False and 1 True."""
    if padded or ceil_mode or not count_include_pad:
        return cell.check_bool("ceil_mode", ceil_mode), \
            cell.check_bool("count_include_pad", count_include_pad)
    return bool(ceil_mode), bool(count_include_pad)


class _Pool2d(Cell):
    dilation = (1, 1)       # (MaxPool2d's own may differ; AvgPool2d's windows are contiguous)

    def __init__(self, kernel_size, stride, pad_mode, data_format):
        # (padding and ceil_mode are checked by each subclass, in MindSpore's order)
        super().__init__()
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.stride = _pair(stride, "stride")
        if str(pad_mode).lower() not in ("same", "valid", "pad"):
            raise ValueError(f"For '{self.cls_name}', 'pad_mode' must be 'same', 'valid' or 'pad', "
                             f"but got {pad_mode!r}")
        if data_format != "NCHW":
            raise ValueError(f"For '{self.cls_name}', only data_format 'NCHW' is supported")
        self.pad_mode = str(pad_mode).lower()

    def _padding_pair(self, padding):
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the type of 'padding' should be one of "
                            f"'['int', 'tuple', 'list']', but got type "
                            f"'{type(padding).__name__}'.")
        pair = (padding, padding) if isinstance(padding, int) else tuple(padding) * (
            2 if len(padding) == 1 else 1)
        if len(pair) != 2 or not all(isinstance(p, int) and not isinstance(p, bool)
                                     for p in pair):
            raise ValueError(f"For {self.cls_name}, the padding must be an int or a tuple/list of "
                             f"1 or 2 ints, but got {padding!r}.")
        if min(pair) < 0:
            raise ValueError(f"For {self.cls_name}, the padding must be >= 0, but got {padding!r}.")
        return pair

    def _check(self, x):
        self.check_input(x, x.ndim == 4, "(N, C, H, W)")
        if self.pad_mode != "same":     # the (dilated) window fits in the (padded) input
            least = [(k - 1) * d + 1 - 2 * p for k, d, p in
                     zip(self.kernel_size, self.dilation, self.padding)]
            self.check_input(x, x.shape[2] >= least[0] and x.shape[3] >= least[1],
                             f"(N, C, H >= {least[0]}, W >= {least[1]}) for an output of at "
                             f"least one element")


class MaxPool2d(_Pool2d):
    """Max pooling; `padding`, `dilation`, `return_indices` (then (output, int64 flat indices
    into each input plane)) and `ceil_mode` with pad_mode 'pad', as in MindSpore 2.x."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        # (MindSpore's test, literally: a tuple dilation or padding of ones or zeros counts too)
        if self.pad_mode != "pad" and (padding != 0 or dilation != 1 or return_indices
                                       or ceil_mode):
            raise ValueError(f"For {self.cls_name}, the parameter 'padding', 'dilation', "
                             f"'return_indices', 'ceil_mode' can not be set to non-default value "
                             f"when pad_mode is not 'pad', but got pad_mode:{self.pad_mode}.")
        self.padding = self._padding_pair(padding)
        self.dilation = _pair(dilation, "dilation") if not isinstance(dilation, (tuple, list)) \
            or len(dilation) != 1 else _pair(dilation[0], "dilation")
        if min(self.dilation) <= 0:
            raise ValueError(f"For '{self.cls_name}', the parameter 'dilation' must be a positive "
                             f"int or a tuple of positive ints, but got {dilation!r}")
        self.return_indices = bool(return_indices)
        # (checked in 'pad' mode, where MindSpore hands it to MaxPool3DWithArgmax; else falsy)
        self.ceil_mode = self.check_bool("ceil_mode", ceil_mode) if self.pad_mode == "pad" \
            else bool(ceil_mode)
        if any(2 * p > k for p, k in zip(self.padding, self.kernel_size)):
            raise ValueError(f"For {self.cls_name}, pads should be less equal to the half of "
                             f"ksize, but got kernel_size {self.kernel_size} and padding "
                             f"{self.padding}")

    def construct(self, x):
        self._check(x)
        kernel = torch_kernels().max_pool2d if is_torch(x) else max_pool2d
        return kernel(x, self.kernel_size, self.stride, self.pad_mode, self.padding,
                      self.dilation, self.ceil_mode, self.return_indices)


class AvgPool2d(_Pool2d):
    """Average pooling; `ceil_mode`, `count_include_pad` and `divisor_override` as in
    MindSpore 2.10 and torch with pad_mode 'pad' or 'valid'. With 'same' the output size is
    the pad mode's and each window is divided by its elements inside the input, or by
    `divisor_override`, or with `ceil_mode` and `count_include_pad` by the kernel's size (what
    MindSpore 2.10 computes there)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        if isinstance(divisor_override, (int, float)) and divisor_override <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'divisor_override' must be > 0, but "
                             f"got {divisor_override}.")
        self.padding = self._padding_pair(padding)
        if self.pad_mode != "pad" and self.padding != (0, 0):
            raise ValueError(f"For '{self.cls_name}', 'padding' must be 0 when 'pad_mode' is not "
                             f"'pad', but got padding {padding!r} and pad_mode {pad_mode!r}")
        self.ceil_mode, self.count_include_pad = checked_flags(
            self, ceil_mode, count_include_pad, self.pad_mode == "pad" or padding != 0
            or divisor_override is not None)
        if divisor_override is not None and (isinstance(divisor_override, bool)
                                             or not isinstance(divisor_override, int)):
            raise TypeError(f"For '{self.cls_name}', the 'divisor_override' must be int, but "
                            f"got '{type(divisor_override).__name__}'")
        self.divisor_override = divisor_override
        if any(2 * p > k for p, k in zip(self.padding, self.kernel_size)):
            raise ValueError(f"For '{self.cls_name}', the sum of the pads in the two directions "
                             f"should be less than or equal to the corresponding kernel size, "
                             f"but got kernel_size {self.kernel_size} and padding {self.padding}")

    def construct(self, x):
        self._check(x)
        kernel = torch_kernels().avg_pool2d if is_torch(x) else avg_pool2d
        return kernel(x, self.kernel_size, self.stride, self.pad_mode, self.padding,
                      self.count_include_pad, self.ceil_mode, self.divisor_override)


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
