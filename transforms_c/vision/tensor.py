"""ToTensor, ToPIL and ToType: conversions between PIL images and arrays."""
import numpy as np

from transforms_c import _native
from transforms_c._base import TensorOperation, native_ready
from transforms_c.transforms import cast, to_numpy_dtype


class ToTensor(TensorOperation):
    """ToTensor(output_type=np.float32): HWC image (array or PIL) in [0, 255] -> CHW in
    [0, 1] of output_type, with MindSpore's arithmetic (see to_tensor; a PIL image passed to
    the op directly takes MindSpore's Python implementation, pil_to_tensor)."""

    def __init__(self, output_type=np.float32):
        self.output_type = to_numpy_dtype(output_type, "output_type")

    def __call__(self, *arrays):
        if len(arrays) == 1 and _is_pil(arrays[0]):
            return pil_to_tensor(arrays[0], self.output_type)
        return super().__call__(*arrays)

    def apply(self, arrays, seed):
        # A PIL image (eager, or in an eager Compose) takes MindSpore's Python implementation;
        # the engine hands the op arrays only.
        if len(arrays) == 1 and _is_pil(arrays[0]):
            return (pil_to_tensor(arrays[0], self.output_type),)
        return super().apply(arrays, seed)

    def _compute(self, img, rng):
        return to_tensor(img, self.output_type)


_INV_255 = np.float32(1.0) / np.float32(255.0)


def _is_pil(img):
    from PIL import Image
    return isinstance(img, Image.Image)


def _hwc_image(img):
    arr = np.asarray(img)
    # MindSpore's words for the types and ranks its ToTensor refuses.
    if arr.dtype in (np.uint32, np.int64, np.uint64) or arr.dtype.kind in "USO":
        raise RuntimeError(f"ToTensor: Input includes unsupported data type in [uint32, int64, "
                           f"uint64, string, bytes]. Got {arr.dtype}.")
    if arr.ndim < 2:
        raise RuntimeError(f"ToTensor: rank of input data should be greater than: 2, but got:"
                           f"{arr.ndim}")
    if arr.ndim > 3:
        raise RuntimeError(f"ToTensor: image shape should be <H,W,C>, but got rank: {arr.ndim}")
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if arr.size == 0:
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


#: The dtypes ToPIL takes for a one-channel image (uint8 for 2 to 4 channels), as MindSpore.
_ONE_CHANNEL_TYPES = tuple(np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.int32, np.uint8,
                                                   np.uint16, np.uint32, np.float32, np.float64))


class ToPIL(TensorOperation):
    """ToPIL(): array (HW, HW1 of one of _ONE_CHANNEL_TYPES, or HWC uint8 with 2 to 4 channels)
    -> PIL image; a PIL image is returned as it is. MindSpore's error types and words."""

    pil_input = "own"       # a PIL image is returned as it is
    gives_pil = True        # its output is a PIL image (minddata's map fusion looks at it)

    def __call__(self, img):
        return self.apply((img,), 0)[0]

    def _compute(self, img, rng):
        from PIL import Image
        if isinstance(img, Image.Image):
            return img
        if not isinstance(img, np.ndarray):
            raise TypeError(f"The input image should be of type numpy.ndarray or "
                            f"PIL.Image.Image. Got {type(img)}.")
        if img.ndim not in (2, 3):
            raise ValueError(f"The dimension of input image should be 2 or 3. Got {img.ndim}.")
        channels = img.shape[2] if img.ndim == 3 else 1
        if channels > 4:
            raise ValueError(f"The channel of input image should not exceed 4. Got {channels}.")
        if channels == 1 and img.dtype not in _ONE_CHANNEL_TYPES:
            raise TypeError(f"The input image type {img.dtype} is not supported when image shape "
                            f"is [H, W] or [H, W, 1].")
        if channels > 1 and img.dtype != np.uint8:
            raise TypeError(f"The input image type {img.dtype} is not supported when image shape "
                            f"is [H, W, 2], [H, W, 3] or [H, W, 4].")
        return Image.fromarray(img[:, :, 0] if img.ndim == 3 and channels == 1 else img)


class ToNumpy(TensorOperation):
    """ToNumpy(): a PIL image (or an array) -> numpy array (MindSpore 2.x's vision.ToNumpy, which
    pipelines put after PIL ops)."""

    pil_input = "own"
    image_input = False     # np.array of anything, as MindSpore's (a list, a number, a str)

    def _compute(self, img, rng):
        return np.asarray(img)


class ToType(TensorOperation):
    """ToType(data_type): casts to a numpy dtype."""

    image_input = False     # as MindSpore's TypeCast, which it is

    def __init__(self, data_type):
        self.data_type = to_numpy_dtype(data_type)

    def _compute(self, img, rng):
        return cast(np.asarray(img), self.data_type)
