"""minddata.audio: MindSpore 2.10's ``mindspore.dataset.audio`` (numpy/scipy kernels on
waveforms <..., time> and spectrograms <..., freq, time>; each op runs eagerly and in
``dataset.map``). The transforms it lacks raise an ImportError naming them."""
from . import transforms, utils
from .transforms import *  # noqa: F401,F403
from .transforms import __all__ as _transforms_all
from .utils import (BorderType, DensityFunction, FadeShape, GainType, Interpolation, MelType,
                    Modulation, NormMode, NormType, ResampleMethod, ScaleType, WindowType,
                    create_dct, linear_fbanks, melscale_fbanks)

__all__ = list(_transforms_all) + [
    "BorderType", "DensityFunction", "FadeShape", "GainType", "Interpolation", "MelType",
    "Modulation", "NormMode", "NormType", "ResampleMethod", "ScaleType", "WindowType",
    "create_dct", "linear_fbanks", "melscale_fbanks", "transforms", "utils"]

# mindspore.dataset.audio's transforms (MindSpore 2.10) not provided yet
_NOT_PROVIDED = frozenset((
    "DetectPitchFrequency", "Dither", "Filtfilt", "Flanger", "GriffinLim", "InverseMelScale",
    "InverseSpectrogram", "PhaseVocoder", "Phaser", "PitchShift", "SlidingWindowCmn",
    "SpectralCentroid", "TimeStretch", "Vad"))


def __getattr__(name):
    # An ImportError keeps its words through `from ... import`; other names stay
    # AttributeErrors, so hasattr() works.
    if name in _NOT_PROVIDED:
        raise ImportError(f"audio.{name} (mindspore.dataset.audio) is not provided by this "
                          f"project yet: apply it with a Python map function (e.g. torchaudio)")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
