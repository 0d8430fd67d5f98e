"""``mindspore.dataset.audio.transforms``: the audio transforms this package has."""
from .amplitude import DCShift, Fade, Gain, MuLawDecoding, MuLawEncoding, Vol
from .complex_ops import Angle, ComplexNorm, Magphase
from .effects import Contrast, Overdrive
from .filters import (AllpassBiquad, BandBiquad, BandpassBiquad, BandrejectBiquad, BassBiquad,
                      Biquad, DeemphBiquad, EqualizerBiquad, HighpassBiquad, LFilter,
                      LowpassBiquad, RiaaBiquad, TrebleBiquad)
from .masking import FrequencyMasking, MaskAlongAxis, MaskAlongAxisIID, TimeMasking
from .resample import Resample
from .spectral import (LFCC, MFCC, AmplitudeToDB, ComputeDeltas, DBToAmplitude, MelScale,
                       MelSpectrogram, Spectrogram)

__all__ = ["AllpassBiquad", "AmplitudeToDB", "Angle", "BandBiquad", "BandpassBiquad",
           "BandrejectBiquad", "BassBiquad", "Biquad", "ComplexNorm", "ComputeDeltas",
           "Contrast", "DBToAmplitude", "DCShift", "DeemphBiquad", "EqualizerBiquad", "Fade",
           "FrequencyMasking", "Gain", "HighpassBiquad", "LFCC", "LFilter", "LowpassBiquad",
           "MFCC", "Magphase", "MaskAlongAxis", "MaskAlongAxisIID", "MelScale", "MelSpectrogram",
           "MuLawDecoding", "MuLawEncoding", "Overdrive", "Resample", "RiaaBiquad",
           "Spectrogram", "TimeMasking", "TrebleBiquad", "Vol"]
