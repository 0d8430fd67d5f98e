"""MaxPool1d/AvgPool1d over (N, C, L) and MaxPool3d/AvgPool3d over (N, C, D, H, W) (each also
without the batch axis), and LPPool1d/LPPool2d, with MindSpore 2.10's arguments and checks;
kernels in training.backends.numpy.pooling (torch tensors: torch's pooling)."""
import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy import pooling
from training.backends.numpy.conv import _pair
from training.backends import torch_pooling
from training.nn.cell import Cell
from training.ops.activations import elementwise
from training.nn.layers.pooling import AvgPool2d, checked_flags

PAD_MODES = ("VALID", "SAME", "PAD")


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class _PoolNd(Cell):
    """The arguments of MaxPool1d/3d and AvgPool1d/3d: sizes are one int per spatial axis
    (1-D layers: an int; 3-D: an int or 3 of them)."""
    dims = 1
    one_tuple = False       # (the average pools take a 1-tuple as its int)

    def __init__(self, kernel_size, stride, pad_mode, padding):
        super().__init__()
        self.kernel_size = self._sizes("kernel_size", kernel_size)
        self.stride = self._sizes("stride", stride)
        if not isinstance(pad_mode, str) or pad_mode.upper() not in PAD_MODES:
            raise ValueError(f"For '{self.cls_name}', the 'pad_mode' must be str and must be in "
                             f"'{list(PAD_MODES)}', but got '{str(pad_mode).upper()}'.")
        self.pad_mode = pad_mode.lower()
        self.padding = self._padding(padding)

    def _sizes(self, name, value, tuple_ok=None):
        tuple_ok = self.dims > 1 if tuple_ok is None else tuple_ok
        if self.one_tuple and isinstance(value, (tuple, list)) and len(value) == 1:
            value = value[0]
        if isinstance(value, (tuple, list)) and not tuple_ok:
            raise TypeError(f"For '{self.cls_name}', the '{name}' must be int, but got "
                            f"'{type(value).__name__}'")
        if not _is_int(value) and not isinstance(value, (tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the type of '{name}' should be one of "
                            f"'['int', 'tuple']', but got type '{type(value).__name__}'.")
        sizes = (value,) * self.dims if _is_int(value) else tuple(value)
        if len(sizes) != self.dims or not all(_is_int(v) and v > 0 for v in sizes):
            raise ValueError(f"For '{self.cls_name}', the '{name}' must be an positive int "
                             f"number or a tuple of {self.dims} positive ints, but got {value!r}")
        return sizes

    def _padding(self, padding):
        if not _is_int(padding) and not isinstance(padding, (tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the type of 'padding' should be one of "
                            f"'['int', 'tuple', 'list']', but got type "
                            f"'{type(padding).__name__}'.")
        pads = (padding,) * self.dims if _is_int(padding) else tuple(padding)
        if len(pads) != self.dims:
            raise ValueError(f"For {self.cls_name}, the length of padding must equal to "
                             f"{self.dims}, but got {len(pads)}.")
        if not all(_is_int(p) and p >= 0 for p in pads):
            raise ValueError(f"For '{self.cls_name}', the 'padding' must be non-negative ints, "
                             f"but got {padding!r}")
        if any(2 * p > k for p, k in zip(pads, self.kernel_size)):
            raise ValueError(f"For '{self.cls_name}', pads should be less equal to the half of "
                             f"ksize, but got kernel_size {self.kernel_size} and padding {pads}")
        return pads

    def batched(self, x):
        """`x` with its batch axis (the layer takes one input without it), and whether it was
        added; a ValueError for another rank, a TypeError for a non-float input."""
        ranks = (self.dims + 1, self.dims + 2)
        if x.ndim not in ranks:
            raise ValueError(f"For '{self.cls_name}', the input must has {ranks[1]} dim, but got "
                             f"{x.ndim}")
        if str(x.dtype).split(".")[-1] not in ("float16", "float32", "float64"):
            raise TypeError(f"For '{self.cls_name}', the input must be a float Tensor, but got "
                            f"{x.dtype}")
        dilation = getattr(self, "dilation", (1,) * self.dims)
        if self.pad_mode != "same":     # the (dilated) window fits in the (padded) input,
            # or with ceil_mode starts inside it
            slack = [s - 1 if getattr(self, "ceil_mode", False) else 0 for s in self.stride]
            least = [(k - 1) * d + 1 - 2 * p - extra for k, d, p, extra in
                     zip(self.kernel_size, dilation, self.padding, slack)]
            self.check_input(x, all(n >= m for n, m in zip(x.shape[-self.dims:], least)),
                             f"spatial sizes of at least {tuple(least)} for an output of at "
                             f"least one element")
        unbatched = x.ndim == ranks[0]
        return (x.reshape((1,) + tuple(x.shape)) if unbatched else x), unbatched


def _unbatch(out, unbatched):
    if not unbatched:
        return out
    if isinstance(out, tuple):
        return tuple(_unbatch(value, True) for value in out)
    return out.reshape(tuple(out.shape[1:]))


class _MaxPoolNd(_PoolNd):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode, padding)
        # (MindSpore's tests, literally: a tuple dilation of ones counts as one too; MaxPool3d's
        # MaxPool3DWithArgmax, which wants 'pad' mode and a bool ceil_mode, runs with a
        # dilation or return_indices, its MaxPool3D, which takes any ceil_mode, else)
        with_argmax = self.pad_mode == "pad" if self.dims == 1 else \
            dilation != 1 or bool(return_indices)
        if self.pad_mode != "pad" and (any(self.padding) or dilation != 1
                                       or return_indices or ceil_mode):
            raise ValueError(f"For {self.cls_name}, the parameter 'padding', 'dilation', "
                             f"'return_indices', 'ceil_mode' can not be set to non-default value "
                             f"when pad_mode is not 'pad', but got pad_mode:{self.pad_mode}.")
        self.dilation = self._sizes("dilation", dilation, True)
        self.return_indices = bool(return_indices)
        self.ceil_mode = self.check_bool("ceil_mode", ceil_mode) if with_argmax \
            else bool(ceil_mode)

    def construct(self, x):
        x, unbatched = self.batched(x)
        kernel = torch_pooling.max_pool if is_torch(x) else pooling.max_pool
        return _unbatch(kernel(x, self.kernel_size, self.stride, self.pad_mode, self.padding,
                               self.dilation, self.ceil_mode, self.return_indices), unbatched)


class _AvgPoolNd(_PoolNd):
    one_tuple = True
    same_counts_padding = False     # (AvgPool3d's 'same' counts its padding: MindSpore 2.10's)

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode, padding)
        if self.pad_mode != "pad" and any(self.padding):
            raise ValueError(f"For '{self.cls_name}', the 'pad' must be zero when 'pad_mode' is "
                             f"not 'pad', but got padding {padding!r} and pad_mode {pad_mode!r}")
        # (AvgPool3d always runs MindSpore's AvgPool3D)
        self.ceil_mode, self.count_include_pad = checked_flags(
            self, ceil_mode, count_include_pad, self.dims == 3 or self.pad_mode == "pad"
            or padding != 0)
        if divisor_override is not None and not _is_int(divisor_override):
            raise TypeError(f"For '{self.cls_name}', the 'divisor_override' must be int, but "
                            f"got '{type(divisor_override).__name__}'")
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'divisor_override' must be > 0, but "
                             f"got {divisor_override}.")
        self.divisor_override = divisor_override

    def construct(self, x):
        x, unbatched = self.batched(x)
        kernel = torch_pooling.avg_pool if is_torch(x) else pooling.avg_pool
        return _unbatch(kernel(x, self.kernel_size, self.stride, self.pad_mode, self.padding,
                               self.count_include_pad, self.ceil_mode, self.divisor_override,
                               self.same_counts_padding), unbatched)


class MaxPool1d(_MaxPoolNd):
    """Max pooling over (N, C, L) or (C, L)."""


class MaxPool3d(_MaxPoolNd):
    """Max pooling over (N, C, D, H, W) or (C, D, H, W)."""
    dims = 3


class AvgPool1d(_AvgPoolNd):
    """Average pooling over (N, C, L) or (C, L)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad)


class AvgPool3d(_AvgPoolNd):
    """Average pooling over (N, C, D, H, W) or (C, D, H, W)."""
    dims, same_counts_padding = 3, True


class _LPPool(Cell):
    """(sum of x^p over each window)^(1 / p), as MindSpore computes it: the mean of x^p over
    the window (NaN made 0) times the window's size, to the power 1 / p (NaN where that sum
    is negative)."""
    dims = 1

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)):
            raise TypeError(f"For '{self.cls_name}', the type of 'norm_type' should be one of "
                            f"'['int', 'float']', but got type '{type(norm_type).__name__}'.")
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.ceil_mode = self.check_bool("ceil_mode", ceil_mode)

    def construct(self, x):
        ranks = (2, 3) if self.dims == 1 else (4,)     # (LPPool2d: batched only)
        self.check_input(x, x.ndim in ranks, " or ".join(f"{n} dimensions" for n in ranks))
        p = float(self.norm_type)
        kernel = (1, self.kernel_size) if self.dims == 1 else _pair(self.kernel_size,
                                                                   "kernel_size")
        stride = (1, self.stride) if self.dims == 1 else _pair(self.stride, "stride")
        shape = tuple(x.shape)
        # as planes (N, C, H, W): a 1-D input gets H = 1, an unbatched one N = 1
        planes = x.reshape(shape[:-1] + (1, shape[-1])) if self.dims == 1 else x
        planes = planes.reshape((-1,) + tuple(planes.shape[-3:]))
        size = float(np.prod(kernel))
        if is_torch(x):
            import torch.nn.functional as F
            mean = F.avg_pool2d(planes ** p, kernel, stride, 0, self.ceil_mode)
            root = (mean.nan_to_num(nan=0.0) * size) ** (1 / p)
        else:   # (x^p of a negative x and a fractional p is NaN, as in MindSpore)
            with np.errstate(invalid="ignore", divide="ignore"):
                powered = elementwise(planes, lambda a: a ** p,
                                      lambda a, out: p * a ** (p - 1))
                mean = AvgPool2d(kernel, stride, ceil_mode=self.ceil_mode)(powered)
                root = elementwise(mean, lambda a: (np.nan_to_num(a, nan=0.0) * size) ** (1 / p),
                                   lambda a, out: size / p * (a * size) ** (1 / p - 1))
        kept = shape[:-1] if self.dims == 1 else shape[:-2]
        return root.reshape(kept + tuple(root.shape[-self.dims:]))


class LPPool1d(_LPPool):
    """Power-average pooling over (N, C, L) or (C, L)."""


class LPPool2d(_LPPool):
    """Power-average pooling over (N, C, H, W)."""
    dims = 2
