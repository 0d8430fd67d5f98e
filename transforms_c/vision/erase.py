"""CutOut and RandomErasing: random rectangles set to a value."""
import math

import numpy as np

from transforms_c._base import TensorOperation, image_hwc, is_pil
from transforms_c._validate import (MAX_SIZE, check_bool, check_float, check_int, check_range,
                                    check_range_pair, check_type, is_int)


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
        image_hwc(img, "CutOut", rank_words=lambda ndim: (
            f"image shape is not <H,W,C>, but got rank: {ndim}"))
        height, width = (img.shape[:2] if self.is_hwc or img.ndim == 2 else img.shape[1:3])
        if self.length > height or self.length > width:
            raise RuntimeError(f"CutOut: box size is too large for image erase, got box height: "
                               f"{self.length}, box width: {self.length}, and image height: "
                               f"{height}, image width: {width}")
        out = img.copy()
        for _ in range(self.num_patches):
            top = rng.randint(0, height - self.length)
            left = rng.randint(0, width - self.length)
            if self.is_hwc or out.ndim == 2:
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
