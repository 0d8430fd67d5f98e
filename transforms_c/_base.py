"""The op protocol shared by every transform (see docs/internals.md, "transforms_c -> minddata").

An op is callable eagerly, `op(*arrays)`, and offers the engine `is_random` and
`apply(arrays, seed) -> tuple`. Ops hold only their validated arguments, so one op object is safe
to use from many threads at once.
"""
import numpy as np

from transforms_c._rng import Rng, eager_seed


class TensorOperation:
    """Base of every op. Subclasses implement `_compute(img, rng)` for one input array
    (rng is an Rng seeded from the row's seed, None for deterministic ops), or override `apply`."""

    is_random = False
    #: True for ops whose kernels are native (candidates for fusion); informative only.
    is_native = False

    def __call__(self, *arrays):
        if not arrays:
            raise TypeError(f"{type(self).__name__}: expected at least one input array")
        arrays = tuple(_to_numpy(a) for a in arrays)
        seed = eager_seed() if self.is_random else 0
        out = self.apply(arrays, seed)
        return out[0] if len(out) == 1 else out

    def apply(self, arrays, seed):
        if len(arrays) != 1:
            raise RuntimeError(f"{type(self).__name__}: expected 1 input column, "
                               f"got {len(arrays)}")
        rng = Rng(seed) if self.is_random else None
        return (self._compute(arrays[0], rng),)

    def _compute(self, img, rng):
        raise NotImplementedError

    # -- fusion declarations (transforms_c/folding.py) --------------------------------------
    def fusion_phase(self, position):
        """The phase this op takes in a fused plan when it is the `position`-th op of the run,
        or None when it cannot be fused."""
        return None

    def fold(self, geo, pss, seed, channels):
        """Folds this op into one row's Geometry / PassParams (seeded with `seed`); raises
        folding.Unfoldable when the row must run op by op."""
        raise NotImplementedError(f"{type(self).__name__} is not fusable")

    def native_step(self):
        """The native step (a dict for transforms_c._batch) running this op without Python, or
        None."""
        return None

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({args})"


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
    raise TypeError(f"Input should be a numpy array or PIL image, got {type(value).__name__}")


def image_hwc(img, op_name, allow_float=True):
    """Checks an image array (H, W) or (H, W, C) and returns it unchanged."""
    if not isinstance(img, np.ndarray):
        raise TypeError(f"{op_name}: input should be a numpy array, got {type(img).__name__}")
    if img.ndim not in (2, 3):
        raise RuntimeError(f"{op_name}: input tensor is not in shape of <H,W> or <H,W,C>, "
                           f"got shape {img.shape}")
    if img.shape[0] == 0 or img.shape[1] == 0 or (img.ndim == 3 and img.shape[2] == 0):
        raise RuntimeError(f"{op_name}: input image is empty, shape {img.shape}")
    if img.dtype == np.bool_ or img.dtype.kind not in "uif":
        raise RuntimeError(f"{op_name}: input image has unsupported dtype {img.dtype}")
    if not allow_float and img.dtype != np.uint8:
        raise RuntimeError(f"{op_name}: input image should be uint8, got {img.dtype}")
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
