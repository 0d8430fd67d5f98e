"""Masks along the frequency or time axis of a spectrogram <..., freq, time>: MaskAlongAxis
(a given band), FrequencyMasking, TimeMasking and MaskAlongAxisIID (a band of random width)."""
import numpy as np

from ._base import AudioTensorOperation, as_float
from ._checks import FLOAT_MAX, check_bool, check_int, check_number

_AXIS_NAMES = {1: "frequency", 2: "time"}


def masked(spec, axis, start, width, value, op_name):
    """``spec`` with ``width`` rows (axis 1: frequencies, 2: time steps) from ``start`` set
    to ``value``."""
    dim = spec.ndim - 3 + axis
    length = spec.shape[dim]
    if start + width > length:
        raise RuntimeError(f"{op_name}: invalid parameter, the sum of 'mask_start' and "
                           f"'mask_width' should be no more than the length of the masked "
                           f"dimension, but got: 'mask_start' {start}, 'mask_width' {width} and "
                           f"length {length}")
    out = as_float(spec).copy()
    index = [slice(None)] * spec.ndim
    index[dim] = slice(start, start + width)
    out[tuple(index)] = value
    return out


class MaskAlongAxis(AudioTensorOperation):
    """``mask_width`` rows from ``mask_start`` along ``axis`` (1: frequency, 2: time) set to
    ``mask_value``."""

    min_rank = 2
    rank_words = "<..., freq, time>"

    def __init__(self, mask_start, mask_width, mask_value, axis):
        self.mask_start = check_int(mask_start, "mask_start", low=0)
        self.mask_width = check_int(mask_width, "mask_width", low=1)
        self.mask_value = check_number(mask_value, "mask_value")
        self.axis = check_int(axis, "axis", low=1, high=2)

    def _compute(self, spec, rng):
        return masked(spec, self.axis, self.mask_start, self.mask_width, self.mask_value,
                      type(self).__name__)


class _RandomMasking(AudioTensorOperation):
    """A band of random width in [0, mask_param] from ``mask_start`` (or, ``iid_masks``, from
    a random start), drawn from this package's seed stream (MindSpore's cannot be
    reproduced)."""

    min_rank = 2
    rank_words = "<..., freq, time>"
    is_random = True
    axis = None

    def __init__(self, iid_masks, mask_param, mask_start, mask_value, param_name):
        self.iid_masks = check_bool(iid_masks, "iid_masks")
        self._mask_param = check_int(mask_param, param_name, low=0)
        self._param_name = param_name
        self.mask_start = check_int(mask_start, "mask_start", low=0)
        self.mask_value = check_number(mask_value, "mask_value", low=0)

    def _compute(self, spec, rng):
        length = spec.shape[spec.ndim - 3 + self.axis]
        name = type(self).__name__
        if self._mask_param > length:
            raise RuntimeError(f"{name}: {self._param_name} {self._mask_param} should be no "
                               f"more than the length of the {_AXIS_NAMES[self.axis]} "
                               f"dimension, {length}.")
        width = int(rng.uniform(0.0, 1.0) * self._mask_param)
        if self.iid_masks:
            start = int(rng.uniform(0.0, 1.0) * (length - width))
        else:
            start = self.mask_start
            if start + width > length:
                raise RuntimeError(f"{name}: mask_start {start} plus the mask width {width} "
                                   f"is more than the length of the masked dimension, "
                                   f"{length}.")
        return masked(spec, self.axis, start, width, self.mask_value, name)


class FrequencyMasking(_RandomMasking):
    axis = 1

    def __init__(self, iid_masks=False, freq_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, freq_mask_param, mask_start, mask_value, "freq_mask_param")
        self.freq_mask_param = freq_mask_param


class TimeMasking(_RandomMasking):
    axis = 2

    def __init__(self, iid_masks=False, time_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value, "time_mask_param")
        self.time_mask_param = time_mask_param


class MaskAlongAxisIID(_RandomMasking):
    """A band of random width in [0, mask_param] at a random start along ``axis`` (1:
    frequency, 2: time), the same band for every spectrogram of the batch (as MindSpore 2.10
    gives: measured)."""

    def __init__(self, mask_param, mask_value, axis):
        self.mask_param = self._mask_param = check_int(mask_param, "mask_param", low=0)
        self.mask_value = check_number(mask_value, "mask_value", low=-FLOAT_MAX)
        self.axis = check_int(axis, "axis", low=1, high=2)
        self.iid_masks, self.mask_start, self._param_name = True, 0, "mask_param"
