"""Distortion effects of waveforms <..., time>: Contrast and Overdrive (SoX's, as MindSpore's
and torchaudio's)."""
import numpy as np
from scipy import signal

from ._base import AudioTensorOperation, as_float
from ._checks import check_number


class Contrast(AudioTensorOperation):
    """SoX's contrast: sin(pi/2 x + amount/750 sin(2 pi x)), which makes audio sound louder
    like a compressor (``enhancement_amount`` in [0, 100]). MindSpore 2.10 divides by 750 as
    SoX does (measured), not by 100 as torchaudio does."""

    def __init__(self, enhancement_amount=75.0):
        self.enhancement_amount = check_number(enhancement_amount, "enhancement_amount", low=0,
                                               high=100)

    def _compute(self, waveform, rng):
        quarter_turns = waveform.astype(np.float64) * (np.pi / 2)
        out = np.sin(quarter_turns + self.enhancement_amount / 750 * np.sin(quarter_turns * 4))
        return out.astype(as_float(waveform).dtype)


class Overdrive(AudioTensorOperation):
    """SoX's overdrive: the waveform amplified by ``gain`` dB and shifted by ``color`` / 200,
    soft-clipped (x - x^3 / 3, +-2/3 beyond +-1), DC-blocked (y[n] = x[n] - x[n-1] +
    0.995 y[n-1]) and mixed 3:2 with the input, clipped to [-1, 1]."""

    def __init__(self, gain=20.0, color=20.0):
        self.gain = check_number(gain, "gain", low=0, high=100)
        self.color = check_number(color, "color", low=0, high=100)

    def _compute(self, waveform, rng):
        wave = waveform.astype(np.float64)
        driven = wave * 10 ** (self.gain / 20) + self.color / 200
        clipped = np.where(driven < -1, -2 / 3,
                           np.where(driven > 1, 2 / 3, driven - driven ** 3 / 3))
        dc_blocked = signal.lfilter([1.0, -1.0], [1.0, -0.995], clipped, axis=-1)
        return np.clip(wave * 0.5 + dc_blocked * 0.75, -1, 1).astype(as_float(waveform).dtype)
