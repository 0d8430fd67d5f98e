"""Enums of mindspore.dataset.vision, with MindSpore's member values."""
from enum import Enum, IntEnum

import cv2


class Inter(IntEnum):
    """Interpolation modes (MindSpore's values)."""
    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = 2
    LINEAR = 2
    BICUBIC = 3
    CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, Enum):
    """Padding modes."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class AutoAugmentPolicy(str, Enum):
    """AutoAugment's learned policies (MindSpore's values)."""
    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


class ImageBatchFormat(IntEnum):
    NHWC = 0
    NCHW = 1


class ImageReadMode(IntEnum):
    """How read_image decodes a file (MindSpore's values)."""
    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


class SliceMode(IntEnum):
    """SlicePatches' handling of a remainder: PAD pads the image up to whole patches, DROP cuts
    the remainder off (MindSpore's values)."""
    PAD = 0
    DROP = 1


class ConvertMode(IntEnum):
    """Colour conversions of ConvertColor (MindSpore's values)."""
    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


# OpenCV codes for each ConvertMode value.
CV2_CONVERT_CODES = {
    0: cv2.COLOR_BGR2BGRA, 1: cv2.COLOR_BGRA2BGR, 2: cv2.COLOR_BGR2RGBA, 3: cv2.COLOR_RGBA2BGR,
    4: cv2.COLOR_BGR2RGB, 5: cv2.COLOR_BGRA2RGBA, 6: cv2.COLOR_BGR2GRAY, 7: cv2.COLOR_RGB2GRAY,
    8: cv2.COLOR_GRAY2BGR, 9: cv2.COLOR_GRAY2BGRA, 10: cv2.COLOR_BGRA2GRAY, 11: cv2.COLOR_RGBA2GRAY,
}

# OpenCV interpolation flags for each Inter (ANTIALIAS and PILCUBIC have no OpenCV twin:
# ANTIALIAS maps to AREA, PILCUBIC to CUBIC, as MindSpore's OpenCV path does).
CV2_INTER = {
    Inter.NEAREST: cv2.INTER_NEAREST, Inter.ANTIALIAS: cv2.INTER_AREA,
    Inter.BILINEAR: cv2.INTER_LINEAR, Inter.BICUBIC: cv2.INTER_CUBIC, Inter.AREA: cv2.INTER_AREA,
    Inter.PILCUBIC: cv2.INTER_CUBIC,
}

CV2_BORDER = {
    Border.CONSTANT: cv2.BORDER_CONSTANT, Border.EDGE: cv2.BORDER_REPLICATE,
    Border.REFLECT: cv2.BORDER_REFLECT_101, Border.SYMMETRIC: cv2.BORDER_REFLECT,
}
