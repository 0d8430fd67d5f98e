"""``mindspore.dataset.audio.utils``: the audio enums and the filter-bank functions
(``melscale_fbanks``, ``linear_fbanks``, ``create_dct``), as MindSpore 2.10 has them."""
from enum import Enum

import numpy as np

from ._checks import check_int, check_number, check_enum


class ScaleType(str, Enum):
    POWER = "power"
    MAGNITUDE = "magnitude"


class WindowType(str, Enum):
    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


class BorderType(str, Enum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class MelType(str, Enum):
    HTK = "htk"
    SLANEY = "slaney"


class NormType(str, Enum):
    SLANEY = "slaney"
    NONE = "none"


class NormMode(str, Enum):
    ORTHO = "ortho"
    NONE = "none"


class ResampleMethod(str, Enum):
    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


class FadeShape(str, Enum):
    QUARTER_SINE = "quarter_sine"
    HALF_SINE = "half_sine"
    LINEAR = "linear"
    LOGARITHMIC = "logarithmic"
    EXPONENTIAL = "exponential"


class GainType(str, Enum):
    AMPLITUDE = "amplitude"
    POWER = "power"
    DB = "db"


class DensityFunction(str, Enum):
    TPDF = "TPDF"
    RPDF = "RPDF"
    GPDF = "GPDF"


class Modulation(str, Enum):
    SINUSOIDAL = "sinusoidal"
    TRIANGULAR = "triangular"


class Interpolation(str, Enum):
    LINEAR = "linear"
    QUADRATIC = "quadratic"


def hz_to_mel(freq, mel_type):
    if mel_type == MelType.HTK:
        return 2595.0 * np.log10(1.0 + freq / 700.0)
    # Slaney: linear below 1 kHz, logarithmic above
    freq = np.asarray(freq, dtype=np.float64)
    mels = freq / (200.0 / 3)
    log_step = np.log(6.4) / 27.0
    return np.where(freq >= 1000.0, 15.0 + np.log(np.maximum(freq, 1e-10) / 1000.0) / log_step,
                    mels)


def mel_to_hz(mels, mel_type):
    if mel_type == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    log_step = np.log(6.4) / 27.0
    return np.where(mels >= 15.0, 1000.0 * np.exp(log_step * (mels - 15.0)), mels * 200.0 / 3)


def _triangular_filters(all_freqs, f_points):
    """(n_freqs, n_filter) triangles whose corners are ``f_points``."""
    f_diff = f_points[1:] - f_points[:-1]
    slopes = f_points[None, :] - all_freqs[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        down = -slopes[:, :-2] / f_diff[:-1]
        up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm=NormType.NONE,
                    mel_type=MelType.HTK):
    """The (n_freqs, n_mels) triangular mel filter bank, float32."""
    check_int(n_freqs, "n_freqs", low=1)
    check_number(f_min, "f_min", low=0)
    check_number(f_max, "f_max", low=0, low_open=True)
    check_int(n_mels, "n_mels", low=1)
    check_int(sample_rate, "sample_rate", low=1)
    check_enum(norm, NormType, "norm")
    check_enum(mel_type, MelType, "mel_type")
    if f_min >= f_max:
        raise ValueError(f"Input f_min should be less than f_max, but got f_min: {f_min} and "
                         f"f_max: {f_max}.")
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(hz_to_mel(float(f_min), mel_type), hz_to_mel(float(f_max), mel_type),
                        n_mels + 2)
    f_pts = mel_to_hz(m_pts, mel_type)
    banks = _triangular_filters(all_freqs, f_pts)
    if norm == NormType.SLANEY:
        banks = banks * (2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels]))[None, :]
    return banks.astype(np.float32)


def linear_fbanks(n_freqs, f_min, f_max, n_filter, sample_rate):
    """The (n_freqs, n_filter) triangular filter bank of linearly spaced filters, float32."""
    check_int(n_freqs, "n_freqs", low=1)
    check_number(f_min, "f_min", low=0)
    check_number(f_max, "f_max", low=0, low_open=True)
    check_int(n_filter, "n_filter", low=1)
    check_int(sample_rate, "sample_rate", low=1)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    f_pts = np.linspace(f_min, f_max, n_filter + 2)
    return _triangular_filters(all_freqs, f_pts).astype(np.float32)


def create_dct(n_mfcc, n_mels, norm=NormMode.NONE):
    """The (n_mels, n_mfcc) DCT-II matrix (``norm`` ORTHO: orthonormal), float32."""
    check_int(n_mfcc, "n_mfcc", low=1)
    check_int(n_mels, "n_mels", low=1)
    check_enum(norm, NormMode, "norm")
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(np.pi / n_mels * (n + 0.5) * k)
    if norm == NormMode.ORTHO:
        dct[0] *= 1.0 / np.sqrt(2.0)
        dct *= np.sqrt(2.0 / n_mels)
    else:
        dct *= 2.0
    return dct.T.astype(np.float32)
