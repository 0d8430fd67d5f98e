"""Vision ops with MindSpore's names, arguments and defaults (mindspore.dataset.vision)."""
from transforms_c.enums import (AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat,
                                ImageReadMode, Inter, SliceMode)
from transforms_c.vision.adjust import (AdjustBrightness, AdjustContrast, AdjustGamma, AdjustHue,
                                        AdjustSaturation, AdjustSharpness, Posterize, Solarize)
from transforms_c.vision.auto_augment import AutoAugment, TrivialAugmentWide
from transforms_c.vision.batch_mix import CutMixBatch, MixUp, MixUpBatch
from transforms_c.vision.bbox import (BoundingBoxAugment, RandomCropWithBBox,
                                      RandomHorizontalFlipWithBBox, RandomResizeWithBBox,
                                      RandomResizedCropWithBBox, RandomVerticalFlipWithBBox,
                                      ResizeWithBBox)
from transforms_c.vision.color import (AutoContrast, ConvertColor, Equalize, GaussianBlur,
                                       Grayscale, Invert, RandomColorAdjust, RandomSharpness)
from transforms_c.vision.colour_space import (HsvToRgb, LinearTransformation, RandomGrayscale,
                                              RgbToHsv)
from transforms_c.vision.crop import CenterCrop, Crop, FiveCrop, Pad, RandomCrop, TenCrop
from transforms_c.vision.decode import Decode
from transforms_c.vision.erase import CutOut, Erase, RandomErasing
from transforms_c.vision.flip import (HorizontalFlip, RandomHorizontalFlip, RandomVerticalFlip,
                                      VerticalFlip)
from transforms_c.vision.image_info import get_image_num_channels, get_image_size
from transforms_c.vision.image_io import (encode_jpeg, encode_png, read_file, read_image,
                                          write_file, write_jpeg, write_png)
from transforms_c.vision.normalize import HWC2CHW, Normalize, NormalizePad, Rescale
from transforms_c.vision.pad_to_size import PadToSize
from transforms_c.vision.patches import SlicePatches
from transforms_c.vision.perspective import Perspective, RandomPerspective
from transforms_c.vision.rand_augment import RandAugment
from transforms_c.vision.random_pixel import (RandomAdjustSharpness, RandomAutoContrast,
                                              RandomColor, RandomEqualize, RandomInvert,
                                              RandomLighting, RandomPosterize, RandomSolarize)
from transforms_c.vision.resize import RandomResize, Resize
from transforms_c.vision.resized_crop import RandomCropDecodeResize, RandomResizedCrop
from transforms_c.vision.resized_crop_fixed import ResizedCrop
from transforms_c.vision.subpolicy import RandomSelectSubpolicy, UniformAugment
from transforms_c.vision.tensor import ToNumpy, ToPIL, ToTensor, ToType
from transforms_c.vision.warp import Affine, RandomAffine, RandomRotation, Rotate

__all__ = [
    "Border", "ConvertMode", "ImageBatchFormat", "Inter",
    "Affine", "AutoContrast", "CenterCrop", "ConvertColor", "Crop", "CutMixBatch", "CutOut",
    "Decode", "Equalize", "FiveCrop", "GaussianBlur", "Grayscale", "HWC2CHW", "HorizontalFlip",
    "Invert", "MixUpBatch", "Normalize", "NormalizePad", "Pad", "RandAugment", "RandomAffine",
    "RandomColorAdjust", "RandomCrop", "RandomCropDecodeResize", "RandomErasing",
    "RandomHorizontalFlip", "RandomResize", "RandomResizedCrop", "RandomRotation",
    "RandomSharpness", "RandomVerticalFlip", "Rescale", "Resize", "Rotate", "TenCrop", "ToNumpy",
    "ToPIL", "ToTensor", "ToType", "VerticalFlip",
    "BoundingBoxAugment", "RandomCropWithBBox", "RandomHorizontalFlipWithBBox",
    "RandomResizeWithBBox", "RandomResizedCropWithBBox", "RandomVerticalFlipWithBBox",
    "ResizeWithBBox",
    "get_image_num_channels", "get_image_size",
    "AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue", "AdjustSaturation",
    "AdjustSharpness", "Posterize", "Solarize", "RandomAdjustSharpness", "RandomAutoContrast",
    "RandomColor", "RandomEqualize", "RandomInvert", "RandomLighting", "RandomPosterize",
    "RandomSolarize", "HsvToRgb", "LinearTransformation", "RandomGrayscale", "RgbToHsv",
    "ImageReadMode", "encode_jpeg", "encode_png", "read_file", "read_image", "write_file",
    "write_jpeg", "write_png",
    "AutoAugmentPolicy", "AutoAugment", "TrivialAugmentWide", "RandomSelectSubpolicy",
    "UniformAugment",
    "SliceMode", "Erase", "MixUp", "PadToSize", "Perspective", "RandomPerspective",
    "ResizedCrop", "SlicePatches",
]
