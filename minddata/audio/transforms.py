"""``mindspore.dataset.audio.transforms``: the audio transforms this package has."""
from .amplitude import DCShift, Fade, Gain, MuLawDecoding, MuLawEncoding, Vol
from .complex_ops import Angle, ComplexNorm, Magphase
from .filters import (AllpassBiquad, BandpassBiquad, BandrejectBiquad, Biquad, HighpassBiquad,
                      LFilter, LowpassBiquad)
from .masking import FrequencyMasking, MaskAlongAxis, TimeMasking
from .resample import Resample
from .spectral import (MFCC, AmplitudeToDB, ComputeDeltas, DBToAmplitude, MelScale,
                       MelSpectrogram, Spectrogram)

__all__ = ["AllpassBiquad", "AmplitudeToDB", "Angle", "BandpassBiquad", "BandrejectBiquad",
           "Biquad", "ComplexNorm", "ComputeDeltas", "DBToAmplitude", "DCShift", "Fade",
           "FrequencyMasking", "Gain", "HighpassBiquad", "LFilter", "LowpassBiquad", "MFCC",
           "Magphase", "MaskAlongAxis", "MelScale", "MelSpectrogram", "MuLawDecoding",
           "MuLawEncoding", "Resample", "Spectrogram", "TimeMasking", "Vol"]
