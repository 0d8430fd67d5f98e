"""ConstantPad1d/2d/3d, ZeroPad2d, ReflectionPad1d/2d/3d and ReplicationPad1d/2d/3d with
MindSpore 2.10's arguments: `padding` an int (every padded axis, both sides) or a tuple of
(before, after) pairs from the last axis back (torch's order; a shorter tuple pads fewer
axes); a negative amount crops (constant and replication padding). Each output element is
an input element moved (or the constant), so both backends share one kernel and its
gradient (training.ops.array_kernels.arrange)."""
import numpy as np

from training.nn.cell import Cell
from training.ops.array_kernels import arrange, positions


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class _PadNd(Cell):
    """`dims` the axes an int padding pads; `mode` numpy's pad mode of the moved elements."""
    dims, mode = 1, "constant"
    # replication padding (MindSpore's PadV3 'edge') takes an input of (pairs + 2) axes, an
    # unbatched one (dims + 1 axes) counted with its batch axis
    counts_pairs = False

    def __init__(self, padding, value=0.0):
        super().__init__()
        if not _is_int(padding) and not isinstance(padding, tuple):
            raise TypeError(f"For '{self.cls_name}', the type of parameter 'padding' must be in "
                            f"[int, tuple], but got {type(padding)}")
        if isinstance(padding, tuple):
            if len(padding) % 2 or not all(_is_int(p) for p in padding):
                raise ValueError(f"For '{self.cls_name}', the length of parameter 'padding' "
                                 f"with tuple type must be a multiple of 2, but got "
                                 f"{len(padding)}")
            if len(padding) > 2 * self.dims:
                raise ValueError(f"For '{self.cls_name}', the 'padding' must have at most "
                                 f"{2 * self.dims} elements, but got {len(padding)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{self.cls_name}', the type of parameter 'value' must be in "
                            f"[int, float], but got {type(value)}")
        self.padding = (padding,) * 2 * self.dims if _is_int(padding) else padding
        if self.mode == "reflect" and min(self.padding) < 0:
            raise ValueError(f"For '{self.cls_name}' every element in 'padding' must be >= 0. "
                             f"but got {padding}. ")
        self.value = value

    def construct(self, x):
        shape = tuple(x.shape)
        axes = len(self.padding) // 2
        if self.counts_pairs and len(shape) + (len(shape) == self.dims + 1) != axes + 2:
            raise ValueError(f"For primitive[PadV3], the input dims when padding's size equal "
                             f"{2 * axes} must be equal to {axes + 2}, but got "
                             f"{len(shape) + (len(shape) == self.dims + 1)}.")
        if len(shape) < axes:
            raise ValueError(f"For '{self.cls_name}', the input must have at least {axes} "
                             f"dimensions, but got {len(shape)}.")
        # (before, after) per axis from the first: the pairs come from the last axis back
        pairs = [(0, 0)] * (len(shape) - axes) + [
            (self.padding[2 * i], self.padding[2 * i + 1]) for i in reversed(range(axes))]
        if self.mode == "reflect":
            for (before, after), size in zip(pairs, shape):
                if max(before, after) >= size:
                    raise ValueError(f"For '{self.cls_name}', paddings must be less than the "
                                     f"dimension size: {max(before, after)} not less than "
                                     f"{size}")
        if any(n + b + a <= 0 for (b, a), n in zip(pairs, shape)):
            raise ValueError(f"For '{self.cls_name}', the output size must be greater than 0, "
                             f"but got padding {self.padding} for an input of shape {shape}.")
        grown = [(max(b, 0), max(a, 0)) for b, a in pairs]
        extra = {"constant_values": -1} if self.mode == "constant" else {}     # (-1: value)
        where = np.pad(positions(shape), grown, mode=self.mode, **extra)
        cropped = tuple(slice(-min(b, 0), n + max(b, 0) + max(a, 0) + min(a, 0))
                        for (b, a), n in zip(pairs, shape))
        return arrange(x, where[cropped], self.value)


class ConstantPad1d(_PadNd):
    """Pads the last axis with `value`."""


class ConstantPad2d(_PadNd):
    """Pads the last two axes with `value`."""
    dims = 2


class ConstantPad3d(_PadNd):
    """Pads the last three axes with `value`."""
    dims = 3


class ZeroPad2d(ConstantPad2d):
    """Pads the last two axes with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0)


class _ReflectionPad(_PadNd):
    mode = "reflect"

    def __init__(self, padding):
        super().__init__(padding)


class ReflectionPad1d(_ReflectionPad):
    """Pads the last axis with its mirror image (the edge element not repeated)."""


class ReflectionPad2d(_ReflectionPad):
    """Pads the last two axes with their mirror images."""
    dims = 2


class ReflectionPad3d(_ReflectionPad):
    """Pads the last three axes with their mirror images."""
    dims = 3


class _ReplicationPad(_PadNd):
    mode, counts_pairs = "edge", True

    def __init__(self, padding):
        super().__init__(padding)


class ReplicationPad1d(_ReplicationPad):
    """Pads the last axis of (N, C, L) or (C, L) with its edge elements."""


class ReplicationPad2d(_ReplicationPad):
    """Pads the last two axes of (N, C, H, W) or (C, H, W) with their edge elements."""
    dims = 2


class ReplicationPad3d(_ReplicationPad):
    """Pads the last three axes of (N, C, D, H, W) or (C, D, H, W) with their edge elements."""
    dims = 3
