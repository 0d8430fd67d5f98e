"""ToTensor, ToPIL and ToType: conversions between PIL images and arrays."""
import numpy as np

from transforms_c import _native
from transforms_c._base import TensorOperation, native_ready


class ToTensor(TensorOperation):
    """ToTensor(output_type=np.float32): HWC image (array or PIL) in [0, 255] -> CHW in
    [0, 1] of output_type."""

    def __init__(self, output_type=np.float32):
        try:
            self.output_type = np.dtype(output_type)
        except TypeError:
            raise TypeError(f"output_type should be a numpy dtype, got {output_type!r}") from None

    def __call__(self, img):
        return self.apply((img,), 0)[0]

    def _compute(self, img, rng):
        return to_tensor(img, self.output_type)


def to_tensor(img, output_type=np.float32):
    """HWC (or HW) image in [0, 255] -> CHW array of img / 255. uint8 images take one native
    pass ((v - 0) / 255 in float32, the same values as numpy's division)."""
    arr = np.asarray(img)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if arr.ndim != 3 or arr.size == 0:
        raise RuntimeError(f"ToTensor: input should be a non-empty <H,W> or <H,W,C> image, got "
                           f"shape {arr.shape}")
    if arr.dtype == np.uint8:
        src = native_ready(arr)
        channels = src.shape[2]
        out = np.empty((channels, src.shape[0], src.shape[1]), np.float32)
        _native.resample(src, out, src.shape[1], src.shape[0], _native.INTERP_COPY,
                         point_op=_native.POINT_NORMALIZE, p0=np.zeros(channels, np.float32),
                         p1=np.full(channels, 255.0, np.float32), chw=True)
    else:
        out = np.ascontiguousarray((arr.astype(np.float32) / np.float32(255.0)).transpose(2, 0, 1))
    return out.astype(output_type, copy=False)


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
