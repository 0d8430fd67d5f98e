"""SlicePatches: an image cut into a grid of patches, one output column per patch."""
import numpy as np

from transforms_c._base import TensorOperation, image_hwc
from transforms_c._validate import INT32_MAX, check_enum, check_int
from transforms_c.enums import SliceMode


def _rank_words(ndim):
    """MindSpore's words for an image of another rank than 2 or 3."""
    if ndim < 2:
        return f"Rank of input data should be greater than 2, but got:{ndim}"
    return f"input tensor is not in shape of <H,W> or <H,W,C>, but got rank: {ndim}"


def slice_patches(img, num_height, num_width, slice_mode, fill_value):
    """The num_height x num_width patches of `img`, row by row. PAD: each patch is the ceiling
    of the image over the counts, the image padded at its bottom and right with fill_value;
    DROP: the floor, the remainder at the bottom and right left out."""
    height, width = img.shape[:2]
    for count, extent, axis in ((num_height, height, "height"), (num_width, width, "width")):
        if count > extent:      # MindSpore's words
            raise RuntimeError(f"SlicePatches: The number of patches on {axis} axis equals 0 or "
                               f"is greater than {axis}, got number of patches:{count}")
    if slice_mode == SliceMode.DROP:
        patch_h, patch_w = height // num_height, width // num_width
    else:
        patch_h, patch_w = -(-height // num_height), -(-width // num_width)
        if (patch_h * num_height, patch_w * num_width) != (height, width):
            padded = np.full((patch_h * num_height, patch_w * num_width) + img.shape[2:],
                             fill_value, img.dtype)
            padded[:height, :width] = img
            img = padded
    return tuple(np.ascontiguousarray(img[i * patch_h:(i + 1) * patch_h,
                                          j * patch_w:(j + 1) * patch_w])
                 for i in range(num_height) for j in range(num_width))


class SlicePatches(TensorOperation):
    """SlicePatches(num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0): cuts an
    (H, W) or (H, W, C) image into num_height x num_width patches (slice_patches), given as that
    many outputs, row by row: a map names them in output_columns. A PIL image is taken as its
    pixels (arrays come back); a bool image gives uint8 patches, as in MindSpore."""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        self.num_height = check_int(num_height, "num_height", 1, INT32_MAX)
        self.num_width = check_int(num_width, "num_width", 1, INT32_MAX)
        # MindSpore takes None as the default mode
        self.slice_mode = (SliceMode.PAD if slice_mode is None
                           else check_enum(slice_mode, SliceMode, "slice_mode"))
        self.fill_value = check_int(fill_value, "fill_value", 0, 255)

    def apply(self, arrays, seed):
        if len(arrays) != 1:
            raise RuntimeError(f"SlicePatches: The op is OneToN, can only accept one tensor as "
                               f"input. Got {len(arrays)} input columns.")
        img = np.asarray(arrays[0])
        if img.ndim > 3 and img.size and (self.num_height, self.num_width) == (1, 1):
            # MindSpore 2.10 hands a batch <..., H, W, C> back whole as the one patch of a
            # 1 x 1 grid (its type kept), and refuses it for any other grid
            return (img,)
        if img.dtype == np.bool_:
            img = img.astype(np.uint8)      # MindSpore's patches of a bool image are uint8
        image_hwc(img, "SlicePatches", rank_words=_rank_words)
        return slice_patches(img, self.num_height, self.num_width, self.slice_mode,
                             self.fill_value)
