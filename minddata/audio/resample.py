"""Resample: band-limited sinc interpolation (a Hann or Kaiser windowed sinc, torchaudio's
kernel, which MindSpore's follows)."""
import math

import numpy as np

from ._base import AudioTensorOperation, as_float
from ._checks import check_enum, check_int, check_number
from .utils import ResampleMethod

#: The Kaiser window's beta when none is given.
DEFAULT_BETA = 14.769656459379492


def sinc_kernels(orig, new, lowpass_filter_width, rolloff, method, beta):
    """(new, 2 * width + orig) kernels and ``width``, for rates reduced by their gcd."""
    base_freq = min(orig, new) * rolloff
    width = math.ceil(lowpass_filter_width * orig / base_freq)
    idx = np.arange(-width, width + orig, dtype=np.float64)[None, :] / orig
    t = (-np.arange(new, dtype=np.float64)[:, None] / new + idx) * base_freq
    t = np.clip(t, -lowpass_filter_width, lowpass_filter_width)
    if method == ResampleMethod.SINC_INTERPOLATION:
        window = np.cos(t * np.pi / lowpass_filter_width / 2) ** 2
    else:
        beta = DEFAULT_BETA if beta is None else beta
        window = np.i0(beta * np.sqrt(1 - (t / lowpass_filter_width) ** 2)) / np.i0(beta)
    t = t * np.pi
    with np.errstate(divide="ignore", invalid="ignore"):
        kernels = np.where(t == 0, 1.0, np.sin(t) / t)
    return kernels * window * (base_freq / orig), width


class Resample(AudioTensorOperation):
    """The waveform <..., time> resampled from ``orig_freq`` to ``new_freq``."""

    def __init__(self, orig_freq=16000, new_freq=16000,
                 resample_method=ResampleMethod.SINC_INTERPOLATION, lowpass_filter_width=6,
                 rolloff=0.99, beta=None):
        self.orig_freq = check_number(orig_freq, "orig_freq", low=0, low_open=True)
        self.new_freq = check_number(new_freq, "new_freq", low=0, low_open=True)
        self.resample_method = check_enum(resample_method, ResampleMethod, "resample_method")
        self.lowpass_filter_width = check_int(lowpass_filter_width, "lowpass_filter_width",
                                              low=1)
        self.rolloff = check_number(rolloff, "rolloff", low=0, high=1, low_open=True)
        self.beta = None if beta is None else check_number(beta, "beta", low=0)

    def _compute(self, waveform, rng):
        if self.orig_freq == self.new_freq:
            return waveform.copy()   # the input as it is, int16 too (MindSpore 2.10, measured)
        dtype = as_float(waveform).dtype
        gcd = math.gcd(int(self.orig_freq), int(self.new_freq))
        orig, new = int(self.orig_freq) // gcd, int(self.new_freq) // gcd
        kernels, width = sinc_kernels(orig, new, self.lowpass_filter_width, self.rolloff,
                                      self.resample_method, self.beta)
        flat = waveform.reshape(-1, waveform.shape[-1]).astype(np.float64)
        length = flat.shape[-1]
        padded = np.pad(flat, ((0, 0), (width, width + orig)))
        steps = (padded.shape[-1] - kernels.shape[-1]) // orig + 1
        windows = padded[:, orig * np.arange(steps)[:, None] + np.arange(kernels.shape[-1])]
        out = (windows @ kernels.T).reshape(flat.shape[0], -1)     # (rows, steps * new)
        target = math.ceil(new * length / orig)
        return out[:, :target].reshape(waveform.shape[:-1] + (-1,)).astype(dtype)
