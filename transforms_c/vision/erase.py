"""CutOut and RandomErasing: random rectangles set to a value; Erase: a given one."""
import math

import numpy as np

from transforms_c._base import TensorOperation, image_hwc, is_pil, require_hwc3
from transforms_c._validate import (INT32_MAX, MAX_SIZE, check_bool, check_float, check_int,
                                    check_range, check_range_pair, check_type, is_int)


class CutOut(TensorOperation):
    """CutOut(length, num_patches=1, is_hwc=True): zeroes num_patches squares of side `length`
    whose top-left corners are uniform over the positions where they fit."""

    is_random = True

    def __init__(self, length, num_patches=1, is_hwc=True):
        self.length = check_int(length, "length")
        self.num_patches = check_int(num_patches, "num_patches")
        self.is_hwc = check_bool(is_hwc, "is_hwc")
        # MindSpore's range errors here name no argument
        check_range(self.length, "", 1, MAX_SIZE)
        check_range(self.num_patches, "", 1, MAX_SIZE)

    def _compute(self, img, rng):
        if isinstance(img, np.ndarray) and img.ndim == 2:
            # MindSpore 2.10 refuses a 2-D image (a PIL L image's too), with these words
            # where is_hwc=True (measured)
            raise RuntimeError("CutOut: shape is invalid. Expecting an image of shape <H,W,C> "
                               "or <C,H,W>, got a 2-D image.")
        image_hwc(img, "CutOut", rank_words=lambda ndim: (
            f"image shape is not <H,W,C>, but got rank: {ndim}"))
        height, width = img.shape[:2] if self.is_hwc else img.shape[1:3]
        if self.length > height or self.length > width:
            raise RuntimeError(f"CutOut: box size is too large for image erase, got box height: "
                               f"{self.length}, box width: {self.length}, and image height: "
                               f"{height}, image width: {width}")
        out = img.copy()
        for _ in range(self.num_patches):
            top = rng.randint(0, height - self.length)
            left = rng.randint(0, width - self.length)
            if self.is_hwc:
                out[top:top + self.length, left:left + self.length] = 0
            else:
                out[:, top:top + self.length, left:left + self.length] = 0
        return out


def _erasing_value(value):
    """RandomErasing's value: 'random', an int in [0, 255] or a sequence of 3 of them ->
    'random', a float or a tuple of 3 floats."""
    check_type(value, (int, list, tuple, str), "value")
    if is_int(value):
        check_range(value, "", 0, 255)
        return float(value)
    if value != "random" and (isinstance(value, str) or len(value) != 3):
        raise ValueError("The value for erasing should be either a single value, or a string "
                         "'random', or a sequence of 3 elements for RGB respectively.")
    if value == "random":
        return value
    return tuple(float(check_int(v, "value", 0, 255)) for v in value)


class RandomErasing(TensorOperation):
    """RandomErasing(prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
    max_attempts=10): on CHW arrays (after ToTensor). value: a number, a 3-sequence, or 'random'
    (standard normal noise)."""

    is_random = True
    pil_input = "own"       # refused: a PIL image is HWC, the op erases CHW arrays

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 max_attempts=10):
        check_type(prob, (float, int), "prob")     # MindSpore's order of the types
        self.prob = check_float(prob, "prob", 0.0, 1.0)
        # MindSpore's range errors for scale, ratio and max_attempts name no argument
        self.scale = check_range_pair(scale, "scale")
        check_range(self.scale[0], "", 0, MAX_SIZE)
        check_range(self.scale[1], "", 0, MAX_SIZE)
        self.ratio = check_range_pair(ratio, "ratio")
        check_range(self.ratio[0], "", 0, MAX_SIZE, low_open=True)
        check_range(self.ratio[1], "", 0, MAX_SIZE, low_open=True)
        self.value = _erasing_value(value)
        self.inplace = check_bool(inplace, "inplace")
        self.max_attempts = check_int(max_attempts, "max_attempts")
        check_range(self.max_attempts, "", 1, MAX_SIZE)

    def _compute(self, img, rng):
        if is_pil(img):
            # a PIL image is HWC, the op erases CHW arrays (as ToTensor gives)
            raise TypeError(f"img should be NumPy array. Got {type(img)}.")
        if not isinstance(img, np.ndarray) or img.ndim != 3:
            raise RuntimeError(f"RandomErasing: input should be a CHW array, got "
                               f"{getattr(img, 'shape', type(img).__name__)}")
        if rng.random() >= self.prob:
            return img
        channels, height, width = img.shape
        area = height * width
        for _ in range(self.max_attempts):
            target = rng.uniform(*self.scale) * area
            aspect = math.exp(rng.uniform(math.log(self.ratio[0]), math.log(self.ratio[1])))
            erase_h = int(round(math.sqrt(target * aspect)))
            erase_w = int(round(math.sqrt(target / aspect)))
            if 0 < erase_h < height and 0 < erase_w < width:
                top = rng.randint(0, height - erase_h)
                left = rng.randint(0, width - erase_w)
                out = img if self.inplace else img.copy()
                if self.value == "random":
                    noise = np.random.default_rng(rng.next_u64()).standard_normal(
                        (channels, erase_h, erase_w))
                    out[:, top:top + erase_h, left:left + erase_w] = noise
                elif isinstance(self.value, tuple):
                    out[:, top:top + erase_h, left:left + erase_w] = \
                        np.asarray(self.value, out.dtype)[:channels, None, None]
                else:
                    out[:, top:top + erase_h, left:left + erase_w] = self.value
                return out
        return img


def _erase_value(value):
    """Erase's value: a number in [0, 255] (every channel) or a 3-tuple of them -> 3 floats,
    with MindSpore's words (a single value's range error names it value[0])."""
    check_type(value, (float, int, tuple), "value")
    values = value if isinstance(value, tuple) else (value,)
    if isinstance(value, tuple) and len(value) != 3:
        raise TypeError("value should be a single integer/float or a 3-tuple.")
    for i, v in enumerate(values):
        check_type(v, (float, int), f"value[{i}]")
        check_range(v, f"value[{i}]", 0, 255)
    return tuple(float(v) for v in values) * (3 // len(values))


#: The dtypes MindSpore's Erase refuses (OpenCV has no type for them).
_NO_CV_TYPE = (np.uint32, np.int64, np.uint64)


class Erase(TensorOperation):
    """Erase(top, left, height, width, value=0.0, inplace=False): sets the height x width window
    at (top, left) of an (H, W, 3) image to value (per channel; rounded half to even and
    saturated for integer images); the part of the window past the image's edge is dropped,
    a window taller or wider than the image, or starting past its edge, is refused (as
    MindSpore, which starting at the edge erases nothing). inplace writes into the given array
    when it is writable (MindSpore writes even into a read-only one). A PIL image is taken as
    its pixels and an array comes back."""

    def __init__(self, top, left, height, width, value=0.0, inplace=False):
        self.top = check_int(top, "top", 0, INT32_MAX)
        self.left = check_int(left, "left", 0, INT32_MAX)
        self.height = check_int(height, "height", 1, INT32_MAX)
        self.width = check_int(width, "width", 1, INT32_MAX)
        self.value = _erase_value(value)
        self.inplace = check_bool(inplace, "inplace")

    def _compute(self, img, rng):
        # a bool image is erased too (with value != 0), as in MindSpore
        image_hwc(img.view(np.uint8) if img.dtype == np.bool_ else img, "Erase",
                  rank_words=lambda ndim: (
            f"input tensor is not in shape of <H,W,C>, but got rank: {ndim}"))
        require_hwc3(img, "Erase")
        if img.dtype.type in _NO_CV_TYPE:
            raise RuntimeError(f"Erase: Cannot convert [{img.dtype}] to OpenCV type. Currently "
                               f"unsupported data type: [uint32, int64, uint64, string]")
        height, width = img.shape[:2]
        if self.height > height or self.width > width:
            raise RuntimeError(f"Erase: box size is too large for image erase, got box height: "
                               f"{self.height}, box width: {self.width}, and image height: "
                               f"{height}, image width: {width}")
        if self.top > height or self.left > width:
            raise RuntimeError(f"Erase: the box's top-left corner (top={self.top}, "
                               f"left={self.left}) lies outside the image of height {height} "
                               f"and width {width}")
        value = np.asarray(self.value)
        if img.dtype.kind in "iu":
            info = np.iinfo(img.dtype)
            value = np.clip(np.rint(value), info.min, info.max)
        out = img if self.inplace and img.flags.writeable else img.copy()
        out[self.top:self.top + self.height, self.left:self.left + self.width] = \
            value.astype(img.dtype)
        return out
