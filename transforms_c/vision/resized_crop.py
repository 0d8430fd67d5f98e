"""RandomResizedCrop and RandomCropDecodeResize (the fused decode + random crop + resize)."""
import dataclasses
import math
import weakref

import numpy as np

from transforms_c import _native, folding, settings
from transforms_c._base import image_hwc
from transforms_c._rng import Rng
from transforms_c._validate import INT32_MAX, MAX_SIZE, check_range, check_type, size_hw
from transforms_c.enums import Inter
from transforms_c.schema import (BOOL, INT, OUTPUT_SIZE, PAIR, Native, NativeOperation, OpSchema,
                                 Param)
from transforms_c.vision.crop import check_same_size, crop_array
from transforms_c.vision.decode import check_eager_call
from transforms_c.vision.resize import (INTERPOLATION, UNSUPPORTED_INTERPOLATION,
                                       check_array_interpolation, check_resize_scale,
                                       resize_array)


def window_draws(area, scale, ratio, max_attempts, rng):
    """The (target area, aspect ratio w/h) of each attempt of a random resized crop: an area
    fraction uniform in `scale`, a ratio log-uniform in `ratio`, drawn in that order."""
    log_lo, log_hi = math.log(ratio[0]), math.log(ratio[1])
    for _ in range(max_attempts):
        target = rng.uniform(scale[0], scale[1]) * area
        yield target, math.exp(rng.uniform(log_lo, log_hi))


def kernel_bounds(pair):
    """A (low, high) scale or ratio as MindSpore's RandomCropAndResize kernel holds it: C floats
    (its fallback window of ratio 4/3 on a 26-wide image is 19 rows, 26 / float32(4/3) =
    19.49999..., where the double 19.5 rounds to 20)."""
    return tuple(float(np.float32(value)) for value in pair)


def _round_half_up(value):
    """C's round() of a non-negative value (halves away from zero), as MindSpore rounds."""
    return int(math.floor(value + 0.5))


def random_resized_crop_box(height, width, scale, ratio, max_attempts, rng):
    """(top, left, h, w) of a window whose area fraction lies in `scale` and aspect ratio w/h in
    `ratio` (log-uniform); after max_attempts misses, the centred largest window whose ratio is
    clamped into `ratio`. MindSpore's arithmetic: the height is the rounded width over the ratio,
    sizes are at least 1, and the centre is rounded half up (a 45-wide window in 70 starts at 13).
    transforms_c/src/steps/resized_crop.cpp computes the same box."""
    for target, aspect in window_draws(height * width, scale, ratio, max_attempts, rng):
        crop_w = max(1, _round_half_up(math.sqrt(target * aspect)))
        crop_h = max(1, _round_half_up(crop_w / aspect))
        if crop_w <= width and crop_h <= height:
            left = rng.randint(0, width - crop_w)
            top = rng.randint(0, height - crop_h)
            return top, left, crop_h, crop_w
    in_ratio = width / height
    if in_ratio < ratio[0]:
        crop_w = width
        crop_h = min(height, max(1, _round_half_up(crop_w / ratio[0])))
    elif in_ratio > ratio[1]:
        crop_h = height
        crop_w = min(width, max(1, _round_half_up(crop_h * ratio[1])))
    else:
        crop_w, crop_h = width, height
    return (height - crop_h + 1) // 2, (width - crop_w + 1) // 2, crop_h, crop_w


def _check_pair(value, name):
    check_type(value, (tuple, list), name)
    if len(value) != 2:
        raise TypeError(f"{name} should be a list/tuple of length 2.")
    for i, v in enumerate(value):
        check_type(v, (float, int), f"{name}[{i}]")
    if value[0] > value[1]:
        raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")


def _check_scale_ratio(scale, ratio):
    """scale in [0, 16777216] (its range error names no argument) with scale[1] > 0, ratio in
    (0, 16777216], each (min, max), with MindSpore's words."""
    _check_pair(scale, "scale")
    for v in scale:
        check_range(v, "", 0, MAX_SIZE)
    if scale[1] <= 0:
        raise ValueError("Input scale[1] must be greater than 0.")
    _check_pair(ratio, "ratio")
    for i, v in enumerate(ratio):
        check_range(v, f"ratio[{i}]", 0, MAX_SIZE, low_open=True)


class RandomResizedCrop(NativeOperation):
    """RandomResizedCrop(size, scale=(0.08, 1.0), ratio=(3/4, 4/3),
    interpolation=Inter.BILINEAR, max_attempts=10). A batch <..., H, W, C> is cropped at one
    window."""

    # approximate: the plan may decode the JPEG at a coarser DCT scale (allows_approximate_decode).
    schema = OpSchema(params=(OUTPUT_SIZE,
                              Param("scale", PAIR, 0, MAX_SIZE, native=("scale",),
                                    to_native=lambda pair: (kernel_bounds(pair),)),
                              Param("ratio", PAIR, 0, MAX_SIZE, low_open=True, native=("ratio",),
                                    to_native=lambda pair: (kernel_bounds(pair),)),
                              INTERPOLATION,
                              Param("max_attempts", INT, 1, INT32_MAX, native=("max_attempts",))),
                      phase=folding.PHASE_GEOMETRY, step="random_resized_crop",
                      step_only=(Native("approximate", BOOL),))

    is_random = True
    pil_input = "image"
    batched = True
    multi_input = True
    pil_refused_interpolations = (Inter.AREA, Inter.PILCUBIC)
    _name = "RandomResizedCrop"

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        _check_scale_ratio(scale, ratio)    # MindSpore's words (the schema's check then passes)
        self.schema.bind(self, size=size, scale=scale, ratio=ratio, interpolation=interpolation,
                         max_attempts=max_attempts)
        #: Per-op override of transforms_c.settings approximate decode (None: follow it).
        self.approximate_decode = None

    def apply(self, arrays, seed):
        if len(arrays) > 1:     # MindSpore's words
            check_same_size(arrays, "RandomCropAndResizeOp: Input tensor in different columns of "
                                    "each row must have the same size.")
        return super().apply(arrays, seed)

    def window(self, height, width, rng):
        return random_resized_crop_box(height, width, kernel_bounds(self.scale),
                                       kernel_bounds(self.ratio), self.max_attempts, rng)

    def windows(self, heights, widths, seeds):
        """(N, 4) int64: window() of every row (heights, widths, seeds: one per row) drawn at
        once in native code, the same rule step for step, with the GIL released."""
        return _native.random_resized_crop_boxes(
            np.ascontiguousarray(heights, np.int64), np.ascontiguousarray(widths, np.int64),
            np.ascontiguousarray(seeds, np.uint64), kernel_bounds(self.scale),
            kernel_bounds(self.ratio), self.max_attempts)

    def output_hw(self):
        return size_hw(self.size)

    def fused_output_hw(self, height, width, seed):
        """The output size of a fused run on an image of (height, width), after MindSpore's
        limit on the drawn window (the op's own draws: transforms_c.fusion checks it before
        allocating)."""
        _, _, crop_h, crop_w = self.window(height, width, Rng(seed))
        out_h, out_w = self.output_hw()
        self._check_scale(crop_h, crop_w, out_h, out_w)
        return out_h, out_w

    def _check_scale(self, crop_h, crop_w, out_h, out_w):
        if out_h > 1000 * crop_h or out_w > 1000 * crop_w:
            # MindSpore's limit and words (which also bound the memory a resize takes)
            raise RuntimeError(f"CropAndResize: the resizing width or height 1) is too big, it's "
                               f"up to 1000 times the original image; 2) can not be 0. Detail "
                               f"info is: crop_height: {crop_h}, crop_width: {crop_w}, "
                               f"target_height: {out_h}, target_width: {out_w}")

    def allows_approximate_decode(self):
        enabled = self.approximate_decode
        return settings.get_approximate_decode() if enabled is None else enabled

    def native_values(self):
        return {"approximate": bool(self.allows_approximate_decode())}

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_geometry import pil_random_resized_crop
        return pil_random_resized_crop(img, self.size, self.scale, self.ratio,
                                       self.interpolation, self.max_attempts, rng)

    def _compute(self, img, rng):
        image_hwc(img, self._name, rank_words=lambda ndim: (
            f"input tensor should have at least 2 dimensions, but got: {ndim}" if ndim < 2 else
            f"input tensor is not in shape of <H,W> or <H,W,C>, but got rank: {ndim}"))
        check_array_interpolation(self.interpolation)
        top, left, crop_h, crop_w = self.window(img.shape[0], img.shape[1], rng)
        out_h, out_w = self.output_hw()
        self._check_scale(crop_h, crop_w, out_h, out_w)
        crop = img[top:top + crop_h, left:left + crop_w]
        return resize_array(crop, out_h, out_w, self.interpolation, self._name)


#: RandomCropDecodeResize op -> its one-op FusedPlan, or False when it has no native step (kept
#: out of the op's own state, which pickles and fingerprints as its arguments only).
_PLANS = weakref.WeakKeyDictionary()


class RandomCropDecodeResize(RandomResizedCrop):
    """RandomCropDecodeResize(size, scale, ratio, interpolation, max_attempts): decodes only the
    random window (at a coarser DCT scale when that keeps it at least the output size, see
    transforms_c.settings) and resizes it, in one native call."""

    # RandomResizedCrop's arguments and step, first in its plan (it decodes).
    schema = dataclasses.replace(RandomResizedCrop.schema, first_only=True)

    _name = "RandomCropDecodeResize"

    decodes = True      # its input is encoded bytes
    pil_input = "own"   # refused by the encoded-bytes check (TypeError)
    batched = False
    multi_input = False

    def __call__(self, *arrays):
        # MindSpore's eager call checks its input in Python first (TypeError; a pipeline's
        # kernel raises RuntimeError); bytes are taken here
        check_eager_call(self, arrays)
        data = arrays[0] if len(arrays) == 1 else None
        if isinstance(data, np.ndarray) and (data.ndim != 1 or data.dtype != np.uint8):
            raise TypeError(f"Input should be an encoded image with uint8 type in 1-D NumPy "
                            f"format, got format:{type(data)}, dtype:{data.dtype.type}.")
        if data is not None and not isinstance(data, (np.ndarray, bytes, bytearray)):
            # a PIL image, a list, a str...: MindSpore's words (bytes are taken here)
            raise TypeError(f"Input should be an encoded image in 1-D NumPy format, got "
                            f"{type(data)}.")
        return super().__call__(*arrays)

    def _check_scale(self, crop_h, crop_w, out_h, out_w):
        # MindSpore's RandomCropDecodeResize crops, then runs its Resize: Resize's limit and
        # words on the window (measured in MindSpore 2.10)
        check_resize_scale(crop_h, crop_w, out_h, out_w)

    def apply_unfused(self, data, seed):
        """The unfused meaning: Decode, then RandomResizedCrop (used when a row cannot fold)."""
        from transforms_c.vision.decode import Decode
        image = Decode().apply((data,), 0)[0]
        _, _, crop_h, crop_w = self.window(image.shape[0], image.shape[1], Rng(seed))
        self._check_scale(crop_h, crop_w, *self.output_hw())
        rrc = RandomResizedCrop(self.size, self.scale, self.ratio, self.interpolation,
                                self.max_attempts)
        return rrc.apply((image,), seed)[0]

    def apply(self, arrays, seed):
        """The op as a fused plan of one op (its native step decodes only the window)."""
        if self.interpolation == Inter.ANTIALIAS:      # MindSpore's C++ op has none
            raise RuntimeError(f"{self._name}: {UNSUPPORTED_INTERPOLATION}")
        if len(arrays) != 1:
            raise RuntimeError(f"{self._name}: expected 1 input column, got {len(arrays)}")
        plan = _PLANS.get(self)
        if plan is None:
            from transforms_c.fusion import FusedPlan
            # Without a native step (an interpolation only the Python kernels have): unfused.
            plan = _PLANS[self] = FusedPlan([self]) if self.fusion_phase(0) is not None else False
        if plan is False:
            return (self.apply_unfused(arrays[0], seed),)
        return plan.apply_seeds(arrays, [seed])

    def _compute(self, img, rng):  # pragma: no cover - apply is overridden
        raise NotImplementedError


__all__ = ["RandomResizedCrop", "RandomCropDecodeResize", "random_resized_crop_box",
           "crop_array"]
