"""The PIL path (mindspore.dataset.vision.py_transforms): the same op names and semantics as
the native ops, computed with Pillow on PIL images. Ops accept PIL images or HWC uint8 arrays
(the engine hands arrays between ops), draw their randomness from the row's seed like the native
ops, and offer the same is_random/apply protocol. Run them in worker processes
(python_multiprocessing=True) for parallelism: Pillow holds the GIL for part of its work."""
import io

import numpy as np
from PIL import Image, ImageEnhance, ImageFile, ImageOps

from transforms_c import _native, folding
from transforms_c._rng import Rng, eager_seed
from transforms_c.contract import FusionDefaults
from transforms_c._validate import (check_bool, check_enum, check_factor_range, check_fill_value,
                                    check_float, check_int, check_padding, check_range_pair,
                                    check_sequence, check_size, check_symmetric_range,
                                    size_hw)
from transforms_c.enums import Border, Inter
from transforms_c.vision.decode import decode_jpeg
from transforms_c.vision.erase import RandomErasing as _RandomErasing
from transforms_c.vision.pil_geometry import (PIL_FILTER, pil_center_crop, pil_pad,
                                              pil_random_crop, pil_random_resized_crop,
                                              pil_resize, pil_resized_crop_box, pil_rotate)
from transforms_c.vision.tensor import pil_to_tensor

ImageFile.LOAD_TRUNCATED_IMAGES = False


def to_pil(img, op_name):
    """A PIL image from a PIL image or an (H, W[, C]) uint8 array."""
    if isinstance(img, Image.Image):
        return img
    if isinstance(img, np.ndarray):
        arr = img[:, :, 0] if img.ndim == 3 and img.shape[2] == 1 else img
        if arr.dtype == np.uint8 and arr.ndim in (2, 3):
            return Image.fromarray(arr)
        raise RuntimeError(f"{op_name}: expected a PIL image or an HWC uint8 array, got shape "
                           f"{img.shape} dtype {img.dtype}")
    raise TypeError(f"{op_name}: expected a PIL image, got {type(img).__name__}")


class PyTensorOperation(FusionDefaults):
    """Base of the PIL ops: eager call with one input, apply(arrays, seed) for the engine; the
    fusable ones declare what transforms_c.contract.FusableOperation asks (FusionDefaults gives
    the rest)."""

    is_random = False
    gives_pil = True    # the PIL path's ops may give PIL images (minddata's map fusion looks)

    def __call__(self, img):
        seed = eager_seed() if self.is_random else 0
        return self._compute(img, Rng(seed) if self.is_random else None)

    def apply(self, arrays, seed):
        if len(arrays) != 1:
            raise RuntimeError(f"{type(self).__name__}: expected 1 input column, got "
                               f"{len(arrays)}")
        return (self._compute(arrays[0], Rng(seed) if self.is_random else None),)

    def _compute(self, img, rng):
        raise NotImplementedError

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({args})"


class Decode(PyTensorOperation):
    """Decode(): encoded bytes (1-D uint8 array or bytes) -> RGB PIL image."""

    # Fusion (transforms_c/folding.py): a run of PIL ops that starts here and ends in arrays
    # (ToTensor, Normalize) is one native pass per row with the unfused ops' exact values.
    decodes = True
    ends_fused_run = False      # a PIL image, unless a fused run ends in arrays

    def fusion_phase(self, position):
        return folding.PHASE_START if position == 0 else None

    def fold(self, geo, pss, seed, channels):
        pass    # the plan decodes the encoded row itself

    def native_step(self):
        return None

    def fuses_encoded(self, data):
        """A fused plan decodes grayscale and YCbCr JPEGs as this op does; other formats and
        CMYK JPEGs go through Pillow (the ops run one by one)."""
        try:
            return _native.jpeg_info(data)[2] in (1, 3)
        except RuntimeError:
            return False

    def _compute(self, data, rng):
        if isinstance(data, np.ndarray) and data.dtype.kind == "S" and data.ndim <= 1 \
                and data.size == 1:
            data = data.tobytes()   # a MindRecord bytes field (|S<n>, shape (1,)), or b"..." 0-d
        if isinstance(data, np.ndarray):
            if data.dtype != np.uint8 or data.ndim != 1:
                raise RuntimeError(f"Decode: expected 1-D uint8 encoded bytes, got shape "
                                   f"{data.shape} dtype {data.dtype}")
            data = data.tobytes()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"Decode: expected encoded bytes, got {type(data).__name__}")
        if not data:
            raise RuntimeError("Decode: image data is empty (0 bytes)")
        img = _decode_jpeg(data) if data[:3] == b"\xff\xd8\xff" else None
        if img is not None:
            return img
        try:
            img = Image.open(io.BytesIO(data))
            img.load()
            return img if img.mode == "RGB" else img.convert("RGB")
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
            raise RuntimeError(f"Decode: cannot decode image: {exc}") from None


def _decode_jpeg(data):
    """A grayscale or YCbCr JPEG as an RGB PIL image, decoded by the project's libjpeg-turbo
    with Pillow's settings (the same pixels as Pillow's decode, in about 70% of its time); None
    for a CMYK JPEG, whose conversion to RGB is Pillow's own."""
    arr = np.frombuffer(data, np.uint8)
    try:
        width, height, components = _native.jpeg_info(arr)
    except RuntimeError as exc:
        raise RuntimeError(f"Decode: cannot decode image: {exc}") from None
    if components not in (1, 3):
        return None
    limit = Image.MAX_IMAGE_PIXELS
    if limit is not None and width * height > 2 * limit:
        # Pillow's own limit (a DecompressionBombError from Image.open), kept on this path.
        raise RuntimeError(f"Decode: cannot decode image: Image size ({width * height} pixels) "
                           f"exceeds limit of {2 * limit} pixels, could be decompression bomb "
                           f"DOS attack.")
    try:
        return Image.fromarray(decode_jpeg(arr, "Decode"))
    except RuntimeError as exc:
        raise RuntimeError(f"Decode: cannot decode image: {exc}") from None


class ToTensor(PyTensorOperation):
    """ToTensor(output_type=np.float32): HWC image in [0, 255] -> CHW array in [0, 1]."""

    def __init__(self, output_type=np.float32):
        try:
            self.output_type = np.dtype(output_type)
        except TypeError:
            raise TypeError(f"output_type should be a numpy dtype, got {output_type!r}") from None

    def _compute(self, img, rng):
        return pil_to_tensor(img, self.output_type)    # MindSpore's Python ToTensor: img / 255

    def fusion_phase(self, position):
        # The layout step of a fused run (it makes the image CHW), after a PIL-path Decode.
        return folding.PHASE_LAYOUT if position > 0 and self.output_type == np.float32 else None

    def fold(self, geo, pss, seed, channels):
        if pss.point is not None:
            raise folding.Unfoldable       # a float image: ToTensor's arithmetic differs
        table = folding.uint8_table(channels)
        table /= np.float32(255.0)         # pil_to_tensor's (v - 0) / 255 in float32
        pss.point = folding.table_point(table)
        pss.chw = True

    def native_step(self):
        return None


class ToPIL(PyTensorOperation):
    """ToPIL(): HWC uint8 array -> PIL image."""

    def _compute(self, img, rng):
        return to_pil(img, "ToPIL")


class ToType(PyTensorOperation):
    """ToType(output_type): numpy cast."""

    def __init__(self, output_type):
        self.output_type = np.dtype(output_type)

    def _compute(self, img, rng):
        return np.asarray(img).astype(self.output_type)


class Resize(PyTensorOperation):
    """Resize(size, interpolation=Inter.BILINEAR)."""

    def __init__(self, size, interpolation=Inter.BILINEAR):
        self.size = check_size(size)
        self.interpolation = check_enum(interpolation, Inter, "interpolation")

    def _compute(self, img, rng):
        return pil_resize(to_pil(img, "Resize"), self.size, self.interpolation)


class CenterCrop(PyTensorOperation):
    """CenterCrop(size): centred window (zero-padded when larger than the image)."""

    def __init__(self, size):
        self.size = check_size(size)

    def _compute(self, img, rng):
        return pil_center_crop(to_pil(img, "CenterCrop"), self.size)


class Pad(PyTensorOperation):
    """Pad(padding, fill_value=0, padding_mode=Border.CONSTANT)."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = check_padding(padding)
        self.fill_value = check_fill_value(fill_value)
        self.padding_mode = check_enum(padding_mode, Border, "padding_mode")

    def _compute(self, img, rng):
        return pil_pad(to_pil(img, "Pad"), self.padding, self.fill_value, self.padding_mode)


class RandomCrop(PyTensorOperation):
    """RandomCrop(size, padding=None, pad_if_needed=False, fill_value=0,
    padding_mode=Border.CONSTANT)."""

    is_random = True

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self.size = check_size(size)
        self.padding = None if padding is None else check_padding(padding)
        self.pad_if_needed = check_bool(pad_if_needed, "pad_if_needed")
        self.fill_value = check_fill_value(fill_value)
        self.padding_mode = check_enum(padding_mode, Border, "padding_mode")

    def _compute(self, img, rng):
        return pil_random_crop(to_pil(img, "RandomCrop"), self.size, self.padding,
                               self.pad_if_needed, self.fill_value, self.padding_mode, rng)


class PillowResize:
    """A fused plan's resize with one of Pillow's filters (the plan's box, already cropped, is
    resized as the unfused op resizes its crop)."""

    __slots__ = ("filter",)

    def __init__(self, pil_filter):
        self.filter = pil_filter

    def resize(self, image, height, width):
        return np.asarray(Image.fromarray(image).resize((width, height), self.filter))


class RandomResizedCrop(PyTensorOperation):
    """RandomResizedCrop(size, scale=(0.08, 1.0), ratio=(3/4, 4/3),
    interpolation=Inter.BILINEAR, max_attempts=10)."""

    is_random = True

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        self.size = check_size(size)
        self.scale = check_range_pair(scale, "scale", 0.0)
        self.ratio = check_range_pair(ratio, "ratio", 0.0, low_open=True)
        self.interpolation = check_enum(interpolation, Inter, "interpolation")
        self.max_attempts = check_int(max_attempts, "max_attempts", 1, 2147483647)

    def _compute(self, img, rng):
        return pil_random_resized_crop(to_pil(img, "RandomResizedCrop"), self.size, self.scale,
                                       self.ratio, self.interpolation, self.max_attempts, rng)

    ends_fused_run = False

    def fusion_phase(self, position):
        return folding.PHASE_GEOMETRY if position > 0 else None

    def fold(self, geo, pss, seed, channels):
        if geo.virt is not None:
            raise folding.Unfoldable
        top, left, crop_h, crop_w = pil_resized_crop_box(
            *geo.current_hw(), self.scale, self.ratio, self.max_attempts, Rng(seed))
        geo.crop(top, left, crop_h, crop_w)
        out_h, out_w = size_hw(self.size)
        geo.resize(out_h, out_w, PillowResize(PIL_FILTER[self.interpolation]))

    def native_step(self):
        return None


class RandomHorizontalFlip(PyTensorOperation):
    """RandomHorizontalFlip(prob=0.5)."""

    is_random = True

    def __init__(self, prob=0.5):
        self.prob = check_float(prob, "prob", 0.0, 1.0)

    _axis = 0

    def _compute(self, img, rng):
        img = to_pil(img, type(self).__name__)
        return img.transpose(Image.FLIP_LEFT_RIGHT) if rng.random() < self.prob else img

    ends_fused_run = False

    def fusion_phase(self, position):
        return folding.PHASE_FLIP if position > 0 else None

    def fold(self, geo, pss, seed, channels):
        if Rng(seed).random() < self.prob:
            pss.flip(self._axis)

    def native_step(self):
        return None


class RandomVerticalFlip(RandomHorizontalFlip):
    """RandomVerticalFlip(prob=0.5)."""

    _axis = 1

    def _compute(self, img, rng):
        img = to_pil(img, type(self).__name__)
        return img.transpose(Image.FLIP_TOP_BOTTOM) if rng.random() < self.prob else img


class Normalize(PyTensorOperation):
    """Normalize(mean, std, is_hwc=False): (image - mean) / std per channel, as float32, with
    mean and std in [0, 1] (the image is a float array after ToTensor). The image is CHW by
    default (as ToTensor gives it), HWC with ``is_hwc=True``, or 2-D with one mean/std."""

    def __init__(self, mean, std, is_hwc=False):
        check_sequence(mean, "mean")
        check_sequence(std, "std")
        self.mean = tuple(check_float(m, "mean", 0.0, 1.0) for m in mean)
        self.std = tuple(check_float(s, "std", 0.0, 1.0, low_open=True) for s in std)
        if len(self.mean) != len(self.std):
            raise ValueError("Length of mean and std must be equal.")
        self.is_hwc = check_bool(is_hwc, "is_hwc")

    def _compute(self, img, rng):
        arr = np.asarray(img)
        channels = len(self.mean)
        axis = -1 if self.is_hwc else 0
        if arr.ndim == 2 and channels == 1:
            shape = (1, 1)
        elif arr.ndim == 3 and channels in (1, arr.shape[axis]):
            shape = (1, 1, -1) if self.is_hwc else (-1, 1, 1)
        else:
            layout = "HWC" if self.is_hwc else "CHW"
            raise RuntimeError(f"Normalize: expected a {layout} array with {channels} channels "
                               f"(is_hwc={self.is_hwc}), got shape {arr.shape}")
        mean = np.asarray(self.mean, np.float32).reshape(shape)
        std = np.asarray(self.std, np.float32).reshape(shape)
        out = arr.astype(np.float32)  # a fresh copy, then updated in place
        out -= mean
        out /= std
        return out

    def fusion_phase(self, position):
        return folding.PHASE_TENSOR if position > 0 and not self.is_hwc else None

    def fold(self, geo, pss, seed, channels):
        table = folding.point_table(pss, channels)
        if table is None or not pss.chw or len(self.mean) not in (1, channels):
            raise folding.Unfoldable       # the unfused op gives the value or the error
        table = table.copy()
        table -= np.asarray(self.mean, np.float32).reshape(-1, 1)
        table /= np.asarray(self.std, np.float32).reshape(-1, 1)
        pss.point = folding.table_point(table)

    def native_step(self):
        return None


class HWC2CHW(PyTensorOperation):
    """HWC2CHW(): array (H, W, C) -> (C, H, W)."""

    def _compute(self, img, rng):
        arr = np.asarray(img)
        if arr.ndim != 3:
            raise RuntimeError(f"HWC2CHW: expected <H,W,C>, got {arr.shape}")
        return np.ascontiguousarray(arr.transpose(2, 0, 1))


def _adjust_hue(img, factor):
    if img.mode in ("L", "1", "I", "F"):
        return img
    h, s, v = img.convert("HSV").split()
    shift = np.uint8(int(round(factor * 255)) % 256)
    h = Image.fromarray((np.asarray(h) + shift).astype(np.uint8), "L")
    return Image.merge("HSV", (h, s, v)).convert(img.mode)


class RandomColorAdjust(PyTensorOperation):
    """RandomColorAdjust(brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
    Pillow's ImageEnhance, applied in a random order."""

    is_random = True

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = check_factor_range(brightness, "brightness")
        self.contrast = check_factor_range(contrast, "contrast")
        self.saturation = check_factor_range(saturation, "saturation")
        self.hue = check_symmetric_range(hue, "hue", 0.5)

    def _compute(self, img, rng):
        img = to_pil(img, "RandomColorAdjust")
        steps = [(lambda im, f: ImageEnhance.Brightness(im).enhance(f), self.brightness, 1.0),
                 (lambda im, f: ImageEnhance.Contrast(im).enhance(f), self.contrast, 1.0),
                 (lambda im, f: ImageEnhance.Color(im).enhance(f), self.saturation, 1.0),
                 (_adjust_hue, self.hue, 0.0)]
        for i in range(len(steps) - 1, 0, -1):
            j = rng.randint(0, i)
            steps[i], steps[j] = steps[j], steps[i]
        for fn, bounds, identity in steps:
            if bounds == (identity, identity):
                continue
            img = fn(img, rng.uniform(*bounds))
        return img


class Grayscale(PyTensorOperation):
    """Grayscale(num_output_channels=1)."""

    def __init__(self, num_output_channels=1):
        self.num_output_channels = check_int(num_output_channels, "num_output_channels")
        if self.num_output_channels not in (1, 3):
            raise ValueError("num_output_channels should be 1 or 3.")

    def _compute(self, img, rng):
        gray = to_pil(img, "Grayscale").convert("L")
        return gray.convert("RGB") if self.num_output_channels == 3 else gray


class RandomGrayscale(PyTensorOperation):
    """RandomGrayscale(prob=0.1): gray with probability prob: an L image stays L, any other
    becomes three-channel RGB (as MindSpore's, an RGBA image included)."""

    is_random = True

    def __init__(self, prob=0.1):
        self.prob = check_float(prob, "prob", 0.0, 1.0)

    def _compute(self, img, rng):
        img = to_pil(img, "RandomGrayscale")
        if rng.random() < self.prob:
            gray = img.convert("L")
            return gray if img.mode == "L" else gray.convert("RGB")
        return img


class RandomRotation(PyTensorOperation):
    """RandomRotation(degrees, resample=Inter.NEAREST, expand=False, center=None,
    fill_value=0)."""

    is_random = True

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        self.degrees = check_symmetric_range(degrees, "degrees")
        self.resample = check_enum(resample, Inter, "resample")
        self.expand = check_bool(expand, "expand")
        self.center = None if center is None else tuple(check_sequence(center, "center", 2))
        self.fill_value = check_fill_value(fill_value)

    def _compute(self, img, rng):
        return pil_rotate(to_pil(img, "RandomRotation"), rng.uniform(*self.degrees),
                          self.resample, self.expand, self.center, self.fill_value)


class Invert(PyTensorOperation):
    """Invert()."""

    def _compute(self, img, rng):
        return ImageOps.invert(to_pil(img, "Invert"))


class Equalize(PyTensorOperation):
    """Equalize()."""

    def _compute(self, img, rng):
        return ImageOps.equalize(to_pil(img, "Equalize"))


class AutoContrast(PyTensorOperation):
    """AutoContrast(cutoff=0.0, ignore=None)."""

    def __init__(self, cutoff=0.0, ignore=None):
        self.cutoff = check_float(cutoff, "cutoff", 0.0, 50.0, high_open=True)
        self.ignore = ignore

    def _compute(self, img, rng):
        return ImageOps.autocontrast(to_pil(img, "AutoContrast"), self.cutoff, self.ignore)


class RandomSharpness(PyTensorOperation):
    """RandomSharpness(degrees=(0.1, 1.9))."""

    is_random = True

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = check_range_pair(degrees, "degrees", 0.0)

    def _compute(self, img, rng):
        return ImageEnhance.Sharpness(to_pil(img, "RandomSharpness")).enhance(
            rng.uniform(*self.degrees))


class Cutout(PyTensorOperation):
    """Cutout(length, num_patches=1): zeroes square patches of a CHW array."""

    is_random = True

    def __init__(self, length, num_patches=1):
        self.length = check_int(length, "length", 1, 2147483647)
        self.num_patches = check_int(num_patches, "num_patches", 1, 2147483647)

    def _compute(self, img, rng):
        arr = np.array(img, copy=True)
        if arr.ndim != 3:
            raise RuntimeError(f"Cutout: expected a CHW array, got {arr.shape}")
        height, width = arr.shape[1:]
        for _ in range(self.num_patches):
            cy, cx = rng.randint(0, height - 1), rng.randint(0, width - 1)
            y0, y1 = max(0, cy - self.length // 2), min(height, cy + self.length // 2)
            x0, x1 = max(0, cx - self.length // 2), min(width, cx + self.length // 2)
            arr[:, y0:y1, x0:x1] = 0
        return arr


class RandomErasing(PyTensorOperation):
    """RandomErasing(prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
    max_attempts=10) on CHW arrays."""

    is_random = True

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 max_attempts=10):
        self._op = _RandomErasing(prob, scale, ratio, value, inplace, max_attempts)

    def _compute(self, img, rng):
        return self._op._compute(np.asarray(img), rng)


__all__ = ["Decode", "ToTensor", "ToPIL", "ToType", "Resize", "CenterCrop", "Pad", "RandomCrop",
           "RandomResizedCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "Normalize",
           "HWC2CHW", "RandomColorAdjust", "Grayscale", "RandomGrayscale", "RandomRotation",
           "Invert", "Equalize", "AutoContrast", "RandomSharpness", "Cutout", "RandomErasing",
           "Compose", "RandomApply", "RandomChoice", "Inter", "Border"]

from minddata.transforms.py_transforms import Compose, RandomApply, RandomChoice  # noqa: E402
