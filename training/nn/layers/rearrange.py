"""Layers that move elements: PixelShuffle, PixelUnshuffle, ChannelShuffle, Unflatten, Tril,
Triu, with MindSpore 2.10's arguments and checks. Each output element is an input element (or
zero), so both backends share one kernel and its gradient (array_kernels.arrange)."""
import numpy as np

from training.nn.cell import Cell
from training.ops.array_kernels import arrange, positions


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _moved(x, move):
    """`x` rearranged as `move` rearranges an array of its elements' positions."""
    return arrange(x, move(positions(tuple(x.shape))))


def _last_five(array, order):
    """`array` with its last five axes in `order` (0 the first of them)."""
    lead = array.ndim - 5
    return array.transpose(tuple(range(lead)) + tuple(lead + axis for axis in order))


def _factor(name, value):
    """A positive int; as MindSpore 2.10's: TypeError for another type (a bool too),
    ValueError for one below 1."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"The '{name}' must be int, but got '{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"The '{name}' must be int and must > 0, but got '{value}' with type "
                         f"'int'.")
    return value


class PixelShuffle(Cell):
    """(..., C * r^2, H, W) -> (..., C, H * r, W * r), r the upscale factor."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = _factor("upscale_factor", upscale_factor)

    def construct(self, input):  # noqa: A002  (MindSpore's argument name)
        r = self.upscale_factor
        if input.ndim < 3:
            raise ValueError(f"For pixel_shuffle, the dimension of `input` should be larger "
                             f"than 2, but got {input.ndim}.")
        *lead, c, h, w = input.shape
        if c % (r * r):
            raise ValueError("For 'pixel_shuffle', the length of third to last dimension is "
                             "not divisible by `upscale_factor` squared.")
        return _moved(input, lambda p: _last_five(p.reshape(*lead, c // (r * r), r, r, h, w),
                                                  (0, 3, 1, 4, 2))
                      .reshape(*lead, c // (r * r), h * r, w * r))


class PixelUnshuffle(Cell):
    """(..., C, H * r, W * r) -> (..., C * r^2, H, W), r the downscale factor."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = _factor("downscale_factor", downscale_factor)

    def construct(self, input):  # noqa: A002
        r = self.downscale_factor
        if input.ndim < 3:
            raise ValueError(f"For pixel_unshuffle, the dimension of `input` should be larger "
                             f"than 2, but got {input.ndim}.")
        *lead, c, h, w = input.shape
        if h % r or w % r:
            raise ValueError("For 'pixel_unshuffle', the length of second to last 2 dimension "
                             "should be divisible by downscale_factor.")
        return _moved(input, lambda p: _last_five(p.reshape(*lead, c, h // r, r, w // r, r),
                                                  (0, 2, 4, 1, 3))
                      .reshape(*lead, c * r * r, h // r, w // r))


class ChannelShuffle(Cell):
    """Splits the channels (axis 1) into `groups` and interleaves them."""

    def __init__(self, groups):
        super().__init__()
        if not _is_int(groups):
            raise TypeError(f"For ChannelShuffle, the param `groups` must be int, but got "
                            f"{type(groups)}.")
        if groups <= 0:
            raise ValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, "
                             f"but got {groups}.")
        self.groups = groups

    def construct(self, x):
        if x.ndim < 2 or x.shape[1] % self.groups:
            raise ValueError(f"For ChannelShuffle, the channels (axis 1) of an input of shape "
                             f"{tuple(x.shape)} must be divisible by groups ({self.groups})")
        n, c, *rest = x.shape
        return _moved(x, lambda p: p.reshape(n, self.groups, c // self.groups, *rest)
                      .swapaxes(1, 2).reshape(n, c, *rest))


class Unflatten(Cell):
    """Axis `axis` as the axes `unflattened_size` (one of them -1: what is left)."""

    def __init__(self, axis, unflattened_size):
        super().__init__()
        if not _is_int(axis):
            raise TypeError(f"For 'Unflatten', the type of 'axis' must be 'int', but got "
                            f"'{type(axis).__name__}'.")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"For 'Unflatten', the type of 'unflattended_size' should be one of "
                            f"'['list', 'tuple']', but got type "
                            f"'{type(unflattened_size).__name__}'.")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, input_x):
        shape = tuple(input_x.shape)
        axis = self.axis % len(shape) if -len(shape) <= self.axis < len(shape) else None
        sizes = self.unflattened_size
        known = int(np.prod([s for s in sizes if s != -1]))
        fits = axis is not None and (shape[axis] == known if -1 not in sizes else
                                     known and shape[axis] % known == 0)
        if not fits:
            raise ValueError(f"For 'Unflatten', axis {self.axis} of shape {shape} cannot be "
                             f"unflattened to {sizes}")
        return input_x.reshape(shape[:axis] + sizes + shape[axis + 1:])


class _Triangle(Cell):
    lower = True

    def construct(self, x, k=0):
        if x.ndim < 2:
            raise ValueError(f"For primitive[{self.cls_name}], the x's rank must be greater than "
                             f"or equal to 2, but got {x.ndim}.")
        rows, cols = x.shape[-2:]
        keep = (np.tril if self.lower else np.triu)(np.ones((rows, cols), bool), k)
        return _moved(x, lambda p: np.where(keep, p, -1))


class Tril(_Triangle):
    """The elements on and below diagonal k of the last two axes (the rest 0)."""


class Triu(_Triangle):
    """The elements on and above diagonal k of the last two axes (the rest 0)."""
    lower = False


class Roll(Cell):
    """The elements shifted by `shift` along `axis` (ints, or as many of each), wrapping
    around. (MindSpore 2.10's CPU has no Roll kernel: a RuntimeError there.)"""

    def __init__(self, shift, axis):
        super().__init__()
        for name, value in (("shift", shift), ("axis", axis)):
            if not _is_int(value) and not isinstance(value, (tuple, list)):
                raise TypeError(f"For 'Roll', the type of '{name}' should be one of '['int', "
                                f"'tuple', 'list']', but got type '{type(value).__name__}'.")
        shifts = (shift,) if _is_int(shift) else tuple(shift)
        axes = (axis,) if _is_int(axis) else tuple(axis)
        if len(shifts) != len(axes):
            raise ValueError(f"For 'Roll', the shape of 'shift' and the shape of 'axis' must be "
                             f"the same, but got the length of 'shift' {len(shifts)} and the "
                             f"length of 'axis' {len(axes)}.")
        self.shift, self.axis = shifts, axes

    def construct(self, input_x):
        return _moved(input_x, lambda p: np.roll(p, self.shift, self.axis))
