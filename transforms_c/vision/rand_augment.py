"""RandAugment: num_ops ops drawn uniformly from the standard RandAugment space, each at the
given magnitude bin (signed ops get a random sign). The bins and geometry are MindSpore 2.10's
(measured): float32 steps and colour factors, a shear of s turning by s radians, rotations and
shears sampled as its OpenCV samples them (transforms_c.vision.warp)."""
import math

import numpy as np

from transforms_c._base import TensorOperation
from transforms_c._validate import (MAX_SIZE, check_enum, check_fill_value, check_int,
                                    check_range)
from transforms_c.enums import Inter
from transforms_c.vision import color
from transforms_c.vision.warp import affine_array, rotate_array


def _bin(index, num_bins, end, start=0.0, scale=1.0, offset=0.0):
    """Bin `index` of num_bins evenly spaced from start to end, times scale plus offset, in
    float32 arithmetic as MindSpore computes its magnitudes."""
    f32 = np.float32
    step = (f32(end) - f32(start)) / f32(num_bins - 1)
    return (f32(start) + f32(index) * step) * f32(scale) + f32(offset)


def _shear(img, level, axis, interpolation, fill_value):
    # level radians of shear along one axis, through the affine kernel (in degrees)
    degrees = float(np.float32(float(np.float32(level) * np.float32(180)) / math.pi))
    shear = (degrees, 0.0) if axis == 0 else (0.0, degrees)
    return affine_array(img, 0.0, (0.0, 0.0), 1.0, shear, interpolation, fill_value,
                        "RandAugment")


def _translate(img, dx, dy, interpolation, fill_value):
    return affine_array(img, 0.0, (dx, dy), 1.0, (0.0, 0.0), interpolation, fill_value,
                        "RandAugment")


class RandAugment(TensorOperation):
    """RandAugment(num_ops=2, magnitude=9, num_magnitude_bins=31,
    interpolation=Inter.NEAREST, fill_value=0) on RGB uint8 images."""

    is_random = True
    _OPS = ("Identity", "ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate", "Brightness",
            "Color", "Contrast", "Sharpness", "Posterize", "Solarize", "AutoContrast",
            "Equalize")
    _SIGNED = {"ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate", "Brightness", "Color",
               "Contrast", "Sharpness"}

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31,
                 interpolation=Inter.NEAREST, fill_value=0):
        # MindSpore's bounds and words: magnitude in [0, num_magnitude_bins)
        self.num_ops = check_int(num_ops, "num_ops", 0, MAX_SIZE)
        self.num_magnitude_bins = check_int(num_magnitude_bins, "num_magnitude_bins", 2,
                                            MAX_SIZE)
        self.magnitude = check_int(magnitude, "magnitude")
        check_range(self.magnitude, "magnitude", 0, self.num_magnitude_bins, high_open=True)
        self.interpolation = check_enum(interpolation, Inter, "interpolation")
        self.fill_value = check_fill_value(fill_value)

    def _level(self, name, width, height):
        index, bins = self.magnitude, self.num_magnitude_bins
        if name in ("ShearX", "ShearY"):
            return _bin(index, bins, 0.3)
        if name == "TranslateX":
            return _bin(index, bins, np.float32(150) / np.float32(331) * np.float32(width))
        if name == "TranslateY":
            return _bin(index, bins, np.float32(150) / np.float32(331) * np.float32(height))
        if name == "Rotate":
            return _bin(index, bins, 30)
        if name in ("Brightness", "Color", "Contrast", "Sharpness"):
            return _bin(index, bins, 0.9)
        if name == "Posterize":    # 8 bits down to 4, rounded half to even
            return round(float(_bin(index, bins, bins - 1, scale=np.float32(-4) /
                                    np.float32(bins - 1), offset=8)))
        if name == "Solarize":
            return _bin(index, bins, 0, start=255)
        return 0.0

    def _compute(self, img, rng):
        img = color._rgb_image(img, "RandAugment")
        height, width = img.shape[:2]
        for _ in range(self.num_ops):
            name = self._OPS[rng.randint(0, len(self._OPS) - 1)]
            level = self._level(name, width, height)
            if name in self._SIGNED and rng.random() < 0.5:
                level = -level
            img = self._apply_op(img, name, level)
        return img

    def _apply_op(self, img, name, level):
        interp, fill = self.interpolation, self.fill_value
        factor = float(np.float32(1) + np.float32(level))    # the colour ops' (float32)
        if name == "ShearX":
            return _shear(img, level, 0, interp, fill)
        if name == "ShearY":
            return _shear(img, level, 1, interp, fill)
        # the level in pixels, as documented (MindSpore 2.10's kernel reads it as a fraction
        # of the size and blanks the image: a README deviation)
        if name == "TranslateX":
            return _translate(img, int(level), 0, interp, fill)
        if name == "TranslateY":
            return _translate(img, 0, int(level), interp, fill)
        if name == "Rotate":
            # the fill as given (MindSpore 2.10 paints (r, b, g) here: a README deviation)
            return rotate_array(img, float(level), interp, False, None, fill, "RandAugment")
        if name == "Brightness":
            return color.adjust_brightness(img, factor)
        if name == "Color":
            return color.adjust_saturation(img, factor)
        if name == "Contrast":
            return color.adjust_contrast(img, factor)
        if name == "Sharpness":
            return color.adjust_sharpness(img, factor)
        if name == "Posterize":
            return color.posterize(img, max(1, int(level)))
        if name == "Solarize":
            return color.solarize(img, float(level))
        if name == "AutoContrast":
            return color.autocontrast(img)
        if name == "Equalize":
            return color.equalize(img)
        return img
