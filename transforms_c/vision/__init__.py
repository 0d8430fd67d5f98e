"""Vision ops with MindSpore's names, arguments and defaults (mindspore.dataset.vision)."""
from transforms_c.enums import Border, ConvertMode, ImageBatchFormat, Inter
from transforms_c.vision.crop import CenterCrop, Crop, Pad, RandomCrop
from transforms_c.vision.decode import Decode
from transforms_c.vision.flip import (HorizontalFlip, RandomHorizontalFlip, RandomVerticalFlip,
                                      VerticalFlip)
from transforms_c.vision.normalize import HWC2CHW, Normalize, NormalizePad, Rescale
from transforms_c.vision.resize import Resize
from transforms_c.vision.resized_crop import RandomCropDecodeResize, RandomResizedCrop

__all__ = [
    "Border", "ConvertMode", "ImageBatchFormat", "Inter",
    "CenterCrop", "Crop", "Pad", "RandomCrop", "Decode", "HorizontalFlip",
    "RandomHorizontalFlip", "RandomVerticalFlip", "VerticalFlip", "HWC2CHW", "Normalize",
    "NormalizePad", "Rescale", "Resize", "RandomCropDecodeResize", "RandomResizedCrop",
]
