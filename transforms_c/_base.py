"""The op protocol shared by every transform (transforms_c/contract.py states it as Protocols;
docs/internals.md, "The op contract").

An op is callable eagerly, `op(*arrays)`, and offers the engine `is_random` and
`apply(arrays, seed) -> tuple`. Ops hold only their validated arguments, so one op object is safe
to use from many threads at once.

`apply` is also where an op meets what MindSpore 2.x's unified ops accept besides one image
array (eager calls and Compose, not the engine, which hands ops arrays only):
- a PIL image (`pil_input`): ops that MindSpore also implements with Pillow give back a PIL image
  of the input's mode, the others an array (np.asarray of the image, as MindSpore does);
- a batch <..., H, W, C> (`batched`): the op runs on each image of it and the results are
  stacked back to the leading dimensions; a random op draws once for the batch (every image gets
  the same flip or window), or for each image in turn where MindSpore does (`draws_per_image`).
"""
import functools
import inspect
import sys

import numpy as np

from transforms_c._rng import Rng, eager_seed
from transforms_c.contract import FusionDefaults


class TensorOperation(FusionDefaults):
    """Base of every op. Subclasses implement `_compute(img, rng)` for one input array
    (rng is an Rng seeded from the row's seed, None for deterministic ops), or override `apply`.
    A fusable op overrides the declarations of transforms_c.contract.FusableOperation
    (``fusion_phase``, ``fold``, ``native_step``, ...; FusionDefaults gives the rest)."""

    is_random = False
    #: True for ops whose kernels are native (candidates for fusion); informative only.
    is_native = False
    #: What the op does with a PIL image (MindSpore 2.x's unified ops, eager or in Compose):
    #: "array": runs on np.asarray(image) and gives an array (MindSpore's C++-only ops);
    #: "image": runs on the image's pixels and gives back a PIL image of the same mode (the ops
    #: MindSpore also implements with Pillow); "own": `_compute` takes the PIL image itself.
    pil_input = "array"
    #: True for ops that MindSpore applies to each image of a <..., H, W, C> batch.
    batched = False
    #: True for the batched random ops whose draws MindSpore makes for each image of a batch
    #: (RandomCrop: a window each), not once for the batch (the flips, RandomResizedCrop).
    draws_per_image = False
    #: Interpolations MindSpore refuses on a PIL image (TypeError), and the attribute naming it.
    pil_refused_interpolations = ()
    interpolation_attr = "interpolation"
    #: pil_input "image" ops whose MindSpore Pillow path gives other pixels than their kernel
    #: (resampling, Pillow's fills) define `_compute_pil(image, rng) -> image` with Pillow.
    _compute_pil = None

    def device(self, device_target="CPU"):
        """Places the op (MindSpore 2.x's ``.device()``): "CPU", the default, or "GPU", where
        minddata runs a map's decode-and-augment run batched on the accelerator (minddata/gpu/;
        eager calls stay on the CPU). Returns the op itself. "Ascend" (MindSpore's DVPP) is
        refused: this package has no Ascend backend."""
        self._device_target = check_device_target(device_target, "device_target")
        return self

    @property
    def device_target(self):
        """The op's placement: None unless ``device()`` set one."""
        return self.__dict__.get("_device_target")

    def __init__(self):
        """An op without arguments (a call with some: "__init__() takes 1 positional
        argument but 2 were given", as MindSpore's)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:
            cls.__init__ = _arguments_bound_first(cls.__init__)
        # The vision ops (but the decoders) take what MindSpore's image ops take.
        if "image_input" not in cls.__dict__ and cls.__module__.startswith("transforms_c.vision."):
            cls.image_input = not getattr(cls, "decodes", False)

    #: True for the vision ops: like MindSpore's image ops, an eager call takes numpy arrays
    #: and PIL images only (TypeError); the data transforms also take lists and scalars.
    image_input = False

    def __call__(self, *arrays):
        if not arrays:      # MindSpore's words
            raise RuntimeError(f"{type(self).__name__}: Input Tensor is not valid. The op was "
                               f"called without an input.")
        if self.image_input:
            for value in arrays:
                if type(value) is not np.ndarray and not is_pil(value):
                    raise TypeError(f"Input should be NumPy or PIL image, got {type(value)}.")
        if not (len(arrays) == 1 and self.pil_input != "array" and is_pil(arrays[0])):
            # bytes are encoded data for a decoder, a string value for the others
            decodes = getattr(self, "decodes", False)
            arrays = tuple(np.asarray(a) if isinstance(a, bytes) and not decodes
                           else _to_numpy(a) for a in arrays)
        seed = eager_seed() if self.is_random else 0
        try:
            out = self.apply(arrays, seed)
        except RuntimeError as exc:
            raise eager_error(exc) from exc
        return out[0] if len(out) == 1 else out

    #: True for the random ops MindSpore applies to several images at once with the same draws
    #: (an image and its mask): each column goes through the op, as an array.
    multi_input = False

    def apply(self, arrays, seed):
        if len(arrays) != 1 and self.multi_input:
            return tuple(self.apply((np.asarray(a) if is_pil(a) else a,), seed)[0]
                         for a in arrays)
        if len(arrays) != 1:
            raise RuntimeError(f"{type(self).__name__}: The op is OneToOne, can only accept one "
                               f"tensor as input. Got {len(arrays)} input columns.")
        img = arrays[0]
        if type(img) is not np.ndarray and self.pil_input != "own" and is_pil(img):
            return (self._apply_pil(img, seed),)
        if self.batched and getattr(img, "ndim", 0) > 3:
            return (self._apply_batch(img, seed),)
        rng = Rng(seed) if self.is_random else None
        return (self._compute(img, rng),)

    def _apply_pil(self, img, seed):
        """A PIL image through the op (see the module doc and `pil_input`)."""
        if self.pil_input != "image":
            return self.apply((np.asarray(img),), seed)[0]
        interpolation = getattr(self, self.interpolation_attr, None)
        if interpolation is not None and interpolation in self.pil_refused_interpolations:
            raise TypeError(f"{type(self).__name__}: Current Interpolation is not supported "
                            f"with PIL input ({self.interpolation_attr}="
                            f"{interpolation.name}); pass a numpy array instead.")
        if self._compute_pil is not None:
            return self._compute_pil(img, Rng(seed) if self.is_random else None)
        arr, mode = pil_to_array(img)
        return array_to_pil(self.apply((arr,), seed)[0], mode)

    def _apply_batch(self, batch, seed):
        """Each (H, W, C) image of a <..., H, W, C> batch through `_compute`, every one with the
        same draws (or, `draws_per_image`, drawing in turn from one stream), stacked back to
        the batch's leading dimensions."""
        lead = batch.shape[:-3]
        images = batch.reshape((-1,) + batch.shape[-3:])
        if images.shape[0] == 0:
            raise RuntimeError(f"{type(self).__name__}: the input batch of shape {batch.shape} "
                               f"holds no image")
        shared = Rng(seed) if self.is_random and self.draws_per_image else None
        outs = [self._compute(image, shared if shared is not None
                              else Rng(seed) if self.is_random else None)
                for image in images]
        return np.stack(outs).reshape(lead + outs[0].shape)

    def _compute(self, img, rng):
        raise NotImplementedError

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({args})"


def _arguments_bound_first(init):
    """`init` that first binds its arguments to its signature, so that a wrong call raises
    MindSpore's words ("too many positional arguments", "missing a required argument: 'x'",
    "got an unexpected keyword argument 'x'"), as its validators bind them."""
    signature = inspect.signature(init)
    if getattr(init, "_binds_first", False) or len(signature.parameters) == 1:
        return init     # wrapped already, or no argument to bind

    @functools.wraps(init)
    def bound_first(self, *args, **kwargs):
        try:
            signature.bind(self, *args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{type(self).__name__}: {exc}") from None
        init(self, *args, **kwargs)

    bound_first._binds_first = True
    return bound_first


#: The placements ``device()`` and ``map(device=...)`` accept.
DEVICE_TARGETS = ("CPU", "GPU")


def check_device_target(value, name):
    """``value`` if it is a placement this package runs ("CPU" or "GPU"), else MindSpore's
    TypeError/ValueError naming ``name``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} should be a str, one of {list(DEVICE_TARGETS)}, but got "
                        f"{type(value).__name__}: {value!r}")
    if value == "Ascend":
        raise ValueError(f"{name}='Ascend' is not supported: this package has no Ascend (DVPP) "
                         f"backend; use 'GPU' for the CUDA decode-and-augment path, or 'CPU'")
    if value not in DEVICE_TARGETS:
        raise ValueError(f"Input {name} is not within the valid set of {list(DEVICE_TARGETS)}, "
                         f"but got {value!r}")
    return value


_RULE = "-" * 66


def eager_error(exc):
    """An op's RuntimeError in an eager call, with the block MindSpore's eager calls of its C++
    ops add ("Exception thrown from dataset pipeline. ...", its suite matches on it) after ours."""
    if type(exc) is not RuntimeError or "Dataset Pipeline Error Message" in str(exc):
        return exc
    return RuntimeError(f"{exc}\nException thrown from dataset pipeline. Refer to 'Dataset "
                        f"Pipeline Error Message'.\n\n{_RULE}\n- Dataset Pipeline Error "
                        f"Message:\n{_RULE}\n[ERROR] {exc}")


def is_pil(value):
    """True for a PIL image (without importing PIL: an image exists only once it is loaded)."""
    if type(value) is np.ndarray:
        return False
    image_module = sys.modules.get("PIL.Image")
    return image_module is not None and isinstance(value, image_module.Image)


@functools.lru_cache(maxsize=None)
def _mode_layout(mode):
    """(dtype, trailing shape) of np.asarray of a PIL image of `mode`."""
    from PIL import Image
    probe = np.asarray(Image.new(mode, (1, 1)))
    return probe.dtype, probe.shape[2:]


def pil_to_array(img):
    """(pixels, mode) of a PIL image; a palette image is expanded to RGB (RGBA when it has a
    transparent colour) and a 1-bit image to L, so that the pixels are colours."""
    if img.mode == "P":
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    elif img.mode == "1":
        img = img.convert("L")
    return np.asarray(img), img.mode


def array_to_pil(arr, mode):
    """A PIL image of `mode` from an op's output when its pixels fit that mode (an op that
    keeps the layout), else the mode PIL gives the array (e.g. L after Grayscale of RGB)."""
    from PIL import Image
    if arr.ndim == 3 and arr.shape[2] == 1:
        arr = arr[:, :, 0]
    arr = np.ascontiguousarray(arr)
    dtype, trailing = _mode_layout(mode)
    if arr.dtype == dtype and arr.shape[2:] == trailing and arr.ndim in (2, 3):
        return Image.frombytes(mode, (arr.shape[1], arr.shape[0]), arr.tobytes())
    try:
        return Image.fromarray(arr)
    except (TypeError, ValueError) as exc:
        raise RuntimeError(f"cannot give back a PIL image from an array of shape {arr.shape}, "
                           f"dtype {arr.dtype}: {exc}") from None


def _to_numpy(value):
    if isinstance(value, np.ndarray):
        return value
    try:
        from PIL import Image
        if isinstance(value, Image.Image):
            return np.asarray(value)
    except ImportError:  # Pillow is a requirement, but eager numpy use should not depend on it
        pass
    if isinstance(value, (bytes, bytearray, memoryview)):
        return np.frombuffer(value, np.uint8)
    if isinstance(value, (list, tuple, int, float, str, np.generic)):
        return np.asarray(value)
    raise TypeError(f"Invalid user input. Got {type(value)}: {value}, cannot be converted into "
                    f"tensor. Input should be a numpy array or PIL image.")


def decode_hint_rank_words(ndim):
    """MindSpore's words for an image of the wrong rank (ConvertColor, GaussianBlur,
    NormalizePad ...): a 1-D input is most likely encoded bytes."""
    hint = ". You may need to perform Decode first." if ndim < 2 else ""
    return f"input tensor is not in shape of <H,W> or <H,W,C>, but got rank: {ndim}{hint}"


def image_hwc(img, op_name, allow_float=True, rank_words=None):
    """Checks an image array (H, W) or (H, W, C) and returns it unchanged. rank_words(ndim):
    the op's own MindSpore words for a wrong rank, where they differ from the default."""
    if not isinstance(img, np.ndarray):
        raise TypeError(f"{op_name}: input should be a numpy array, got {type(img).__name__}")
    if img.ndim not in (2, 3) and rank_words is not None:
        raise RuntimeError(f"{op_name}: {rank_words(img.ndim)} (shape {img.shape})")
    if img.ndim < 2:
        # MindSpore's words (a 1-D input is encoded bytes, most likely)
        raise RuntimeError(f"{op_name}: the image tensor should have at least two dimensions. "
                           f"You may need to perform Decode first. (shape {img.shape})")
    if img.ndim > 3:
        raise RuntimeError(f"{op_name}: input tensor is not in shape of <H,W> or <H,W,C>, "
                           f"but got rank: {img.ndim} (shape {img.shape})")
    if img.shape[0] == 0 or img.shape[1] == 0 or (img.ndim == 3 and img.shape[2] == 0):
        raise RuntimeError(f"{op_name}: input image is empty, shape {img.shape}")
    if img.dtype == np.bool_ or img.dtype.kind not in "uif":
        # MindSpore's sentence, then the dtype
        raise RuntimeError(f"{op_name}: the data type of image tensor does not match the "
                           f"requirement of operator. But got type {img.dtype}.")
    if not allow_float and img.dtype != np.uint8:
        raise RuntimeError(f"{op_name}: input image should be uint8, got {img.dtype}")
    return img


def require_hwc3(img, op_name):
    """MindSpore's words for an image that is not (H, W, 3), for the ops that take only those."""
    if img.ndim != 3:
        raise RuntimeError(f"{op_name}: input tensor is not in shape of <H,W,C>, but got rank: "
                           f"{img.ndim}")
    if img.shape[2] != 3:
        raise RuntimeError(f"{op_name}: channel of input image should be 3, but got: "
                           f"{img.shape[2]}")
    return img


def as_hwc3(img):
    """(H, W) -> (H, W, 1) view; (H, W, C) unchanged."""
    return img[:, :, None] if img.ndim == 2 else img


def native_ready(img):
    """uint8 image whose pixels are contiguous (rows may be strided), as (H, W, C)."""
    img3 = as_hwc3(img)
    if (img3.shape[2] > 1 and img3.strides[2] != 1) or img3.strides[1] != img3.shape[2]:
        img3 = np.ascontiguousarray(img3)
    return img3


def cast_like(values, like):
    """``values`` in ``like``'s dtype as OpenCV's convertTo gives them: an integer type rounded
    half to even and saturated, a float type as it is."""
    if like.dtype.kind in "ui":
        info = np.iinfo(like.dtype)
        return np.clip(np.rint(values), info.min, info.max).astype(like.dtype)
    return values.astype(like.dtype, copy=False)
