"""minddata.vision.utils: the enums of ``mindspore.dataset.vision.utils`` (``from
mindspore.dataset.vision.utils import Inter``), the same objects as ``minddata.vision.Inter``
etc., get_image_size / get_image_num_channels, and the image file functions (read_image,
encode_jpeg, write_png, ...) MindSpore defines there."""
from transforms_c.enums import (AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat,
                                ImageReadMode, Inter, SliceMode)
from transforms_c.vision.image_info import get_image_num_channels, get_image_size
from transforms_c.vision.image_io import (encode_jpeg, encode_png, read_file, read_image,
                                          write_file, write_jpeg, write_png)

__all__ = ["AutoAugmentPolicy", "Border", "ConvertMode", "ImageBatchFormat", "ImageReadMode",
           "Inter", "SliceMode", "encode_jpeg", "encode_png", "get_image_num_channels",
           "get_image_size", "read_file", "read_image", "write_file", "write_jpeg", "write_png"]
