"""RandAugment: num_ops ops drawn uniformly from the standard RandAugment space, each at the
given magnitude bin (signed ops get a random sign)."""
import math

import cv2
import numpy as np

from transforms_c._base import TensorOperation
from transforms_c._validate import (MAX_SIZE, check_enum, check_fill_value, check_int,
                                    check_range)
from transforms_c.enums import CV2_INTER, Inter
from transforms_c.vision import color
from transforms_c.vision.warp import _border_value


def _affine(img, matrix, interpolation, fill_value):
    height, width = img.shape[:2]
    return cv2.warpAffine(img, matrix, (width, height), flags=CV2_INTER[interpolation],
                          borderMode=cv2.BORDER_CONSTANT,
                          borderValue=_border_value(fill_value, img))


def _shear(img, amount, axis, interpolation, fill_value):
    height, width = img.shape[:2]
    if axis == 0:  # x' = x + amount * (y - cy)
        matrix = np.array([[1, amount, -amount * (height - 1) * 0.5], [0, 1, 0]], np.float64)
    else:
        matrix = np.array([[1, 0, 0], [amount, 1, -amount * (width - 1) * 0.5]], np.float64)
    return _affine(img, matrix, interpolation, fill_value)


def _translate(img, dx, dy, interpolation, fill_value):
    matrix = np.array([[1, 0, dx], [0, 1, dy]], np.float64)
    return _affine(img, matrix, interpolation, fill_value)


def _rotate(img, degrees, interpolation, fill_value):
    height, width = img.shape[:2]
    matrix = cv2.getRotationMatrix2D(((width - 1) * 0.5, (height - 1) * 0.5), degrees, 1.0)
    return _affine(img, matrix, interpolation, fill_value)


def _posterize(img, bits):
    mask = (0xFF << (8 - int(bits))) & 0xFF
    return cv2.bitwise_and(img, np.full_like(img, mask))


def _solarize(img, threshold):
    return np.where(img >= threshold, 255 - img, img).astype(np.uint8)


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
        fraction = self.magnitude / (self.num_magnitude_bins - 1)
        if name in ("ShearX", "ShearY"):
            return 0.3 * fraction
        if name == "TranslateX":
            return 150.0 / 331.0 * width * fraction
        if name == "TranslateY":
            return 150.0 / 331.0 * height * fraction
        if name == "Rotate":
            return 30.0 * fraction
        if name in ("Brightness", "Color", "Contrast", "Sharpness"):
            return 0.9 * fraction
        if name == "Posterize":
            return 8 - int(round(self.magnitude / ((self.num_magnitude_bins - 1) / 4)))
        if name == "Solarize":
            return 255.0 * (1 - fraction)
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
        if name == "ShearX":
            return _shear(img, math.tan(math.atan(level)), 0, interp, fill)
        if name == "ShearY":
            return _shear(img, math.tan(math.atan(level)), 1, interp, fill)
        if name == "TranslateX":
            return _translate(img, int(level), 0, interp, fill)
        if name == "TranslateY":
            return _translate(img, 0, int(level), interp, fill)
        if name == "Rotate":
            return _rotate(img, level, interp, fill)
        if name == "Brightness":
            return color.adjust_brightness(img, 1.0 + level)
        if name == "Color":
            return color.adjust_saturation(img, 1.0 + level)
        if name == "Contrast":
            return color.adjust_contrast(img, 1.0 + level)
        if name == "Sharpness":
            return color.adjust_sharpness(img, 1.0 + level)
        if name == "Posterize":
            return _posterize(img, max(1, int(level)))
        if name == "Solarize":
            return _solarize(img, level)
        if name == "AutoContrast":
            return color.autocontrast(img)
        if name == "Equalize":
            return color.equalize(img)
        return img
