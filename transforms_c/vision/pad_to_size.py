"""PadToSize: pads an image up to a given size, at a given offset or centred (Pad's kernel)."""
from transforms_c._base import TensorOperation, image_hwc
from transforms_c._validate import (INT32_MAX, check_enum, check_fill_value, check_int,
                                    check_type, is_int)
from transforms_c.enums import Border
from transforms_c.vision.crop import _pad_rank_words, pad_array


def _check_pair(value, name, low, length_words):
    """An int (both sides) or a pair of ints, each >= low, with MindSpore's words (it names
    the items name0 and name1)."""
    check_type(value, (int, list, tuple), name)
    if is_int(value):
        return (check_int(value, name, low, INT32_MAX),) * 2
    if len(value) != 2:
        raise ValueError(length_words)
    return tuple(check_int(v, f"{name}{i}", low, INT32_MAX) for i, v in enumerate(value))


class PadToSize(TensorOperation):
    """PadToSize(size, offset=None, fill_value=0, padding_mode=Border.CONSTANT): pads the image
    to size ((height, width); an int: a square) with the image's top-left corner at offset
    ((top, left); an int: both; None or (): centred, the odd pixel at the bottom/right), as Pad
    pads. Images of 1 or 3 channels; a PIL image is taken as its pixels (an array comes back,
    as MindSpore's C++-only op)."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = _check_pair(size, "size", 1, "The size must be a sequence of length 2.")
        if offset is not None and not (isinstance(offset, (list, tuple)) and len(offset) == 0):
            offset = _check_pair(offset, "offset", 0,
                                 "The offset must be empty or a sequence of length 2.")
        self.offset = None if offset is None or len(offset) == 0 else offset
        self.fill_value = check_fill_value(fill_value)
        self.padding_mode = check_enum(padding_mode, Border, "padding_mode")

    def _compute(self, img, rng):
        image_hwc(img, "PadToSize", rank_words=_pad_rank_words)
        channels = 1 if img.ndim == 2 else img.shape[2]
        if channels not in (1, 3):      # MindSpore's words
            raise RuntimeError(f"PadToSize: the channel of image tensor does not match the "
                               f"requirement of operator. Expecting tensor in channel of (1, "
                               f"3). But got channel {channels}.")
        height, width = img.shape[:2]
        target_h, target_w = self.size
        if target_h < height or target_w < width:
            raise RuntimeError(f"PadToSize: the target size to pad should be no less than the "
                               f"original image size, but got target size ({target_h}, "
                               f"{target_w}) and original size ({height}, {width}).")
        if self.offset is None:
            top, left = (target_h - height) // 2, (target_w - width) // 2
        else:
            top, left = self.offset
        if top + height > target_h or left + width > target_w:
            raise RuntimeError(f"PadToSize: the sum of offset and original image size should be "
                               f"no more than the target size to pad, but got offset ({top}, "
                               f"{left}) plus original size ({height}, {width}) bigger than "
                               f"({target_h}, {target_w})")
        return pad_array(img, left, top, target_w - width - left, target_h - height - top,
                         self.fill_value, self.padding_mode, "PadToSize")
