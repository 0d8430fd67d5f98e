"""The random colour ops of MindSpore 2.x that apply a fixed colour op with a probability, or
with a factor drawn from a range: RandomAdjustSharpness, RandomAutoContrast, RandomColor,
RandomEqualize, RandomInvert, RandomPosterize, RandomSolarize, RandomLighting. The kernels are
color.py's and adjust.py's; the draws come from the row's rng (this project's streams, not
MindSpore's: the probabilities and ranges are its)."""
import cv2
import numpy as np

from transforms_c._base import TensorOperation
from transforms_c._validate import (MAX_SIZE, check_int, check_number, check_range, dtype_words,
                                    is_int, wrong_type)
from transforms_c.vision import color
from transforms_c.vision.adjust import posterize, sharpness, solarize_range


def check_prob(prob):
    """prob in [0, 1], with MindSpore's words."""
    return check_number(prob, "prob", 0.0, 1.0)


class _WithProbability(TensorOperation):
    """Applies `_apply(img)` with probability `prob`, else returns the image as it is."""

    is_random = True

    def _compute(self, img, rng):
        return self._apply(img) if rng.random() < self.prob else img

    def _apply(self, img):
        raise NotImplementedError


class RandomAdjustSharpness(_WithProbability):
    """RandomAdjustSharpness(degree, prob=0.5): AdjustSharpness(degree) with probability prob."""

    def __init__(self, degree, prob=0.5):
        self.degree = check_number(degree, "degree", 0, MAX_SIZE)
        self.prob = check_prob(prob)

    def _compute(self, img, rng):
        if img.ndim not in (2, 3):      # MindSpore checks the rank before drawing
            raise RuntimeError(f"RandomAdjustSharpness: image shape is not <H,W,C> or <H,W>, "
                               f"got rank: {img.ndim}")
        return super()._compute(img, rng)

    def _apply(self, img):
        return sharpness(img, self.degree, "RandomAdjustSharpness")


class RandomAutoContrast(_WithProbability):
    """RandomAutoContrast(cutoff=0.0, ignore=None, prob=0.5): AutoContrast(cutoff, ignore)
    with probability prob; uint8 <H, W> or <H, W, 3> images."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        # AutoContrast's checks and words; ignore kept as MindSpore keeps it (a list)
        self._auto_contrast = color.AutoContrast(cutoff, ignore)
        self.cutoff = self._auto_contrast.cutoff
        self.ignore = list(self._auto_contrast.ignore)
        self.prob = check_prob(prob)

    def _compute(self, img, rng):
        if img.ndim not in (2, 3):
            raise RuntimeError(f"RandomAutoContrast: image shape is not <H,W,C> or <H,W>, got "
                               f"rank: {img.ndim}")
        if img.ndim == 3 and img.shape[2] != 3:
            raise RuntimeError(f"RandomAutoContrast: image shape is incorrect, expected num of "
                               f"channels is 3, but got: {img.shape[2]}")
        return super()._compute(img, rng)

    def _apply(self, img):
        return self._auto_contrast._compute(img, None)


class RandomEqualize(_WithProbability):
    """RandomEqualize(prob=0.5): Equalize() with probability prob; uint8 images."""

    def __init__(self, prob=0.5):
        self.prob = check_prob(prob)

    def _compute(self, img, rng):
        if img.ndim not in (2, 3):
            hint = ". You may need to perform Decode first." if img.ndim == 1 else ""
            raise RuntimeError(f"RandomEqualize: input tensor is not in shape of <H,W> or "
                               f"<H,W,C>, but got rank: {img.ndim}{hint}")
        color.check_at_most_4_channels(img, "RandomEqualize: input image is not in channel of "
                                            "1 or 3")
        if img.dtype != np.uint8:
            raise RuntimeError(f"RandomEqualize: input image is not in type of uint8, but got: "
                               f"{img.dtype}")
        return super()._compute(img, rng)

    def _apply(self, img):
        return color.Equalize()._compute(img, None)


class RandomInvert(_WithProbability):
    """RandomInvert(prob=0.5): Invert() with probability prob; <H, W, 3> images."""

    def __init__(self, prob=0.5):
        self.prob = check_prob(prob)

    def _compute(self, img, rng):
        if img.ndim != 3:
            raise RuntimeError(f"RandomInvert: image shape is not <H,W,C>, got rank: {img.ndim}")
        if img.shape[2] != 3:
            raise RuntimeError(f"RandomInvert: image shape is incorrect, expected num of "
                               f"channels is 3, but got:{img.shape[2]}")
        return super()._compute(img, rng)

    def _apply(self, img):
        return color.Invert()._compute(img, None)


class RandomPosterize(TensorOperation):
    """RandomPosterize(bits=(8, 8)): Posterize with a number of bits drawn uniformly from the
    (min, max) range (both in [1, 8]), or a fixed int."""

    is_random = True

    def __init__(self, bits=(8, 8)):
        # MindSpore's range sentence exactly (its suite compares it whole): no "Got ..." detail.
        out_of_range = ValueError("Input is not within the required interval of [1, 8].")
        if is_int(bits):
            if not 1 <= bits <= 8:
                raise out_of_range
            self.bits = int(bits)
            return
        if not isinstance(bits, (list, tuple)):
            raise wrong_type("bits", bits, list, tuple, int)
        if len(bits) != 2:
            raise TypeError("Size of bits should be a single integer or a list/tuple (min, max) "
                            "of length 2.")
        for value in bits:
            check_int(value, "bits")
        # an unordered pair gets the same range words, as MindSpore's
        if not all(1 <= value <= 8 for value in bits) or bits[0] > bits[1]:
            raise out_of_range
        self.bits = type(bits)(int(v) for v in bits)

    def _compute(self, img, rng):
        low, high = (self.bits, self.bits) if is_int(self.bits) else self.bits
        return posterize(img, rng.randint(low, high))


class RandomSolarize(TensorOperation):
    """RandomSolarize(threshold=(0, 255)): Solarize with two thresholds drawn uniformly from the
    (min, max) tuple of ints, in order (equal ones invert the values at or above them, as
    MindSpore's)."""

    is_random = True

    def __init__(self, threshold=(0, 255)):
        if not isinstance(threshold, tuple):
            raise wrong_type("threshold", threshold, tuple)
        for i, value in enumerate(threshold):
            check_int(value, f"threshold[{i}]")
        if len(threshold) != 2:
            raise ValueError(f"threshold must be a sequence of two numbers. Got {threshold}.")
        for value in threshold:
            check_range(value, "", 0, 255)
        if threshold[1] < threshold[0]:
            raise ValueError(f"threshold must be in min max format numbers. Got {threshold}.")
        self.threshold = tuple(int(v) for v in threshold)

    def _compute(self, img, rng):
        first = rng.randint(*self.threshold)
        second = rng.randint(*self.threshold)
        return solarize_range(img, min(first, second), max(first, second))


def _check_degrees(degrees):
    """RandomColor's (min, max) degrees, with MindSpore's words."""
    if not isinstance(degrees, (list, tuple)):
        raise TypeError(f"degrees must be either a tuple or a list. Got {type(degrees)}.")
    for i, value in enumerate(degrees):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise wrong_type(f"degrees[{i}]", value, int, float)
    if len(degrees) != 2:
        raise ValueError(f"degrees must be a sequence with length 2. Got {degrees}.")
    for value in degrees:
        check_range(value, "", 0, MAX_SIZE)
    if degrees[0] > degrees[1]:
        raise ValueError(f"degrees should be in (min,max) format. Got (max,min). degrees is "
                         f"{degrees}.")
    return tuple(float(v) for v in degrees)


class RandomColor(TensorOperation):
    """RandomColor(degrees=(0.1, 1.9)): saturation blended with a factor drawn uniformly from
    degrees (0 grey, 1 unchanged), on RGB uint8, uint16 or float32 images; a PIL image goes through
    Pillow's ImageEnhance.Color, as MindSpore's Python path."""

    is_random = True
    pil_input = "image"

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _check_degrees(degrees)

    def _compute(self, img, rng):
        if img.ndim != 3 or img.shape[2] != 3:
            shape = ",".join(str(n) for n in img.shape)
            raise RuntimeError(f"RandomColor: image shape is not <H,W,C> or channel is not 3, "
                               f"got rank: {img.ndim}, and shape: <{shape}>")
        img = color._rgb_image(img, "RandomColor", (np.uint8, np.uint16, np.float32))
        # MindSpore's blend: the image first, its grey second, a float32 factor (measured)
        grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
        return color._blend(img, grey, float(np.float32(rng.uniform(*self.degrees))))

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_saturation
        return pil_saturation(img, rng.uniform(*self.degrees))


#: AlexNet's PCA lighting: the eigenvalues and eigenvectors (columns) of ImageNet's RGB
#: covariance, the values MindSpore uses.
_EIGENVALUES = np.array([55.46, 4.794, 1.148])
_EIGENVECTORS = np.array([[-0.5675, 0.7192, 0.4009],
                          [-0.5808, -0.0045, -0.8140],
                          [-0.5836, -0.6948, 0.4203]])


def lighting_shift(rng, alpha):
    """The (r, g, b) shift of one draw: eigenvectors @ (eigenvalues * N(0, alpha) draws)."""
    draws = np.array([alpha * rng.gauss() for _ in range(3)])
    return _EIGENVECTORS @ (_EIGENVALUES * draws)


#: The dtypes MindSpore's RandomLighting can hand to OpenCV (it computes only uint8 and int8
#: right: this project takes uint8 and float32, see the README).
_OPENCV_DTYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.float16, np.float32,
                  np.float64)


def _check_lighting_input(img):
    """MindSpore's RandomLighting checks, in its order: the rank, text, then the dtypes OpenCV
    knows (the channel count comes after)."""
    if img.ndim < 2:
        raise RuntimeError(f"RandomLighting: the shape of input tensor does not match the "
                           f"requirement of operator. Expecting tensor in shape of <height, "
                           f"width, ...>. But got tensor with dimension {img.ndim}.")
    if img.dtype.kind in "SU":
        raise RuntimeError(f"RandomLighting: the data type of input tensor does not match the "
                           f"requirement of operator. Expecting tensor in type of [int, float, "
                           f"double]. But got type {dtype_words(img.dtype)}.")
    if img.dtype not in _OPENCV_DTYPES and img.dtype != np.bool_:
        names = ", ".join(np.dtype(t).name for t in _OPENCV_DTYPES)
        raise RuntimeError(f"RandomLighting: Cannot convert from OpenCV type, unknown CV type. "
                           f"Currently supported data type: [{names}].")


class RandomLighting(TensorOperation):
    """RandomLighting(alpha=0.05): AlexNet's PCA lighting, the same (r, g, b) shift added to
    every pixel of an RGB image; uint8 saturated and truncated (as MindSpore's Python path),
    float32 unclipped (MindSpore 2.10's float32 kernel gives values like 1e32: README)."""

    is_random = True
    pil_input = "image"

    def __init__(self, alpha=0.05):
        self.alpha = check_number(alpha, "alpha", 0, MAX_SIZE)

    def _compute(self, img, rng):
        _check_lighting_input(img)
        if img.ndim != 3 or img.shape[2] != 3:
            shape = ",".join(str(n) for n in img.shape)
            raise RuntimeError(f"RandomLighting: input tensor is not in shape of <H,W,C> or "
                               f"channel is not 3, got rank: {img.ndim}, and shape: <{shape}>")
        img = color._rgb_image(img, "RandomLighting", (np.uint8, np.float32))
        if self.alpha == 0:
            return img
        shift = lighting_shift(rng, self.alpha)
        if img.dtype == np.float32:
            return img + shift.astype(np.float32)
        return np.clip(img + shift, 0, 255).astype(np.uint8)

    def _compute_pil(self, img, rng):
        """MindSpore's Python path: the image as RGB, shifted; an RGB image back."""
        from PIL import Image
        rgb = np.asarray(img.convert("RGB") if img.mode != "RGB" else img)
        return Image.fromarray(self._compute(rgb, rng))
