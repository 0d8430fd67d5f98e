"""Batched input for tools/eager_ops_vs_mindspore.py: the cases' batches, and the check of how a
random op draws for the images of a batch.

MindSpore 2.x's vision ops also take an array of images: N x H x W x C, a video or a batch of
videos (N x T x H x W x C); N x H x W is an H x W x C image to every op. A case whose op takes
one of these (in MindSpore or here) is given, in a share of the cases, a batch of 2 or 3 images
made of its own image (its kind, dtype and size) with different content each, so that an axis
taken for another, one image's parameters used for all, or a refusal on one side only shows in
the values or the outcome. A random op whose draws are not fixed cannot be compared value by
value; ``independence`` tells, over many calls on a batch of one image repeated, whether the
op draws once for the batch (its images stay alike) or for each image.
Both interpreters import this file (numpy only).
"""
import importlib
import warnings

import numpy as np

# share of the cases whose op takes a batch of rank 4 or 5 (or N x H x W only) that get one
BATCH_SHARE, NHW_ONLY_SHARE = 0.5, 0.25
_EVERY_KIND = ("nhwc", "nhw", "video")
# The batched kinds each op takes in MindSpore 2.10 or here, measured by calling every op of the
# tool's cases on each kind in both (the ops refused in both are not given batches): an
# N x H x W batch is an H x W x C image to every op, so most ops take it.
BATCHED = dict(
    {name: _EVERY_KIND for name in (
        "AdjustGamma", "CenterCrop", "HorizontalFlip", "VerticalFlip", "Normalize",
        "RandomCrop", "RandomErasing", "RandomHorizontalFlip", "RandomVerticalFlip",
        "RandomResize", "RandomResizedCrop", "RandomSelectSubpolicy", "Rescale", "Resize",
        "Rotate", "SlicePatches", "ToNumpy", "ToType", "get_image_num_channels",
        "get_image_size")},
    HsvToRgb=("nhwc",), RgbToHsv=("nhwc",),
    **{name: ("nhw",) for name in (
        "AdjustBrightness", "AdjustSharpness", "Affine", "AutoContrast", "ConvertColor", "Crop",
        "CutOut", "Equalize", "GaussianBlur", "HWC2CHW", "LinearTransformation", "NormalizePad",
        "Pad", "PadToSize", "Perspective", "Posterize", "RandomAdjustSharpness", "RandomAffine",
        "RandomEqualize", "RandomGrayscale", "RandomPosterize", "RandomRotation",
        "RandomSharpness", "RandomSolarize", "Solarize", "ToPIL", "ToTensor")})


def batched_inputs(r, name, inputs):
    """``inputs`` or, for a share of the ops that take a batch, a batch of the one image in
    them."""
    kinds = BATCHED.get(name, ())
    share = BATCH_SHARE if "nhwc" in kinds else NHW_ONLY_SHARE
    if not kinds or len(inputs) != 1 or getattr(inputs[0], "ndim", 0) < 2 or \
            r.random() >= share:
        return inputs
    # (N x H x W, one image to every op, drawn less often where the op takes more)
    kind = r.choice([kind for kind in ("nhwc", "nhwc", "video", "nhw") if kind in kinds])
    return (batch_of(r, getattr(inputs[0], "pixels", inputs[0]), kind),)


def batch_of(r, image, kind):
    """2 or 3 images like ``image`` (H x W or H x W x C) stacked as ``kind``: "nhwc" (an H x W
    image gets a channel of one), "nhw" (an image's first channel) or "video" (2 videos of 2 or
    3 frames)."""
    if kind == "nhw" and image.ndim == 3:
        image = image[:, :, 0]
    if kind != "nhw" and image.ndim == 2:
        image = image[:, :, None]
    count = r.choice([2, 3])
    if kind == "video":
        images = others(r, image, 2 * count)
        return np.stack([np.stack(images[:count]), np.stack(images[count:])])
    return np.stack(others(r, image, count))


def others(r, image, count):
    """``image`` and ``count - 1`` others of its kind, size and range of values: each rolled
    along its rows and columns by its own amounts, every second one upside down."""
    made = [image]
    for index in range(1, count):
        rolled = np.roll(image, (r.randrange(1 << 10), r.randrange(1 << 10)), axis=(0, 1))
        made.append(np.ascontiguousarray(rolled[::-1] if index % 2 else rolled))
    return made


# random ops with draws, each called many times on a batch of one image repeated
INDEPENDENCE_OPS = [
    ("RandomHorizontalFlip", (0.5,), {}), ("RandomVerticalFlip", (0.5,), {}),
    ("RandomCrop", (5,), {}), ("RandomCrop", ((6, 4),), {"padding": 2}),
    ("RandomResizedCrop", (5,), {}), ("RandomResize", (7,), {}),
    ("RandomErasing", (1.0,), {}),
]
CALLS = 40


def independence(library, image):
    """For each of INDEPENDENCE_OPS on a batch of ``image`` (3 alike) and a batch of videos of
    it (2 x 2 alike) under ``library``: ("ok", how, dtype and shapes given back) where how is
    "per image" (some call gives the images other results), "per batch" (never, but some call
    changes them) or "no change", else ("error", type name, message)."""
    warnings.simplefilter("ignore")
    vision = importlib.import_module("mindspore.dataset.vision" if library == "mindspore"
                                     else "minddata.vision")
    results = []
    for name, args, kwargs in INDEPENDENCE_OPS:
        for batch in (np.stack([image] * 3), np.stack([np.stack([image] * 2)] * 2)):
            op = getattr(vision, name)(*args, **kwargs)
            try:
                outs = [op(batch.copy()) for _ in range(CALLS)]
            except Exception as exc:        # an outcome to compare
                results.append(error_outcome(exc))
                continue
            images = [out.reshape((-1,) + out.shape[-3:]) for out in outs]
            apart = any(any(not np.array_equal(each[0], one) for one in each[1:])
                        for each in images)
            changed = any(out.shape != batch.shape or not np.array_equal(out, batch)
                          for out in outs)
            how = "per image" if apart else "per batch" if changed else "no change"
            results.append(("ok", how, sorted({f"{out.dtype}{out.shape}" for out in outs})))
    return results


def error_outcome(exc):
    """("error", type name, the first line of its message, MindSpore's banner dropped)."""
    message = str(exc).split("[ERROR] ", 1)[-1]
    return ("error", type(exc).__name__, message.split("\n")[0][:200])


def independence_cases(image):
    """The (op, input) each of ``independence``'s outcomes stands for, in its order."""
    return [(f"{name}{args}{kwargs or ''}", kind)
            for name, args, kwargs in INDEPENDENCE_OPS
            for kind in (f"3 x {image.shape}", f"2 x 2 x {image.shape}")]
