"""Eager vision ops against MindSpore 2.10, on random images and arguments.

Each case is an op of ``minddata.vision`` built with random arguments and called eagerly on a
random image (uint8 to float64, bool, 1 to 4 channels or none, 1 to 64 pixels a side). The
same cases run in this interpreter and in MindSpore's (its own venv: ``--mindspore-python``),
and every pair of outcomes is compared: both raise, or both give the same dtype, shape and
values (uint8 within one level where an interpolation rounds). Differences the README
documents as deviations (MindSpore wrong, or refused here on purpose) are counted apart.

    .venv/bin/python tools/eager_ops_vs_mindspore.py [--seed 1] [--cases 400]
        [--mindspore-python /work/msvenv/bin/python]

Prints each undocumented difference and a count per outcome; exits 1 if there is any. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import argparse
import importlib
import os
import pickle
import random
import subprocess
import sys
import tempfile
import warnings

import numpy as np

ENUM = "__enum__"
INTERPOLATIONS = ["BILINEAR", "NEAREST", "BICUBIC", "AREA", "PILCUBIC"]
BORDERS = ["CONSTANT", "EDGE", "REFLECT", "SYMMETRIC"]
COLOUR_MODES = ["COLOR_BGR2RGB", "COLOR_RGB2GRAY", "COLOR_RGB2BGRA", "COLOR_GRAY2RGB",
                "COLOR_RGBA2RGB", "COLOR_BGR2GRAY", "COLOR_RGBA2GRAY"]
KINDS = ["hwc3", "hwc3", "hwc3", "hw", "hwc1", "hwc4", "hwc2", "float32", "float64", "float16",
         "uint16", "int16", "int32", "int8", "bool", "pil_rgb", "pil_l", "pil_rgba"]


class PilImage:
    """A PIL image to make in each interpreter (Pillow's objects differ between them)."""

    def __init__(self, pixels, mode):
        self.pixels, self.mode = pixels, mode
        self.shape, self.dtype, self.ndim = pixels.shape, pixels.dtype, pixels.ndim

    def make(self):
        from PIL import Image
        return Image.fromarray(self.pixels, self.mode)

    def copy(self):
        return self.make()

    def __repr__(self):
        return f"PIL {self.mode}"


def enum(name, member):
    """An enum member, resolved in each library's vision module."""
    return (ENUM, name, member)


def random_image(r):
    height, width = r.choice([1, 2, 3, 7, 16, 33, 64]), r.choice([1, 2, 5, 8, 17, 40, 61])
    rng = np.random.default_rng(r.randrange(1 << 30))
    rows, cols = np.mgrid[0:height, 0:width]
    smooth = np.stack([cols * 255 // width, rows * 255 // height, (cols + rows) * 7 % 256], -1)
    img = np.clip(smooth + rng.integers(-30, 30, smooth.shape), 0, 255).astype(np.uint8)
    kind = r.choice(KINDS)
    converted = {
        "hw": lambda: img[:, :, 0].copy(), "hwc1": lambda: img[:, :, :1].copy(),
        "hwc2": lambda: img[:, :, :2].copy(),
        "hwc4": lambda: np.concatenate([img, img[:, :, :1]], -1),
        "float32": lambda: img.astype(np.float32) / 3, "float64": lambda: img / 255.0,
        "float16": lambda: (img / 255).astype(np.float16),
        "uint16": lambda: img.astype(np.uint16) * 257,
        "int16": lambda: img.astype(np.int16) * 100 - 12000,
        "int32": lambda: img.astype(np.int32) * 3,
        "int8": lambda: (img.astype(np.int16) - 128).astype(np.int8),
        "bool": lambda: img > 128,
        "pil_rgb": lambda: PilImage(img, "RGB"),
        "pil_l": lambda: PilImage(img[:, :, 0].copy(), "L"),
        "pil_rgba": lambda: PilImage(np.concatenate([img, img[:, :, :1]], -1), "RGBA")}
    return converted.get(kind, lambda: img)()


def random_op(r):
    """(op name, args, kwargs) of a deterministic op (or a random one whose draws are fixed)
    with random arguments."""
    factor = lambda: r.choice([0.0, 0.5, 1.0, 1.7])      # noqa: E731
    makers = [
        lambda: ("AdjustBrightness", (factor(),), {}),
        lambda: ("AdjustContrast", (factor(),), {}),
        lambda: ("AdjustSaturation", (factor(),), {}),
        lambda: ("AdjustHue", (r.choice([-0.5, -0.37, -0.2, 0.0, 0.1, 0.13, 0.5]),), {}),
        lambda: ("AdjustGamma", (r.choice([0.5, 1.0, 2.2]),), {"gain": r.choice([1.0, 0.7])}),
        lambda: ("AdjustSharpness", (r.choice([0.0, 0.5, 1.0, 2.0]),), {}),
        lambda: ("AutoContrast", (), {"cutoff": r.choice([0.0, 2.0, 10.0]),
                                      "ignore": r.choice([None, 0, [10, 255]])}),
        lambda: ("Equalize", (), {}),
        lambda: ("Invert", (), {}),
        lambda: ("Posterize", (r.choice([1, 3, 8]),), {}),
        lambda: ("Solarize", (r.choice([0.0, 100.0, [30.0, 200.0]]),), {}),
        lambda: ("CenterCrop", (r.choice([1, 5, (3, 9), 40, 100]),), {}),
        lambda: ("Crop", ((r.randint(0, 4), r.randint(0, 4)), r.choice([1, 3, (2, 5)])), {}),
        lambda: ("Pad", (r.choice([1, (2, 3), (1, 2, 3, 4)]),),
                 {"fill_value": r.choice([0, 7, (1, 2, 3)]),
                  "padding_mode": enum("Border", r.choice(BORDERS))}),
        lambda: ("Resize", (r.choice([4, (5, 9), (40, 3), 70, (1, 1)]),),
                 {"interpolation": enum("Inter", r.choice(INTERPOLATIONS))}),
        lambda: ("ResizedCrop", (r.randint(0, 3), r.randint(0, 3), r.randint(1, 6),
                                 r.randint(1, 6), r.choice([5, (7, 3)])),
                 {"interpolation": enum("Inter", r.choice(INTERPOLATIONS))}),
        lambda: (r.choice(["HorizontalFlip", "VerticalFlip", "HWC2CHW"]), (), {}),
        lambda: ("Rescale", (r.choice([1 / 255, 2.0]), r.choice([0.0, -1.0])), {}),
        lambda: ("Normalize", ([121.0, 115.0, 104.0][:r.choice([1, 3])],
                               [58.0, 57.0, 57.5][:r.choice([1, 3])]),
                 {"is_hwc": r.choice([True, True, False])}),
        lambda: ("Rotate", (r.choice([0, 30, 90, -45.5, 180]),),
                 {"resample": enum("Inter", r.choice(["NEAREST", "BILINEAR", "BICUBIC"])),
                  "expand": r.choice([False, True]), "center": r.choice([None, (1, 2)]),
                  "fill_value": r.choice([0, 9])}),
        lambda: ("Affine", (r.choice([0.0, 15.0]), r.choice([[0.0, 0.0], [1.5, -2.0]]),
                            r.choice([1.0, 0.7]), r.choice([0.0, [5.0, 3.0]])),
                 {"resample": enum("Inter", r.choice(["NEAREST", "BILINEAR", "BICUBIC"])),
                  "fill_value": r.choice([0, 5])}),
        lambda: ("GaussianBlur", (r.choice([1, 3, (3, 5)]),),
                 {"sigma": r.choice([None, 0.8, (1.0, 2.0)])}),
        lambda: ("ConvertColor", (enum("ConvertMode", r.choice(COLOUR_MODES)),), {}),
        lambda: ("Erase", (r.randint(0, 3), r.randint(0, 3), r.randint(1, 5), r.randint(1, 5)),
                 {"value": r.choice([0, 9, (1, 2, 3)])}),
        lambda: ("PadToSize", (r.choice([8, (10, 70), 64]),),
                 {"offset": r.choice([None, 1, (2, 3)]), "fill_value": r.choice([0, 4]),
                  "padding_mode": enum("Border", r.choice(BORDERS))}),
        lambda: ("Perspective", ([[0, 0], [10, 0], [10, 10], [0, 10]],
                                 [[1, 0], [9, 1], [10, 9], [0, 10]]),
                 {"interpolation": enum("Inter", r.choice(["NEAREST", "BILINEAR", "BICUBIC"]))}),
        lambda: ("ToTensor", (), {"output_type": r.choice(["float32", "float16", "int32"])}),
    ]
    # random ops whose draws are fixed: probability 1, or a range of one value
    one = lambda values: (lambda v: (v, v))(r.choice(values))      # noqa: E731
    makers += [
        lambda: (r.choice(["RandomHorizontalFlip", "RandomVerticalFlip", "RandomInvert",
                           "RandomEqualize", "RandomAutoContrast"]), (), {"prob": 1.0}),
        lambda: ("RandomPosterize", (one([1, 4, 8]),), {}),
        lambda: ("RandomSolarize", (one([0, 90, 255]),), {}),
        lambda: ("RandomColor", (one([0.0, 0.6, 1.4]),), {}),
        lambda: ("RandomSharpness", (one([0.0, 0.6, 1.4]),), {}),
        lambda: ("RandomAdjustSharpness", (r.choice([0.0, 0.6, 1.4]),), {"prob": 1.0}),
        lambda: ("RandomRotation", (one([0.0, 30.0, -90.0]),),
                 {"resample": enum("Inter", r.choice(["NEAREST", "BILINEAR"])),
                  "expand": r.choice([False, True]), "fill_value": r.choice([0, 7])}),
        lambda: ("RandomAffine", (one([0.0, 20.0]),),
                 {"scale": one([0.8, 1.0]), "shear": r.choice([None, (5.0, 5.0, 2.0, 2.0)]),
                  "resample": enum("Inter", r.choice(["NEAREST", "BILINEAR"]))}),
        lambda: ("RandomLighting", (0.0,), {}),
        lambda: ("LinearTransformation", (np.eye(12, dtype=np.float32) * 0.5,
                                          np.zeros(12, np.float32)), {}),
        # ops on an image and its bounding boxes (x, y, width, height rows)
        lambda: ("ResizeWithBBox", (r.choice([4, (5, 9), (40, 30)]),),
                 {"interpolation": enum("Inter", r.choice(["NEAREST", "BILINEAR"]))}),
        lambda: (r.choice(["RandomHorizontalFlipWithBBox", "RandomVerticalFlipWithBBox"]),
                 (1.0,), {}),
    ]
    return r.choice(makers)()


BBOX_OPS = ("ResizeWithBBox", "RandomHorizontalFlipWithBBox", "RandomVerticalFlipWithBBox")


def bounding_boxes(img):
    """Two boxes inside ``img``: (x, y, width, height) rows of float32."""
    height, width = img.shape[:2]
    return np.array([[0, 0, width, height], [width // 3, height // 4, max(1, width // 2),
                                              max(1, height // 2)]], np.float32)


def cases(seed, count):
    r = random.Random(seed)
    return [(random_op(r), random_image(r)) for _ in range(count)]


def documented(name, kwargs, img):
    """The README's word for a difference this case may show, or None (see "Deviations from
    MindSpore" and the colour ops' notes there)."""
    integer_not_uint8 = img.dtype.kind in "iu" and img.dtype != np.uint8
    rules = [
        (img.dtype == np.bool_, "bool images are refused"),
        (img.dtype == np.float16 or (name in ("Resize", "ResizedCrop") and integer_not_uint8
                                     and img.dtype not in (np.uint16, np.int16)),
         "types MindSpore's OpenCV refuses are taken"),
        (name == "AdjustHue" and img.dtype.kind == "f", "AdjustHue of float images"),
        (name == "AdjustGamma" and img.dtype != np.uint8, "AdjustGamma: gain and types"),
        (name in ("AdjustContrast", "AdjustSaturation") and img.dtype == np.uint16,
         "uint16 contrast/saturation within 1 level"),
        (name in ("AutoContrast", "Equalize", "RandomAutoContrast", "RandomEqualize")
         and (img.ndim == 2 and 1 in img.shape
                                                   or img.ndim == 3 and img.shape[2] in (2, 4)),
         "AutoContrast/Equalize: 2 and 4 channels, one-pixel sides"),
        (name == "Normalize" and img.ndim == 2 and 1 in img.shape,
         "MindSpore drops a 2-D image's side of one pixel"),
        (name in ("Resize", "ResizedCrop") and "PILCUBIC" in str(kwargs) and img.dtype != np.uint8,
         "PILCUBIC of non-uint8 images is OpenCV's CUBIC"),
        (name == "RandomLighting" and img.dtype not in (np.uint8, np.float32),
         "RandomLighting refuses other types: MindSpore reads their bytes as uint8 pixels"),
        (name == "ResizeWithBBox" and integer_not_uint8 and img.dtype not in (np.uint16, np.int16),
         "types MindSpore's OpenCV refuses are taken"),
        (name == "RandomRotation" and isinstance(img, PilImage) and img.mode == "L",
         "RandomRotation fills an L image with the first fill value (MindSpore: TypeError)"),
        (name == "RandomAffine" and isinstance(img, PilImage),
         "RandomAffine on a PIL image gets its fill (MindSpore drops it)"),
    ]
    return next((why for applies, why in rules if applies), None)


def resolve(vision, value):
    if isinstance(value, tuple) and len(value) == 3 and value[0] == ENUM:
        return getattr(getattr(vision, value[1]), value[2])
    if value in ("float32", "float16", "int32"):
        return getattr(np, value)
    return value


def outcomes(library, seed, count):
    """Each case's ("ok", array) or ("error", type name, message) under ``library``."""
    warnings.simplefilter("ignore")
    vision = importlib.import_module("mindspore.dataset.vision" if library == "mindspore"
                                     else "minddata.vision")
    results = []
    for (name, args, kwargs), img in cases(seed, count):
        try:
            op = getattr(vision, name)(*[resolve(vision, a) for a in args],
                                       **{k: resolve(vision, v) for k, v in kwargs.items()})
            if name in BBOX_OPS:
                out = op(img.copy(), bounding_boxes(img))
                results.append(("ok", np.concatenate([np.asarray(out[0]).ravel().astype(
                    np.float64), np.asarray(out[1]).ravel().astype(np.float64)])))
            else:
                out = op(img.copy())
                # a PIL image back: its mode and pixels (a mode named in the dtype's place)
                mode = getattr(out, "mode", None)
                results.append(("ok", np.asarray(out), mode) if mode else
                               ("ok", np.asarray(out)))
        except Exception as exc:        # an outcome to compare, like a result
            message = str(exc).split("[ERROR] ", 1)[-1]     # MindSpore's banner dropped
            results.append(("error", type(exc).__name__, message.split("\n")[0][:200]))
    return results


def difference(name, img, ours, theirs):
    """Why ``ours`` and ``theirs`` (outcomes of one case) differ, or None."""
    if ours[0] == "error" and theirs[0] == "error":
        return None
    if ours[0] != theirs[0]:
        failed, which = (ours, "here") if ours[0] == "error" else (theirs, "in MindSpore")
        return f"raises {failed[1]} {which} only: {failed[2][:120]}"
    a, b = ours[1], theirs[1]
    kind = lambda outcome: f"PIL {outcome[2]}" if len(outcome) > 2 else "array"      # noqa: E731
    if kind(ours) != kind(theirs):
        return f"{kind(ours)} here, {kind(theirs)} in MindSpore"
    if a.dtype != b.dtype or a.shape != b.shape:
        return f"{a.dtype}{a.shape} here, {b.dtype}{b.shape} in MindSpore"
    if a.dtype == np.bool_ or a.size == 0:
        return None if np.array_equal(a, b) else "values differ"
    largest = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())
    # one level where a value is interpolated, or (AdjustHue) where OpenCV builds round the
    # HSV conversions apart
    rounds = name in ("Resize", "ResizedCrop", "Rotate", "Affine", "GaussianBlur", "AdjustHue",
                      "ResizeWithBBox")
    if name in BBOX_OPS:    # the image's values and the boxes', one float64 array
        return None if largest <= (1.0 if rounds else 0.0) else f"largest difference {largest:g}"
    allowed = (1.0 if rounds else 0.0) if a.dtype.kind in "iu" else \
        1e-5 * max(1.0, float(np.abs(b).max()))
    return None if largest <= allowed else f"largest difference {largest:g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--mindspore-python", default="/work/msvenv/bin/python")
    parser.add_argument("--reference", default="mindspore",
                        help="the library the reference interpreter runs (minddata: a self-check)")
    parser.add_argument("--emit", nargs=2, metavar=("LIBRARY", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.emit:                       # the reference interpreter's part
        with open(args.emit[1], "wb") as f:
            pickle.dump(outcomes(args.emit[0], args.seed, args.cases), f)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "reference.pkl")
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))) if args.reference == "minddata" else "")
        subprocess.run([args.mindspore_python, os.path.abspath(__file__), "--seed",
                        str(args.seed), "--cases", str(args.cases), "--emit", args.reference,
                        path], check=True, env=env, stderr=subprocess.DEVNULL)
        with open(path, "rb") as f:
            reference = pickle.load(f)
    ours = outcomes("minddata", args.seed, args.cases)
    counts, undocumented = {}, 0
    for ((name, op_args, kwargs), img), mine, theirs in zip(cases(args.seed, args.cases), ours,
                                                            reference):
        why = difference(name, img, mine, theirs)
        kind = "same" if why is None else ("documented" if documented(name, kwargs, img)
                                           else "different")
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "different":
            undocumented += 1
            image = repr(img) if isinstance(img, PilImage) else img.dtype
            print(f"{name}{op_args} {kwargs} on {image}{img.shape}: {why}")
    print(f"{args.cases} cases, seed {args.seed}: " +
          ", ".join(f"{counts.get(k, 0)} {k}" for k in ("same", "documented", "different")))
    return 1 if undocumented else 0


if __name__ == "__main__":
    sys.exit(main())
