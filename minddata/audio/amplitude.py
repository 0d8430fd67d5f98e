"""Sample-wise waveform transforms: Gain, Vol, DCShift, Fade, MuLawEncoding, MuLawDecoding."""
import numpy as np

from ._base import AudioTensorOperation, as_float
from ._checks import check_enum, check_int, check_number
from .utils import FadeShape, GainType


def _scaled(waveform, factor):
    return (waveform.astype(np.float64) * factor).astype(as_float(waveform).dtype)


class Gain(AudioTensorOperation):
    """The waveform amplified by ``gain_db`` decibels (not clipped)."""

    def __init__(self, gain_db=1.0):
        self.gain_db = check_number(gain_db, "gain_db")

    def _compute(self, waveform, rng):
        return _scaled(waveform, 10.0 ** (self.gain_db / 20.0))


class Vol(AudioTensorOperation):
    """The waveform's volume scaled (an amplitude ratio, a power ratio or decibels), clipped to
    [-1, 1]."""

    def __init__(self, gain, gain_type=GainType.AMPLITUDE):
        self.gain_type = check_enum(gain_type, GainType, "gain_type")
        if gain_type == GainType.POWER:
            self.gain = check_number(gain, "gain", low=0, low_open=True)
        elif gain_type == GainType.AMPLITUDE:
            self.gain = check_number(gain, "gain", low=0)
        else:
            self.gain = check_number(gain, "gain")

    def _compute(self, waveform, rng):
        factor = {GainType.AMPLITUDE: lambda: self.gain,
                  GainType.DB: lambda: 10.0 ** (self.gain / 20.0),
                  GainType.POWER: lambda: 10.0 ** (np.log10(self.gain) / 2.0)}[self.gain_type]()
        return np.clip(_scaled(waveform, factor), -1, 1)


class DCShift(AudioTensorOperation):
    """The waveform shifted by ``shift`` and clipped to [-1, 1]. ``limiter_gain`` is refused:
    MindSpore 2.10's limiter gives values that follow no documented formula (a sample of -1
    shifted by -0.2 with a gain of 0.05 comes out positive), so there is nothing to match."""

    def __init__(self, shift, limiter_gain=None):
        self.shift = check_number(shift, "shift", low=-2.0, high=2.0)
        if limiter_gain is not None:
            raise ValueError("DCShift: limiter_gain is not supported by this package (MindSpore "
                             "2.10's limiter gives undocumented values); leave it None")
        self.limiter_gain = None

    def _compute(self, waveform, rng):
        return np.clip(_scaled(waveform, 1.0) + self.shift, -1, 1).astype(
            as_float(waveform).dtype)


def _fade_curve(length, shape, fading_in):
    ramp = np.linspace(0.0, 1.0, length)
    if shape == FadeShape.LINEAR:
        return ramp if fading_in else 1 - ramp
    if shape == FadeShape.EXPONENTIAL:
        # MindSpore 2.10's curve (measured): r * 2^(r - 1), 0 at the silent end (not
        # torchaudio's 2^(5 (r - 1)), which starts at 1/32)
        return ramp * 2 ** (ramp - 1) if fading_in else (1 - ramp) * 2 ** -ramp
    if shape == FadeShape.LOGARITHMIC:
        return np.log10(0.1 + ramp) + 1 if fading_in else np.log10(1.1 - ramp) + 1
    if shape == FadeShape.QUARTER_SINE:
        return np.sin(ramp * np.pi / 2) if fading_in else np.sin(ramp * np.pi / 2 + np.pi / 2)
    return (np.sin(ramp * np.pi - np.pi / 2) / 2 + 0.5 if fading_in
            else np.sin(ramp * np.pi + np.pi / 2) / 2 + 0.5)


class Fade(AudioTensorOperation):
    """The waveform faded in over its first ``fade_in_len`` samples and out over its last
    ``fade_out_len``."""

    def __init__(self, fade_in_len=0, fade_out_len=0, fade_shape=FadeShape.LINEAR):
        self.fade_in_len = check_int(fade_in_len, "fade_in_len", low=0)
        self.fade_out_len = check_int(fade_out_len, "fade_out_len", low=0)
        self.fade_shape = check_enum(fade_shape, FadeShape, "fade_shape")

    def _compute(self, waveform, rng):
        if self.fade_in_len == self.fade_out_len == 0:
            return waveform          # unchanged, in its own dtype (MindSpore's)
        length = waveform.shape[-1]
        for name, value in (("fade_in_len", self.fade_in_len),
                            ("fade_out_len", self.fade_out_len)):
            if value > length:
                raise RuntimeError(f"Fade: {name} should be no more than the length of the "
                                   f"waveform, {length}, but got {value}.")
        envelope = np.ones(length)
        envelope[:self.fade_in_len] = _fade_curve(self.fade_in_len, self.fade_shape, True)
        envelope[length - self.fade_out_len:] *= _fade_curve(self.fade_out_len,
                                                             self.fade_shape, False)
        return _scaled(waveform, envelope)


class MuLawEncoding(AudioTensorOperation):
    """A waveform in [-1, 1] to mu-law codes 0 .. quantization_channels - 1 (int32)."""

    def __init__(self, quantization_channels=256):
        self.quantization_channels = check_int(quantization_channels, "quantization_channels",
                                               low=1)

    def _compute(self, waveform, rng):
        mu = self.quantization_channels - 1.0
        x = as_float(waveform)
        encoded = np.sign(x) * np.log1p(mu * np.abs(x)) / np.log1p(mu)
        return ((encoded + 1) / 2 * mu + 0.5).astype(np.int32)


class MuLawDecoding(AudioTensorOperation):
    """Mu-law codes back to a waveform in [-1, 1]."""

    def __init__(self, quantization_channels=256):
        self.quantization_channels = check_int(quantization_channels, "quantization_channels",
                                               low=1)

    def _compute(self, codes, rng):
        mu = self.quantization_channels - 1.0
        x = as_float(codes)
        x = x / mu * 2 - 1.0
        return (np.sign(x) * (np.exp(np.abs(x) * np.log1p(mu)) - 1.0) / mu).astype(x.dtype)
