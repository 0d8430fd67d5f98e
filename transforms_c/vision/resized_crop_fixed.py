"""ResizedCrop: a fixed window of the image, resized (RandomResizedCrop's kernels with the
window given instead of drawn)."""
from transforms_c._base import TensorOperation, image_hwc
from transforms_c._validate import INT32_MAX, check_enum, check_int, check_size, size_hw
from transforms_c.enums import Inter
from transforms_c.vision.resize import UNSUPPORTED_INTERPOLATION, resize_array
from transforms_c.vision.resized_crop import RandomResizedCrop


def _rank_words(ndim):
    """MindSpore's words (it names its kernel ResizedCropOp) for an image of another rank."""
    hint = ". You may need to perform Decode first." if ndim < 2 else ""
    return f"input tensor is not in shape of <H,W> or <H,W,C>, but got rank: {ndim}{hint}"


class ResizedCrop(TensorOperation):
    """ResizedCrop(top, left, height, width, size, interpolation=Inter.BILINEAR): the window of
    height x width at (top, left), resized to size (an int: a square). MindSpore's C++-only op:
    a PIL image is taken as its pixels and an array comes back; Inter.ANTIALIAS is refused."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        self.top = check_int(top, "top", 0, INT32_MAX)
        self.left = check_int(left, "left", 0, INT32_MAX)
        self.height = check_int(height, "height", 1, INT32_MAX)
        self.width = check_int(width, "width", 1, INT32_MAX)
        self.size = check_size(size)
        self.interpolation = check_enum(interpolation, Inter, "interpolation")

    def _compute(self, img, rng):
        image_hwc(img, "ResizedCropOp", rank_words=_rank_words)
        if self.interpolation == Inter.ANTIALIAS:
            raise RuntimeError(f"ResizedCrop: {UNSUPPORTED_INTERPOLATION}")
        for start, extent, side, names in ((self.top, self.height, 0, ("top", "height")),
                                           (self.left, self.width, 1, ("left", "width"))):
            if start + extent > img.shape[side]:      # MindSpore's words
                raise RuntimeError(f"ResizedCrop: the sum of {names[0]} and {names[1]}: "
                                   f"{start + extent} exceeds image {names[1]}: "
                                   f"{img.shape[side]}")
        out_h, out_w = size_hw(self.size)
        # RandomResizedCrop's limit and words on the window (its check uses no state)
        RandomResizedCrop._check_scale(self, self.height, self.width, out_h, out_w)
        window = img[self.top:self.top + self.height, self.left:self.left + self.width]
        return resize_array(window, out_h, out_w, self.interpolation, "CropAndResize")
