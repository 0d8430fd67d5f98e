"""AdaptiveAvgPool1d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveAvgPool3d and
AdaptiveMaxPool3d: each output element pools one bin of the input (bin i of `out` over `n`
elements spans [floor(i * n / out), ceil((i + 1) * n / out)), MindSpore's and torch's bins),
with MindSpore 2.10's arguments and checks."""
import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy.pooling import adaptive_pool
from training.nn.cell import Cell


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class _AdaptivePool(Cell):
    """`dims` spatial axes; `maximum` max pooling (else average); `index_dtype` the dtype of
    the positions given with return_indices."""
    dims, maximum, index_dtype = 2, False, np.int64
    bool_indices_flag = False    # (AdaptiveMaxPool2d's return_indices must be a bool)
    none_sizes = True   # (None in output_size keeps that axis' size; AdaptiveMaxPool3d's: no)

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        sizes = (output_size,) * self.dims if _is_int(output_size) or output_size is None \
            else output_size
        if not isinstance(sizes, (tuple, list)) or len(sizes) != self.dims or not all(
                size is None or _is_int(size) and size > 0 for size in sizes):
            raise ValueError(f"For '{self.cls_name}', 'output_size' must be a positive int or "
                             f"a tuple of {self.dims} positive ints or None, but got "
                             f"{output_size!r}")
        self.output_size = tuple(sizes)
        self.return_indices = return_indices

    def check_rank(self, x):
        ranks = (self.dims + 1, self.dims + 2)
        if x.ndim not in ranks:
            raise ValueError(f"For primitive[{self.cls_name}], the rank of x must be in "
                             f"[{ranks[0]},{ranks[1]}], but got {x.ndim}.")

    def construct(self, x):
        self.check_rank(x)
        if self.bool_indices_flag and not isinstance(self.return_indices, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'return_indices' should be "
                            f"'bool', but got type '{type(self.return_indices).__name__}'.")
        if not self.none_sizes and None in self.output_size:
            raise TypeError(f"For '{self.cls_name}', the input_data is {self.output_size} that "
                            f"contain unsupported element (None).")
        unbatched = x.ndim == self.dims + 1
        batched = x.reshape((1,) + tuple(x.shape)) if unbatched else x
        size = tuple(o or n for o, n in zip(self.output_size, batched.shape[2:]))
        if is_torch(x):
            import torch.nn.functional as F
            kind = "max" if self.maximum else "avg"
            pool = getattr(F, f"adaptive_{kind}_pool{self.dims}d")
            out = pool(batched, size, True) if self.maximum else pool(batched, size)
            out, positions = out if self.maximum else (out, None)
        else:
            out, positions = adaptive_pool(batched, size, self.maximum)
        if unbatched:
            out = out.reshape(tuple(out.shape[1:]))
            positions = None if positions is None else positions.reshape(tuple(out.shape))
        if not self.return_indices:
            return out
        return out, (positions.to(_torch_dtype(self.index_dtype)) if is_torch(x) else
                     positions.astype(self.index_dtype))


def _torch_dtype(dtype):
    import torch
    return torch.from_numpy(np.empty(0, dtype)).dtype


class _AdaptivePool1d(_AdaptivePool):
    """MindSpore 2.10's 1-D forms: an int output size that divides L, a 3-D input."""
    dims = 1

    def __init__(self, output_size):
        if not _is_int(output_size):
            raise TypeError(f"For '{type(self).__name__}', the type of 'output_size' should be "
                            f"'int', but got type '{type(output_size).__name__}'.")
        if output_size < 1:
            raise ValueError(f"For '{type(self).__name__}', the 'output_size' must be int and "
                             f"must >= 1, but got '{output_size}' with type 'int'.")
        super().__init__(output_size)

    def check_rank(self, x):
        if x.ndim != 3:
            raise ValueError(f"For {self.cls_name}, the input must has 3 dim, but got {x.ndim}.")
        length, out = x.shape[-1], self.output_size[0]
        if length < out:
            raise ValueError(f"For {self.cls_name}, the input's last dimension must be greater "
                             f"or equal to output size {out}, but got {length}.")
        if length % out:
            raise ValueError(f"For {self.cls_name}, the input's last dimension must be "
                             f"divisible by output size {out}, but got {length}.")


class AdaptiveAvgPool1d(_AdaptivePool1d):
    """Averages over L / output_size elements at a time of (N, C, L)."""


class AdaptiveMaxPool1d(_AdaptivePool1d):
    """The maximum of L / output_size elements at a time of (N, C, L)."""
    maximum = True


class AdaptiveMaxPool2d(_AdaptivePool):
    """Maxima over the bins of (N, C, H, W) or (C, H, W); with return_indices also their flat
    positions in H * W (int64)."""
    maximum = bool_indices_flag = True


class AdaptiveAvgPool3d(_AdaptivePool):
    """Averages over the bins of (N, C, D, H, W) or (C, D, H, W)."""
    dims = 3


class AdaptiveMaxPool3d(_AdaptivePool):
    """Maxima over the bins of (N, C, D, H, W) or (C, D, H, W); with return_indices also
    their flat positions in D * H * W (int32, as MindSpore's)."""
    dims, maximum, index_dtype, none_sizes = 3, True, np.int32, False
