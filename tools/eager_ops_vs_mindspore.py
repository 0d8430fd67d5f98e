"""Eager vision ops against MindSpore 2.10, on random images and arguments.

Each case is one of 80 ops and functions of ``minddata.vision`` (every one MindSpore 2.10's
``mindspore.dataset.vision`` has but its video, file and encoding functions) built with random
arguments and called eagerly on a random image (uint8 to float64, bool, 1 to 4 channels or none, 1 to 64
pixels a side, PIL images of modes RGB, L and RGBA), or on what the op takes made of it: the
image encoded as JPEG or PNG (bytes or a uint8 array; garbage too), a CHW copy, a batch and its
one-hot labels, bounding boxes; and, where the op takes one in MindSpore or here, in a share of
the cases a batch of 2 or 3 images of the drawn kind (N x H x W x C, N x H x W, videos
N x T x H x W x C; tools/eager_batches_for_differential.py). A random op has its draws fixed
(probability 1 or 0, a range of one value, a crop of the whole padded image, a batch of one
image to mix...); the ones whose
draws cannot be fixed (CutOut, AutoAugment, MixUp...) are compared by whether they raise and
by the kind, dtype and shape of what they give back. The cases are made here once and run in this interpreter and in
MindSpore's (its own venv: ``--mindspore-python``), and every pair of outcomes is compared:
both raise, or both give the same kind of value (an array, a PIL image of the same mode, a
tuple or list of as many elements, compared one by one) with the same dtype, shape and values
(integers within one level where an interpolation rounds). Differences the README documents
as deviations (MindSpore wrong, or refused or taken here on purpose) are counted apart. The
random ops that take batches are also called 40 times each on batches of one image repeated, in
both: each must draw as MindSpore does, once for the batch or for each image.

    .venv/bin/python tools/eager_ops_vs_mindspore.py [--seed 1] [--cases 400]
        [--mindspore-python /work/msvenv/bin/python] [--show-documented] [--show-error-types]

Prints each undocumented difference and a count per outcome (and of the cases both raise with
other exception types, counted as the same outcome), then each random op that draws otherwise
for a batch; exits 1 if there is any undocumented difference or such an op. The
MindSpore interpreter runs this file alone (numpy and Pillow: it never imports this package).
"""
import argparse
import importlib
import io
import os
import pickle
import random
import subprocess
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its sibling, in both
from eager_batches_for_differential import (BATCHED, batch_of, batched_inputs,  # noqa: E402
                                            error_outcome, independence, independence_cases)

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


def random_image(r, kind=None, size=None):
    """An image of ``kind`` (drawn from KINDS by default) and ``size`` (height, width; drawn
    by default)."""
    height, width = size or (r.choice([1, 2, 3, 7, 16, 33, 64]),
                             r.choice([1, 2, 5, 8, 17, 40, 61]))
    rng = np.random.default_rng(r.randrange(1 << 30))
    rows, cols = np.mgrid[0:height, 0:width]
    smooth = np.stack([cols * 255 // width, rows * 255 // height, (cols + rows) * 7 % 256], -1)
    img = np.clip(smooth + rng.integers(-30, 30, smooth.shape), 0, 255).astype(np.uint8)
    kind = kind or r.choice(KINDS)
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


def random_op(r, img):
    """(op name, args, kwargs) of a deterministic op (or a random one whose draws are fixed)
    with random arguments, or (op name, args, kwargs, inputs) for an op called on more than
    ``img`` alone (or on something made of it)."""
    height, width = img.shape[:2]
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
        lambda: ("CenterCrop", (r.choice([1, 5, (3, 9), 40, 100, (70, 2)]),), {}),
        lambda: ("Crop", ((r.choice([0, 1, 4, 30, 70]), r.choice([0, 2, 4, 50])),
                          r.choice([1, 3, (2, 5), 64])), {}),
        lambda: ("Pad", (r.choice([1, (2, 3), (1, 2, 3, 4), 50, (0, 70), (64, 0, 1, 90)]),),
                 {"fill_value": r.choice([0, 7, (1, 2, 3)]),
                  "padding_mode": enum("Border", r.choice(BORDERS))}),
        lambda: ("Resize", (r.choice([4, (5, 9), (40, 3), 70, (1, 1)]),),
                 {"interpolation": enum("Inter", r.choice(INTERPOLATIONS))}),
        lambda: ("ResizedCrop", (r.randint(0, 3), r.randint(0, 3), r.randint(1, 6),
                                 r.randint(1, 6), r.choice([5, (7, 3)])),
                 {"interpolation": enum("Inter", r.choice(INTERPOLATIONS))}),
        lambda: (r.choice(["HorizontalFlip", "VerticalFlip", "HWC2CHW"]), (), {}),
        lambda: ("Rescale", (r.choice([1 / 255, 2.0, 1.0, -1.0]), r.choice([0.0, -1.0, 0.5])), {}),
        lambda: hwc_or_chw(r, img, "Normalize", ([121.0, 115.0, 104.0][:r.choice([1, 3])],
                                                 [58.0, 57.0, 57.5][:r.choice([1, 3])])),
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
        lambda: ("ToTensor", (), {"output_type": dtype(r.choice(["float32", "float16",
                                                                 "int32"]))}),
        lambda: ("FiveCrop", (r.choice([1, 2, (2, 3), 5, 100]),), {}, (as_pil(r, img),)),
        lambda: ("TenCrop", (r.choice([1, 2, (2, 3), 5, 100]),),
                 {"use_vertical_flip": r.choice([False, True])}, (as_pil(r, img),)),
        lambda: ("Grayscale", (), {"num_output_channels": r.choice([1, 3])}, (as_pil(r, img),)),
        lambda: hwc_or_chw(r, img, r.choice(["HsvToRgb", "RgbToHsv"]), ()),
        lambda: hwc_or_chw(r, img, "NormalizePad", ([121.0, 115.0, 104.0][:r.choice([1, 3])],
                                                    [58.0, 57.0, 57.5][:r.choice([1, 3])]),
                           {"dtype": r.choice(["float32", "float16"])}),
        lambda: ("SlicePatches", (r.randint(1, 3), r.randint(1, 3)),
                 {"slice_mode": enum("SliceMode", r.choice(["PAD", "DROP"])),
                  "fill_value": r.choice([0, 8])}),
        lambda: (r.choice(["ToPIL", "ToNumpy"]), (), {}),
        lambda: ("ToType", (dtype(r.choice(["float32", "int16", "uint8", "bool_"])),), {}),
        lambda: ("Decode", (), {"to_pil": r.choice([False, True])}, (encoded(r, img, 0.3),)),
        lambda: (r.choice(["get_image_num_channels", "get_image_size"]), (), {}),
    ]
    # random ops whose draws are fixed: probability 1 or 0, a range of one value, a crop of the
    # whole (padded) image
    one = lambda values: (lambda v: (v, v))(r.choice(values))      # noqa: E731
    whole_ratio = (width / height, width / height)
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
        lambda: linear_transformation(r, img),
        lambda: ("RandomColorAdjust", (), {r.choice(["brightness", "contrast", "saturation"]):
                                           one([0.0, 0.5, 1.0, 1.6])} if r.random() < 0.75
                 else {"hue": one([-0.3, 0.0, 0.2])}),
        lambda: ("RandomGrayscale", (), {"prob": r.choice([0.0, 1.0])}, (as_pil(r, img),)),
        lambda: random_crop(r, img, "RandomCrop"),
        lambda: ("RandomResizedCrop", (r.choice([4, (5, 9), (height, width)]),),
                 {"scale": (1.0, 1.0), "ratio": whole_ratio,
                  "interpolation": enum("Inter", r.choice(["NEAREST", "BILINEAR", "BICUBIC"]))}),
        lambda: ("RandomCropDecodeResize", (r.choice([4, (5, 9), (height, width)]),),
                 {"scale": (1.0, 1.0), "ratio": whole_ratio,
                  "interpolation": enum("Inter", r.choice(["NEAREST", "BILINEAR"]))},
                 (encoded(r, img, 0.85),)),
        lambda: ("RandomPerspective", (), {"distortion_scale": r.choice([0.0, 0.5]),
                                           "prob": 0.0}, (as_pil(r, img),)),
        lambda: ("RandomErasing", (), {"prob": 0.0, "value": r.choice([0, 3])}),
        lambda: ("RandomResize", ((height, width),), {}),
        # (one sub-policy: its ops each with probability 1 or 0; none: an error)
        lambda: ("RandomSelectSubpolicy", ([[(fixed_op(r), r.choice([1.0, 1.0, 0.0]))
                                              for _ in range(r.randint(1, 2))]][
            :r.choice([1, 1, 1, 0])],), {}),
        # (each op it draws is applied at random: only its errors, num_ops 0 or one too many)
        lambda: ("UniformAugment", ([fixed_op(r)],), {"num_ops": r.choice([0, 2])}),
        lambda: ("RandAugment", (), {"num_ops": 0}),
        lambda: ("BoundingBoxAugment", (fixed_op(r),), {"ratio": r.choice([0.0, 1.0])},
                 (img, bounding_boxes(img))),
        # ops on an image and its bounding boxes (x, y, width, height rows)
        lambda: ("ResizeWithBBox", (r.choice([4, (5, 9), (40, 30)]),),
                 {"interpolation": enum("Inter", r.choice(["NEAREST", "BILINEAR"]))},
                 (img, bounding_boxes(img))),
        lambda: (r.choice(["RandomHorizontalFlipWithBBox", "RandomVerticalFlipWithBBox"]),
                 (1.0,), {}, (img, bounding_boxes(img))),
        lambda: random_crop(r, img, "RandomCropWithBBox") + ((img, bounding_boxes(img)),),
        lambda: ("RandomResizedCropWithBBox", (r.choice([4, (5, 9), (height, width)]),),
                 {"scale": (1.0, 1.0), "ratio": whole_ratio}, (img, bounding_boxes(img))),
        lambda: ("RandomResizeWithBBox", ((height, width),), {}, (img, bounding_boxes(img))),
    ]
    # random ops compared where their draws cannot show: whether they raise, and the type and
    # shape of what they give back
    makers += [
        lambda: ("CutOut", (r.choice([1, 4, 100]),), {"num_patches": r.choice([1, 3]),
                                                      "is_hwc": r.choice([True, False])}),
        lambda: (r.choice(["RandAugment", "AutoAugment", "TrivialAugmentWide"]), (), {}),
        lambda: ("MixUpBatch", (), {"alpha": r.choice([0.5, 1.0])}, image_batch(r, img)),
        lambda: ("CutMixBatch", (enum("ImageBatchFormat", "NHWC"),),
                 {"alpha": 1.0, "prob": r.choice([0.0, 1.0])}, image_batch(r, img)),
        lambda: ("MixUp", (2, 1.0), {"is_single": r.choice([True, False])},
                 image_batch(r, img)),
        lambda: ("RandomResize", (r.choice([4, 9]),), {}),
    ]
    made = r.choice(makers)()
    return made if len(made) == 4 else made + ((img,),)


# random ops only their outcome's kind, dtype and shape are compared for
SHAPE_ONLY = ("CutOut", "AutoAugment", "TrivialAugmentWide", "MixUp")
FUNCTIONS = ("get_image_num_channels", "get_image_size")
DTYPE = "__dtype__"
OP = "__op__"


def shape_only(name, args, kwargs, img):
    """Whether only the kind, dtype and shape of this case's outcome are compared (its op
    draws)."""
    return (name in SHAPE_ONLY
            or name == "RandAugment" and kwargs.get("num_ops") != 0
            # (a batch of one image mixes it with itself, whatever is drawn)
            or name in ("MixUpBatch", "CutMixBatch") and kwargs.get("prob") != 0.0
            and not (img.ndim == 4 and len(img) == 1)
            # (not the size of the image, or of the images of a batch: an interpolation drawn)
            or name == "RandomResize" and args[0] != image_size(img)
            # (an N x H x W batch's image, N x H, is not the image the window was made for)
            or name == "RandomCrop" and pair(args[0]) != padded_size(image_size(img),
                                                                     kwargs["padding"])
            # (RandomColorAdjust's Pillow path: each of its four steps runs, the identity ones
            # too, in the order it draws, which changes pixels)
            or name == "RandomColorAdjust" and isinstance(img, PilImage))


def dtype(name):
    """A numpy type, resolved in each interpreter."""
    return (DTYPE, name)


def fixed_op(r):
    """A deterministic op to nest in a composite op."""
    name, args = r.choice([("Invert", ()), ("HorizontalFlip", ()), ("Posterize", (2,)),
                           ("Resize", ((3, 4),)), ("AdjustBrightness", (0.5,)),
                           ("Rescale", (1.0, 0.5))])
    return (OP, name, args, {})


def hwc_or_chw(r, img, name, args, kwargs=None):
    """``name`` with ``is_hwc`` drawn; given False, a 3-D array is mostly turned to CHW."""
    is_hwc = r.choice([True, True, False])
    chw = not is_hwc and img.ndim == 3 and not isinstance(img, PilImage) and r.random() < 0.7
    return (name, args, dict(kwargs or {}, is_hwc=is_hwc),
            (np.ascontiguousarray(img.transpose(2, 0, 1)) if chw else img,))


def image_size(img):
    """(height, width) of ``img``, or of the images of a batch of rank 4 or 5, as the ops read
    them."""
    return img.shape[-3:-1] if img.ndim > 3 else img.shape[:2]


def pair(size):
    return size if isinstance(size, tuple) else (size, size)


def padded_size(size, padding):
    """(height, width) of an image of ``size`` padded by RandomCrop's ``padding``."""
    left, top, right, bottom = {None: (0,) * 4, 2: (2,) * 4, (1, 3): (1, 3, 1, 3)}.get(
        padding, padding)
    return size[0] + top + bottom, size[1] + left + right


def random_crop(r, img, name):
    """RandomCrop(WithBBox) whose window is the whole padded image."""
    padding = r.choice([None, 2, (1, 3), (0, 4, 2, 1)])
    # pad_if_needed pads a smaller image on both sides by what it lacks, then crops at random:
    # drawn, but with nothing to add
    size = padded_size(img.shape[:2], padding)
    return (name, (size if size[0] != size[1] or r.random() < 0.5 else size[0],),
            {"padding": padding, "pad_if_needed": r.choice([False, True]),
             "fill_value": r.choice([0, 6, (1, 2, 3)]),
             "padding_mode": enum("Border", r.choice(BORDERS))})


def as_pil(r, img):
    """``img`` mostly as a PIL image (for MindSpore's ops that take PIL images only), where it
    is a uint8 array of 1, 3 or 4 channels."""
    if isinstance(img, PilImage) or img.dtype != np.uint8 or r.random() < 0.25:
        return img
    if img.ndim == 2 or img.shape[2] == 1:
        return PilImage(img.reshape(img.shape[:2]), "L")
    return PilImage(img, "RGB" if img.shape[2] == 3 else "RGBA") if img.shape[2] != 2 else img


def linear_transformation(r, img):
    """LinearTransformation whose matrix fits the image's size (when it is small), else not."""
    size = int(np.prod(img.shape))
    size = size if size <= 400 else 12
    matrix = np.eye(size, dtype=np.float32) * r.choice([0.5, 1.0]) + np.float32(0.01)
    return ("LinearTransformation", (matrix, np.full(size, r.choice([0.0, 3.0]), np.float32)),
            {}, (img,))


def encoded(r, img, as_array):
    """``img``'s bytes as a JPEG or PNG file (bytes, or a uint8 array of them with probability
    ``as_array``), or garbage."""
    from PIL import Image
    pixels = getattr(img, "pixels", img)
    if r.random() < 0.15 or pixels.dtype != np.uint8:
        return bytes(r.randrange(256) for _ in range(r.choice([0, 3, 40])))
    if pixels.ndim == 3 and pixels.shape[2] not in (3, 4):
        pixels = pixels[:, :, 0]
    image_format = "PNG" if pixels.ndim == 3 and pixels.shape[2] == 4 else \
        r.choice(["JPEG", "PNG"])
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format=image_format)
    data = buffer.getvalue()
    return np.frombuffer(data, np.uint8).copy() if r.random() < as_array else data


def image_batch(r, img):
    """A batch of ``img`` (or ``img`` alone, a rank too few) and one-hot labels."""
    pixels = getattr(img, "pixels", img)
    images = pixels if r.random() < 0.2 else np.stack([pixels] * r.choice([1, 2]))
    labels = np.eye(3, dtype=r.choice([np.float32, np.int32]))[:len(images)]
    return images, labels if r.random() < 0.8 else labels[0]


def bounding_boxes(img):
    """Two boxes inside ``img``: (x, y, width, height) rows of float32."""
    height, width = img.shape[:2]
    return np.array([[0, 0, width, height], [width // 3, height // 4, max(1, width // 2),
                                              max(1, height // 2)]], np.float32)


def cases(seed, count):
    """[((op name, args, kwargs), inputs)]: the op's call on ``inputs`` (the image first)."""
    r = random.Random(seed)
    made = []
    for _ in range(count):
        *op, inputs = random_op(r, random_image(r))
        made.append((tuple(op), batched_inputs(r, op[0], inputs)))
    return made


def marked(value, marker):
    """Whether ``value`` is a tuple standing for an enum, a type or an op (``marker``)."""
    return isinstance(value, tuple) and len(value) > 1 and isinstance(value[0], str) \
        and value[0] == marker


def nested_names(args):
    """The names of the ops nested in ``args`` (a composite op's), at any depth."""
    if marked(args, OP):
        return [args[1]] + nested_names(args[2])
    if isinstance(args, (tuple, list)):
        return [name for item in args for name in nested_names(item)]
    return []


def documented(name, kwargs, img, args=(), why=""):
    """The README's word for a difference this case may show (``why``: the difference), or
    None (see "Deviations from MindSpore" and the colour ops' notes there); ``img``: the op's
    first input; the ops nested in ``args`` (a composite op's) are looked at too."""
    return next(filter(None, (documented_one(one, args, kwargs, img, why)
                              for one in [name] + nested_names(args))), None)


def documented_one(name, args, kwargs, img, why):
    encoded = not hasattr(img, "dtype")
    img = np.frombuffer(img, np.uint8) if encoded else img
    integer_not_uint8 = img.dtype.kind in "iu" and img.dtype != np.uint8
    uint8_array = not isinstance(img, PilImage) and img.dtype == np.uint8
    resizing = ("Resize", "ResizedCrop", "ResizeWithBBox", "RandomResizedCrop", "RandomResize",
                "RandomResizedCropWithBBox", "RandomResizeWithBBox")
    rules = [
        (img.dtype == np.bool_, "bool images are refused"),
        (img.dtype == np.float16 or (name in resizing and integer_not_uint8
                                     and img.dtype not in (np.uint16, np.int16)),
         "types MindSpore's OpenCV refuses are taken"),
        ((name == "AdjustHue" or name == "RandomColorAdjust" and "hue" in kwargs)
         and img.dtype.kind == "f", "AdjustHue of float images"),
        (name == "AdjustGamma" and img.dtype != np.uint8, "AdjustGamma: gain and types"),
        (name in ("AdjustContrast", "AdjustSaturation", "RandomColorAdjust")
         and img.dtype == np.uint16, "uint16 contrast/saturation within 1 level"),
        (name in ("AutoContrast", "Equalize", "RandomAutoContrast", "RandomEqualize")
         and (img.ndim == 2 and 1 in img.shape
                                                   or img.ndim == 3 and img.shape[2] in (2, 4)),
         "AutoContrast/Equalize: 2 and 4 channels, one-pixel sides"),
        (name in ("Normalize", "NormalizePad") and img.ndim == 2 and 1 in img.shape,
         "MindSpore drops a 2-D image's side of one pixel"),
        (name in ("Resize", "ResizedCrop") and "PILCUBIC" in str(kwargs) and img.dtype != np.uint8,
         "PILCUBIC of non-uint8 images is OpenCV's CUBIC"),
        (name == "RandomLighting" and img.dtype not in (np.uint8, np.float32),
         "RandomLighting refuses other types: MindSpore reads their bytes as uint8 pixels"),
        (name == "RandomRotation" and isinstance(img, PilImage) and img.mode == "L",
         "RandomRotation fills an L image with the first fill value (MindSpore: TypeError)"),
        (name == "RandomAffine" and isinstance(img, PilImage),
         "RandomAffine on a PIL image gets its fill (MindSpore drops it)"),
        (name == "NormalizePad" and why.startswith("largest difference"),
         "NormalizePad's fourth channel is zeros (MindSpore packs the next pixel's values)"),
        (name in ("Grayscale", "RandomGrayscale") and uint8_array,
         "Grayscale also takes RGB or gray uint8 arrays"),
        (name == "RandomCropDecodeResize" and encoded,
         "RandomCropDecodeResize takes bytes, as Decode does"),
        (name == "RandomErasing" and why.startswith("raises") and "here only" in why,
         "RandomErasing checks its input whatever its draw"),
        (name == "AutoAugment" and img.dtype != np.uint8,
         "AutoAugment refuses other types than uint8 whatever its draw"),
        (name in ("HsvToRgb", "RgbToHsv") and (img.dtype.kind in "iu" or "float64(" in why),
         "HsvToRgb/RgbToHsv compute in float64 (MindSpore in the image's type, its output "
         "typed by its first pixel)"),
        (name == "RandomColorAdjust" and "hue" in kwargs and why == "largest difference 1",
         "RandomColorAdjust's hue within one level"),
        (isinstance(img, PilImage) and mirrors_past_the_image(name, args, kwargs, img),
         "a PIL image padded by mirroring wider than itself (numpy 1's np.pad)"),
        (name == "SlicePatches" and img.ndim == 3 and img.shape[2] > 4
         and "in MindSpore only" in why,
         "SlicePatches pads images of more than 4 channels (MindSpore's OpenCV refuses them)"),
        (name == "Rotate" and kwargs.get("expand") and img.ndim > 3,
         "Rotate with expand=True takes batches (MindSpore: 'Cannot reshape')"),
    ]
    return next((why for applies, why in rules if applies), None)


def mirrors_past_the_image(name, args, kwargs, img):
    """Whether Pad or RandomCrop pads by mirroring (REFLECT, SYMMETRIC) wider than the image."""
    mode = kwargs.get("padding_mode", enum("Border", "CONSTANT"))[2]
    padding = args[0] if name == "Pad" else kwargs.get("padding")
    widths = padding if isinstance(padding, tuple) else (padding or 0,)
    return mode in ("REFLECT", "SYMMETRIC") and max(widths) > min(img.shape[:2])


def resolve(vision, value):
    """``value`` with its enums, numpy types and nested ops made in ``vision``."""
    if marked(value, ENUM):
        return getattr(getattr(vision, value[1]), value[2])
    if marked(value, DTYPE):
        return getattr(np, value[1])
    if marked(value, OP):
        return make(vision, *value[1:])
    if isinstance(value, (tuple, list)):
        return type(value)(resolve(vision, item) for item in value)
    return value


def make(vision, name, args, kwargs):
    return getattr(vision, name)(*[resolve(vision, a) for a in args],
                                 **{k: resolve(vision, v) for k, v in kwargs.items()})


def fresh(value):
    """A copy of an input for one call (a PIL image made in this interpreter)."""
    return value.make() if isinstance(value, PilImage) else \
        value.copy() if isinstance(value, np.ndarray) else value


def part(value):
    """(kind, array) of one value given back: kind "array", "PIL <mode>" or its type's name."""
    if hasattr(value, "mode") and hasattr(value, "getbands"):
        return f"PIL {value.mode}", np.asarray(value)
    return ("array" if isinstance(value, np.ndarray) else type(value).__name__,
            np.asarray(value))


def outcomes(library, cases_made):
    """Each case's ("ok", container, parts) or ("error", type name, message) under
    ``library``: container None for one value given back (parts: its one ``part``), else
    "tuple" or "list" (parts: each element's)."""
    warnings.simplefilter("ignore")
    vision = importlib.import_module("mindspore.dataset.vision" if library == "mindspore"
                                     else "minddata.vision")
    if library == "minddata":   # the exact decode in random crop ops, as MindSpore's
        importlib.import_module("transforms_c.settings").set_approximate_decode(False)
    results = []
    for (name, args, kwargs), inputs in cases_made:
        try:
            op = getattr(vision, name) if name in FUNCTIONS else make(vision, name, args, kwargs)
            out = op(*[fresh(value) for value in inputs])
            results.append(("ok", type(out).__name__, [part(v) for v in out])
                           if isinstance(out, (tuple, list)) else ("ok", None, [part(out)]))
        except Exception as exc:        # an outcome to compare, like a result
            results.append(error_outcome(exc))
    return results


# ops whose values may be one level apart: interpolated, or (AdjustHue) where OpenCV builds
# round the HSV conversions apart
ROUNDING = ("Resize", "ResizedCrop", "Rotate", "Affine", "GaussianBlur", "AdjustHue",
            "ResizeWithBBox", "RandomResizedCrop", "RandomCropDecodeResize",
            "RandomResizedCropWithBBox")


def difference(name, ours, theirs, values=True, rounds=None):
    """Why ``ours`` and ``theirs`` (outcomes of one case) differ, or None; without ``values``,
    only the kind, dtype and shape of what is given back are compared (a random op's);
    ``rounds``: integers may be one level apart (default: ``name`` in ROUNDING)."""
    rounds = name in ROUNDING if rounds is None else rounds
    if ours[0] == "error" and theirs[0] == "error":
        return None
    if ours[0] != theirs[0]:
        failed, which = (ours, "here") if ours[0] == "error" else (theirs, "in MindSpore")
        return f"raises {failed[1]} {which} only: {failed[2][:120]}"
    shape = lambda outcome: outcome[1] and f"{outcome[1]} of {len(outcome[2])}"   # noqa: E731
    if shape(ours) != shape(theirs):
        return f"{shape(ours) or 'one value'} here, {shape(theirs) or 'one value'} in MindSpore"
    for index, (mine, reference) in enumerate(zip(ours[2], theirs[2])):
        why = part_difference(mine, reference, values, rounds)
        if why:
            return f"element {index}: {why}" if ours[1] else why
    return None


def part_difference(ours, theirs, values, rounds):
    (kind, a), (reference_kind, b) = ours, theirs
    if kind != reference_kind:
        return f"{kind} here, {reference_kind} in MindSpore"
    if a.dtype != b.dtype or a.shape != b.shape:
        return f"{a.dtype}{a.shape} here, {b.dtype}{b.shape} in MindSpore"
    if not values or a.size == 0:
        return None
    if a.dtype.kind not in "iuf":       # bool, bytes
        return None if np.array_equal(a, b) else "values differ"
    largest = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())
    allowed = (1.0 if rounds else 0.0) if a.dtype.kind in "iu" else \
        1e-5 * max(1.0, float(np.abs(b.astype(np.float64)).max()))
    return None if largest <= allowed else f"largest difference {largest:g}"


def described(value):
    if isinstance(value, PilImage):
        return f"{value!r}{value.shape}"
    if isinstance(value, bytes):
        return f"bytes[{len(value)}]"
    return f"{value.dtype}{value.shape}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--mindspore-python", default="/work/msvenv/bin/python")
    parser.add_argument("--reference", default="mindspore",
                        help="the library the reference interpreter runs (minddata: a self-check)")
    parser.add_argument("--show-documented", action="store_true",
                        help="print the documented differences too, with the README's word")
    parser.add_argument("--show-error-types", action="store_true",
                        help="print the cases both raise with other exception types (counted "
                             "as the same outcome)")
    parser.add_argument("--emit", nargs=3, metavar=("LIBRARY", "CASES", "OUTCOMES"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.emit:                       # the reference interpreter's part
        with open(args.emit[1], "rb") as f:
            made, image = pickle.load(f)
        with open(args.emit[2], "wb") as f:
            pickle.dump((outcomes(args.emit[0], made), independence(args.emit[0], image)), f)
        return 0
    # made here once, so both interpreters get the same encoded images
    made = cases(args.seed, args.cases)
    image = random_image(random.Random(args.seed), "hwc3", (9, 11))
    with tempfile.TemporaryDirectory() as tmp:
        cases_path, path = os.path.join(tmp, "cases.pkl"), os.path.join(tmp, "reference.pkl")
        with open(cases_path, "wb") as f:
            pickle.dump((made, image), f)
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))) if args.reference == "minddata" else "")
        subprocess.run([args.mindspore_python, os.path.abspath(__file__), "--emit",
                        args.reference, cases_path, path], check=True, env=env,
                       stderr=subprocess.DEVNULL, cwd=tmp)   # (MindSpore dumps bad JPEGs there)
        with open(path, "rb") as f:
            reference, reference_draws = pickle.load(f)
    ours = outcomes("minddata", made)
    counts, undocumented = {}, 0
    for ((name, op_args, kwargs), inputs), mine, theirs in zip(made, ours, reference):
        why = difference(name, mine, theirs,
                         values=not shape_only(name, op_args, kwargs, inputs[0]),
                         rounds=any(one in ROUNDING for one in [name] + nested_names(op_args)))
        word = why and documented(name, kwargs, inputs[0], op_args, why)
        kind = "same" if why is None else ("documented" if word else "different")
        counts[kind] = counts.get(kind, 0) + 1
        undocumented += kind == "different"
        other_error = mine[0] == theirs[0] == "error" and mine[1] != theirs[1]
        counts["other error type"] = counts.get("other error type", 0) + other_error
        if other_error and args.show_error_types:
            why = f"{mine[1]} here, {theirs[1]} in MindSpore: {theirs[2][:100]}"
        if kind == "different" or word and args.show_documented or \
                other_error and args.show_error_types:
            print(f"{name}{op_args} {kwargs} on {', '.join(map(described, inputs))}: {why}"
                  + (f" [documented: {word}]" if word else ""))
    print(f"{args.cases} cases, seed {args.seed}: " +
          ", ".join(f"{counts.get(k, 0)} {k}" for k in ("same", "documented", "different"))
          + f" ({counts['other error type']} of the same raise other exception types)")
    alike = draws_alike(image, reference_draws)
    return 0 if alike and not undocumented else 1


def draws_alike(image, reference_draws):
    """Whether each random op draws for a batch's images as in the reference (once for the
    batch, or for each image), giving back the same types and shapes; prints the differences
    and a count."""
    alike = 0
    for (op, batch), mine, theirs in zip(independence_cases(image),
                                         independence("minddata", image), reference_draws):
        if mine[0] == theirs[0] == "error" or mine == theirs:   # (both raise: alike)
            alike += 1
        else:
            print(f"{op} on a batch of {batch} alike: {mine[1]} {mine[2]} here, "
                  f"{theirs[1]} {theirs[2]} in MindSpore")
    print(f"random ops on batches of one image: {alike} of {len(reference_draws)} draw alike")
    return alike == len(reference_draws)


if __name__ == "__main__":
    sys.exit(main())
