"""minddata.vision.utils: the enums of ``mindspore.dataset.vision.utils`` (``from
mindspore.dataset.vision.utils import Inter``), the same objects as ``minddata.vision.Inter``
etc."""
from transforms_c.enums import Border, ConvertMode, ImageBatchFormat, Inter

__all__ = ["Border", "ConvertMode", "ImageBatchFormat", "Inter"]
