"""Rotate, RandomRotation and RandomAffine through cv2.warpAffine (cv2.remap for nearest
neighbour; GIL released)."""
import math
import numbers

import cv2
import numpy as np

from transforms_c._base import TensorOperation, decode_hint_rank_words, image_hwc
from transforms_c._validate import (INT32_MAX, MAX_SIZE, check_bool, check_enum,
                                    check_fill_value, check_float, check_range,
                                    check_symmetric_range, check_type, is_number)
from transforms_c.enums import CV2_INTER, Inter
from transforms_c.vision.crop import CV2_DTYPES
from transforms_c.vision.resize import UNSUPPORTED_INTERPOLATION, check_array_interpolation


def _border_value(fill_value, img):
    """One value per channel: the fill's (then 0 for a fourth channel), as OpenCV's 4-value
    border scalar; past 4 channels OpenCV repeats that scalar (channel c gets its value c % 4),
    as MindSpore 2.10 gives (an image of 5 or more channels: an N x H x W batch is one)."""
    channels = 1 if img.ndim == 2 else img.shape[2]
    if channels == 1:
        return fill_value[0]
    scalar = tuple(fill_value) + (0,)      # (fill_value: 3 values)
    return tuple(scalar[c % 4] for c in range(channels))


# Warps sample their source as OpenCV 4 (MindSpore's build) does: coordinates in 1/1024 pixel,
# rounded per row and per column, then for nearest neighbour plus half a pixel and floored, for
# bilinear and bicubic cut to 1/32 pixel whose fraction picks fixed-point weights. OpenCV 5's
# warpAffine rounds otherwise (a pixel in 100 differs for nearest, one in 2 by a level or more
# for bilinear); cv2.remap with the same fixed-point maps gives OpenCV 4's values.
_AB_BITS, _INTER_BITS = 10, 5
_MAX_FIXED_SIDE = 32000         # the maps are int16


def _fixed_point_coords(matrix, out_w, out_h, shift, round_delta):
    """Per output pixel, the source (x, y) in units of 2**-(AB_BITS - shift) pixel."""
    inv = cv2.invertAffineTransform(matrix)
    cols = np.arange(out_w, dtype=np.float64)
    rows = np.arange(out_h, dtype=np.float64)
    out = []
    for k in range(2):
        per_col = np.rint(inv[k, 0] * cols * (1 << _AB_BITS)).astype(np.int64)
        per_row = (np.rint((inv[k, 1] * rows + inv[k, 2]) * (1 << _AB_BITS)).astype(np.int64)
                   + round_delta)
        out.append((per_row[:, None] + per_col[None, :]) >> shift)
    return out


def _remap_like_opencv4(img, matrix, out_w, out_h, resample, border):
    height, width = img.shape[:2]
    if resample == Inter.NEAREST:
        x, y = _fixed_point_coords(matrix, out_w, out_h, _AB_BITS, 1 << (_AB_BITS - 1))
        return cv2.remap(img, x.astype(np.float32), y.astype(np.float32), cv2.INTER_NEAREST,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    shift = _AB_BITS - _INTER_BITS
    x, y = _fixed_point_coords(matrix, out_w, out_h, shift, 1 << (shift - 1))
    mask = (1 << _INTER_BITS) - 1
    # Far outside stays outside (and within int16): only the border value reaches there.
    ix = np.clip(x >> _INTER_BITS, -4, width + 3)
    iy = np.clip(y >> _INTER_BITS, -4, height + 3)
    map1 = np.stack([ix, iy], axis=-1).astype(np.int16)
    map2 = (((y & mask) << _INTER_BITS) | (x & mask)).astype(np.uint16)
    return cv2.remap(img, map1, map2, CV2_INTER[resample], borderMode=cv2.BORDER_CONSTANT,
                     borderValue=border)


def _warp(img, matrix, out_w, out_h, resample, fill_value, op_name):
    if resample == Inter.BICUBIC and img.ndim == 3 and img.shape[2] > 4:    # MindSpore's words
        raise RuntimeError(f"{op_name}: interpolation can not be CUBIC when image channel is "
                           f"greater than 4.")
    if img.dtype.type not in CV2_DTYPES:
        # an image OpenCV cannot warp (64-bit ints, uint32, float16): its values as float64
        out = _warp(img.astype(np.float64), matrix, out_w, out_h, resample, fill_value, op_name)
        return (np.rint(out) if img.dtype.kind in "iu" else out).astype(img.dtype)
    border = _border_value(fill_value, img)
    if img.ndim == 3 and img.shape[2] > 4:
        # OpenCV's border value holds 4 channels: warp the channels 4 at a time.
        return np.concatenate([_warp_channels(img[:, :, c:c + 4], matrix, out_w, out_h,
                                              resample, border[c:c + 4], op_name)
                               for c in range(0, img.shape[2], 4)], axis=2)
    return _warp_channels(img, matrix, out_w, out_h, resample, border, op_name)


def _warp_channels(img, matrix, out_w, out_h, resample, border, op_name):
    if resample == Inter.ANTIALIAS:
        raise RuntimeError(f"{op_name}: {UNSUPPORTED_INTERPOLATION}")
    # OpenCV's warpAffine samples INTER_AREA bilinearly.
    resample = Inter.LINEAR if resample == Inter.AREA else resample
    if resample == Inter.CUBIC and img.dtype == np.float64:
        # OpenCV 5's bicubic remap of float64 images is wrong (values off by up to the image's
        # range; its float32 one and OpenCV 4's float64 one, MindSpore's, agree to 2e-7): warp
        # the values as float32
        return _warp_channels(img.astype(np.float32), matrix, out_w, out_h, resample, border,
                              op_name).astype(np.float64)
    try:
        if (resample in (Inter.NEAREST, Inter.LINEAR, Inter.CUBIC)
                and max(img.shape[0], img.shape[1], out_w, out_h) <= _MAX_FIXED_SIDE):
            out = _remap_like_opencv4(img, matrix, out_w, out_h, resample, border)
        else:
            out = cv2.warpAffine(img, matrix, (out_w, out_h), flags=CV2_INTER[resample],
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    except cv2.error as exc:
        raise RuntimeError(f"{op_name}: warp failed for shape {img.shape}, dtype {img.dtype}: "
                           f"{exc}") from None
    return out[:, :, None] if img.ndim == 3 and out.ndim == 2 else out


def rotate_array(img, degrees, resample, expand, center, fill_value, op_name="Rotate"):
    """Counter-clockwise rotation by `degrees` about `center` ((x, y); default the image centre);
    expand grows the canvas to hold the whole rotated image."""
    height, width = img.shape[:2]
    if center is None:
        center = ((width - 1) * 0.5, (height - 1) * 0.5)
    matrix = cv2.getRotationMatrix2D((float(center[0]), float(center[1])), float(degrees), 1.0)
    out_w, out_h = width, height
    if expand:
        # The rotated image's bounding box: its size rounded is the canvas; the shift that
        # centres it uses the unrounded size (as MindSpore does).
        cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
        box_w, box_h = height * sin + width * cos, height * cos + width * sin
        out_w, out_h = int(round(box_w)), int(round(box_h))
        matrix[0, 2] += (box_w - width) * 0.5
        matrix[1, 2] += (box_h - height) * 0.5
    # fill_value as given (MindSpore 2.10 paints it reversed: a README deviation)
    return _warp(img, matrix, max(out_w, 1), max(out_h, 1), resample, fill_value, op_name)


def _check_center(center):
    """None or an (x, y) tuple (MindSpore refuses a list too)."""
    if center is None:
        return None
    if not (isinstance(center, tuple) and len(center) == 2):
        raise ValueError("Value center needs to be a 2-tuple.")
    return tuple(check_float(c, "center", -2147483648, INT32_MAX) for c in center)


def _check_rotation_degrees(degrees):
    """RandomRotation's degrees, with MindSpore's words: d >= 0 (-> (-d, d)) or a (min, max)
    pair, each within float32's exact integers."""
    check_type(degrees, (int, float, list, tuple), "degrees")
    if not is_number(degrees) and len(degrees) != 2:
        raise TypeError("If degrees is a sequence, the length must be 2.")
    return check_symmetric_range(degrees, "degrees", MAX_SIZE)


class Rotate(TensorOperation):
    """Rotate(degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0)."""

    batched = True

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        check_type(degrees, (float, int), "degrees")    # MindSpore's order of the types
        self.degrees = check_float(degrees, "degrees", -MAX_SIZE, MAX_SIZE)
        self.resample = check_enum(resample, Inter, "resample")
        self.expand = check_bool(expand, "expand")
        self.center = _check_center(center)
        self.fill_value = check_fill_value(fill_value)

    def _compute(self, img, rng):
        image_hwc(img, "Rotate")
        return rotate_array(img, self.degrees, self.resample, self.expand, self.center,
                            self.fill_value)


class RandomRotation(TensorOperation):
    """RandomRotation(degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
    degrees d means (-d, d)."""

    is_random = True
    pil_input = "image"
    pil_refused_interpolations = (Inter.AREA, Inter.PILCUBIC)
    interpolation_attr = "resample"

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees = _check_rotation_degrees(degrees)
        self.resample = check_enum(resample, Inter, "resample")
        self.expand = check_bool(expand, "expand")
        self.center = _check_center(center)
        self.fill_value = check_fill_value(fill_value)

    def _compute_pil(self, img, rng):
        # Pillow's own output size with expand, and its fill of a 4-band image
        from transforms_c.vision.pil_geometry import pil_rotate
        return pil_rotate(img, rng.uniform(*self.degrees), self.resample, self.expand,
                          self.center, self.fill_value)

    def _compute(self, img, rng):
        # MindSpore names its kernel, Rotate, in its rank error
        image_hwc(img, "Rotate", rank_words=decode_hint_rank_words)
        check_array_interpolation(self.resample)
        return rotate_array(img, rng.uniform(*self.degrees), self.resample, self.expand,
                            self.center, self.fill_value, "RandomRotation")


def affine_matrix(center, angle, translate, scale, shear):
    """2x3 forward matrix: rotate by angle and shear (degrees) and scale about center, then
    translate (the composition torchvision and MindSpore use), in MindSpore 2.10's float32
    arithmetic: angles turned to float32 radians, their sines, cosines and tangents and the
    products in float32, then the offsets from a float32 centre and shift (measured: Affine is
    pixel-exact on 108 cases this way; in float64 a few pixels of a sheared bilinear warp
    moved by up to 6 levels)."""
    f32 = np.float32
    cx, cy = f32(center[0]), f32(center[1])
    rot = f32(math.radians(angle))
    sx, sy = f32(math.radians(shear[0])), f32(math.radians(-shear[1]))
    s = f32(scale)
    turn = f32(rot + sy)
    cos_sy = np.cos(sy)
    a = s * np.cos(turn) / cos_sy
    b = s * (-np.cos(turn) * np.tan(sx) / cos_sy - np.sin(rot))
    c = s * np.sin(turn) / cos_sy
    d = s * (-np.sin(turn) * np.tan(sx) / cos_sy + np.cos(rot))
    tx = (f32(1) - a) * cx - b * cy + f32(translate[0])
    ty = (f32(1) - d) * cy - c * cx + f32(translate[1])
    return np.array([[a, b, tx], [c, d, ty]], dtype=np.float64)


# RandomAffine's ranges, checked with MindSpore's words.

def _numbers(values, name, types, lengths, length_words):
    check_type(values, types, name)
    for i, value in enumerate(values):
        check_type(value, (int, float), f"{name}[{i}]")
    if len(values) not in lengths:
        raise TypeError(length_words)
    return tuple(float(v) for v in values)


def _affine_translate(translate):
    """(tx, ty) -> (-tx, tx, -ty, ty), or (min_x, max_x, min_y, max_y): fractions in [-1, 1]."""
    values = _numbers(translate, "translate", (list, tuple), (2, 4),
                      "translate should be a list or tuple of length 2 or 4.")
    for i, value in enumerate(values):
        check_range(value, f"translate at {i}", -1.0, 1.0)
    return (-values[0], values[0], -values[1], values[1]) if len(values) == 2 else values


def _affine_scale(scale):
    values = _numbers(scale, "scale", (tuple, list), (2,),
                      "scale should be a list or tuple of length 2.")
    if values[0] > values[1]:
        raise ValueError("Input scale[1] must be equal to or greater than scale[0].")
    for value in values:
        check_range(value, "", 0, MAX_SIZE)
    if values[1] <= 0:
        raise ValueError("Input scale[1] must be greater than 0.")
    return values


def _affine_shear(shear):
    """s > 0 -> x shear in (-s, s); (min_x, max_x) or (min_x, max_x, min_y, max_y)."""
    check_type(shear, (numbers.Number, tuple, list), "shear")
    if is_number(shear):
        if shear <= 0:
            raise ValueError("Input shear must be greater than 0.")
        return -float(shear), float(shear), 0.0, 0.0
    values = _numbers(shear, "shear", (tuple, list), (2, 4), "shear must be of length 2 or 4.")
    if values[0] > values[1]:
        raise ValueError("Input shear[1] must be equal to or greater than shear[0]")
    if len(values) == 4 and values[2] > values[3]:
        raise ValueError("Input shear[1] must be equal to or greater than shear[0] and "
                         "shear[3] must be equal to or greater than shear[2].")
    return values if len(values) == 4 else values + (0.0, 0.0)


class RandomAffine(TensorOperation):
    """RandomAffine(degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
    fill_value=0)."""

    is_random = True
    pil_input = "image"
    pil_refused_interpolations = (Inter.AREA, Inter.PILCUBIC)
    interpolation_attr = "resample"

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
                 fill_value=0):
        self.degrees = _check_rotation_degrees(degrees)
        self.translate = (0.0,) * 4 if translate is None else _affine_translate(translate)
        self.scale = (1.0, 1.0) if scale is None else _affine_scale(scale)
        self.shear = (0.0,) * 4 if shear is None else _affine_shear(shear)
        self.resample = check_enum(resample, Inter, "resample")
        self.fill_value = check_fill_value(fill_value)

    def _compute_pil(self, img, rng):
        """MindSpore's Python path (Pillow's affine transform, pil_geometry.pil_affine), with
        its draws: angle, x and y shifts (uniform in +-fraction * size, rounded half to even),
        scale, x and y shears."""
        from transforms_c.vision.pil_geometry import pil_affine
        angle = rng.uniform(*self.degrees)
        # the documented ranges, as the array path draws them (MindSpore's Python path reads
        # the first two values as the largest x and y shifts: a README deviation)
        translations = (float(np.round(rng.uniform(*self.translate[:2]) * img.width)),
                        float(np.round(rng.uniform(*self.translate[2:]) * img.height)))
        scale = rng.uniform(*self.scale)
        shear = (rng.uniform(self.shear[0], self.shear[1]),
                 rng.uniform(self.shear[2], self.shear[3]))
        return pil_affine(img, angle, translations, scale, shear, self.resample,
                          self.fill_value)

    def _compute(self, img, rng):
        image_hwc(img, "RandomAffine")
        if self.resample == Inter.ANTIALIAS:    # Pillow's only, as MindSpore words it
            raise ValueError("Input image should be a Pillow image.")
        height, width = img.shape[:2]
        angle = rng.uniform(*self.degrees)
        tx = rng.uniform(self.translate[0], self.translate[1]) * width
        ty = rng.uniform(self.translate[2], self.translate[3]) * height
        scale = rng.uniform(*self.scale)
        shear = (rng.uniform(self.shear[0], self.shear[1]),
                 rng.uniform(self.shear[2], self.shear[3]))
        return affine_array(img, angle, (round(tx), round(ty)), scale, shear, self.resample,
                            self.fill_value, "RandomAffine")


def affine_array(img, angle, translate, scale, shear, resample, fill_value, op_name):
    """The image rotated by angle (degrees, clockwise in image coordinates) and sheared by
    (x, y) degrees and scaled about its centre, then translated by (x, y) pixels; same size."""
    height, width = img.shape[:2]
    matrix = affine_matrix(((width - 1) * 0.5, (height - 1) * 0.5), angle, translate, scale,
                           shear)
    return _warp(img, matrix, width, height, resample, fill_value, op_name)


def _check_affine_shear(shear):
    """A number (x shear) or an (x, y) pair, each in [-180, 180] -> (x, y)."""
    if is_number(shear):
        return check_float(shear, "shear", -180, 180), 0.0
    check_type(shear, (numbers.Number, tuple, list), "shear")
    if len(shear) != 2:
        raise TypeError("The length of shear should be 2.")
    return tuple(check_float(v, f"shear[{i}]", -180, 180) for i, v in enumerate(shear))


class Affine(TensorOperation):
    """Affine(degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0): rotates
    clockwise by degrees (as RandomAffine, where Rotate turns counter-clockwise) and shears by
    shear (one value: x only) about the centre, scales, and translates by translate (fractions
    of the width and height)."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        self.degrees = check_float(degrees, "degrees", -180, 180)
        check_type(translate, (list, tuple), "translate")
        if len(translate) != 2:
            raise TypeError("The length of translate should be 2.")
        self.translate = tuple(check_float(t, f"translate[{i}]", -1.0, 1.0)
                               for i, t in enumerate(translate))
        self.scale = check_float(scale, "scale")
        if self.scale <= 0:
            raise ValueError("Input scale must be greater than 0.")
        self.shear = _check_affine_shear(shear)
        self.resample = check_enum(resample, Inter, "resample")
        self.fill_value = check_fill_value(fill_value)

    def _compute(self, img, rng):
        image_hwc(img, "Affine")
        height, width = img.shape[:2]
        translate = (self.translate[0] * width, self.translate[1] * height)
        return affine_array(img, self.degrees, translate, self.scale, self.shear,
                            self.resample, self.fill_value, "Affine")
