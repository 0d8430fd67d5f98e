"""Transforms of complex spectrograms stored as <..., complex=2> (real, imaginary) arrays:
ComplexNorm, Angle, Magphase."""
import numpy as np

from ._base import AudioTensorOperation, as_float
from ._checks import check_number


class _ComplexInput(AudioTensorOperation):
    rank_words = "<..., complex=2>"

    def apply(self, arrays, seed):
        array = np.asarray(arrays[0]) if len(arrays) == 1 else None
        if array is not None and array.size and (array.ndim < 1 or array.shape[-1] != 2):
            raise RuntimeError(f"{type(self).__name__}: the shape of input tensor does not match "
                               f"the requirement of operator. Expecting tensor in shape of "
                               f"<..., complex=2>.")
        return super().apply(arrays, seed)


def _norm(x, power):
    return np.hypot(x[..., 0], x[..., 1]) ** power


class ComplexNorm(_ComplexInput):
    """The norm of each complex value, raised to ``power``."""

    def __init__(self, power=1.0):
        self.power = check_number(power, "power", low=0)

    def _compute(self, x, rng):
        x = as_float(x)
        return _norm(x, self.power).astype(x.dtype)


class Angle(_ComplexInput):
    """The angle of each complex value."""

    def _compute(self, x, rng):
        x = as_float(x)
        return np.arctan2(x[..., 1], x[..., 0]).astype(x.dtype)


class Magphase(_ComplexInput):
    """(magnitude ** power, phase) of each complex value."""

    def __init__(self, power=1.0):
        self.power = check_number(power, "power", low=0)

    def apply(self, arrays, seed):
        out = super().apply(arrays, seed)
        return out[0]

    def _compute(self, x, rng):
        x = as_float(x)
        return (_norm(x, self.power).astype(x.dtype),
                np.arctan2(x[..., 1], x[..., 0]).astype(x.dtype))
