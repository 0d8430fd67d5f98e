"""IIR filters of waveforms <..., time>: LFilter and the biquads (RBJ cookbook coefficients,
as MindSpore's and torchaudio's; SoX's band, deemph and riaa filters), each clipped to [-1, 1]."""
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
        # MindSpore 2.10 refuses a central_freq of 0 here only, when the op runs (measured)
        if self._frequency == 0:
            raise RuntimeError("AllpassBiquad: central_freq can not be equal to zero, but got: "
                               "0.000000")
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


class _ShelfBiquad(_CookbookBiquad):
    """A shelving filter of ``gain`` dB (the cookbook's lowShelf / highShelf)."""

    _frequency_name = "central_freq"

    def __init__(self, sample_rate, gain, central_freq, Q=0.707):
        super().__init__(sample_rate, central_freq, Q)
        self.gain = check_number(gain, "gain", low=-FLOAT_LIMIT)

    def shelf_terms(self):
        cos, _, alpha = self.angle_and_alpha()
        amplitude = 10 ** (self.gain / 40)
        return amplitude, 2 * np.sqrt(amplitude) * alpha, (amplitude - 1) * cos, \
            (amplitude + 1) * cos


def high_shelf(amplitude, sqrt_alpha, minus_cos, plus_cos):
    """The cookbook's highShelf of its terms (A, 2 sqrt(A) alpha, (A-1) cos, (A+1) cos)."""
    a = amplitude
    return (a * ((a + 1) + minus_cos + sqrt_alpha), -2 * a * ((a - 1) + plus_cos),
            a * ((a + 1) + minus_cos - sqrt_alpha), (a + 1) - minus_cos + sqrt_alpha,
            2 * ((a - 1) - plus_cos), (a + 1) - minus_cos - sqrt_alpha)


class BassBiquad(_ShelfBiquad):
    """A low shelf: ``gain`` dB below about ``central_freq``."""

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707):
        super().__init__(sample_rate, gain, central_freq, Q)

    def coefficients(self):
        a, sqrt_alpha, minus_cos, plus_cos = self.shelf_terms()
        return (a * ((a + 1) - minus_cos + sqrt_alpha), 2 * a * ((a - 1) - plus_cos),
                a * ((a + 1) - minus_cos - sqrt_alpha), (a + 1) + minus_cos + sqrt_alpha,
                -2 * ((a - 1) + plus_cos), (a + 1) + minus_cos - sqrt_alpha)


class TrebleBiquad(_ShelfBiquad):
    """A high shelf: ``gain`` dB above about ``central_freq``."""

    def __init__(self, sample_rate, gain, central_freq=3000, Q=0.707):
        super().__init__(sample_rate, gain, central_freq, Q)

    def coefficients(self):
        return high_shelf(*self.shelf_terms())


class EqualizerBiquad(_CookbookBiquad):
    """A peaking equaliser: ``gain`` dB at ``center_freq``."""

    _frequency_name = "central_freq"      # MindSpore's check names it so

    def __init__(self, sample_rate, center_freq, gain, Q=0.707):
        super().__init__(sample_rate, center_freq, Q)
        self.gain = check_number(gain, "gain", low=-FLOAT_LIMIT)

    def coefficients(self):
        cos, _, alpha = self.angle_and_alpha()
        amplitude = 10 ** (self.gain / 40)
        return (1 + alpha * amplitude, -2 * cos, 1 - alpha * amplitude, 1 + alpha / amplitude,
                -2 * cos, 1 - alpha / amplitude)


class BandBiquad(_CookbookBiquad):
    """SoX's two-pole band-pass of bandwidth ``central_freq / Q``; ``noise`` keeps the power
    of unpitched audio (noise) rather than of tones."""

    _frequency_name = "central_freq"

    def __init__(self, sample_rate, central_freq, Q=0.707, noise=False):
        super().__init__(sample_rate, central_freq, Q)
        self.noise = check_bool(noise, "noise")

    def coefficients(self):
        cos = np.cos(2 * np.pi * self._frequency / self.sample_rate)
        a2 = np.exp(-2 * np.pi * (self._frequency / self.Q) / self.sample_rate)
        a1 = -4 * a2 / (1 + a2) * cos
        b0 = np.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
        if self.noise:
            b0 = np.sqrt(((1 + a2) ** 2 - a1 * a1) * (1 - a2) / (1 + a2))
        return b0, 0.0, 0.0, 1.0, a1, a2


class _PresetBiquad(_Biquad):
    """A SoX filter of constants for a few sample rates (``_PRESETS``)."""

    _PRESETS = {}
    _rate_error = ""

    def __init__(self, sample_rate):
        if isinstance(sample_rate, bool) or not isinstance(sample_rate, int):
            raise TypeError(f"Argument sample_rate with value {sample_rate!r} is not of type "
                            f"[<class 'int'>], but got {type(sample_rate)}.")
        if sample_rate not in self._PRESETS:
            raise ValueError(self._rate_error.format(sample_rate))
        self.sample_rate = sample_rate


class DeemphBiquad(_PresetBiquad):
    """The CD de-emphasis filter (SoX's deemph: a high shelf of SoX's constants per rate)."""

    #: sample rate -> (central frequency, shelf slope, gain dB), SoX's
    _PRESETS = {44100: (5283.0, 0.4845, -9.477), 48000: (5356.0, 0.479, -9.62)}
    _rate_error = "Argument sample_rate should be 44100 or 48000, but got {}."

    def coefficients(self):
        frequency, slope, gain = self._PRESETS[self.sample_rate]
        w0 = 2 * np.pi * frequency / self.sample_rate
        a = 10 ** (gain / 40)
        alpha = np.sin(w0) / 2 * np.sqrt((a + 1 / a) * (1 / slope - 1) + 2)
        return high_shelf(a, 2 * np.sqrt(a) * alpha, (a - 1) * np.cos(w0), (a + 1) * np.cos(w0))


class RiaaBiquad(_PresetBiquad):
    """The RIAA vinyl playback equalisation (SoX's riaa: its zeros and poles per rate, the gain
    0 dB at 1 kHz)."""

    #: sample rate -> (zeros, poles), SoX's
    _PRESETS = {44100: ((-0.2014898, 0.9233820), (0.7083149, 0.9924091)),
                48000: ((-0.1766069, 0.9321590), (0.7396325, 0.9931330)),
                88200: ((-0.1168735, 0.9648312), (0.8590646, 0.9964002)),
                96000: ((-0.1141486, 0.9676817), (0.8699137, 0.9966946))}
    _rate_error = "sample_rate should be one of [44100, 48000, 88200, 96000], but got {}."

    def coefficients(self):
        zeros, poles = self._PRESETS[self.sample_rate]
        b = np.array([1.0, -(zeros[0] + zeros[1]), zeros[0] * zeros[1]])
        a = np.array([1.0, -(poles[0] + poles[1]), poles[0] * poles[1]])
        at_1khz = np.exp(-1j * 2 * np.pi * 1000 / self.sample_rate * np.arange(3))
        b = b * abs(a @ at_1khz) / abs(b @ at_1khz)
        return (*b, *a)
