"""MindSpore's Pillow path of the colour ops: what its unified AutoContrast, Equalize, Invert,
RandomSharpness, RandomColorAdjust and Grayscale compute when they are given a PIL image (they
then run their Python implementation, not the C++ kernel). Pillow's arithmetic gives other pixels
than the numpy path, so the ops call these functions on a PIL image (`_compute_pil`) and give back
a PIL image. Imported only once a PIL image exists."""
import numpy as np
from PIL import Image, ImageEnhance, ImageOps


def pil_autocontrast(img, cutoff, ignore):
    return ImageOps.autocontrast(img, cutoff, list(ignore) or None)


def pil_invert(img):
    return ImageOps.invert(img)


def pil_equalize(img):
    return ImageOps.equalize(img)


def pil_sharpness(img, factor):
    return ImageEnhance.Sharpness(img).enhance(factor)


def pil_brightness(img, factor):
    return ImageEnhance.Brightness(img).enhance(factor)


def pil_contrast(img, factor):
    return ImageEnhance.Contrast(img).enhance(factor)


def pil_saturation(img, factor):
    return ImageEnhance.Color(img).enhance(factor)


def pil_hue(img, factor):
    """The hue band of Pillow's HSV shifted by factor (in [-0.5, 0.5]) of a turn, as MindSpore's
    Python path does it: the shift is factor * 255 truncated, added modulo 256; one-band images
    are returned as they are."""
    if img.mode in ("L", "1", "I", "F"):
        return img
    hue, saturation, value = img.convert("HSV").split()
    shift = int(factor * 255) % 256
    hue = Image.fromarray((np.asarray(hue).astype(np.int32) + shift).astype(np.uint8), "L")
    return Image.merge("HSV", (hue, saturation, value)).convert(img.mode)


def pil_grayscale(img, num_output_channels):
    """Pillow's luma (ITU-R 601-2), as one band or three equal ones."""
    gray = img.convert("L")
    return Image.merge("RGB", (gray, gray, gray)) if num_output_channels == 3 else gray
