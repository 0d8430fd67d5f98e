"""The colour-space ops MindSpore 2.x implements in Python only: RgbToHsv, HsvToRgb,
LinearTransformation (numpy arrays, any numeric dtype, float64 results) and RandomGrayscale
(PIL images as MindSpore's; here RGB and gray uint8 arrays too). The HSV conversions are
colorsys's formulas (MindSpore maps colorsys over every pixel), vectorised in float64."""
import numpy as np

from transforms_c._base import TensorOperation
from transforms_c._validate import check_bool, check_number, wrong_type


def _channel_planes(imgs, is_hwc, shape_words, dot):
    """The three channel planes of an image or batch (numpy, rank 3 or 4), with MindSpore's
    TypeErrors, and the channel axis."""
    if not isinstance(imgs, np.ndarray):
        raise TypeError(f"img should be NumPy image. Got {type(imgs)}{dot}")
    if imgs.ndim not in (3, 4):
        raise TypeError(f"img shape should be {shape_words}. Got {imgs.shape}.")
    axis = imgs.ndim - 1 if is_hwc else imgs.ndim - 3
    if imgs.shape[axis] != 3:
        raise TypeError(f"img should be 3 channels RGB img. Got {imgs.shape[axis]} channels.")
    planes = np.moveaxis(imgs.astype(np.float64), axis, 0)
    return planes, axis


def rgb_to_hsv(r, g, b):
    """colorsys.rgb_to_hsv on float64 planes: h, s in [0, 1], v = max(r, g, b)."""
    maxc = np.maximum(np.maximum(r, g), b)
    minc = np.minimum(np.minimum(r, g), b)
    spread = maxc - minc
    grey = spread == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(grey, 0.0, spread / maxc)
        rc, gc, bc = ((maxc - c) / spread for c in (r, g, b))
    h = np.where(r == maxc, bc - gc, np.where(g == maxc, 2.0 + rc - bc, 4.0 + gc - rc))
    h = np.where(grey, 0.0, (h / 6.0) % 1.0)
    return h, s, maxc


def hsv_to_rgb(h, s, v):
    """colorsys.hsv_to_rgb on float64 planes (the sector of h * 6 truncated, modulo 6)."""
    sector = np.trunc(h * 6.0)
    f = h * 6.0 - sector
    p, q, t = v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f))
    sector = np.mod(sector, 6)
    choices = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
    rgb = [np.select([sector == i for i in range(6)], [c[k] for c in choices])
           for k in range(3)]
    return tuple(np.where(s == 0.0, v, plane) for plane in rgb)


def rgb_to_hsvs(imgs, is_hwc):
    """RGB values (a CHW or HWC image, or an NCHW/NHWC batch) to HSV, float64 (h and s in
    [0, 1], v on the input's scale): RgbToHsv's computation (MindSpore's
    ``py_transforms_util.rgb_to_hsvs``)."""
    planes, axis = _channel_planes(imgs, is_hwc,
                                   "(H, W, C)/(N, H, W, C)/(C ,H, W)/(N, C, H, W)", "")
    return np.stack(rgb_to_hsv(*planes), axis=axis)


def hsv_to_rgbs(imgs, is_hwc):
    """HSV values (h and s in [0, 1]) to RGB, float64 on v's scale: HsvToRgb's computation
    (MindSpore's ``py_transforms_util.hsv_to_rgbs``)."""
    planes, axis = _channel_planes(imgs, is_hwc,
                                   "(H, W, C)/(N, H, W, C)/(C, H, W)/(N, C, H, W)", ".")
    return np.stack(hsv_to_rgb(*planes), axis=axis)


class RgbToHsv(TensorOperation):
    """RgbToHsv(is_hwc=False): RGB values (a CHW or HWC image, or an NCHW/NHWC batch) to HSV,
    float64 (h and s in [0, 1], v on the input's scale)."""

    pil_input = "own"       # MindSpore refuses a PIL image (TypeError)

    def __init__(self, is_hwc=False):
        self.is_hwc = check_bool(is_hwc, "is_hwc")

    def _compute(self, img, rng):
        return rgb_to_hsvs(img, self.is_hwc)


class HsvToRgb(TensorOperation):
    """HsvToRgb(is_hwc=False): HSV values (h and s in [0, 1]; a CHW or HWC image, or an
    NCHW/NHWC batch) to RGB, float64 on v's scale."""

    pil_input = "own"

    def __init__(self, is_hwc=False):
        self.is_hwc = check_bool(is_hwc, "is_hwc")

    def _compute(self, img, rng):
        return hsv_to_rgbs(img, self.is_hwc)


class LinearTransformation(TensorOperation):
    """LinearTransformation(transformation_matrix, mean_vector): the flattened image minus
    mean_vector, times the (D, D) matrix (D = the image's size), reshaped back (ZCA
    whitening ...); a float64 result, as MindSpore's numpy arithmetic."""

    pil_input = "own"

    def __init__(self, transformation_matrix, mean_vector):
        if not isinstance(transformation_matrix, np.ndarray):
            raise wrong_type("transformation_matrix", transformation_matrix, np.ndarray)
        if not isinstance(mean_vector, np.ndarray):
            raise wrong_type("mean_vector", mean_vector, np.ndarray)
        shape = transformation_matrix.shape
        if transformation_matrix.ndim < 2:    # MindSpore's IndexError (it reads shape[1])
            raise IndexError(f"tuple index out of range: transformation_matrix should be a "
                             f"(D, D) matrix, got shape {shape}")
        if shape[0] != shape[1]:
            raise ValueError(f"transformation_matrix should be a square matrix. Got shape "
                             f"{shape} instead.")
        if mean_vector.shape[0] != shape[0]:
            # MindSpore's words (its "square" and "transformation_matrix" run together)
            raise ValueError(f"mean_vector length {mean_vector.shape[0]} should match either "
                             f"one dimension of the squaretransformation_matrix {shape}.")
        self.transformation_matrix = transformation_matrix
        self.mean_vector = mean_vector

    def __call__(self, *arrays):
        """MindSpore's words for an eager input that is not a numpy array (a PIL image, a
        list ...), in place of the other image ops' words."""
        for img in arrays:
            if not isinstance(img, np.ndarray):
                raise TypeError(f"img should be NumPy array. Got {type(img)}")
        return super().__call__(*arrays)

    def _compute(self, img, rng):
        if not isinstance(img, np.ndarray):
            raise TypeError(f"img should be NumPy array. Got {type(img)}")
        if self.transformation_matrix.ndim != 2:
            # MindSpore takes a (D, D, ...) matrix, then fails on every image, with these words
            raise ValueError("Linear transform failed, input shape should match with "
                             "transformation_matrix.")
        size = self.transformation_matrix.shape[0]
        if img.size != size:
            raise ValueError(f"transformation_matrix shape {self.transformation_matrix.shape} "
                             f"not compatible with Numpy image shape {img.shape}.")
        centred = img.reshape(1, -1) - self.mean_vector
        return np.dot(centred, self.transformation_matrix).reshape(img.shape)


class RandomGrayscale(TensorOperation):
    """RandomGrayscale(prob=0.1): with probability prob, the image's grey (Pillow's luma, as
    Grayscale), keeping its channel count: an L image stays L, any other PIL image becomes a
    three-channel RGB one (as MindSpore's); an RGB uint8 array gives three equal channels, a
    gray one stays gray (MindSpore takes PIL images only)."""

    is_random = True
    pil_input = "image"

    def __init__(self, prob=0.1):
        self.prob = check_number(prob, "prob", 0.0, 1.0)

    def _compute(self, img, rng):
        from transforms_c.vision.color import Grayscale, grayscale_pixels
        grayscale_pixels(img, "RandomGrayscale")     # refused whatever the draw
        if rng.random() >= self.prob:
            return img
        channels = 1 if img.ndim == 2 or img.shape[2] == 1 else 3
        out = Grayscale(channels)._compute(img, None)
        return out.reshape(img.shape) if channels == 1 else out

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_color import pil_grayscale
        if rng.random() >= self.prob:
            return img
        return pil_grayscale(img, 1 if img.mode == "L" else 3)

