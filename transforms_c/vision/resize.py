"""Resize (and the size/kernel helpers shared by the crop-and-resize ops). uint8 images run
through the native resample pass with the GIL released: NEAREST, BILINEAR, BICUBIC and AREA give
cv2.resize's bits (OpenCV's own arithmetic, as MindSpore builds it,
without IPP), PILCUBIC gives MindSpore's Pillow-style bicubic bits (3-channel images only, as in
MindSpore). Other dtypes call cv2.resize, which also releases the GIL."""
import math

import cv2
import numpy as np

from transforms_c import _native
from transforms_c import folding
from transforms_c._base import TensorOperation, image_hwc, native_ready
from transforms_c._validate import check_resize_size, is_int
from transforms_c.enums import CV2_INTER, Inter
from transforms_c.schema import (BOOL, ENUM, INT, OUTPUT_SIZE, Native, NativeOperation, OpSchema,
                                 Param)

NATIVE_INTERP = {Inter.NEAREST: _native.INTERP_NEAREST, Inter.BILINEAR: _native.INTERP_LINEAR,
                 Inter.BICUBIC: _native.INTERP_CUBIC, Inter.AREA: _native.INTERP_AREA}

#: MindSpore's words for Inter.ANTIALIAS in its C++ kernels (the ops without a Pillow path).
UNSUPPORTED_INTERPOLATION = ("Unsupported interpolation, only support NEAREST, LINEAR, CUBIC, "
                             "AREA and PILCUBIC.")


def check_array_interpolation(interpolation):
    """Inter.ANTIALIAS is Pillow's only: MindSpore's ops with a Pillow path refuse it on an
    array with their Python path's TypeError."""
    if interpolation == Inter.ANTIALIAS:
        raise TypeError("img should be PIL image. Got <class 'numpy.ndarray'>. Use Decode() for "
                        "encoded data or ToPIL() for decoded data.")

#: The interpolation of the resizing ops; native "interp": a kernel of src/resample_pass.h (an
#: Inter without one, PILCUBIC, has no native step).
INTERPOLATION = Param("interpolation", ENUM, enum=Inter,
                      native=(Native("interp", INT, _native.INTERP_NEAREST,
                                     _native.INTERP_PILCUBIC),),
                      to_native=lambda interpolation: (NATIVE_INTERP.get(interpolation),))


def resized_shape(height, width, size):
    """Output (h, w) of Resize(size): an int resizes the shorter side keeping the aspect ratio
    (the other side floored in float32, as MindSpore computes it)."""
    if not is_int(size):
        return int(size[0]), int(size[1])
    if height < width:
        other = math.floor(np.float32(width) / np.float32(height) * np.float32(size))
        return int(size), max(1, int(other))
    other = math.floor(np.float32(height) / np.float32(width) * np.float32(size))
    return max(1, int(other)), int(size)


def check_resize_scale(height, width, out_h, out_w):
    """MindSpore refuses to resize a side to more than 1000 times its length (which also bounds
    the memory a resize takes)."""
    if out_h > 1000 * height or out_w > 1000 * width:
        # MindSpore 2.10's words (measured)
        raise RuntimeError(f"Resize: the resizing width or height is too big, it's 1000 times "
                           f"bigger than the original image, got output height: {out_h}, "
                           f"width: {out_w}, and original image size:{height}, {width}")


def cv2_scale(src, dst):
    """OpenCV's source-per-destination step: 1 / (dst / src) in double precision."""
    return 1.0 / (dst / src)


def pil_bicubic_array(img, out_h, out_w, op_name="Resize"):
    """Inter.PILCUBIC of a uint8 (H, W, 3) image: Pillow's bicubic, horizontal pass first."""
    if img.ndim != 3 or img.shape[2] != 3:
        raise RuntimeError(f"{op_name}: Interpolation mode PILCUBIC only supports image with 3 "
                           f"channels, but got: {list(img.shape)}")
    src = native_ready(img)
    out = np.empty((out_h, out_w, 3), np.uint8)
    _native.resample(src, out, out_w, out_h, _native.INTERP_PILCUBIC)
    return out


#: the types cv2.resize computes in; others are resized in a wider type (or gathered, NEAREST)
OPENCV_RESIZE_TYPES = (np.uint8, np.uint16, np.int16, np.float32, np.float64)


def nearest_array(img, out_h, out_w):
    """Inter.NEAREST by gathering OpenCV's source pixels (its resizeNN: floor(x * scale),
    scale = 1 / (dst / src) in double), exact for every type (a float round trip would lose
    integers past 2^24 or 2^53)."""
    rows = np.minimum(np.floor(np.arange(out_h) * cv2_scale(img.shape[0], out_h)),
                      img.shape[0] - 1).astype(np.intp)
    cols = np.minimum(np.floor(np.arange(out_w) * cv2_scale(img.shape[1], out_w)),
                      img.shape[1] - 1).astype(np.intp)
    return img[rows[:, None], cols[None, :]]


def resize_array(img, out_h, out_w, interpolation, op_name="Resize"):
    """Resizes an (H, W) or (H, W, C) image to (out_h, out_w)."""
    if img.dtype == np.uint8 and interpolation == Inter.PILCUBIC:
        return pil_bicubic_array(img, out_h, out_w, op_name)
    if img.dtype == np.uint8 and interpolation in NATIVE_INTERP:
        src = native_ready(img)
        out = np.empty((out_h, out_w, src.shape[2]), np.uint8)
        _native.resample(src, out, out_w, out_h, NATIVE_INTERP[interpolation])
        return out[:, :, 0] if img.ndim == 2 else out
    if img.dtype not in OPENCV_RESIZE_TYPES and interpolation == Inter.NEAREST:
        return nearest_array(img, out_h, out_w)
    work = img
    if img.dtype not in OPENCV_RESIZE_TYPES:
        # a type that holds the values: float32 is exact for int8 and float16 only
        work = img.astype(np.float32 if img.itemsize == 1 or img.dtype == np.float16
                          else np.float64)
    try:
        out = cv2.resize(work, (out_w, out_h), interpolation=CV2_INTER[Inter(interpolation)])
    except cv2.error as exc:
        raise RuntimeError(f"{op_name}: OpenCV resize failed for shape {img.shape}, dtype "
                           f"{img.dtype}: {exc}") from None
    if img.ndim == 3 and out.ndim == 2:
        out = out[:, :, None]
    return out.astype(img.dtype, copy=False) if work is not img else out


#: RandomResize's interpolations, drawn uniformly (MindSpore's order).
RANDOM_RESIZE_INTERPOLATIONS = (Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)


class Resize(NativeOperation):
    """Resize(size, interpolation=Inter.BILINEAR)."""

    # keep_ratio: an int size resizes the shorter side to it, keeping the aspect ratio.
    schema = OpSchema(params=(OUTPUT_SIZE, INTERPOLATION), phase=folding.PHASE_GEOMETRY,
                      step="resize", step_only=(Native("keep_ratio", BOOL),))

    pil_input = "image"
    batched = True
    pil_refused_interpolations = (Inter.AREA, Inter.PILCUBIC)

    def __init__(self, size, interpolation=Inter.BILINEAR):
        # MindSpore's Resize words for a bad size (the schema's check then passes it), and its
        # error type for a missing interpolation
        check_resize_size(size)
        if interpolation is None:
            raise KeyError("Interpolation should not be None")
        self.schema.bind(self, size=size, interpolation=interpolation)

    def output_shape(self, height, width):
        return resized_shape(height, width, self.size)

    def native_values(self):
        return {"keep_ratio": is_int(self.size)}

    def fused_output_hw(self, height, width, seed):
        """The (height, width) a fused run makes of an image of (height, width), after
        MindSpore's size limit (transforms_c.fusion checks it before allocating)."""
        out_h, out_w = self.output_shape(height, width)
        check_resize_scale(height, width, out_h, out_w)
        return out_h, out_w

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_geometry import pil_resize
        return pil_resize(img, self.size, self.interpolation)

    def _compute(self, img, rng):
        image_hwc(img, "Resize")
        check_array_interpolation(self.interpolation)
        out_h, out_w = self.output_shape(img.shape[0], img.shape[1])
        check_resize_scale(img.shape[0], img.shape[1], out_h, out_w)
        return resize_array(img, out_h, out_w, self.interpolation)


class RandomResize(TensorOperation):
    """RandomResize(size): Resize(size) with an interpolation drawn uniformly from
    RANDOM_RESIZE_INTERPOLATIONS (one draw for a batch <..., H, W, C>, or for several
    columns)."""

    is_random = True
    batched = True
    multi_input = True

    def __init__(self, size):
        self.size = Resize(size).size

    def draw(self, rng):
        return RANDOM_RESIZE_INTERPOLATIONS[rng.randint(0, 3)]

    def _compute(self, img, rng):
        return Resize(self.size, self.draw(rng))._compute(img, None)
