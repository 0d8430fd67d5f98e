"""IIR filters of waveforms <..., time>: LFilter and the biquads (RBJ cookbook coefficients,
as MindSpore's and torchaudio's), each clipped to [-1, 1]."""
import numpy as np
from scipy import signal

from ._base import AudioTensorOperation, as_float
from ._checks import check_bool, check_int, check_number


def lfilter(waveform, b_coeffs, a_coeffs, clamp):
    dtype = as_float(waveform).dtype
    out = signal.lfilter(np.asarray(b_coeffs, np.float64), np.asarray(a_coeffs, np.float64),
                         waveform.astype(np.float64), axis=-1)
    return (np.clip(out, -1, 1) if clamp else out).astype(dtype)


class LFilter(AudioTensorOperation):
    """The IIR filter ``b_coeffs`` / ``a_coeffs`` along time."""

    float_only = True

    def __init__(self, a_coeffs, b_coeffs, clamp=True):
        for name, coeffs in (("a_coeffs", a_coeffs), ("b_coeffs", b_coeffs)):
            if not isinstance(coeffs, (list, tuple)):
                raise TypeError(f"Argument {name} with value {coeffs!r} is not of type "
                                f"[<class 'list'>, <class 'tuple'>], but got {type(coeffs)}.")
            for index, value in enumerate(coeffs):
                check_number(value, f"{name}[{index}]", low=-FLOAT_LIMIT)
        if len(a_coeffs) != len(b_coeffs):
            raise ValueError(f"The size of a_coeffs should be the same as that of b_coeffs, "
                             f"but got {len(a_coeffs)} and {len(b_coeffs)}.")
        if not a_coeffs or a_coeffs[0] == 0:
            raise ValueError("Input a_coeffs[0] should not be 0.")
        self.a_coeffs, self.b_coeffs = list(a_coeffs), list(b_coeffs)
        self.clamp = check_bool(clamp, "clamp")

    def _compute(self, waveform, rng):
        return lfilter(waveform, self.b_coeffs, self.a_coeffs, self.clamp)


FLOAT_LIMIT = 16777216


class _Biquad(AudioTensorOperation):
    """A biquad of ``coefficients() -> (b0, b1, b2, a0, a1, a2)``."""

    float_only = True

    def _compute(self, waveform, rng):
        b0, b1, b2, a0, a1, a2 = self.coefficients()
        return lfilter(waveform, [b0, b1, b2], [a0, a1, a2], True)


class _CookbookBiquad(_Biquad):
    def __init__(self, sample_rate, frequency, Q=0.707):
        self.sample_rate = check_int(sample_rate, "sample_rate", low=-(2 ** 31))
        if sample_rate == 0:
            raise ValueError("Input sample_rate should not be 0.")
        self._frequency = check_number(frequency, self._frequency_name, low=-FLOAT_LIMIT)
        self.Q = check_number(Q, "Q", low=0, high=1.0, low_open=True)

    def angle_and_alpha(self):
        w0 = 2 * np.pi * self._frequency / self.sample_rate
        return np.cos(w0), np.sin(w0), np.sin(w0) / 2 / self.Q


class LowpassBiquad(_CookbookBiquad):
    _frequency_name = "cutoff_freq"

    def __init__(self, sample_rate, cutoff_freq, Q=0.707):
        super().__init__(sample_rate, cutoff_freq, Q)

    def coefficients(self):
        cos, _, alpha = self.angle_and_alpha()
        return (1 - cos) / 2, 1 - cos, (1 - cos) / 2, 1 + alpha, -2 * cos, 1 - alpha


class HighpassBiquad(_CookbookBiquad):
    _frequency_name = "cutoff_freq"

    def __init__(self, sample_rate, cutoff_freq, Q=0.707):
        super().__init__(sample_rate, cutoff_freq, Q)

    def coefficients(self):
        cos, _, alpha = self.angle_and_alpha()
        return (1 + cos) / 2, -1 - cos, (1 + cos) / 2, 1 + alpha, -2 * cos, 1 - alpha


class BandpassBiquad(_CookbookBiquad):
    _frequency_name = "central_freq"

    def __init__(self, sample_rate, central_freq, Q=0.707, const_skirt_gain=False):
        super().__init__(sample_rate, central_freq, Q)
        self.const_skirt_gain = check_bool(const_skirt_gain, "const_skirt_gain")

    def coefficients(self):
        cos, sin, alpha = self.angle_and_alpha()
        peak = sin / 2 if self.const_skirt_gain else alpha
        return peak, 0.0, -peak, 1 + alpha, -2 * cos, 1 - alpha


class BandrejectBiquad(_CookbookBiquad):
    _frequency_name = "central_freq"

    def __init__(self, sample_rate, central_freq, Q=0.707):
        super().__init__(sample_rate, central_freq, Q)

    def coefficients(self):
        cos, _, alpha = self.angle_and_alpha()
        return 1.0, -2 * cos, 1.0, 1 + alpha, -2 * cos, 1 - alpha


class AllpassBiquad(_CookbookBiquad):
    _frequency_name = "central_freq"

    def __init__(self, sample_rate, central_freq, Q=0.707):
        super().__init__(sample_rate, central_freq, Q)

    def coefficients(self):
        cos, _, alpha = self.angle_and_alpha()
        return 1 - alpha, -2 * cos, 1 + alpha, 1 + alpha, -2 * cos, 1 - alpha


class Biquad(_Biquad):
    """The biquad of the given coefficients."""

    def __init__(self, b0, b1, b2, a0, a1, a2):
        self._coefficients = tuple(check_number(value, name, low=-FLOAT_LIMIT) for value, name in
                                   zip((b0, b1, b2, a0, a1, a2),
                                       ("b0", "b1", "b2", "a0", "a1", "a2")))
        if a0 == 0:
            raise ValueError("Input a0 should not be 0.")

    def coefficients(self):
        return self._coefficients
