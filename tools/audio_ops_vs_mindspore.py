"""Audio transforms against MindSpore 2.10, on random waveforms and arguments.

Each case is one of ``minddata.audio``'s transforms (``mindspore.dataset.audio``) built with
random arguments (valid or not: zero, negative, wrong types) and called eagerly on a random
input: a waveform (1-D, <channel, time> or <batch, channel, time>; float32, float64 or int16;
noise, silence, a clipped sine; 1 to 3000 samples, so some are shorter than n_fft), a
spectrogram <..., freq, time>, or complex pairs <..., 2>. The random masks (FrequencyMasking,
TimeMasking, MaskAlongAxisIID) are compared where their draws cannot matter: a mask parameter
of 0 (the identity) or one too large (an error), and MaskAlongAxis's given band. Both
interpreters make the same cases and compare: both raise
(the error types are compared apart), or both give arrays of the same dtype and shape whose
values agree within 1e-4 + 1e-3 * max|MindSpore's| (float32 kernels against float64 ones;
mu-law codes within 1). Differences the README documents as deviations are counted apart.

    .venv/bin/python tools/audio_ops_vs_mindspore.py [--seed 1] [--cases 300]
        [--mindspore-python /work/msvenv/bin/python] [--show-documented] [--show-error-types]

Prints each undocumented difference and a count per outcome; exits 1 if there is an
undocumented difference. The MindSpore interpreter runs this file alone (numpy only).
"""
import importlib
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its sibling, in both
import differential_reference  # noqa: E402

CASE_TIMEOUT_S = 60
ENUM = "__enum__"


def enum(name, member):
    return (ENUM, name, member)


def waveform(r, rank=None):
    """A random waveform of rank 1 to 3 (drawn unless given)."""
    rng = np.random.default_rng(r.randrange(1 << 30))
    shape = {1: (), 2: (r.choice([1, 2]),), 3: (2, r.choice([1, 2]))}[rank or r.choice([1, 2, 3])]
    length = r.choice([1, 7, 100, 255, 400, 401, 1000, 3000])
    kind = r.choice(["noise", "noise", "silence", "clipped"])
    if kind == "noise":
        wave = rng.uniform(-1, 1, shape + (length,)) * r.choice([0.01, 0.5, 1.0])
    elif kind == "silence":
        wave = np.zeros(shape + (length,))
    else:
        wave = np.clip(1.5 * np.sin(np.arange(length) * 0.05) + np.zeros(shape + (1,)), -1, 1)
    dtype = r.choice(["float32", "float32", "float64", "int16"])
    return (wave * 30000).astype(np.int16) if dtype == "int16" else wave.astype(dtype)


def spectrum(r, rank=None):
    rng = np.random.default_rng(r.randrange(1 << 30))
    lead = {2: (), 3: (r.choice([1, 2]),), 4: (2, 1)}[rank or r.choice([2, 3, 4])]
    freq, time = r.choice([1, 5, 201]), r.choice([1, 6, 30])
    return (rng.random(lead + (freq, time)) * r.choice([1.0, 100.0])).astype(
        r.choice(["float32", "float64"]))


def complex_pairs(r):
    rng = np.random.default_rng(r.randrange(1 << 30))
    return rng.standard_normal(r.choice([(5, 2), (3, 4, 2), (2, 3)])).astype(np.float32)


def pick(r, good, bad):
    """A valid value (most of the time) or an invalid one."""
    return r.choice(bad) if bad and r.random() < 0.15 else r.choice(good)


def random_case(r):
    """{op, args, kwargs, input}."""
    n_fft = pick(r, [16, 64, 400], [0, -1, 2.5])
    win = r.choice(["HANN", "HAMMING", "BLACKMAN", "BARTLETT", "KAISER"])
    spectro = lambda: {"n_fft": n_fft, "hop_length": pick(r, [None, 4, 50], [0]),  # noqa: E731
                       "win_length": pick(r, [None, 16], [1000]), "pad": pick(r, [0, 3], [-1]),
                       "window": enum("WindowType", win), "power": pick(r, [1.0, 2.0], [-1.0]),
                       "normalized": r.choice([False, True]), "center": r.choice([True, False]),
                       "pad_mode": enum("BorderType", r.choice(["REFLECT", "CONSTANT", "EDGE",
                                                                 "SYMMETRIC"]))}
    freq_q = pick(r, [100.0, 1000.0, 4000.0], [0.0])
    makers = [
        lambda: ("AmplitudeToDB", {"stype": enum("ScaleType", r.choice(["POWER", "MAGNITUDE"])),
                                   "ref_value": pick(r, [1.0, 0.5], [0.0]), "amin": pick(
                                       r, [1e-10, 1e-3], [0.0]), "top_db": pick(
                                       r, [80.0, 10.0], [-1.0])}, spectrum(r)),
        lambda: ("DBToAmplitude", {"ref": r.choice([1.0, 0.5]), "power": r.choice([0.5, 1.0])},
                 spectrum(r) * -10),
        lambda: ("Spectrogram", spectro(), waveform(r)),
        lambda: ("MelSpectrogram", dict(spectro(), n_mels=pick(r, [8, 40], [0]),
                                        sample_rate=pick(r, [16000, 8000], [0])), waveform(r)),
        lambda: ("MelScale", {"n_mels": r.choice([4, 20]), "sample_rate": 16000, "n_stft": r.choice(
            [201, 5]), "norm": enum("NormType", r.choice(["NONE", "SLANEY"])),
            "mel_type": enum("MelType", r.choice(["HTK", "SLANEY"]))}, spectrum(r)),
        lambda: ("MFCC", {"sample_rate": 16000, "n_mfcc": pick(r, [13, 20], [0]),
                          "log_mels": r.choice([False, True]), "norm": enum("NormMode", r.choice(
                              ["ORTHO", "NONE"])), "melkwargs": {"n_fft": 64, "n_mels": 23,
                                                                 "hop_length": 16}}, waveform(r)),
        lambda: ("LFCC", {"sample_rate": pick(r, [16000, 8000], [-1]), "n_filter": pick(
            r, [20, 64], [0]), "n_lfcc": pick(r, [13, 20], [0, 100]), "f_min": r.choice(
                [0.0, 100.0]), "f_max": pick(r, [None, 3000.0], [50.0]),
            "norm": enum("NormMode", r.choice(["ORTHO", "NONE"])), "log_lf": r.choice(
                [False, True]), "speckwargs": r.choice([None, {
                    "n_fft": 64, "win_length": 64, "hop_length": 16, "pad": 0,
                    "window": enum("WindowType", win), "power": pick(r, [2.0, 1.0], [2]),
                    "normalized": False, "center": r.choice([True, False]),
                    "pad_mode": enum("BorderType", "REFLECT"), "onesided": True}])},
                 waveform(r)),
        lambda: ("ComputeDeltas", {"win_length": pick(r, [3, 5, 9], [1, 0]),
                                   "pad_mode": enum("BorderType", r.choice(["EDGE", "REFLECT",
                                                                            "CONSTANT"]))},
                 spectrum(r)),
        lambda: ("Gain", {"gain_db": r.choice([-6.0, 0.0, 3.0, 20.0])}, waveform(r)),
        lambda: ("Vol", {"gain": pick(r, [0.5, 2.0, 0.0], [-1.0]), "gain_type": enum(
            "GainType", r.choice(["AMPLITUDE", "POWER", "DB"]))}, waveform(r)),
        lambda: ("DCShift", {"shift": pick(r, [0.3, -0.2], [3.0]),
                             "limiter_gain": r.choice([None, 0.05])}, waveform(r)),
        lambda: ("Fade", {"fade_in_len": pick(r, [0, 5, 50], [-1]), "fade_out_len": r.choice(
            [0, 3, 90]), "fade_shape": enum("FadeShape", r.choice(
                ["LINEAR", "EXPONENTIAL", "LOGARITHMIC", "QUARTER_SINE", "HALF_SINE"]))},
                 waveform(r)),
        lambda: ("Contrast", {"enhancement_amount": pick(r, [75.0, 0, 100, 33.3], [-1, 101])},
                 waveform(r)),
        lambda: ("Overdrive", {"gain": pick(r, [20.0, 0, 100, 7.5], [-1, "1"]),
                               "color": pick(r, [20.0, 0, 100], [101])}, waveform(r)),
        lambda: ("MuLawEncoding", {"quantization_channels": pick(r, [256, 16], [0])},
                 waveform(r)),
        lambda: ("MuLawDecoding", {"quantization_channels": r.choice([256, 16])},
                 np.random.default_rng(r.randrange(99)).integers(0, 16, (2, 9)).astype(np.int32)),
        lambda: ("Resample", {"orig_freq": pick(r, [16000, 44100, 8000], [0]),
                              "new_freq": r.choice([16000, 8000, 22050]),
                              "resample_method": enum("ResampleMethod", r.choice(
                                  ["SINC_INTERPOLATION", "KAISER_WINDOW"])),
                              "lowpass_filter_width": r.choice([6, 2])}, waveform(r)),
        lambda: (r.choice(["ComplexNorm", "Magphase"]), {"power": pick(r, [1.0, 2.0], [-1.0])},
                 complex_pairs(r)),
        lambda: ("Angle", {}, complex_pairs(r)),
        lambda: (r.choice(["LowpassBiquad", "HighpassBiquad"]),
                 {"sample_rate": 16000, "cutoff_freq": freq_q, "Q": pick(r, [0.707, 0.3],
                                                                         [0.0, 2.0])},
                 waveform(r)),
        lambda: (r.choice(["BandpassBiquad", "BandrejectBiquad", "AllpassBiquad"]),
                 {"sample_rate": pick(r, [16000, 44100], [0]), "central_freq": freq_q,
                  "Q": r.choice([0.707, 0.5])}, waveform(r)),
        lambda: (r.choice(["BassBiquad", "TrebleBiquad"]),
                 {"sample_rate": pick(r, [16000, 44100], [0, 16000.0]), "gain": pick(
                     r, [-10.0, 0.0, 6.0, 20], ["6"]), "central_freq": freq_q, "Q": pick(
                     r, [0.707, 0.3], [0.0, 2.0])}, waveform(r)),
        lambda: ("EqualizerBiquad", {"sample_rate": pick(r, [16000, 44100], [0]),
                                     "center_freq": freq_q, "gain": pick(r, [-6.0, 12.0], [True]),
                                     "Q": pick(r, [0.707, 1], [0])}, waveform(r)),
        lambda: ("BandBiquad", {"sample_rate": pick(r, [16000, 44100], [0]), "central_freq":
                                freq_q, "Q": r.choice([0.707, 0.2]),
                                "noise": pick(r, [False, True], [1])}, waveform(r)),
        lambda: (r.choice(["DeemphBiquad", "RiaaBiquad"]), {"sample_rate": pick(
            r, [44100, 48000, 88200, 96000], [16000, 44100.0])}, waveform(r)),
        lambda: ("Biquad", {"b0": 0.4, "b1": 0.2, "b2": 0.1, "a0": pick(r, [1.0], [0.0]),
                            "a1": -0.3, "a2": 0.1}, waveform(r)),
        lambda: ("LFilter", {"a_coeffs": pick(r, [[1.0, -0.5, 0.1]], [[0.0, 1.0, 1.0]]),
                             "b_coeffs": [0.3, 0.2, 0.1], "clamp": r.choice([True, False])},
                 waveform(r)),
        lambda: ("MaskAlongAxis", {"mask_start": r.choice([0, 2, 5]), "mask_width": pick(
            r, [1, 3], [0]), "mask_value": r.choice([0.0, 2.5]), "axis": pick(r, [1, 2], [0])},
                 spectrum(r)),
        lambda: (r.choice(["FrequencyMasking", "TimeMasking"]),
                 {"iid_masks": r.choice([False, True]), "mask_start": r.choice([0, 1]),
                  "mask_value": pick(r, [0.0, 1.5], [-1.0])}, spectrum(r)),
        lambda: ("MaskAlongAxisIID", {"mask_param": pick(r, [0], [-1, 500, 1.0]),
                                      "mask_value": pick(r, [0.0, 2.5], [1e20]),
                                      "axis": pick(r, [1, 2], [0])}, spectrum(r)),
    ]
    op, kwargs, data = r.choice(makers)()
    if op == "FrequencyMasking":
        kwargs["freq_mask_param"] = 0        # a width of 0: the draws cannot matter
    if op == "TimeMasking":
        kwargs["time_mask_param"] = 0
    return {"op": op, "kwargs": kwargs, "input": data}


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


def resolve(audio, value):
    if isinstance(value, tuple) and value and value[0] == ENUM:
        return getattr(getattr(audio, value[1]), value[2])
    if isinstance(value, dict):
        return {k: resolve(audio, v) for k, v in value.items()}
    return value


def make_library(name):
    return importlib.import_module("mindspore.dataset.audio" if name == "mindspore"
                                   else "minddata.audio")


def error(exc):
    return ("error", type(exc).__name__, str(exc)[:300])


def run_case(audio, case):
    """[(item, outcome)]: the op built ("build"), then its output ("out")."""
    try:
        op = getattr(audio, case["op"])(**resolve(audio, case["kwargs"]))
    except Exception as exc:  # noqa: BLE001 -- compared with the other side's
        return [("build", error(exc))]
    try:
        out = op(case["input"].copy())
    except Exception as exc:  # noqa: BLE001
        return [("build", ("ok",)), ("out", error(exc))]
    outs = out if isinstance(out, tuple) else (out,)
    return [("build", ("ok",)), ("out", ("ok", [(str(o.dtype), o.shape, o) for o in outs]))]


outcomes = differential_reference.case_by_case(make_library, cases, run_case)


def difference(ours, theirs):
    """(kind, why) of one item's two outcomes, or (None, None)."""
    if ours[0] == theirs[0] == "error":
        return ("error type", f"{ours[1]} here, {theirs[1]} in MindSpore") if ours[1] != theirs[
            1] else (None, None)
    if ours[0] != theirs[0]:
        return "different", f"here {brief(ours)}, MindSpore {brief(theirs)}"
    if len(ours) == 1:
        return None, None
    if len(ours[1]) != len(theirs[1]):
        return "different", f"{len(ours[1])} outputs here, {len(theirs[1])} in MindSpore"
    for (dtype, shape, mine), (their_dtype, their_shape, reference) in zip(ours[1], theirs[1]):
        if (dtype, shape) != (their_dtype, their_shape):
            return "different", f"{dtype} {shape} here, {their_dtype} {their_shape} in MindSpore"
        mine, reference = mine.astype(np.float64), reference.astype(np.float64)
        if not np.array_equal(np.isnan(mine), np.isnan(reference)):
            return "different", "NaN at other places"
        gap = np.abs(np.nan_to_num(mine) - np.nan_to_num(reference))
        scale = np.max(np.abs(np.nan_to_num(reference)), initial=0.0)
        tolerance = 1.0 if dtype == "int32" else 1e-4 + 1e-3 * scale
        if gap.size and gap.max() > tolerance:
            at = np.unravel_index(np.argmax(gap), gap.shape)
            return "different", (f"values differ by up to {gap.max():.3g} at {at}: "
                                 f"{mine[at]!r} here, {reference[at]!r} in MindSpore")
    return None, None


def brief(outcome):
    if outcome[0] == "error":
        return f"{outcome[1]}: {outcome[2].split('[ERROR]')[-1].strip()[:160]!r}"
    return "ok" + "".join(f" {dtype} {shape}" for dtype, shape, _ in outcome[1:2] and outcome[1])


def documented(case, item, ours, theirs):
    """The README's word for a difference, or None (minddata.audio's deviations)."""
    mine = dict(ours)
    kwargs, here = case["kwargs"], str(mine.get(item, mine.get("build", ("",))))
    rules = [
        (case["op"] == "MFCC" and "KeyError" in str(dict(theirs).get("build")),
         "MFCC takes a melkwargs naming some of MelSpectrogram's arguments, the others at their "
         "defaults (MindSpore 2.10 needs every one: KeyError)"),
        (case["op"] == "LFCC" and kwargs.get("log_lf") and case["input"].dtype == np.float64,
         "LFCC(log_lf=True) on a float64 waveform gives the float32 waveform's coefficients "
         "(MindSpore 2.10 gives other values on some inputs, NaN in some frames)"),
        (case["op"] == "AmplitudeToDB" and kwargs.get("amin", 1e-10) != 1e-10 and
         "values differ" in why_of(ours, theirs, item),
         "AmplitudeToDB floors at amin as documented (MindSpore 2.10 ignores amin: power 1e-5 "
         "with amin 0.001 gives -50 dB there, -30 dB here)"),
        (case["op"] in ("MelSpectrogram", "MFCC") and "Input n_mels is not within" in here,
         "MelSpectrogram refuses n_mels=0 as MelScale does (MindSpore 2.10's MelSpectrogram "
         "gives an empty (0, frames) spectrogram)"),
        (case["op"] == "DCShift" and kwargs.get("limiter_gain") is not None and
         "limiter_gain is not supported" in here,
         "DCShift refuses limiter_gain (MindSpore 2.10's limiter gives undocumented values)"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def why_of(ours, theirs, item):
    """The difference of one item's two outcomes, in words ("" if none)."""
    mine, reference = dict(ours), dict(theirs)
    return difference(mine.get(item, mine.get("build")), reference.get(item, reference.get(
        "build")))[1] or ""


def classify(case, ours, theirs):
    if theirs == differential_reference.CRASH:
        return "MindSpore crashed", "crash", theirs[0][1][2]
    mine, reference = dict(ours), dict(theirs)
    found = differential_reference.item_differences(
        [(label, mine.get(label, mine["build"]), reference.get(label, reference["build"]))
         for label in ("build", "out") if label in mine or label in reference],
        ("out",), difference)
    return differential_reference.first_undocumented(case, ours, theirs, found, documented)


def describe(case, limit=300):
    data = case["input"]
    text = f"{case['op']}(**{case['kwargs']!r})(<{data.dtype} {data.shape}>)"
    return text if limit is None else text[:limit]


def main():
    return differential_reference.run_tool(__doc__.split("\n\n")[0], 300, __file__, cases,
                                           outcomes, classify, describe, CASE_TIMEOUT_S)


if __name__ == "__main__":
    sys.exit(main())
