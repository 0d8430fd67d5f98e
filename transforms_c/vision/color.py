"""Colour ops (OpenCV kernels called from Python; cv2 releases the GIL): RandomColorAdjust,
AutoContrast, Equalize, Invert, RandomSharpness, GaussianBlur, ConvertColor, Grayscale, and the
adjust_* helpers RandAugment reuses. They take the images MindSpore's take (mostly uint8;
RandomColorAdjust and RandomSharpness float ones too), with its errors and words; a PIL image
goes through Pillow, as MindSpore's Python path does (pil_color.py)."""
import numbers

import cv2
import numpy as np

from transforms_c._base import TensorOperation, decode_hint_rank_words, image_hwc
from transforms_c._validate import check_enum, check_float, check_int, is_int, wrong_type
from transforms_c.enums import CV2_CONVERT_CODES, ConvertMode


#: MindSpore's bound of the colour ops' factors, degrees, kernel sizes and sigmas.
_MAX = 16777216


def _color_range(value, name, center=1.0, bound=(0, _MAX)):
    """A RandomColorAdjust argument with MindSpore's checks and words: a number f >= 0 is the
    range (center - f, center + f) (a factor's low end cut at 0), a pair is (min, max); both
    within bound."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"The input value of {name} cannot be negative. Got {value}.")
        values = (max(0.0, center - value) if center else -value, center + value)
    elif isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise TypeError(f"If {name} is a sequence, the length must be 2. Got {value}.")
        for v in value:     # MindSpore's words come from comparing the value
            if not isinstance(v, numbers.Number):
                raise TypeError(f"'<=' not supported between instances of 'int' and "
                                f"'{type(v).__name__}': {name} is {value!r}.")
        values = tuple(float(v) for v in value)
    else:
        raise wrong_type(name, value, numbers.Number, list, tuple)
    if not all(bound[0] <= v <= bound[1] for v in values):
        raise ValueError(f"Input is not within the required interval of [{bound[0]}, "
                         f"{bound[1]}]. {name} is {value}.")
    if values[0] > values[1]:
        raise ValueError(f"{name} value should be in (min,max) format. Got {tuple(value)}.")
    return float(values[0]), float(values[1])


def _sharpness_degrees(degrees):
    """RandomSharpness's (min, max) degrees with MindSpore's checks and words."""
    if not isinstance(degrees, (list, tuple)):
        raise TypeError(f"degrees must be either a tuple or a list. Got {type(degrees)}.")
    if len(degrees) != 2:
        raise ValueError(f"degrees must be a sequence with length 2. Got {degrees}.")
    values = tuple(check_float(v, f"degrees[{i}]") for i, v in enumerate(degrees))
    if not all(0 <= v <= _MAX for v in values):
        raise ValueError(f"Input is not within the required interval of [0, {_MAX}]. degrees "
                         f"is {degrees}.")
    if values[0] > values[1]:
        raise ValueError(f"degrees should be in (min,max) format. Got (max,min). degrees is "
                         f"{degrees}.")
    return values


def _kernel_sizes(kernel_size):
    """GaussianBlur's (x, y) kernel sizes with MindSpore's checks and words."""
    if is_int(kernel_size):
        named = (("kernel_size", kernel_size),) * 2
    elif isinstance(kernel_size, (list, tuple)):
        if len(kernel_size) != 2:
            raise TypeError(f"Kernel size should be a single integer or a list/tuple "
                            f"(kernel_width, kernel_height) of length 2. Got {kernel_size}.")
        named = tuple((f"kernel_size[{i}]", k) for i, k in enumerate(kernel_size))
    else:
        raise wrong_type("kernel_size", kernel_size, int, list, tuple)
    for name, k in named:
        if check_int(k, name, 1, _MAX) % 2 == 0:
            raise ValueError(f"Input {name} is not an odd value. Got {k}.")
    return tuple(int(k) for _, k in named)


def _rank_2_or_3(ndim):
    """AutoContrast's and Equalize's MindSpore words for a wrong rank (two spaces included)."""
    return f"image rank should be 2 or 3,  but got: {ndim}"


def check_at_most_4_channels(img, words):
    """AutoContrast's and Equalize's limit: MindSpore 2.10 takes 1 or 3 channels, this package
    2 and 4 too (a README deviation); more are refused, with MindSpore's ``words`` (an
    N x H x W batch of gray images would otherwise be equalised across its images, pixel
    column by column)."""
    if np.ndim(img) == 3 and img.shape[2] > 4:
        raise RuntimeError(f"{words}, but got: {img.shape[2]}")


def _rgb_image(img, op_name, dtypes=(np.uint8,)):
    """An RGB image (H, W, 3) of one of dtypes, else MindSpore's words for the rank, channels
    or type."""
    if isinstance(img, np.ndarray) and img.ndim != 3:
        raise RuntimeError(f"{op_name}: the dimension of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in dimension of (3), in "
                           f"shape of <H, W, C>. But got dimension {img.ndim}."
                           + (" You may need to perform Decode first." if img.ndim < 2 else ""))
    image_hwc(img, op_name)
    if img.shape[2] != 3:
        raise RuntimeError(f"{op_name}: the channel of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in channel of (3). But got "
                           f"channel {img.shape[2]}.")
    if img.dtype not in dtypes:
        names = ", ".join(np.dtype(t).name for t in dtypes)
        raise RuntimeError(f"{op_name}: the data type of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in type of ({names}). But "
                           f"got type {img.dtype}.")
    return img


def _blend(img, other, alpha):
    """alpha * img + (1 - alpha) * other, rounded and saturated to the image's dtype
    (cv2.addWeighted; float images unclipped)."""
    # (cv2 drops the channel axis of an (H, W, 1) image)
    return cv2.addWeighted(img, float(alpha), other, float(1.0 - alpha), 0.0).reshape(img.shape)


def adjust_brightness(img, factor):
    if factor < 0:
        return np.zeros_like(img)
    # (cv2 drops the channel axis of an (H, W, 1) image)
    return cv2.convertScaleAbs(img, alpha=float(factor)).reshape(img.shape)


def _blend_onto(other, img, factor):
    """MindSpore's blend of its contrast and saturation kernels: factor is a float32 and the
    grey image comes first, other * (1 - factor) + img * factor (1 - factor in double), rounded
    half to even and saturated to uint8. The order counts: OpenCV's kernel fuses the first
    product into the sum (FMA), so swapping the operands moves ties by one level (measured in
    MindSpore 2.10: about 2% of the pixels at factor 1.9 otherwise)."""
    alpha = float(np.float32(factor))
    # (cv2 drops the channel axis of an (H, W, 1) image)
    return cv2.addWeighted(other, 1.0 - alpha, img, alpha, 0.0).reshape(img.shape)


def adjust_contrast(img, factor):
    """Blend with the mean of the image's grey (OpenCV's luma), rounded half to even to uint8
    (MindSpore 2.10, measured: a mean of 10.5 gives 10, 11.5 gives 12)."""
    gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    mean = int(np.rint(cv2.mean(gray)[0]))
    return _blend_onto(np.full_like(img, mean), img, factor)


def adjust_saturation(img, factor):
    gray = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
    return _blend_onto(gray, img, factor)


def adjust_hue(img, factor):
    """Rotates hue by factor (in [-0.5, 0.5]) of a full turn."""
    hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV_FULL)
    # MindSpore's step: the float32 product cut toward zero (0.1 turns by 25, not 26), added
    # to the uint8 hue with wrap-around
    shift = int(np.float32(factor) * np.float32(255))
    hsv[..., 0] = (hsv[..., 0].astype(np.int16) + shift).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB_FULL)


def _luma(img):
    """Rec. 601 luma of a float RGB image, (H, W, 1)."""
    return img @ np.array([0.299, 0.587, 0.114], img.dtype)[:, None]


def _float_brightness(img, factor):
    return img * img.dtype.type(factor)


def _float_contrast(img, factor):
    return img * img.dtype.type(factor) + _luma(img).mean(dtype=img.dtype) * (1 - factor)


def _float_saturation(img, factor):
    return img * img.dtype.type(factor) + _luma(img) * img.dtype.type(1 - factor)


def _float_hue(img, factor):
    """Hue rotated by factor of a turn in OpenCV's float HSV (degrees)."""
    hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV)
    hsv[..., 0] = (hsv[..., 0] + factor * 360.0) % 360.0
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)


#: RandomColorAdjust's steps on uint8 images and (unclipped, as MindSpore) on float32 ones.
_UINT8_ADJUST = {"b": adjust_brightness, "c": adjust_contrast, "s": adjust_saturation,
                 "h": adjust_hue}
_FLOAT_ADJUST = {"b": _float_brightness, "c": _float_contrast, "s": _float_saturation,
                 "h": _float_hue}


def adjust_sharpness(img, factor):
    """PIL's ImageEnhance.Sharpness: blend with a 3x3 smoothing (border pixels unchanged);
    integer images rounded and saturated, float images unclipped (as MindSpore's kernel). The
    factor is a float32, as MindSpore's (measured in 2.10: a double factor moves ties by one
    level on uint8 and uint16 images)."""
    kernel = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], np.float32) / 13.0
    # (cv2 drops the channel axis of an (H, W, 1) image)
    smooth = cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REPLICATE).reshape(img.shape)
    if img.shape[0] > 2 and img.shape[1] > 2:
        degenerate = img.copy()
        degenerate[1:-1, 1:-1] = smooth[1:-1, 1:-1]
    else:
        degenerate = img
    return _blend(img, degenerate, float(np.float32(factor)))


def _cut_tails(hist, cutoff):
    """Removes int(cutoff / 100 * n) pixels (float32 arithmetic, as MindSpore) from each end of
    the histogram, lowest values first at the low end and highest first at the high end.
    MindSpore 2.10 truncates cutoff to a whole percent first (10.7 cuts 10%); a fractional
    cutoff is used as given here (README, deviations)."""
    cut = int(np.float32(np.float32(cutoff) / np.float32(100.0)) * np.float32(hist.sum()))
    for order in (range(256), range(255, -1, -1)):
        remaining = cut
        for i in order:
            if remaining <= 0:
                break
            take = min(int(hist[i]), remaining)
            hist[i] -= take
            remaining -= take


def autocontrast_table(hist, cutoff=0.0, ignore=()):
    """Lookup table of one channel from its 256-bin histogram, with MindSpore's arithmetic:
    after the ignored values and the cutoff tails are dropped, lo/hi are the lowest/highest
    values left; scale = float32(255 / (hi - lo)), offset = float32(-lo * scale), and value v
    maps to int(float32(v * scale) + offset) (float32 sum, truncated toward zero) clamped to
    [0, 255]. An identity table when hi <= lo."""
    hist = np.array(hist, dtype=np.int64)
    for value in ignore:
        hist[value] = 0
    if cutoff > 0:
        _cut_tails(hist, cutoff)
    nonzero = np.flatnonzero(hist)
    if nonzero.size == 0 or nonzero[0] >= nonzero[-1]:
        return np.arange(256, dtype=np.uint8)
    lo, hi = int(nonzero[0]), int(nonzero[-1])
    scale = np.float32(255.0 / (hi - lo))
    offset = np.float32(-lo) * scale
    values = np.arange(256, dtype=np.float32) * scale + offset
    return np.clip(np.trunc(values), 0, 255).astype(np.uint8)


def autocontrast(img, cutoff=0.0, ignore=()):
    """AutoContrast per channel: stretch [lo, hi] (after cutting `cutoff` percent of each tail,
    ignoring the listed values) to [0, 255] (see autocontrast_table)."""
    planes = img[:, :, None] if img.ndim == 2 else img
    out = np.empty_like(planes)
    for c in range(planes.shape[2]):
        plane = planes[:, :, c]
        table = autocontrast_table(np.bincount(plane.ravel(), minlength=256), cutoff, ignore)
        out[:, :, c] = table[plane]
    return out[:, :, 0] if img.ndim == 2 else out


def posterize(img, bits):
    """The uint8 image with only its ``bits`` highest bits kept."""
    mask = (0xFF << (8 - int(bits))) & 0xFF
    # (cv2 drops the channel axis of an (H, W, 1) image)
    return cv2.bitwise_and(img, np.full_like(img, mask)).reshape(img.shape)


def solarize(img, threshold, high=None):
    """The image with the values at or above ``threshold`` (and at most ``high``, if given)
    inverted to 255 - value, saturated to the image's dtype (MindSpore's Solarize: a uint16
    value of 300 becomes 0)."""
    inside = img >= threshold if high is None else (img >= threshold) & (img <= high)
    if img.dtype.kind in "iu":
        info = np.iinfo(img.dtype)
        inverted = np.clip(255 - img.astype(np.int64), info.min, info.max).astype(img.dtype)
    else:
        inverted = (255 - img).astype(img.dtype, copy=False)
    return np.where(inside, inverted, img)


def equalize(img):
    if img.ndim == 2:
        return cv2.equalizeHist(img)
    return np.stack([cv2.equalizeHist(np.ascontiguousarray(img[:, :, c]))
                     for c in range(img.shape[2])], axis=2)


#: the types RandomColorAdjust takes on an array: any with its brightness alone (AdjustBrightness's
#: types), fewer with contrast or saturation (AdjustContrast's) or hue (AdjustHue's): measured
#: in MindSpore 2.10.
_COLOR_ADJUST_DTYPES = (np.uint8, np.uint16, np.float32, np.int8, np.int16, np.int32,
                        np.float64, np.float16)
_COLOR_ADJUST_STEP_DTYPES = {"c": (np.uint8, np.uint16, np.float32),
                             "s": (np.uint8, np.uint16, np.float32), "h": (np.uint8, np.float32)}


class RandomColorAdjust(TensorOperation):
    """RandomColorAdjust(brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
    factors drawn uniformly, applied in a random order (as MindSpore)."""

    is_random = True
    pil_input = "image"     # a PIL image in, a PIL image out (as MindSpore)

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _color_range(brightness, "brightness")
        self.contrast = _color_range(contrast, "contrast")
        self.saturation = _color_range(saturation, "saturation")
        self.hue = _color_range(hue, "hue", 0.0, (-0.5, 0.5))

    def _compute(self, img, rng):
        steps = [("b", self.brightness, (1.0, 1.0)), ("c", self.contrast, (1.0, 1.0)),
                 ("s", self.saturation, (1.0, 1.0)), ("h", self.hue, (0.0, 0.0))]
        for i in range(len(steps) - 1, 0, -1):  # Fisher-Yates shuffle of the order
            j = rng.randint(0, i)
            steps[i], steps[j] = steps[j], steps[i]
        steps = [step for step in steps if tuple(step[1]) != step[2]]
        # each adjustment takes the types of its own op, and an identity one is skipped
        # unchecked (as MindSpore's kernel: any type passes with the default ranges)
        dtypes = tuple(t for t in _COLOR_ADJUST_DTYPES
                       if all(t in _COLOR_ADJUST_STEP_DTYPES.get(name, _COLOR_ADJUST_DTYPES)
                              for name, _, _ in steps))
        img = _rgb_image(img, "RandomColorAdjust", dtypes)
        if img.dtype not in (np.uint8, np.uint16, np.float32):     # brightness at most
            from transforms_c.vision.adjust import scale_saturate   # (adjust imports this)
            for _, bounds, _ in steps:
                img = scale_saturate(img, rng.uniform(bounds[0], bounds[1]))
            return img
        # uint8, float32 (values as they are, unclipped) or uint16 (computed in float32,
        # rounded and saturated), as MindSpore takes them
        adjust = _UINT8_ADJUST if img.dtype == np.uint8 else _FLOAT_ADJUST
        work = img.astype(np.float32) if img.dtype == np.uint16 else img
        for name, bounds, _ in steps:
            work = adjust[name](work, rng.uniform(bounds[0], bounds[1]))
        if img.dtype == np.uint16:
            return np.clip(np.rint(work), 0, 65535).astype(np.uint16)
        return work

    def _compute_pil(self, img, rng):
        """MindSpore's Python path: the four adjustments in a random order, each one applied
        (an identity factor included: the hue step's HSV round trip changes pixels)."""
        from transforms_c.vision import pil_color
        steps = [(pil_color.pil_brightness, self.brightness),
                 (pil_color.pil_contrast, self.contrast),
                 (pil_color.pil_saturation, self.saturation), (pil_color.pil_hue, self.hue)]
        for i in range(len(steps) - 1, 0, -1):
            j = rng.randint(0, i)
            steps[i], steps[j] = steps[j], steps[i]
        for fn, bounds in steps:
            img = fn(img, rng.uniform(bounds[0], bounds[1]))
        return img


class AutoContrast(TensorOperation):
    """AutoContrast(cutoff=0.0, ignore=None)."""

    pil_input = "image"     # a PIL image in, a PIL image out (as MindSpore)

    def __init__(self, cutoff=0.0, ignore=None):
        self.cutoff = check_float(cutoff, "cutoff", 0, 50, high_open=True)
        if ignore is None:
            self.ignore = ()
        elif is_int(ignore):
            self.ignore = (check_int(ignore, "ignore", 0, 255),)
        elif isinstance(ignore, (list, tuple)):
            # MindSpore names each value "item" in its type error, "ignore" in its range error
            self.ignore = tuple(check_int(v, "item", 0, 255) if not is_int(v)
                                else check_int(v, "ignore", 0, 255) for v in ignore)
        else:
            raise wrong_type("ignore", ignore, list, tuple, int)

    def _compute(self, img, rng):
        check_at_most_4_channels(img, "AutoContrast: channel of input image should be 1 or 3")
        image_hwc(img, "AutoContrast", allow_float=False, rank_words=_rank_2_or_3)
        return autocontrast(img, self.cutoff, self.ignore)

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_autocontrast
        return pil_autocontrast(img, self.cutoff, self.ignore)


class Equalize(TensorOperation):
    """Equalize(): histogram equalisation of each channel."""

    pil_input = "image"     # a PIL image in, a PIL image out (as MindSpore)

    def _compute(self, img, rng):
        check_at_most_4_channels(img, "Equalize: channel of input image should be 1 or 3")
        image_hwc(img, "Equalize", allow_float=False, rank_words=_rank_2_or_3)
        return equalize(img)

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_equalize
        return pil_equalize(img)


class Invert(TensorOperation):
    """Invert(): 255 - img."""

    pil_input = "image"     # a PIL image in, a PIL image out (as MindSpore)

    def _compute(self, img, rng):
        # MindSpore's Invert takes <H,W,3> arrays only (gray PIL images go through Pillow)
        if isinstance(img, np.ndarray) and img.ndim != 3:
            raise RuntimeError(f"Invert: input tensor is not in shape of <H,W,C>, but got rank: "
                               f"{img.ndim}")
        image_hwc(img, "Invert")
        if img.shape[2] != 3:
            raise RuntimeError(f"Invert: the number of channels of input tensor is not 3, but "
                               f"got: {img.shape[2]}")
        if img.dtype == np.uint8:
            return cv2.bitwise_not(img)
        if img.dtype.kind in "iu":      # saturated to the type, as MindSpore (int8: 127)
            info = np.iinfo(img.dtype)
            return np.clip(255 - img.astype(np.int64), info.min, info.max).astype(img.dtype)
        return (255 - img).astype(img.dtype, copy=False)

    def _compute_pil(self, img, rng):
        """Pillow's invert, as MindSpore's Python path (a palette image keeps its mode; RGBA,
        I, CMYK ... raise Pillow's OSError)."""
        from transforms_c.vision.pil_color import pil_invert
        return pil_invert(img)


class RandomSharpness(TensorOperation):
    """RandomSharpness(degrees=(0.1, 1.9)): sharpness factor drawn uniformly (1 = unchanged)."""

    pil_input = "image"     # a PIL image in, a PIL image out (as MindSpore)

    is_random = True

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _sharpness_degrees(degrees)

    def _compute(self, img, rng):
        if isinstance(img, np.ndarray) and img.ndim not in (2, 3):     # MindSpore's words
            raise RuntimeError(f"Sharpness: shape of input is not <H,W,C> or <H,W>, but got "
                               f"rank: {img.ndim}")
        image_hwc(img, "RandomSharpness")
        # AdjustSharpness's kernel and types, as in MindSpore 2.10 (measured: uint16 and int16
        # images give AdjustSharpness's pixels there too)
        if img.dtype not in (np.uint8, np.int16, np.uint16, np.float32, np.float64):
            raise RuntimeError(f"Sharpness: the data type of image tensor does not match the "
                               f"requirement of operator. Expecting tensor in type of (uint8, "
                               f"int16, uint16, float32, float64). But got type {img.dtype}.")
        return adjust_sharpness(img, rng.uniform(*self.degrees))

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_sharpness
        return pil_sharpness(img, rng.uniform(*self.degrees))


class GaussianBlur(TensorOperation):
    """GaussianBlur(kernel_size, sigma=None): odd positive kernel size(s) (x, y); sigma None
    derives it from the kernel size by OpenCV's formula, from the first size for both axes as
    MindSpore 2.10 does (measured: kernel (5, 3) blurs with sigma 1.1 along x and y), as is a
    single sigma of 0; a 0 in a (x, y) pair is derived from its own axis' kernel size."""

    def __init__(self, kernel_size, sigma=None):
        self.kernel_size = _kernel_sizes(kernel_size)
        # Measured: no sigma, or one sigma of 0, derives both from the first kernel size; a
        # pair derives each 0 from its own axis' kernel size (never OpenCV's fixed kernels).
        if sigma is None or isinstance(sigma, numbers.Number):
            value = check_float(float(sigma or 0.0), "sigma", 0, _MAX)
            self.sigma = (value or _derived_sigma(self.kernel_size[0]),) * 2
        elif isinstance(sigma, (list, tuple)):
            if len(sigma) != 2:
                raise TypeError(f"Sigma should be a single number or a list/tuple of length 2 "
                                f"for width and height. Got {sigma}.")
            self.sigma = tuple(check_float(s, "sigma", 0, _MAX) or _derived_sigma(k)
                               for s, k in zip(sigma, self.kernel_size))
        else:
            raise wrong_type("sigma", sigma, numbers.Number, list, tuple)

    def _compute(self, img, rng):
        image_hwc(img, "GaussianBlur", rank_words=decode_hint_rank_words)
        try:
            out = cv2.GaussianBlur(img, self.kernel_size, self.sigma[0], sigmaY=self.sigma[1],
                                   borderType=cv2.BORDER_REFLECT_101)
        except cv2.error as exc:
            raise RuntimeError(f"GaussianBlur: cannot blur an image of dtype {img.dtype}: "
                               f"{exc}") from None
        return out[:, :, None] if img.ndim == 3 and out.ndim == 2 else out


def _derived_sigma(kernel_size):
    """OpenCV's sigma for a kernel size (its getGaussianKernel formula)."""
    return 0.3 * ((kernel_size - 1) * 0.5 - 1) + 0.8


class ConvertColor(TensorOperation):
    """ConvertColor(convert_mode): one of the ConvertMode conversions (OpenCV's cvtColor)."""

    def __init__(self, convert_mode):
        self.convert_mode = check_enum(convert_mode, ConvertMode, "convert_mode")

    def _compute(self, img, rng):
        image_hwc(img, "ConvertColor", rank_words=decode_hint_rank_words)
        try:
            return cv2.cvtColor(img, CV2_CONVERT_CODES[int(self.convert_mode)])
        except cv2.error as exc:
            raise RuntimeError(f"ConvertColor: cannot apply {self.convert_mode.name} to an "
                               f"image of shape {img.shape}: {exc}") from None


def grayscale_pixels(img, op_name):
    """The pixels of an RGB or gray uint8 array (an (H, W, 1) one as (H, W)) that Grayscale
    takes, else MindSpore's words for what is wrong."""
    if isinstance(img, np.ndarray) and not (img.dtype == np.uint8 and (
            img.ndim == 2 or img.ndim == 3 and img.shape[2] in (1, 3))):
        # MindSpore 2.10 takes PIL images only (its TypeError, measured)
        raise TypeError(f"img should be PIL image. Got {type(img)}. Use Decode() for encoded "
                        f"data or ToPIL() for decoded data. ({op_name} here also takes RGB or "
                        f"gray uint8 arrays; got {img.dtype} of shape {img.shape}.)")
    if not (isinstance(img, np.ndarray) and (img.ndim == 2 or img.shape[-1] == 1)):
        img = _rgb_image(img, op_name)
    image_hwc(img, op_name, allow_float=False)
    return img[:, :, 0] if img.ndim == 3 and img.shape[2] == 1 else img


class Grayscale(TensorOperation):
    """Grayscale(num_output_channels=1): RGB (or gray) -> gray, 1 channel or 3 equal ones, with
    Pillow's luma: MindSpore's Grayscale is Pillow's (it refuses arrays; here an RGB or gray
    uint8 array gives the pixels its PIL image would)."""

    pil_input = "image"     # a PIL image in, a PIL image out (as MindSpore)

    def __init__(self, num_output_channels=1):
        self.num_output_channels = check_int(num_output_channels, "num_output_channels")
        if self.num_output_channels not in (1, 3):
            # MindSpore's sentence, word for word
            raise ValueError(f"Number of channels of the output grayscale imageshould be either "
                             f"1 or 3. Got {num_output_channels}.")

    def _compute(self, img, rng):
        from transforms_c.vision.pil_color import pil_grayscale
        from PIL import Image
        pixels = grayscale_pixels(img, "Grayscale")
        gray = pil_grayscale(Image.fromarray(np.ascontiguousarray(pixels)),
                             self.num_output_channels)
        out = np.asarray(gray)
        return out if out.ndim == 3 else out[:, :, None]

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_grayscale
        return pil_grayscale(img, self.num_output_channels)
