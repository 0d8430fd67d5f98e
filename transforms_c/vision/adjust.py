"""The deterministic colour ops with a fixed factor (MindSpore 2.x's AdjustBrightness,
AdjustContrast, AdjustSaturation, AdjustHue, AdjustGamma, AdjustSharpness, Posterize, Solarize).
The kernels are color.py's (RandomColorAdjust and RandAugment use the same ones); this module adds
the arguments, the images each op takes, with MindSpore's words, and the Pillow path of the ops
MindSpore also implements in Python (a PIL image in, a PIL image out)."""
import numpy as np

from transforms_c._base import TensorOperation, image_hwc
from transforms_c._validate import (MAX_SIZE, check_int, check_number, check_range, dtype_words,
                                    is_number, wrong_type)
from transforms_c.vision import color


def _words(op_name, what, expected, got):
    """MindSpore's sentence for an image its kernel does not take."""
    return RuntimeError(f"{op_name}: the {what} of image tensor does not match the requirement "
                        f"of operator. Expecting tensor in {expected}. But got {got}.")


def gray_or_rgb_image(img, op_name, dtypes):
    """An (H, W), (H, W, 1) or (H, W, 3) image of one of dtypes, else MindSpore's words (its
    AdjustBrightness and Solarize)."""
    if isinstance(img, np.ndarray) and img.ndim not in (2, 3):
        hint = ". You may need to perform Decode first" if img.ndim == 1 else ""
        raise _words(op_name, "dimension", "dimension of (2, 3), in shape of <H, W> or <H, W, C>",
                     f"dimension {img.ndim}{hint}")
    if img.ndim == 3 and img.shape[2] not in (1, 3):
        raise _words(op_name, "channel", "channel of (1, 3)", f"channel {img.shape[2]}")
    if img.dtype not in dtypes:
        names = ", ".join(np.dtype(t).name for t in _DTYPE_ORDER if t in dtypes)
        raise _words(op_name, "data type", f"type of ({names})", f"type {dtype_words(img.dtype)}")
    image_hwc(img.view(np.uint8) if img.dtype == np.bool_ else img, op_name)  # empty images
    return img


#: The order in which MindSpore's messages list the dtypes an op takes.
_DTYPE_ORDER = (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.float16,
                np.float32, np.float64)
#: The dtypes MindSpore's AdjustBrightness takes (bool aside: see the README); Solarize adds bool.
_SCALAR_DTYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.float32, np.float64)


def scale_saturate(img, factor):
    """img * factor saturated to the image's dtype, with the arithmetic of OpenCV's convertTo
    that MindSpore's AdjustBrightness uses (measured in 2.10): a float32 factor; int32 and
    float64 images computed in double, the others in float32; integers rounded half to even."""
    if img.dtype == np.uint8:
        return color.adjust_brightness(img, factor)
    work = np.float64 if img.dtype in (np.int32, np.float64) else np.float32
    scaled = img.astype(work) * work(np.float32(factor))
    if img.dtype.kind == "f":
        return scaled.astype(img.dtype)
    info = np.iinfo(img.dtype)
    return np.clip(np.rint(scaled), info.min, info.max).astype(img.dtype)


def _rgb_adjust(img, op_name, step, factor, dtypes=(np.uint8, np.uint16, np.float32)):
    """One of RandomColorAdjust's steps ("c", "s", "h") on an RGB image: uint8 with its uint8
    kernel, float32 with its float kernel (unclipped), uint16 computed in float32, rounded and
    saturated."""
    img = color._rgb_image(img, op_name, dtypes)
    if img.dtype == np.uint8:
        return color._UINT8_ADJUST[step](img, factor)
    if img.dtype == np.uint16:
        work = color._FLOAT_ADJUST[step](img.astype(np.float32), factor)
        return np.clip(np.rint(work), 0, 65535).astype(np.uint16)
    return color._FLOAT_ADJUST[step](img, factor)


class AdjustBrightness(TensorOperation):
    """AdjustBrightness(brightness_factor): pixels times the factor (0 black, 1 unchanged),
    saturated to the image's dtype; gray or RGB images."""

    pil_input = "image"     # a PIL image in, a PIL image out (MindSpore's Pillow path)

    def __init__(self, brightness_factor):
        self.brightness_factor = check_number(brightness_factor, "brightness_factor", 0,
                                              MAX_SIZE)

    def _compute(self, img, rng):
        img = gray_or_rgb_image(img, "AdjustBrightness", _SCALAR_DTYPES + (np.float16,))
        return scale_saturate(img, self.brightness_factor)

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_brightness
        return pil_brightness(img, self.brightness_factor)


class AdjustContrast(TensorOperation):
    """AdjustContrast(contrast_factor): blend with the mean grey (0 grey, 1 unchanged); RGB
    images of uint8, uint16 or float32."""

    pil_input = "image"

    def __init__(self, contrast_factor):
        self.contrast_factor = check_number(contrast_factor, "contrast_factor", 0, MAX_SIZE)

    def _compute(self, img, rng):
        return _rgb_adjust(img, "AdjustContrast", "c", self.contrast_factor)

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_contrast
        return pil_contrast(img, self.contrast_factor)


class AdjustSaturation(TensorOperation):
    """AdjustSaturation(saturation_factor): blend with the image's grey (0 grey, 1 unchanged);
    RGB images of uint8, uint16 or float32."""

    pil_input = "image"

    def __init__(self, saturation_factor):
        # MindSpore 2.10's range error names no argument here (measured).
        self.saturation_factor = check_number(saturation_factor, "saturation_factor", 0,
                                              MAX_SIZE, range_name="")

    def _compute(self, img, rng):
        return _rgb_adjust(img, "AdjustSaturation", "s", self.saturation_factor)

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_saturation
        return pil_saturation(img, self.saturation_factor)


class AdjustHue(TensorOperation):
    """AdjustHue(hue_factor): hue turned by hue_factor (in [-0.5, 0.5]) of a full turn; RGB
    images of uint8 or float32 (MindSpore 2.10's float32 kernel gives values like 1e31: here
    the hue turns in OpenCV's float HSV, as RandomColorAdjust's)."""

    pil_input = "image"

    def __init__(self, hue_factor):
        self.hue_factor = check_number(hue_factor, "hue_factor", -0.5, 0.5)

    def _compute(self, img, rng):
        return _rgb_adjust(img, "AdjustHue", "h", self.hue_factor, (np.uint8, np.float32))

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_hue
        return pil_hue(img, self.hue_factor)


def gamma_table(gamma, gain):
    """MindSpore's 256-entry gamma table: int((256 - 1e-3) * gain * (v / 255) ** gamma)."""
    return [int((255 + 1 - 1e-3) * gain * pow(v / 255.0, gamma)) for v in range(256)]


class AdjustGamma(TensorOperation):
    """AdjustGamma(gamma, gain=1): out = gain * in ** gamma on the 0..255 scale of integer
    images (uint8: MindSpore's table, truncated and saturated; other integer types rounded,
    negative values as 0) and the 0..1 scale of float ones (clipped to [0, 1], a float32
    result); <H, W> or <..., H, W, C> with 1 or 3 channels.
    Deviations (README): MindSpore 2.10 applies the gain twice to float images and changes the
    first channel only of integer images other than uint8."""

    pil_input = "image"

    def __init__(self, gamma, gain=1):
        self.gamma = check_number(gamma, "gamma", 0, MAX_SIZE, range_name="")
        self.gain = 1.0 if gain is None else check_number(gain, "gain", -MAX_SIZE, MAX_SIZE,
                                                          range_name="")

    def _compute(self, img, rng):
        if img.ndim < 2:
            shape = ",".join(str(n) for n in img.shape)
            raise RuntimeError(f"AdjustGamma: input tensor is not in shape of <...,H,W,C> or "
                               f"<H,W>, got shape:<{shape}>")
        if img.ndim > 2 and img.shape[-1] not in (1, 3):
            raise RuntimeError(f"AdjustGamma: channel of input image should be 1 or 3, but got: "
                               f"{img.shape[-1]}")
        if img.dtype not in _SCALAR_DTYPES + (np.float16,):
            raise RuntimeError(f"AdjustGamma: the data type of image tensor does not match the "
                               f"requirement of operator. But got type {img.dtype}.")
        if img.dtype.kind == "f":
            scaled = self.gain * np.power(np.maximum(img.astype(np.float64), 0), self.gamma)
            return np.clip(scaled, 0, 1).astype(np.float32)
        if img.dtype == np.uint8:
            table = np.clip(gamma_table(self.gamma, self.gain), 0, 255).astype(np.uint8)
            return table[img]
        # other integer types: MindSpore's documented 255 * gain * (v / 255) ** gamma, rounded
        # (uint8's table constant, 256 - 1e-3, would move every value past 255: gamma 1 would
        # turn 1000 into 1003), negative values taken as 0, saturated
        info = np.iinfo(img.dtype)
        values = 255.0 * self.gain * np.power(np.maximum(img, 0) / 255.0, self.gamma)
        return np.clip(np.rint(values), info.min, info.max).astype(img.dtype)

    def _compute_pil(self, img, rng):
        """MindSpore's Pillow path: the table on each band of an image of 1 or 3 bands; other
        images (RGBA ...) come back unchanged."""
        bands = len(img.getbands())
        if bands not in (1, 3):
            return img
        return img.point(gamma_table(self.gamma, self.gain) * bands)


class AdjustSharpness(TensorOperation):
    """AdjustSharpness(sharpness_factor): blend with a 3x3 smoothing (0 smooth, 1 unchanged,
    2 sharper); <H, W> or <H, W, C> images of uint8, int16, uint16, float32 or float64. A PIL
    image gives an array, as MindSpore's (its C++ kernel only)."""

    def __init__(self, sharpness_factor):
        self.sharpness_factor = check_number(sharpness_factor, "sharpness_factor", 0, MAX_SIZE,
                                             range_name="")

    def _compute(self, img, rng):
        return sharpness(img, self.sharpness_factor, "Sharpness")


def sharpness(img, factor, op_name):
    """color.adjust_sharpness on the images MindSpore's Sharpness kernel takes, with its words."""
    if img.ndim not in (2, 3):
        raise RuntimeError(f"{op_name}: shape of input is not <H,W,C> or <H,W>, but got rank: "
                           f"{img.ndim}")
    image_hwc(img, op_name)
    if img.dtype not in (np.uint8, np.int16, np.uint16, np.float32, np.float64):
        raise _words(op_name, "data type", "type of (uint8, int16, uint16, float32, float64)",
                     f"type {img.dtype}")
    return color.adjust_sharpness(img, factor)


class Posterize(TensorOperation):
    """Posterize(bits): keeps the `bits` (0 to 8) highest bits of each uint8 value (an int8
    image is read as its uint8 bytes and gives uint8, as MindSpore's)."""

    def __init__(self, bits):
        try:
            self.bits = check_int(bits, "bits", 0, 8)
        except ValueError:
            # MindSpore's sentence exactly, without our "Got ..." (its suite compares it whole).
            raise ValueError("Input bits is not within the required interval of [0, 8].") from None

    def _compute(self, img, rng):
        return posterize(img, self.bits)


def posterize(img, bits):
    """color.posterize on the images MindSpore's Posterize kernel takes, with its words."""
    if img.ndim not in (2, 3):
        raise RuntimeError(f"Posterize: input image is not in shape of <H,W,C> or <H,W>, but "
                           f"got rank: {img.ndim}")
    if img.dtype not in (np.uint8, np.int8):
        raise RuntimeError(f"Posterize: data type of input image should be int8 or uint8, but "
                           f"got {img.dtype}")
    image_hwc(img, "Posterize")
    return color.posterize(img.view(np.uint8), bits)


def solarize_range(img, low, high):
    """MindSpore's Solarize with thresholds (low, high): the values in [low, high] inverted,
    or the values >= low when low == high (measured in 2.10)."""
    img = gray_or_rgb_image(img, "Solarize", _SCALAR_DTYPES + (np.bool_,))
    if img.dtype == np.bool_:   # 255 - value saturated to bool is True (MindSpore, measured)
        return img | color.solarize(img.view(np.uint8), low, None if low == high else high) > 0
    return color.solarize(img, low, None if low == high else high)


class Solarize(TensorOperation):
    """Solarize(threshold): inverts (255 - value) the values in [min, max] of a (min, max)
    threshold, or the values >= t of a single number t; saturated to the image's dtype."""

    def __init__(self, threshold):
        if is_number(threshold):
            threshold = (threshold, threshold)
        elif not isinstance(threshold, (list, tuple)):
            raise wrong_type("threshold", threshold, float, int, list, tuple)
        for i, value in enumerate(threshold):
            if not is_number(value):
                raise wrong_type(f"threshold[{i}]", value, float, int)
        if len(threshold) != 2:
            raise TypeError("threshold must be a single number or sequence of two numbers.")
        for i, value in enumerate(threshold):
            check_range(value, f"threshold[{i}]", 0, 255)
        if threshold[1] < threshold[0]:
            raise ValueError(f"threshold must be in order of (min, max). Got {threshold}.")
        self.threshold = tuple(threshold)

    def _compute(self, img, rng):
        return solarize_range(img, *self.threshold)
