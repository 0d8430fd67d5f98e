"""Ops on an image and its bounding boxes: RandomCropWithBBox, RandomHorizontalFlipWithBBox,
RandomVerticalFlipWithBBox, ResizeWithBBox, RandomResizeWithBBox, RandomResizedCropWithBBox and
BoundingBoxAugment (MindSpore's names, arguments, defaults and checks).

Each takes two columns, ``(image, bbox)``: an (H, W) or (H, W, C) image and an (N, >= 4) box
array whose first four columns are (x, y, width, height) in pixels; further columns (a label,
a difficulty flag) are carried along unchanged. The boxes come back float32, in the new image's
coordinates, with MindSpore's float32 arithmetic:

- flips mirror the origin: x' = (W - 1) - ((x + w) - 1) (y likewise for a vertical flip);
- a crop to the window [x0, x1) x [y0, y1) drops the boxes that do not touch it (a box is kept
  unless x > x1, y > y1, x + w < x0 or y + h < y0), clips the others to it and shifts them by
  (-x0, -y0); a padding shifts them by (left, top);
- a resize from (W, H) to (W', H') scales x and w by W'/W, y and h by H'/H.

Before anything is drawn the input is checked as MindSpore checks it: two columns, a box array
of rank 2 with at least 4 columns, an image of rank >= 2, every box inside the image (1e-4
tolerance) and no negative corner; failures are RuntimeErrors with MindSpore's words.
Every random choice comes from the ``seed`` of ``apply`` (transforms_c._rng), so a row's result
depends only on the pipeline's seed and the row, whatever the number of workers.
"""
import numpy as np

from transforms_c._base import TensorOperation, cast_like, image_hwc
from transforms_c._rng import Rng, derive_seed
from transforms_c._validate import check_float, check_type, size_hw
from transforms_c.enums import Border, Inter
from transforms_c.vision.crop import RandomCrop, check_padding_size, random_crop_window
from transforms_c.vision.flip import hflip, vflip
from transforms_c.vision.resize import (UNSUPPORTED_INTERPOLATION, RandomResize, Resize,
                                       resize_array)
from transforms_c.vision.resized_crop import RandomResizedCrop

_EPSILON = np.float32(1e-4)
_ONE = np.float32(1.0)
_F0 = np.float32(0.0)


def check_kernel_interpolation(interpolation, op_name):
    """The bounding-box ops run MindSpore's C++ kernels only: no Inter.ANTIALIAS."""
    if interpolation == Inter.ANTIALIAS:
        raise RuntimeError(f"{op_name}: {UNSUPPORTED_INTERPOLATION}")


def image_and_boxes(arrays):
    """MindSpore's BoundingBox checks; returns (image, float32 copy of the boxes)."""
    if len(arrays) != 2:
        raise RuntimeError(f"BoundingBox: invalid input, size of input data should be 2 "
                           f"(including image and bounding box), but got: {len(arrays)}")
    image, boxes = np.asarray(arrays[0]), np.asarray(arrays[1])
    if boxes.ndim < 2:
        raise RuntimeError(f"BoundingBox: bounding boxes should have to be two-dimensional "
                           f"matrix at least, but got {boxes.ndim} dimension.")
    if image.ndim < 2:
        raise RuntimeError("Invalid data, input image hasn't been decoded, you may need to "
                           "perform Decode first.")
    if boxes.shape[1] < 4:
        raise RuntimeError(f"BoundingBox: bounding boxes should be have at least 4 features, "
                           f"but got: {boxes.shape[1]}")
    if boxes.dtype == np.bool_ or boxes.dtype.kind not in "uif":
        raise RuntimeError(f"BoundingBox: bounding boxes should be a numeric (float32) array, "
                           f"but got dtype {boxes.dtype}")
    boxes = boxes.astype(np.float32)      # a copy: the input column is never written
    height, width = np.float32(image.shape[0]), np.float32(image.shape[1])
    x, y, w, h = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    outside = ((x + w) - width > _EPSILON) | ((y + h) - height > _EPSILON)
    if outside.any():
        k = int(np.argmax(outside))
        raise RuntimeError(f"BoundingBox: bounding boxes is out of bounds of the image, as "
                           f"image width: {image.shape[1]}, bbox width coordinate: "
                           f"{x[k] + w[k]:.6f}, and image height: {image.shape[0]}, bbox height "
                           f"coordinate: {y[k] + h[k]:.6f} (box {k}: {boxes[k, :4].tolist()})")
    negative = (x < -_EPSILON) | (y < -_EPSILON)
    if negative.any():
        k = int(np.argmax(negative))
        raise RuntimeError(f"BoundingBox: the coordinates of the bounding boxes has negative "
                           f"value, got: ({x[k]:.6f},{y[k]:.6f}) (box {k})")
    return image, boxes


def flip_boxes(boxes, extent, axis):
    """Mirror column ``axis`` (0: x, 1: y) of float32 boxes in an image ``extent`` pixels
    wide (or high): (extent - 1) - ((x + w) - 1)."""
    start, size = boxes[:, axis], boxes[:, axis + 2]
    boxes[:, axis] = (np.float32(extent) - _ONE) - ((start + size) - _ONE)
    return boxes


def pad_boxes(boxes, left, top):
    boxes[:, 0] += np.float32(left)
    boxes[:, 1] += np.float32(top)
    return boxes


def crop_boxes(boxes, x0, y0, x1, y1):
    """Boxes of the crop window [x0, x1) x [y0, y1) (integers), MindSpore's rule: those that do
    not touch it are dropped, the others clipped to it and moved to its origin."""
    x0, y0, x1, y1 = (np.float32(v) for v in (x0, y0, x1, y1))
    x, y = boxes[:, 0], boxes[:, 1]
    x_max, y_max = x + boxes[:, 2], y + boxes[:, 3]
    keep = ~((x > x1) | (y > y1) | (x_max < x0) | (y_max < y0))
    boxes, x, y, x_max, y_max = boxes[keep], x[keep], y[keep], x_max[keep], y_max[keep]
    new_x = np.maximum(x - np.minimum(_F0, x - x0) - x0, _F0)
    new_y = np.maximum(y - np.minimum(_F0, y - y0) - y0, _F0)
    new_x_max = np.minimum(x_max - np.maximum(_F0, x_max - x1) - x0, x1 - x0)
    new_y_max = np.minimum(y_max - np.maximum(_F0, y_max - y1) - y0, y1 - y0)
    boxes[:, 0], boxes[:, 1] = new_x, new_y
    boxes[:, 2], boxes[:, 3] = new_x_max - new_x, new_y_max - new_y
    return boxes


def resize_boxes(boxes, out_w, out_h, in_w, in_h):
    """Boxes of an image resized from (in_w, in_h) to (out_w, out_h)."""
    sx = np.float32(out_w) / np.float32(in_w)
    sy = np.float32(out_h) / np.float32(in_h)
    boxes[:, 0] *= sx
    boxes[:, 2] *= sx
    boxes[:, 1] *= sy
    boxes[:, 3] *= sy
    return boxes


class _BBoxOperation(TensorOperation):
    """An (image, bbox) -> (image, bbox) op: ``apply`` checks the pair, then
    ``_transform(image, boxes, seed)`` (boxes: a float32 copy it may change)."""

    is_random = True

    def apply(self, arrays, seed):
        image, boxes = image_and_boxes(arrays)
        image_hwc(image, type(self).__name__)
        return self._transform(image, boxes, seed)

    def _transform(self, image, boxes, seed):
        raise NotImplementedError


class RandomHorizontalFlipWithBBox(_BBoxOperation):
    """RandomHorizontalFlipWithBBox(prob=0.5): with probability prob, mirrors the image
    left-right and its boxes with it."""

    _axis = 0

    def __init__(self, prob=0.5):
        check_type(prob, (float, int), "prob")     # MindSpore's order of the types
        self.prob = check_float(prob, "prob", 0.0, 1.0)

    def _transform(self, image, boxes, seed):
        if not Rng(seed).random() < self.prob:
            return image, boxes
        if self._axis == 0:
            return hflip(image), flip_boxes(boxes, image.shape[1], 0)
        return vflip(image), flip_boxes(boxes, image.shape[0], 1)


class RandomVerticalFlipWithBBox(RandomHorizontalFlipWithBBox):
    """RandomVerticalFlipWithBBox(prob=0.5): with probability prob, mirrors the image
    top-bottom and its boxes with it."""

    _axis = 1


class RandomCropWithBBox(_BBoxOperation):
    """RandomCropWithBBox(size, padding=None, pad_if_needed=False, fill_value=0,
    padding_mode=Border.CONSTANT): RandomCrop's padding and window (the same draws for the same
    seed), with the boxes shifted by the padding and cropped to the window."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self._crop = RandomCrop(size, padding, pad_if_needed, fill_value, padding_mode)
        self.size, self.padding = self._crop.size, self._crop.padding
        self.pad_if_needed, self.fill_value = self._crop.pad_if_needed, self._crop.fill_value
        self.padding_mode = self._crop.padding_mode

    def _padded_layout(self, height, width):
        """(left, top, padded height, padded width) of RandomCrop's padding."""
        left, top, right, bottom = self.padding or (0, 0, 0, 0)
        height, width = height + top + bottom, width + left + right
        if self.pad_if_needed:
            crop_h, crop_w = size_hw(self.size)
            pad_h, pad_w = max(0, crop_h - height), max(0, crop_w - width)
            left, top = left + pad_w, top + pad_h
            height, width = height + 2 * pad_h, width + 2 * pad_w
        return left, top, height, width

    def _transform(self, image, boxes, seed):
        if self.padding is not None:
            check_padding_size(self.padding, image.shape[0], image.shape[1])
        left, top, height, width = self._padded_layout(image.shape[0], image.shape[1])
        crop_h, crop_w = size_hw(self.size)
        if crop_h > height or crop_w > width:
            raise RuntimeError(f"RandomCropWithBBox: invalid crop size, crop size is bigger than "
                               f"the image dimensions, got crop height: {crop_h}, crop width: "
                               f"{crop_w} (padded image {height}x{width}; use padding or "
                               f"pad_if_needed)")
        out = self._crop.apply((image,), seed)[0]
        boxes = pad_boxes(boxes, left, top)
        if (crop_h, crop_w) != (height, width):       # MindSpore crops only when it must
            y0, x0, _, _ = random_crop_window(height, width, self.size, Rng(seed))
            boxes = crop_boxes(boxes, x0, y0, x0 + crop_w, y0 + crop_h)
        return out, boxes


class RandomResizedCropWithBBox(_BBoxOperation):
    """RandomResizedCropWithBBox(size, scale=(0.08, 1.0), ratio=(3/4, 4/3),
    interpolation=Inter.BILINEAR, max_attempts=10): RandomResizedCrop's window (the same draws
    for the same seed); the boxes are cropped to it, then scaled to the output size."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        self._rrc = RandomResizedCrop(size, scale, ratio, interpolation, max_attempts)
        self.size, self.scale, self.ratio = self._rrc.size, self._rrc.scale, self._rrc.ratio
        self.interpolation, self.max_attempts = self._rrc.interpolation, self._rrc.max_attempts

    def _transform(self, image, boxes, seed):
        check_kernel_interpolation(self.interpolation, "RandomResizedCropWithBBox")
        out = self._rrc.apply((image,), seed)[0]
        top, left, crop_h, crop_w = self._rrc.window(image.shape[0], image.shape[1], Rng(seed))
        boxes = crop_boxes(boxes, left, top, left + crop_w, top + crop_h)
        out_h, out_w = self._rrc.output_hw()
        return out, resize_boxes(boxes, out_w, out_h, crop_w, crop_h)


class ResizeWithBBox(_BBoxOperation):
    """ResizeWithBBox(size, interpolation=Inter.BILINEAR): Resize of the image; the boxes are
    scaled with it."""

    is_random = False

    def __init__(self, size, interpolation=Inter.BILINEAR):
        resize = Resize(size, interpolation)
        self.size, self.interpolation = resize.size, resize.interpolation

    def _resized(self, image, seed):
        check_kernel_interpolation(self.interpolation, "ResizeWithBBox")
        return Resize(self.size, self.interpolation).apply((image,), 0)[0]

    def _transform(self, image, boxes, seed):
        out = self._resized(image, seed)
        return out, resize_boxes(boxes, out.shape[1], out.shape[0], image.shape[1],
                                 image.shape[0])


class RandomResizeWithBBox(ResizeWithBBox):
    """RandomResizeWithBBox(size): RandomResize(size) of the image; the boxes are scaled with
    it."""

    is_random = True

    def __init__(self, size):
        self.size = RandomResize(size).size

    def _resized(self, image, seed):
        return RandomResize(self.size).apply((image,), seed)[0]


class BoundingBoxAugment(_BBoxOperation):
    """BoundingBoxAugment(transform, ratio=0.3): each box, with probability ratio, has its
    region of the image (x, y, w, h truncated to integers) replaced by ``transform`` of that
    region, resized back to the region's size (bilinear) when the transform changed it. The
    boxes are unchanged. ``transform`` is an image op (one image in, one out); box i's run of it
    draws from ``derive_seed(seed, i)``. A box less than a pixel wide or high is skipped."""

    def __init__(self, transform, ratio=0.3):
        check_type(ratio, (float, int), "ratio")
        self.ratio = check_float(ratio, "ratio", 0.0, 1.0)
        if isinstance(transform, type) or not callable(getattr(transform, "apply", None)):
            raise TypeError(f"Argument transform with value {transform!r} is not of type "
                            f"[TensorOperation], but got {type(transform).__name__}. (It should "
                            f"be a vision op such as RandomRotation(90), not a Python function.)")
        self.transform = transform

    def _transform(self, image, boxes, seed):
        rng = Rng(seed)
        out = image.copy()
        for i in range(boxes.shape[0]):
            if not rng.random() < self.ratio:
                continue
            x, y = int(boxes[i, 0]), int(boxes[i, 1])
            w, h = int(boxes[i, 2]), int(boxes[i, 3])
            w, h = min(w, out.shape[1] - x), min(h, out.shape[0] - y)
            if w <= 0 or h <= 0:
                continue
            region = np.ascontiguousarray(out[y:y + h, x:x + w])
            result = np.asarray(self.transform.apply((region,), derive_seed(seed, i))[0])
            if result.shape[:2] != (h, w):
                result = resize_array(result, h, w, Inter.BILINEAR, "BoundingBoxAugment")
            if result.ndim == 2 and out.ndim == 3 and out.shape[2] == 1:
                result = result[:, :, None]
            if result.dtype != region.dtype and result.shape == region.shape:
                # put back in the image's type, rounded and saturated, as MindSpore 2.10 does
                # (measured: Posterize's uint8 128 in an int8 image is 127)
                result = cast_like(result, region)
            if result.shape != region.shape:
                raise RuntimeError(f"BoundingBoxAugment: the transform "
                                   f"{type(self.transform).__name__} turned a region of shape "
                                   f"{region.shape} into shape "
                                   f"{result.shape}; it cannot be put back into the image")
            out[y:y + h, x:x + w] = result
        return out, boxes


__all__ = ["BoundingBoxAugment", "RandomCropWithBBox", "RandomHorizontalFlipWithBBox",
           "RandomResizeWithBBox", "RandomResizedCropWithBBox", "RandomVerticalFlipWithBBox",
           "crop_boxes", "flip_boxes", "pad_boxes", "resize_boxes", "image_and_boxes"]
