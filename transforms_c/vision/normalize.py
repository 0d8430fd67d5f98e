"""Per-pixel ops that change dtype or layout: Normalize, NormalizePad, Rescale, HWC2CHW.
On uint8 HWC input, Normalize/Rescale/HWC2CHW run through the native pass (one read of the
image, float32 written once); other inputs use numpy with the same float32 expressions."""
import numpy as np

from transforms_c import _native
from transforms_c import folding
from transforms_c._base import decode_hint_rank_words, image_hwc, native_ready
from transforms_c.schema import BOOL, CHOICE, FLOAT, VALUES, NativeOperation, OpSchema, Param

#: Normalize's arguments: one mean in [0, 255] and one std in (0, 255] per channel (or one for
#: all), native a and b.
MEAN = Param("mean", VALUES, 0, 255, native=("a",))     # ints: MindSpore's "[0, 255]"
STD = Param("std", VALUES, 0, 255, low_open=True, native=("b",))
IS_HWC = Param("is_hwc", BOOL)


def _check_lengths(op):
    if len(op.mean) != len(op.std):
        raise ValueError("Length of mean and std must be equal.")


def per_channel(values, channels, op_name, name):
    """float32 vector of one value per channel (a single value is broadcast)."""
    if len(values) == 1:
        return np.full(channels, values[0], np.float32)
    if len(values) != channels:
        raise RuntimeError(f"{op_name}: number of channels does not match the size of mean and "
                           f"std vectors, got channels: {channels}, size of {name}: "
                           f"{len(values)}")
    return np.asarray(values, np.float32)


def _numeric_image(img, op_name):
    """MindSpore's dtype rule for Normalize and NormalizePad (measured in 2.10): a bool image
    is normalized as 0 and 1, a string image is refused in its words."""
    if isinstance(img, np.ndarray):
        if img.dtype == np.bool_:
            return img.astype(np.uint8)
        if img.dtype.kind in "SU":
            raise RuntimeError(f"{op_name}: unsupported type, currently supported types include "
                               f"[bool,int8_t,uint8_t,int16_t,uint16_t,int32_t,uint32_t,int64_t,"
                               f"uint64_t,float16,float,double].")
    return img


def _channels(img, is_hwc):
    if img.ndim == 2:
        return 1
    return img.shape[2] if is_hwc else img.shape[0]


def normalize_array(img, mean, std, is_hwc, op_name="Normalize"):
    channels = _channels(img, is_hwc)
    mean_v = per_channel(mean, channels, op_name, "mean")
    std_v = per_channel(std, channels, op_name, "std")
    if img.dtype == np.uint8 and is_hwc:
        src = native_ready(img)
        out = np.empty(src.shape, np.float32)
        _native.resample(src, out, src.shape[1], src.shape[0], _native.INTERP_COPY,
                         point_op=_native.POINT_NORMALIZE, p0=mean_v, p1=std_v)
        return out.reshape(img.shape)
    work = img.astype(np.float32, copy=False)
    if img.ndim == 2:
        return (work - mean_v[0]) / std_v[0]
    shape = (1, 1, channels) if is_hwc else (channels, 1, 1)
    return (work - mean_v.reshape(shape)) / std_v.reshape(shape)


class Normalize(NativeOperation):
    """Normalize(mean, std, is_hwc=True): (img - mean) / std per channel, float32 output; mean in
    [0, 255], std in (0, 255]. A batch <..., H, W, C> (or <..., C, H, W>) is normalized image
    by image."""

    schema = OpSchema(params=(MEAN, STD, IS_HWC), phase=folding.PHASE_POINT, step="normalize")

    batched = True

    def __init__(self, mean, std, is_hwc=True):
        self.schema.bind(self, mean=mean, std=std)
        _check_lengths(self)
        self.schema.bind(self, is_hwc=is_hwc)

    def _compute(self, img, rng):
        if isinstance(img, np.ndarray) and img.ndim < 2:      # MindSpore's words
            raise RuntimeError(f"Normalize: input tensor should have at least 2 dimensions, but "
                               f"got: {img.ndim} (an image is <H,W> or <H,W,C>)")
        img = _numeric_image(img, "Normalize")
        image_hwc(img, "Normalize")
        return normalize_array(img, self.mean, self.std, self.is_hwc)

    def fusion_phase(self, position):
        return super().fusion_phase(position) if self.is_hwc else None

    point_follows_previous = True     # after a Rescale, one pass computes both in turn


class NormalizePad(Normalize):
    """NormalizePad(mean, std, dtype='float32', is_hwc=True): Normalize, then one extra channel of
    zeros (HWC -> H,W,C+1), in float32 or float16. Never fused: the extra channel is not part of
    a pass (its schema has no phase and no native step)."""

    schema = OpSchema(params=(MEAN, STD, Param("dtype", CHOICE, choices=("float32", "float16")),
                              IS_HWC))

    batched = False

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        # MindSpore's sentences, exactly (its tests compare the whole message)
        if not isinstance(dtype, str):
            raise TypeError("dtype should be string.")
        if dtype not in ("float32", "float16"):
            raise ValueError("dtype only supports float32 or float16.")
        self.schema.bind(self, mean=mean, std=std)
        _check_lengths(self)
        self.schema.bind(self, is_hwc=is_hwc, dtype=dtype)

    def _compute(self, img, rng):
        img = _numeric_image(img, "NormalizePad")
        image_hwc(img, "NormalizePad", rank_words=decode_hint_rank_words)
        if img.ndim == 2 and not self.is_hwc:
            # no channel axis to pad in front: MindSpore 2.10 raises too (measured: "Illegal
            # index: 2"), where a 2-D image with is_hwc=True gets a channel of zeros after it
            raise RuntimeError(f"NormalizePad: with is_hwc=False the image should be <C,H,W>, "
                               f"got a 2-D image of shape {img.shape}.")
        norm = normalize_array(img, self.mean, self.std, self.is_hwc, "NormalizePad")
        if norm.ndim == 2:
            norm = norm[:, :, None]
        axis = 2 if self.is_hwc else 0
        pad_shape = list(norm.shape)
        pad_shape[axis] = 1
        out = np.concatenate([norm, np.zeros(pad_shape, np.float32)], axis=axis)
        return out.astype(self.dtype, copy=False)


def rescale_array(img, rescale, shift):
    """img * rescale + shift in float32 with MindSpore's arithmetic (OpenCV's convertTo): the
    values as float32 (float64 stays float64), rescale and shift as float32, one rounding of
    the multiply-add (as the native pass's fma). The float64 product of two float32 values is
    exact, so the float64 add and the cast give the fused result (barring a double rounding,
    which needs the sum itself to round onto a float32 tie)."""
    a, b = np.float64(np.float32(rescale)), np.float64(np.float32(shift))
    work = img if img.dtype == np.float64 else img.astype(np.float32).astype(np.float64)
    return (work * a + b).astype(np.float32)


class Rescale(NativeOperation):
    """Rescale(rescale, shift): img * rescale + shift, float32 output (rounded once, as
    MindSpore's)."""

    # a: rescale, b: shift, each a list of one value (as Normalize's per-channel a and b).
    schema = OpSchema(params=(Param("rescale", FLOAT, native=("a",), to_native=lambda v: ([v],)),
                              Param("shift", FLOAT, native=("b",), to_native=lambda v: ([v],))),
                      phase=folding.PHASE_POINT, step="rescale")

    def __init__(self, rescale, shift):
        self.schema.bind(self, rescale=rescale, shift=shift)

    def fusion_phase(self, position):
        # a negative rescale is refused when the op runs (apply): never fused
        return None if self.rescale < 0 else super().fusion_phase(position)

    def apply(self, arrays, seed):
        if self.rescale < 0:
            # built, refused when run: MindSpore 2.10's words and time (measured)
            raise RuntimeError(f"Rescale: rescale must be greater than or equal to 0, got: "
                               f"{self.rescale:f}")
        return super().apply(arrays, seed)

    def _compute(self, img, rng):
        if not isinstance(img, np.ndarray) or img.dtype.kind not in "uif":
            raise RuntimeError(f"Rescale: input should be a numeric array, got "
                               f"{getattr(img, 'dtype', type(img).__name__)}")
        if img.dtype == np.uint8 and img.ndim in (2, 3) and img.size:
            src = native_ready(img)
            values_a = np.full(src.shape[2], self.rescale, np.float32)
            values_b = np.full(src.shape[2], self.shift, np.float32)
            out = np.empty(src.shape, np.float32)
            _native.resample(src, out, src.shape[1], src.shape[0], _native.INTERP_COPY,
                             point_op=_native.POINT_RESCALE, p0=values_a, p1=values_b)
            return out.reshape(img.shape)
        return rescale_array(img, self.rescale, self.shift)

    point_feeds_next = True           # a Normalize may follow in the same pass


class HWC2CHW(NativeOperation):
    """HWC2CHW(): (H, W, C) -> (C, H, W); a 2-D image is returned unchanged (as MindSpore)."""

    schema = OpSchema(phase=folding.PHASE_LAYOUT, step="hwc2chw")

    def _compute(self, img, rng):
        if not isinstance(img, np.ndarray) or img.ndim not in (2, 3):
            raise RuntimeError(f"HWC2CHW: image shape should be <H,W> or <H,W,C>, but got rank: "
                               f"{getattr(img, 'ndim', '?')} "
                               f"({getattr(img, 'shape', type(img).__name__)})")
        if img.ndim == 2:
            return img
        return np.ascontiguousarray(img.transpose(2, 0, 1))
