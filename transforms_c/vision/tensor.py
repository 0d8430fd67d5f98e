"""ToTensor, ToPIL and ToType: conversions between PIL images and arrays."""
import numpy as np

from transforms_c import _native
from transforms_c._base import TensorOperation, native_ready


class ToTensor(TensorOperation):
    """ToTensor(output_type=np.float32): HWC image (array or PIL) in [0, 255] -> CHW in
    [0, 1] of output_type, with MindSpore's arithmetic (see to_tensor; a PIL image passed to
    the op directly takes MindSpore's Python implementation, pil_to_tensor)."""

    def __init__(self, output_type=np.float32):
        try:
            self.output_type = np.dtype(output_type)
        except TypeError:
            raise TypeError(f"output_type should be a numpy dtype, got {output_type!r}") from None

    def __call__(self, img):
        if _is_pil(img):
            return pil_to_tensor(img, self.output_type)
        return self.apply((img,), 0)[0]

    def _compute(self, img, rng):
        return to_tensor(img, self.output_type)


_INV_255 = np.float32(1.0) / np.float32(255.0)


def _is_pil(img):
    from PIL import Image
    return isinstance(img, Image.Image)


def _hwc_image(img):
    arr = np.asarray(img)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if arr.ndim != 3 or arr.size == 0:
        raise RuntimeError(f"ToTensor: input should be a non-empty <H,W> or <H,W,C> image, got "
                           f"shape {arr.shape}")
    return arr


def _uint8_pass(arr, point_op, p0, p1):
    """CHW float32 of a uint8 HWC image by one native pass with a per-channel point op."""
    src = native_ready(arr)
    channels = src.shape[2]
    out = np.empty((channels, src.shape[0], src.shape[1]), np.float32)
    _native.resample(src, out, src.shape[1], src.shape[0], _native.INTERP_COPY,
                     point_op=point_op, p0=np.full(channels, p0, np.float32),
                     p1=np.full(channels, p1, np.float32), chw=True)
    return out


def to_tensor(img, output_type=np.float32):
    """HWC (or HW) image in [0, 255] -> CHW array, as MindSpore's C++ ToTensor computes it:
    img * float32(1 / 255) in float32, one rounding (206 -> 0.8078432), then cast to
    output_type. uint8 images take one native pass."""
    arr = _hwc_image(img)
    if arr.dtype == np.uint8:
        out = _uint8_pass(arr, _native.POINT_RESCALE, _INV_255, 0.0)
    else:
        work = arr if arr.dtype == np.float64 else arr.astype(np.float32)
        out = np.ascontiguousarray((work * _INV_255).astype(np.float32).transpose(2, 0, 1))
    return out.astype(output_type, copy=False)


def pil_to_tensor(img, output_type=np.float32):
    """MindSpore's Python ToTensor (its op called on a PIL image; py_transforms.ToTensor):
    img / 255 in float64, CHW, cast to output_type (206 -> 0.80784315 in float32). For uint8
    and float32 output, one native pass dividing in float32: the same values for all 256
    inputs."""
    arr = _hwc_image(img)
    if arr.dtype == np.uint8 and np.dtype(output_type) == np.float32:
        return _uint8_pass(arr, _native.POINT_NORMALIZE, 0.0, 255.0)
    return np.ascontiguousarray((arr / 255.0).transpose(2, 0, 1)).astype(output_type, copy=False)


class ToPIL(TensorOperation):
    """ToPIL(): array (HWC or HW) -> PIL image."""

    pil_input = "own"       # a PIL image is returned as it is

    def __call__(self, img):
        return self.apply((img,), 0)[0]

    def _compute(self, img, rng):
        from PIL import Image
        if isinstance(img, Image.Image):
            return img
        arr = np.asarray(img)
        if arr.ndim == 3 and arr.shape[2] == 1:
            arr = arr[:, :, 0]
        try:
            return Image.fromarray(arr)
        except (TypeError, ValueError) as exc:
            raise RuntimeError(f"ToPIL: cannot convert array of shape {arr.shape}, dtype "
                               f"{arr.dtype}: {exc}") from None


class ToType(TensorOperation):
    """ToType(data_type): casts to a numpy dtype."""

    def __init__(self, data_type):
        try:
            self.data_type = np.dtype(data_type)
        except TypeError:
            raise TypeError(f"data_type should be a numpy dtype, got {data_type!r}") from None

    def _compute(self, img, rng):
        return np.asarray(img).astype(self.data_type)
