"""minddata.vision.utils: the enums of ``mindspore.dataset.vision.utils`` (``from
mindspore.dataset.vision.utils import Inter``), the same objects as ``minddata.vision.Inter``
etc., and get_image_size / get_image_num_channels."""
from transforms_c.enums import Border, ConvertMode, ImageBatchFormat, Inter
from transforms_c.vision.image_info import get_image_num_channels, get_image_size

__all__ = ["Border", "ConvertMode", "ImageBatchFormat", "Inter", "get_image_num_channels",
           "get_image_size"]
