"""MindSpore's Pillow path of the geometric ops: what its unified ops compute when they are given
a PIL image (they then run their Python implementation, not the C++ kernel). Resampling with
Pillow's filters gives other pixels than the numpy path, so the ops here call these functions on
a PIL image (`_compute_pil`) and give back a PIL image. Imported only once a PIL image exists."""
import math

import numpy as np
from PIL import Image, ImageOps

from transforms_c._validate import is_int, size_hw
from transforms_c.enums import Border, Inter
from transforms_c.vision.crop import random_crop_window
from transforms_c.vision.resized_crop import window_draws

#: Pillow's filter for each Inter (MindSpore refuses AREA and PILCUBIC on a PIL image before).
PIL_FILTER = {Inter.NEAREST: Image.NEAREST, Inter.BILINEAR: Image.BILINEAR,
              Inter.BICUBIC: Image.BICUBIC, Inter.ANTIALIAS: Image.LANCZOS,
              Inter.AREA: Image.BOX, Inter.PILCUBIC: Image.BICUBIC}


def pil_fill(img, fill_value):
    """The fill colour for `img` from a validated (r, g, b) fill_value: its first value for a
    one-band image, else the tuple (Pillow paints a 4-band image opaque with it)."""
    return fill_value[0] if len(img.getbands()) == 1 else tuple(fill_value)


def resized_size(width, height, size):
    """Pillow's (width, height) for Resize(size): an int sets the shorter side, the other is
    truncated from the aspect ratio as MindSpore's Python path computes it."""
    if not is_int(size):
        return size[1], size[0]
    aspect = width / height
    if width < height:
        return size, int(size / aspect)
    return int(size * aspect), size


def pil_resize(img, size, interpolation):
    width, height = resized_size(img.width, img.height, size)
    if (width, height) == img.size:
        return img
    return img.resize((width, height), PIL_FILTER[interpolation])


def pil_crop(img, top, left, height, width):
    """Pillow's crop: the part of the window outside the image is zeros."""
    return img.crop((left, top, left + width, top + height))


def pil_center_crop(img, size):
    """The centred window (rounded half to even); a window larger than the image is padded
    with zeros, as Pillow's crop does."""
    crop_h, crop_w = size_hw(size)
    top = int(round((img.height - crop_h) / 2.0))
    left = int(round((img.width - crop_w) / 2.0))
    return pil_crop(img, top, left, crop_h, crop_w)


def check_crop_fits(img, crop_h, crop_w):
    """MindSpore's Python path refuses a window larger than the image (ValueError)."""
    if crop_h > img.height or crop_w > img.width:
        raise ValueError(f"Crop size {(crop_h, crop_w)} is larger than input image size "
                         f"{(img.height, img.width)}.")


def pil_five_crop(img, size):
    """The top-left, top-right, bottom-left and bottom-right windows and the centred one."""
    crop_h, crop_w = size_hw(size)
    check_crop_fits(img, crop_h, crop_w)
    bottom, right = img.height - crop_h, img.width - crop_w
    corners = [pil_crop(img, top, left, crop_h, crop_w)
               for top, left in ((0, 0), (0, right), (bottom, 0), (bottom, right))]
    return tuple(corners) + (pil_center_crop(img, size),)


def pil_ten_crop(img, size, use_vertical_flip):
    """FiveCrop's windows of the image, then of its mirror image (top-bottom or left-right)."""
    flip = Image.FLIP_TOP_BOTTOM if use_vertical_flip else Image.FLIP_LEFT_RIGHT
    return pil_five_crop(img, size) + pil_five_crop(img.transpose(flip), size)


def pil_pad(img, padding, fill_value, mode):
    """Pads by (left, top, right, bottom): Border.CONSTANT with fill_value, the other modes as
    numpy's pad of the same name."""
    left, top, right, bottom = padding
    if mode == Border.CONSTANT:
        return ImageOps.expand(img, border=(left, top, right, bottom),
                               fill=pil_fill(img, fill_value))
    arr = np.asarray(img)
    widths = ((top, bottom), (left, right)) + ((0, 0),) * (arr.ndim - 2)
    return Image.fromarray(np.pad(arr, widths, mode=Border(mode).value))


def pil_random_crop(img, size, padding, pad_if_needed, fill_value, mode, rng):
    """RandomCrop: pads by `padding` (None: not), then each side short of `size` by the
    shortfall on both sides when pad_if_needed, and crops a random window."""
    if padding is not None:
        img = pil_pad(img, padding, fill_value, mode)
    crop_h, crop_w = size_hw(size)
    if pad_if_needed:
        pad_w, pad_h = max(0, crop_w - img.width), max(0, crop_h - img.height)
        img = pil_pad(img, (pad_w, pad_h, pad_w, pad_h), fill_value, mode)
    check_crop_fits(img, crop_h, crop_w)
    return pil_crop(img, *random_crop_window(img.height, img.width, size, rng))


def pil_rotate(img, degrees, resample, expand, center, fill_value):
    angle = degrees % 360.0
    if resample == Inter.ANTIALIAS and (angle not in (0, 90, 180, 270) or center):
        # MindSpore's words (Pillow's LANCZOS rotates by quarter turns only)
        raise ValueError("When using Inter.ANTIALIAS, center needs to be None and angle needs "
                         "to be an integer multiple of 90.")
    return img.rotate(angle, PIL_FILTER[resample], expand, center,
                      fillcolor=pil_fill(img, fill_value))


def pil_resized_crop_box(height, width, scale, ratio, max_attempts, rng):
    """(top, left, h, w) as MindSpore's Python path derives it from its random draws: the
    window's height from its rounded width, and a centre-crop fallback rounded half to even
    (the native op rounds both sides from the area and centres by truncation)."""
    for target, aspect in window_draws(height * width, scale, ratio, max_attempts, rng):
        crop_w = int(round(math.sqrt(target * aspect)))
        crop_h = int(round(crop_w / aspect))
        if 0 < crop_w <= width and 0 < crop_h <= height:
            top = rng.randint(0, height - crop_h)
            left = rng.randint(0, width - crop_w)
            return top, left, crop_h, crop_w
    in_ratio = width / height
    if in_ratio < ratio[0]:
        crop_w, crop_h = width, int(round(width / ratio[0]))
    elif in_ratio > ratio[1]:
        crop_w, crop_h = int(round(height * ratio[1])), height
    else:
        crop_w, crop_h = width, height
    return int(round((height - crop_h) / 2.)), int(round((width - crop_w) / 2.)), crop_h, crop_w


def pil_random_resized_crop(img, size, scale, ratio, interpolation, max_attempts, rng):
    """Crops the window, then resizes the crop alone (Pillow's resize(box=) would also blend
    the pixels just outside the window into its edges)."""
    top, left, crop_h, crop_w = pil_resized_crop_box(img.height, img.width, scale, ratio,
                                                     max_attempts, rng)
    out_h, out_w = size_hw(size)
    return pil_crop(img, top, left, crop_h, crop_w).resize((out_w, out_h),
                                                           PIL_FILTER[interpolation])


def pil_affine(img, angle, translations, scale, shear, resample, fill_value):
    """MindSpore's Python RandomAffine on drawn values: Pillow's affine transform of the image
    (same size) by the inverse of rotate(angle) and shear (x, y) (degrees) about the centre
    (width / 2 + 0.5, height / 2 + 0.5), scale, then translate by translations (pixels).
    resample is an Inter (ANTIALIAS gives Pillow's ValueError, as in MindSpore). The outside is
    fill_value (MindSpore passes it only when the text of Pillow's version sorts after '5', a
    string comparison, so with Pillow 10 and later its outside is black: a README deviation)."""
    cx, cy = img.width * 0.5 + 0.5, img.height * 0.5 + 0.5
    tx, ty = translations
    rot = math.radians(angle)
    sx, sy = math.radians(shear[0]), math.radians(shear[1])
    inverse = 1.0 / scale
    det = math.cos(rot + sx) * math.cos(rot + sy) + math.sin(rot + sx) * math.sin(rot + sy)
    a, b = math.cos(rot + sx), math.sin(rot + sx)
    d, e = -math.sin(rot + sy), math.cos(rot + sy)
    a, b, d, e = (inverse / det * v for v in (a, b, d, e))
    c = a * (-cx - tx) + b * (-cy - ty) + cx
    f = d * (-cx - tx) + e * (-cy - ty) + cy
    return img.transform(img.size, Image.AFFINE, [a, b, c, d, e, f], PIL_FILTER[resample],
                         fillcolor=_pil_fill(img, fill_value))


def _pil_fill(img, fill_value):
    """fill_value (one value or an RGB triple) as the fill colour of the image's mode."""
    values = tuple(fill_value) if isinstance(fill_value, (tuple, list)) else (fill_value,)
    bands = len(img.getbands())
    if bands == 1:
        return values[0]
    return (values * 3)[:3] + (255,) * (bands - 3) if len(values) == 1 else \
        values[:bands] + (255,) * (bands - len(values))
