"""Encoding decoded image arrays (CIFAR, MNIST) into the bytes stored in MindRecord.

MindSpore's Cifar10ToMR/Cifar100ToMR/MnistToMR store ``cv2.imencode(".jpeg", ...)`` output
(OpenCV's default quality 95): lossy, but what ported pipelines (``Decode()``) expect. ``png``
is offered for a lossless round trip. OpenCV releases the GIL while encoding, so loader threads
encode in parallel.
"""
import cv2
import numpy as np

IMAGE_FORMATS = ("jpeg", "png")


def check_image_format(image_format):
    if image_format not in IMAGE_FORMATS:
        raise ValueError(f"Parameter image_format must be one of {IMAGE_FORMATS}, "
                         f"got {image_format!r}.")
    return image_format


def encode_rgb(image, image_format):
    """HWC RGB (or HW / HW1 grey) uint8 array -> encoded bytes; colours kept as RGB on decode."""
    if image.ndim == 3 and image.shape[2] == 3:
        image = image[..., ::-1]          # OpenCV encodes BGR
    ok, buf = cv2.imencode("." + image_format, np.ascontiguousarray(image))
    if not ok:
        raise RuntimeError(f"OpenCV could not encode a {image.shape} image as {image_format}")
    return buf.tobytes()
