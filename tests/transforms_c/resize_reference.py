"""References for Resize's bits: MindSpore resizes with OpenCV built without IPP (its
cmake/external_libs/opencv.cmake sets WITH_IPP=OFF) and, for Inter.PILCUBIC, with a copy of
Pillow's bicubic resampling that always runs the horizontal pass first."""
import contextlib

import cv2
import numpy as np
from PIL import Image

from transforms_c.vision import Inter

CV2 = {Inter.NEAREST: cv2.INTER_NEAREST, Inter.BILINEAR: cv2.INTER_LINEAR,
       Inter.BICUBIC: cv2.INTER_CUBIC, Inter.AREA: cv2.INTER_AREA}


@contextlib.contextmanager
def opencv_without_ipp():
    """OpenCV's own kernels: the opencv-python wheel would otherwise send some resizes (cubic)
    through Intel IPP, whose rounding and borders differ."""
    previous = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(False)
    try:
        yield
    finally:
        cv2.ipp.setUseIPP(previous)


def opencv_resize(img, out_h, out_w, interp):
    """cv2.resize as MindSpore's OpenCV computes it; keeps a channel axis of size 1."""
    with opencv_without_ipp():
        out = cv2.resize(img, (out_w, out_h), interpolation=CV2[interp])
    return out.reshape(out_h, out_w, img.shape[2]) if img.ndim == 3 else out


def pillow_bicubic(img, out_h, out_w):
    """Pillow's bicubic with the horizontal pass first: a width-only resize, then a height-only
    one (each a single pass). Pillow >= 13 alone may run the vertical pass first."""
    step = Image.fromarray(img).resize((out_w, img.shape[0]), Image.BICUBIC)
    return np.asarray(step.resize((out_w, out_h), Image.BICUBIC))
