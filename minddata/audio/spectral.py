"""Spectrogram transforms: Spectrogram, MelScale, MelSpectrogram, MFCC, LFCC, AmplitudeToDB,
DBToAmplitude, ComputeDeltas (MindSpore 2.10's, which follow torchaudio's definitions)."""
import numpy as np
from scipy import signal

from ._base import AudioTensorOperation, as_float
from ._checks import check_bool, check_enum, check_float, check_int, check_number
from .utils import (BorderType, MelType, NormMode, NormType, ScaleType, WindowType, create_dct,
                    linear_fbanks, melscale_fbanks)

#: torch.kaiser_window's default beta, which MindSpore's KAISER window uses.
KAISER_BETA = 12.0


def periodic_window(window, length):
    """The periodic (DFT-even) window of ``length`` samples, float64."""
    if window == WindowType.KAISER:
        return signal.get_window(("kaiser", KAISER_BETA), length, fftbins=True)
    return signal.get_window(window.value, length, fftbins=True)


def spectrogram(waveform, n_fft, win_length, hop_length, pad, window, power, normalized,
                center, pad_mode, onesided, op_name):
    """The <..., freq, frames> spectrogram of ``waveform`` <..., time>."""
    dtype = as_float(waveform).dtype
    flat = waveform.reshape(-1, waveform.shape[-1]).astype(np.float64)
    if pad > 0:
        flat = np.pad(flat, ((0, 0), (pad, pad)))
    if center:
        flat = np.pad(flat, ((0, 0), (n_fft // 2, n_fft // 2)), mode=pad_mode.value)
    if flat.shape[-1] < n_fft:
        raise RuntimeError(f"{op_name}: n_fft should be more than 0 and less than "
                           f"{flat.shape[-1]}, but got n_fft: {n_fft}.")
    win = np.zeros(n_fft)
    left = (n_fft - win_length) // 2
    win[left:left + win_length] = periodic_window(window, win_length)
    frames = 1 + (flat.shape[-1] - n_fft) // hop_length
    starts = hop_length * np.arange(frames)
    segments = flat[:, starts[:, None] + np.arange(n_fft)] * win
    spec = np.fft.rfft(segments, axis=-1) if onesided else np.fft.fft(segments, axis=-1)
    if normalized:
        spec = spec / np.sqrt(np.sum(win ** 2))
    spec = np.abs(spec) ** power
    spec = np.swapaxes(spec, -1, -2)
    return spec.reshape(waveform.shape[:-1] + spec.shape[-2:]).astype(dtype)


class Spectrogram(AudioTensorOperation):
    """The spectrogram of a waveform <..., time> -> <..., freq, frames>."""

    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0,
                 window=WindowType.HANN, power=2.0, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True):
        self.n_fft = check_int(n_fft, "n_fft", low=1)
        self.win_length = n_fft if win_length is None else check_int(win_length, "win_length",
                                                                      low=1)
        if self.win_length > n_fft:
            raise ValueError(f"Input win_length should be no more than n_fft, but got "
                             f"win_length: {win_length} and n_fft: {n_fft}.")
        self.hop_length = (self.win_length // 2 if hop_length is None
                           else check_int(hop_length, "hop_length", low=1))
        self.pad = check_int(pad, "pad", low=0)
        self.window = check_enum(window, WindowType, "window")
        self.power = check_number(power, "power", low=0)
        self.normalized = check_bool(normalized, "normalized")
        self.center = check_bool(center, "center")
        self.pad_mode = check_enum(pad_mode, BorderType, "pad_mode")
        self.onesided = check_bool(onesided, "onesided")

    def _compute(self, waveform, rng):
        return spectrogram(waveform, self.n_fft, self.win_length, max(self.hop_length, 1),
                           self.pad, self.window, self.power, self.normalized, self.center,
                           self.pad_mode, self.onesided, type(self).__name__)


class MelScale(AudioTensorOperation):
    """A spectrogram <..., n_stft, time> onto the mel scale -> <..., n_mels, time>."""

    min_rank = 2
    rank_words = "<..., freq, time>"

    def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201,
                 norm=NormType.NONE, mel_type=MelType.HTK):
        self.n_mels = check_int(n_mels, "n_mels", low=1)
        self.sample_rate = check_int(sample_rate, "sample_rate", low=1)
        self.f_min = check_number(f_min, "f_min", low=0)
        self.f_max = (float(sample_rate // 2) if f_max is None
                      else check_number(f_max, "f_max", low=0, low_open=True))
        self.n_stft = check_int(n_stft, "n_stft", low=1)
        self.norm = check_enum(norm, NormType, "norm")
        self.mel_type = check_enum(mel_type, MelType, "mel_type")
        self._banks = melscale_fbanks(self.n_stft, self.f_min, self.f_max, self.n_mels,
                                      self.sample_rate, self.norm, self.mel_type)

    def _compute(self, spec, rng):
        return mel_scale(spec, self._banks, type(self).__name__)


def mel_scale(spec, banks, op_name):
    if spec.shape[-2] != banks.shape[0]:
        raise RuntimeError(f"{op_name}: the frequency dimension of the input, "
                           f"{spec.shape[-2]}, should be n_stft: {banks.shape[0]}.")
    dtype = as_float(spec).dtype
    out = np.swapaxes(np.swapaxes(spec.astype(np.float64), -1, -2) @ banks.astype(np.float64),
                      -1, -2)
    return out.astype(dtype)


class MelSpectrogram(AudioTensorOperation):
    """The mel spectrogram of a waveform <..., time> -> <..., n_mels, frames>."""

    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None,
                 f_min=0.0, f_max=None, pad=0, n_mels=128, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True,
                 norm=NormType.NONE, mel_scale=MelType.HTK):
        self._spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power,
                                        normalized, center, pad_mode, onesided)
        self._mel = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm, mel_scale)

    def _compute(self, waveform, rng):
        spectrogram = self._spectrogram
        # MindSpore 2.10's MelSpectrogram (not its Spectrogram) refuses a waveform of no more
        # than n_fft // 2 samples when centring, whatever the pad mode and `pad` (measured).
        if spectrogram.center and waveform.shape[-1] <= spectrogram.n_fft // 2:
            raise RuntimeError("MelSpectrogram: Padding size should be less than the "
                               "corresponding input dimension.")
        return mel_scale(spectrogram._compute(waveform, rng), self._mel._banks,
                         type(self).__name__)


def amplitude_to_db(spec, multiplier, amin, db_multiplier, top_db):
    dtype = as_float(spec).dtype
    db = multiplier * np.log10(np.maximum(spec.astype(np.float64), amin)) - \
        multiplier * db_multiplier
    if top_db is not None:
        # the floor is per item of a <batch, channel, freq, time> view (torchaudio's)
        packed = db.reshape((-1,) + db.shape[-3:]) if db.ndim > 2 else db[None]
        floor = packed.max(axis=tuple(range(1, packed.ndim)), keepdims=True) - top_db
        db = np.maximum(packed, floor).reshape(db.shape)
    return db.astype(dtype)


class AmplitudeToDB(AudioTensorOperation):
    """A power or magnitude spectrogram <..., freq, time> to decibels."""

    min_rank = 2
    rank_words = "<..., freq, time>"

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        self.stype = check_enum(stype, ScaleType, "stype")
        self.ref_value = check_number(ref_value, "ref_value", low=0, low_open=True)
        self.amin = check_number(amin, "amin", low=0, low_open=True)
        self.top_db = check_number(top_db, "top_db", low=0, low_open=True)

    def _compute(self, spec, rng):
        multiplier = 10.0 if self.stype == ScaleType.POWER else 20.0
        return amplitude_to_db(spec, multiplier, self.amin,
                               np.log10(max(self.amin, self.ref_value)), self.top_db)


class DBToAmplitude(AudioTensorOperation):
    """Decibels back to power or amplitude: ``ref * (10 ** (x / 10)) ** power``."""

    def __init__(self, ref, power):
        self.ref = check_number(ref, "ref")
        self.power = check_number(power, "power")

    def _compute(self, db, rng):
        dtype = as_float(db).dtype
        return (self.ref * np.power(np.power(10.0, db.astype(np.float64) * 0.1),
                                    self.power)).astype(dtype)


class MFCC(AudioTensorOperation):
    """Mel-frequency cepstrum coefficients of a waveform <..., time> -> <..., n_mfcc, frames>
    (float32 whatever the input, as MindSpore gives)."""

    def __init__(self, sample_rate=16000, n_mfcc=40, dct_type=2, norm=NormMode.ORTHO,
                 log_mels=False, melkwargs=None):
        check_int(sample_rate, "sample_rate", low=0)
        self.n_mfcc = check_int(n_mfcc, "n_mfcc", low=1)
        if dct_type != 2:
            raise ValueError(f"Input dct_type should be 2, but got {dct_type!r}.")
        self.norm = check_enum(norm, NormMode, "norm")
        self.log_mels = check_bool(log_mels, "log_mels")
        melkwargs = dict(melkwargs or {}, sample_rate=sample_rate)
        self._mel = MelSpectrogram(**melkwargs)
        n_mels = self._mel._mel.n_mels
        if self.n_mfcc > n_mels:
            raise ValueError(f"Input n_mfcc should be no more than n_mels, but got n_mfcc: "
                             f"{n_mfcc} and n_mels: {n_mels}.")
        self._dct = create_dct(self.n_mfcc, n_mels, self.norm).astype(np.float64)

    def _compute(self, waveform, rng):
        return cepstrum(self._mel._compute(waveform, rng), self.log_mels, self._dct)


def cepstrum(bands, natural_log, dct):
    """The DCT (``dct``: <bands, coefficients>) of the log of ``bands`` <..., bands, frames>:
    log(x + 1e-6) or power decibels floored 80 dB under each item's peak; float32."""
    bands = bands.astype(np.float64)
    if natural_log:
        bands = np.log(bands + 1e-6)
    else:
        bands = amplitude_to_db(bands, 10.0, 1e-10, 0.0, 80.0)
    return np.swapaxes(np.swapaxes(bands, -1, -2) @ dct, -1, -2).astype(np.float32)


class LFCC(AudioTensorOperation):
    """Linear-frequency cepstrum coefficients of a waveform <..., time> -> <..., n_lfcc,
    frames>: MFCC with ``n_filter`` linearly spaced triangles for the mel bank (float32
    whatever the input, as MindSpore gives)."""

    def __init__(self, sample_rate=16000, n_filter=128, n_lfcc=40, f_min=0.0, f_max=None,
                 dct_type=2, norm=NormMode.ORTHO, log_lf=False, speckwargs=None):
        check_int(sample_rate, "sample_rate", low=0)
        self.n_filter = check_int(n_filter, "n_filter", low=1)
        self.n_lfcc = check_int(n_lfcc, "n_lfcc", low=1)
        self.log_lf = check_bool(log_lf, "log_lf")
        self.norm = check_enum(norm, NormMode, "norm")
        check_number(f_min, "f_min", low=0)
        if f_max is None:
            if f_min >= sample_rate // 2:
                raise ValueError(f"Input sample_rate // 2 should be greater than f_min when "
                                 f"f_max is set to None, but got f_min: {f_min} and "
                                 f"sample_rate: {sample_rate}.")
            f_max = sample_rate // 2
        elif check_number(f_max, "f_max", low=0) < f_min:
            raise ValueError(f"f_max should be greater than or equal to f_min, but got "
                             f"f_min: {f_min} and f_max: {f_max}.")
        if dct_type != 2:
            raise ValueError(f"Input dct_type must be 2, but got : {dct_type}.")
        if speckwargs is not None and not isinstance(speckwargs, dict):
            raise TypeError(f"Argument speckwargs with value {speckwargs!r} is not of type "
                            f"[<class 'dict'>], but got {type(speckwargs)}.")
        if "power" in (speckwargs or {}):
            check_float(speckwargs["power"], "power")     # MindSpore's LFCC refuses an int
        self._spectrogram = Spectrogram(**(speckwargs or {}))
        n_fft = self._spectrogram.n_fft
        if n_fft < self.n_lfcc:
            raise ValueError(f"n_fft should be greater than or equal to n_lfcc, but got "
                             f"n_fft: {n_fft} and n_lfcc: {n_lfcc}.")
        self._banks = linear_fbanks(n_fft // 2 + 1, f_min, f_max, self.n_filter,
                                    sample_rate).astype(np.float64)
        self._dct = create_dct(self.n_lfcc, self.n_filter, self.norm).astype(np.float64)

    def _compute(self, waveform, rng):
        spec = self._spectrogram._compute(waveform, rng).astype(np.float64)
        return cepstrum(np.swapaxes(np.swapaxes(spec, -1, -2) @ self._banks, -1, -2),
                        self.log_lf, self._dct)


class ComputeDeltas(AudioTensorOperation):
    """Delta coefficients of a spectrogram <..., freq, time> along time."""

    min_rank = 2
    rank_words = "<..., freq, time>"

    def __init__(self, win_length=5, pad_mode=BorderType.EDGE):
        self.win_length = check_int(win_length, "win_length", low=3)
        self.pad_mode = check_enum(pad_mode, BorderType, "pad_mode")

    def _compute(self, spec, rng):
        dtype = as_float(spec).dtype
        n = (self.win_length - 1) // 2
        denominator = n * (n + 1) * (2 * n + 1) / 3
        width = [(0, 0)] * (spec.ndim - 1) + [(n, n)]
        padded = np.pad(spec.astype(np.float64), width, mode=self.pad_mode.value)
        length = spec.shape[-1]
        out = sum(k * padded[..., n + k:n + k + length] for k in range(-n, n + 1))
        return (out / denominator).astype(dtype)
