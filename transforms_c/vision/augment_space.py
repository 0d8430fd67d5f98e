"""The augmentation space shared by RandAugment, AutoAugment and TrivialAugmentWide: each op's
magnitude at a bin (`magnitude`) and the op applied at a magnitude (`apply_augment`).

The three differ only in how wide each op's bins reach (`Space`); the arithmetic is MindSpore
2.10's (measured): float32 bins, colour factors 1 + magnitude in float32, a shear of s turning
by s radians, posterize bits rounded half to even, rotations and shears sampled as its OpenCV
samples them (transforms_c.vision.warp)."""
import math
from typing import NamedTuple, Optional

import numpy as np

from transforms_c.enums import Inter
from transforms_c.vision import color
from transforms_c.vision.resize import UNSUPPORTED_INTERPOLATION
from transforms_c.vision.warp import affine_array, rotate_array


class Space(NamedTuple):
    """How far each op of an augmentation space reaches at its last bin."""
    shear: float                    # radians
    translate: Optional[float]      # pixels; None: 150/331 of the image's side
    rotate: float                   # degrees
    colour: float                   # Brightness, Color, Contrast, Sharpness: factor 1 +- this
    posterize_drop: int             # bits dropped from 8 at the last bin
    solarize_from: float            # the solarize threshold at bin 0 (down to 0)


RAND_AUGMENT = Space(0.3, None, 30.0, 0.9, 4, 255.0)
#: AutoAugment's solarize starts at 256 (bin 0 inverts nothing), measured in MindSpore 2.10
AUTO_AUGMENT = Space(0.3, None, 30.0, 0.9, 4, 256.0)
TRIVIAL_AUGMENT_WIDE = Space(0.99, 32.0, 135.0, 0.99, 6, 255.0)

#: The ops RandAugment and TrivialAugmentWide draw from (AutoAugment's policies add Invert).
STANDARD_OPS = ("Identity", "ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate",
                "Brightness", "Color", "Contrast", "Sharpness", "Posterize", "Solarize",
                "AutoContrast", "Equalize")
#: The ops whose magnitude takes a random sign.
SIGNED_OPS = frozenset(["ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate", "Brightness",
                        "Color", "Contrast", "Sharpness"])
#: The ops without a magnitude.
UNLEVELLED_OPS = frozenset(["Identity", "AutoContrast", "Equalize", "Invert"])


def linspace_bin(index, num_bins, end, start=0.0, scale=1.0, offset=0.0):
    """Bin `index` of num_bins evenly spaced from start to end, times scale plus offset, in
    float32 arithmetic as MindSpore computes its magnitudes."""
    f32 = np.float32
    step = (f32(end) - f32(start)) / f32(num_bins - 1)
    return (f32(start) + f32(index) * step) * f32(scale) + f32(offset)


def magnitude(space, name, index, num_bins, width, height):
    """Op `name`'s magnitude at bin `index` of num_bins in `space`, unsigned (0 for the ops
    without one)."""
    if name in ("ShearX", "ShearY"):
        return linspace_bin(index, num_bins, space.shear)
    if name in ("TranslateX", "TranslateY"):
        if space.translate is not None:
            return linspace_bin(index, num_bins, space.translate)
        side = width if name == "TranslateX" else height
        return linspace_bin(index, num_bins,
                            np.float32(150) / np.float32(331) * np.float32(side))
    if name == "Rotate":
        return linspace_bin(index, num_bins, space.rotate)
    if name in ("Brightness", "Color", "Contrast", "Sharpness"):
        return linspace_bin(index, num_bins, space.colour)
    if name == "Posterize":    # 8 bits down by posterize_drop, rounded half to even
        scale = np.float32(-space.posterize_drop) / np.float32(num_bins - 1)
        return round(float(linspace_bin(index, num_bins, num_bins - 1, scale=scale, offset=8)))
    if name == "Solarize":
        return linspace_bin(index, num_bins, 0, start=space.solarize_from)
    if name in UNLEVELLED_OPS:
        return 0.0
    raise ValueError(f"unknown augmentation op {name!r}")


def _shear(img, level, axis, interpolation, fill_value, op_name):
    # level radians of shear along one axis, through the affine kernel (in degrees)
    degrees = float(np.float32(float(np.float32(level) * np.float32(180)) / math.pi))
    shear = (degrees, 0.0) if axis == 0 else (0.0, degrees)
    return affine_array(img, 0.0, (0.0, 0.0), 1.0, shear, interpolation, fill_value, op_name)


def _translate(img, dx, dy, interpolation, fill_value, op_name):
    return affine_array(img, 0.0, (dx, dy), 1.0, (0.0, 0.0), interpolation, fill_value, op_name)


def apply_augment(img, name, level, interpolation, fill_value, op_name):
    """Op `name` at the signed magnitude `level` on an RGB uint8 image (fill_value: a 3-tuple
    for the areas the geometric ops uncover)."""
    factor = float(np.float32(1) + np.float32(level))    # the colour ops' (float32)
    if name == "ShearX":
        return _shear(img, level, 0, interpolation, fill_value, op_name)
    if name == "ShearY":
        return _shear(img, level, 1, interpolation, fill_value, op_name)
    # the level in pixels, as documented (MindSpore 2.10's kernel reads it as a fraction of the
    # size and blanks the image: a README deviation)
    if name == "TranslateX":
        return _translate(img, int(level), 0, interpolation, fill_value, op_name)
    if name == "TranslateY":
        return _translate(img, 0, int(level), interpolation, fill_value, op_name)
    if name == "Rotate":
        # the fill as given (MindSpore 2.10 paints (r, b, g) here: a README deviation)
        return rotate_array(img, float(level), interpolation, False, None, fill_value, op_name)
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
    if name == "Invert":
        return 255 - img
    return img


def check_augment_interpolation(interpolation, op_name):
    """MindSpore refuses ANTIALIAS and PILCUBIC when the op runs (whatever op it draws), in
    its words: checked on every call here too."""
    if interpolation == Inter.ANTIALIAS:
        raise RuntimeError(f"{op_name}: {UNSUPPORTED_INTERPOLATION}")
    if interpolation == Inter.PILCUBIC:
        raise RuntimeError(f"{op_name}: Invalid InterpolationMode, check input value of enum. "
                           f"(interpolation=Inter.PILCUBIC)")
