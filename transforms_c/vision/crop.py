"""Crop, CenterCrop, Pad and RandomCrop."""
import cv2
import numpy as np

from transforms_c import folding
from transforms_c._base import TensorOperation, decode_hint_rank_words, image_hwc, is_pil
from transforms_c._validate import (INT32_MAX, check_bool, check_enum, check_fill_value,
                                    check_int, check_padding, check_size, check_type, size_hw)
from transforms_c.enums import CV2_BORDER, Border
from transforms_c.schema import (BOOL, ENUM, FILL, INTS, OUTPUT_SIZE, PADDING, NativeOperation,
                                 OpSchema, Param)


#: The dtypes OpenCV keeps through a border or a warp (it turns 64-bit ints into int32 and
#: refuses uint32 and float16 warps).
CV2_DTYPES = (np.uint8, np.int8, np.uint16, np.int16, np.int32, np.float32, np.float64)


def pad_array(img, left, top, right, bottom, fill_value=(0, 0, 0), mode=Border.CONSTANT,
              op_name="Pad"):
    """Pads an (H, W) or (H, W, C) image; OpenCV border semantics."""
    if left == top == right == bottom == 0:
        return img
    check_pad_channels(img)
    if img.dtype.type not in CV2_DTYPES:
        return _numpy_pad(img, left, top, right, bottom, fill_value, mode)
    channels = 1 if img.ndim == 2 else img.shape[2]
    value = tuple(fill_value[:channels]) if channels <= 3 else tuple(fill_value) + (0,)
    if channels == 1:
        value = fill_value[0]
    try:
        out = cv2.copyMakeBorder(img, top, bottom, left, right, CV2_BORDER[mode], value=value)
    except cv2.error as exc:
        raise RuntimeError(f"{op_name}: padding failed for shape {img.shape}, dtype "
                           f"{img.dtype}: {exc}") from None
    if img.ndim == 3 and out.ndim == 2:
        out = out[:, :, None]
    return out


def check_pad_channels(img):
    """MindSpore pads images (or batches of them) of 1 or 3 channels only (its words, whichever
    op pads)."""
    channels = 1 if img.ndim == 2 else img.shape[-1]
    if channels not in (1, 3):
        raise RuntimeError(f"Pad: the channel of image tensor does not match the requirement of "
                           f"operator. Expecting tensor in channel of (1, 3). But got channel "
                           f"{channels}.")


def _numpy_pad(img, left, top, right, bottom, fill_value, mode):
    """pad_array for the dtypes OpenCV does not keep: numpy's pad with OpenCV's semantics."""
    widths = ((top, bottom), (left, right))
    if mode != Border.CONSTANT:
        numpy_mode = {Border.EDGE: "edge", Border.REFLECT: "reflect",
                      Border.SYMMETRIC: "symmetric"}[mode]
        return np.pad(img, widths + ((0, 0),) * (img.ndim - 2), mode=numpy_mode)
    if img.ndim == 2:
        return np.pad(img, widths, constant_values=fill_value[0])
    fills = list(fill_value[:img.shape[2]]) + [0] * max(0, img.shape[2] - 3)
    return np.stack([np.pad(img[:, :, c], widths, constant_values=fills[c])
                     for c in range(img.shape[2])], axis=2)


def crop_array(img, top, left, height, width, op_name="Crop"):
    if top < 0 or left < 0 or top + height > img.shape[0] or left + width > img.shape[1]:
        # MindSpore's words first
        side = (f"Crop height dimension: {top + height} exceeds image height: {img.shape[0]}"
                if top + height > img.shape[0] else
                f"Crop width dimension: {left + width} exceeds image width: {img.shape[1]}")
        raise RuntimeError(f"{op_name}: {side} (the window {height}x{width} at (top={top}, "
                           f"left={left}) exceeds the image of shape {img.shape})")
    return np.ascontiguousarray(img[top:top + height, left:left + width])


def center_crop_box(height, width, crop_h, crop_w):
    """(top, left) of the centred window, or None when the window is larger than the image."""
    if crop_h > height or crop_w > width:
        return None
    return (height - crop_h) // 2, (width - crop_w) // 2


def check_padding_size(padding, height, width):
    """MindSpore's RandomCrop refuses to pad a side by three times the image's size or more
    (which also bounds the memory a padding can take)."""
    left, top, right, bottom = padding
    if max(top, bottom) >= 3 * height or max(left, right) >= 3 * width:
        raise RuntimeError(f"RandomCrop: padding size is three times bigger than the image size, "
                           f"padding top: {top}, padding bottom: {bottom}, padding left: {left}, "
                           f"padding right: {right}, image shape: {height}, {width}")


def check_same_size(arrays, message):
    """The columns an op crops at one window must be images of one height and width (the last
    three axes are HWC in a batch)."""
    sizes = {a.shape[-3:-1] if a.ndim > 3 else a.shape[:2] for a in map(np.asarray, arrays)}
    if len(sizes) > 1:
        raise RuntimeError(f"{message} Got sizes {sorted(sizes)}.")


def random_crop_window(height, width, size, rng):
    """(top, left, h, w) of RandomCrop's window inside a (height, width) image; draws x then y
    (the native op, its fused plan and the PIL op share it so they pick the same window)."""
    crop_h, crop_w = size_hw(size)
    if crop_h > height or crop_w > width:
        raise RuntimeError(f"RandomCrop: invalid crop size, crop size is bigger than the image "
                           f"dimensions, got crop height: {crop_h}, crop width: {crop_w} (image "
                           f"{height}x{width}; use padding or pad_if_needed)")
    left = rng.randint(0, width - crop_w)
    top = rng.randint(0, height - crop_h)
    return top, left, crop_h, crop_w


def _check_coordinates(coordinates):
    check_type(coordinates, (list, tuple), "coordinates")
    if len(coordinates) != 2:
        raise TypeError("Coordinates should be a list/tuple (y, x) of length 2.")
    for i, value in enumerate(coordinates):
        check_int(value, f"coordinates[{i}]", 0, INT32_MAX)


class Crop(NativeOperation):
    """Crop(coordinates, size): coordinates is (top, left)."""

    schema = OpSchema(params=(Param("coordinates", INTS, 0, INT32_MAX, length=2,
                                    native=("top", "left")), OUTPUT_SIZE),
                      phase=folding.PHASE_GEOMETRY, step="crop")

    def __init__(self, coordinates, size):
        _check_coordinates(coordinates)     # MindSpore's words (the schema's check then passes)
        self.schema.bind(self, coordinates=coordinates, size=size)

    def window(self, height, width):
        crop_h, crop_w = size_hw(self.size)
        return self.coordinates[0], self.coordinates[1], crop_h, crop_w

    def fused_output_hw(self, height, width, seed):
        return size_hw(self.size)

    def _compute(self, img, rng):
        image_hwc(img, "Crop", rank_words=decode_hint_rank_words)
        return crop_array(img, *self.window(img.shape[0], img.shape[1]), op_name="Crop")


class CenterCrop(NativeOperation):
    """CenterCrop(size); a window larger than the image pads it with zeros first (as MindSpore)."""

    schema = OpSchema(params=(OUTPUT_SIZE,), phase=folding.PHASE_GEOMETRY, step="center_crop")

    pil_input = "image"
    batched = True

    def __init__(self, size):
        self.schema.bind(self, size=size)

    def fused_output_hw(self, height, width, seed):
        return size_hw(self.size)

    def window(self, height, width):
        crop_h, crop_w = size_hw(self.size)
        box = center_crop_box(height, width, crop_h, crop_w)
        return None if box is None else (box[0], box[1], crop_h, crop_w)

    def _compute_pil(self, img, rng):
        # Pillow's window is rounded half to even and padded on its own sides
        from transforms_c.vision.pil_geometry import pil_center_crop
        return pil_center_crop(img, self.size)

    def _compute(self, img, rng):
        image_hwc(img, "CenterCrop", rank_words=lambda ndim: (
            f"Input tensor should have at least 2 dimensions, but got: {ndim}" if ndim < 2 else
            f"input tensor is not in shape of <H,W> or <H,W,C>, but got rank: {ndim}"))
        crop_h, crop_w = size_hw(self.size)
        pad_h, pad_w = center_crop_padding(img.shape[0], img.shape[1], crop_h, crop_w)
        if pad_h or pad_w:
            img = pad_array(img, pad_w // 2 + pad_w % 2, pad_h // 2 + pad_h % 2, pad_w // 2,
                            pad_h // 2, op_name="CenterCrop")
        top, left = center_crop_box(img.shape[0], img.shape[1], crop_h, crop_w)
        return crop_array(img, top, left, crop_h, crop_w, "CenterCrop")


def center_crop_padding(height, width, crop_h, crop_w):
    """(rows, columns) of zeros CenterCrop pads an image of (height, width) with before its
    crop of (crop_h, crop_w); RuntimeError where that reaches 3 times the image's size."""
    pad_h, pad_w = max(0, crop_h - height), max(0, crop_w - width)
    if pad_h >= 3 * height or pad_w >= 3 * width:
        # MindSpore's limit and words (which also bound the memory a padding takes)
        raise RuntimeError(f"CenterCrop: Padding size cannot be more than 3 times of the "
                           f"original image size, got top padding: {pad_h}, left padding: "
                           f"{pad_w}, while the original image size: {height}, {width}")
    return pad_h, pad_w


def require_pil(img):
    """MindSpore's Python-only ops take a PIL image (TypeError otherwise)."""
    if not is_pil(img):
        raise TypeError(f"img should be PIL image. Got {type(img)}. Use Decode() for encoded "
                        f"data or ToPIL() for decoded data.")
    return img


class FiveCrop(TensorOperation):
    """FiveCrop(size): the four corner windows of a PIL image and its centred one, as five
    outputs (MindSpore's Python-only op)."""

    pil_input = "own"

    def __init__(self, size):
        self.size = check_size(size)

    def apply(self, arrays, seed):
        from transforms_c.vision.pil_geometry import pil_five_crop
        return pil_five_crop(require_pil(arrays[0]), self.size)


class TenCrop(TensorOperation):
    """TenCrop(size, use_vertical_flip=False): FiveCrop of a PIL image, then of its mirror
    image (top-bottom with use_vertical_flip, else left-right), as ten outputs."""

    pil_input = "own"

    def __init__(self, size, use_vertical_flip=False):
        self.size = check_size(size)
        # MindSpore takes None as False
        self.use_vertical_flip = use_vertical_flip is not None and check_bool(
            use_vertical_flip, "use_vertical_flip")

    def apply(self, arrays, seed):
        from transforms_c.vision.pil_geometry import pil_ten_crop
        return pil_ten_crop(require_pil(arrays[0]), self.size,
                            self.use_vertical_flip)


def _pad_rank_words(ndim):
    """MindSpore's Pad words for an image of another rank than 2 or 3."""
    hint = " You may need to perform Decode first." if ndim == 1 else ""
    return (f"the dimension of image tensor does not match the requirement of operator. "
            f"Expecting tensor in dimension of (2, 3), in shape of <H, W> or <H, W, C>. But got "
            f"dimension {ndim}.{hint}")


class Pad(TensorOperation):
    """Pad(padding, fill_value=0, padding_mode=Border.CONSTANT); padding is int, (lr, tb) or
    (left, top, right, bottom)."""

    pil_input = "image"

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = check_padding(padding)
        self.fill_value = check_fill_value(fill_value)
        self.padding_mode = check_enum(padding_mode, Border, "padding_mode")

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_geometry import pil_pad
        return pil_pad(img, self.padding, self.fill_value, self.padding_mode)

    def _compute(self, img, rng):
        image_hwc(img, "Pad", rank_words=_pad_rank_words)
        check_pad_channels(img)
        return pad_array(img, *self.padding, self.fill_value, self.padding_mode)


def _check_random_crop_rank(img):
    """MindSpore's words for an image of rank below 2 given to RandomCrop."""
    if np.ndim(img) < 2:
        raise RuntimeError(f"RandomCropOp: input tensor should have at least 2 dimensions, but "
                           f"got: {np.ndim(img)}")


class RandomCrop(NativeOperation):
    """RandomCrop(size, padding=None, pad_if_needed=False, fill_value=0,
    padding_mode=Border.CONSTANT). Each image of a batch <..., H, W, C> is cropped at a window
    of its own, as MindSpore 2.10 draws them; an op that may pad is not fused (its native step
    is the crop alone)."""

    schema = OpSchema(params=(OUTPUT_SIZE,
                              Param("padding", PADDING, 0, INT32_MAX, optional=True),
                              Param("pad_if_needed", BOOL),
                              Param("fill_value", FILL, 0, 255),
                              Param("padding_mode", ENUM, enum=Border)),
                      phase=folding.PHASE_GEOMETRY, step="random_crop")

    is_random = True
    pil_input = "image"
    batched = True
    draws_per_image = True
    multi_input = True

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self.schema.bind(self, size=size, padding=padding, pad_if_needed=pad_if_needed,
                         fill_value=fill_value, padding_mode=padding_mode)

    def apply(self, arrays, seed):
        if len(arrays) > 1:     # MindSpore's words; each column's rank is checked first
            for image in arrays:
                _check_random_crop_rank(image)
            check_same_size(arrays, "RandomCrop: Input images in different column must have the "
                                    "same shape, check the output shape in specified "
                                    "'input_columns' before call this operation.")
        for image in arrays:
            # MindSpore pads before it crops, by nothing too, so an image (or a batch's
            # images) of other than 1 or 3 channels is refused (measured in 2.10)
            if isinstance(image, np.ndarray) and image.ndim >= 3:
                check_pad_channels(image)
        return super().apply(arrays, seed)

    def fused_output_hw(self, height, width, seed):
        return size_hw(self.size)

    @property
    def pads(self):
        """True when the op may pad (then it is not fused)."""
        return self.padding is not None and any(self.padding) or self.pad_if_needed

    def window(self, height, width, rng):
        """(top, left, h, w) inside an unpadded image; draws x then y."""
        return random_crop_window(height, width, self.size, rng)

    def fusion_phase(self, position):
        return None if self.pads else super().fusion_phase(position)

    def _compute_pil(self, img, rng):
        from transforms_c.vision.pil_geometry import pil_random_crop
        return pil_random_crop(img, self.size, self.padding, self.pad_if_needed,
                               self.fill_value, self.padding_mode, rng)

    def _compute(self, img, rng):
        _check_random_crop_rank(img)
        image_hwc(img, "RandomCrop")
        if self.padding is not None:
            check_padding_size(self.padding, img.shape[0], img.shape[1])
            img = pad_array(img, *self.padding, self.fill_value, self.padding_mode,
                            "RandomCrop")
        crop_h, crop_w = size_hw(self.size)
        if self.pad_if_needed:
            pad_w = max(0, crop_w - img.shape[1])
            pad_h = max(0, crop_h - img.shape[0])
            img = pad_array(img, pad_w, pad_h, pad_w, pad_h, self.fill_value, self.padding_mode,
                            "RandomCrop")
        top, left, crop_h, crop_w = self.window(img.shape[0], img.shape[1], rng)
        return crop_array(img, top, left, crop_h, crop_w, "RandomCrop")
