"""Which map runs the GPU path can take: the ops that have a batched torch kernel, checked
without importing torch (the planner and ``map(device=...)`` read this).

A GPU run is Decode first (the mixed pipeline reads encoded bytes), then geometry on uint8
images (RandomResizedCrop, Resize, CenterCrop, Crop, with bilinear resizing, the CPU path's
OpenCV kernel), flips, and at the end the pointwise and layout ops (Normalize, Rescale,
ToTensor, HWC2CHW), then casts (TypeCast, ToType; a ToTensor's ``output_type``) of the
finished batch. Every random decision is the op's own Python draw (``window``, ``draw``)
from the seed the CPU path gives it, so both paths pick the same windows and flips.
"""
import numpy as np

from transforms_c._validate import is_int
from transforms_c.enums import Inter
from transforms_c.vision.crop import CenterCrop, Crop
from transforms_c.vision.decode import Decode
from transforms_c.vision.flip import (HorizontalFlip, RandomHorizontalFlip, RandomVerticalFlip,
                                      VerticalFlip)
from transforms_c.vision.normalize import HWC2CHW, Normalize, Rescale
from transforms_c.vision.resize import Resize
from transforms_c.vision.resized_crop import RandomCropDecodeResize, RandomResizedCrop
from transforms_c.transforms import TypeCast
from transforms_c.vision.tensor import ToTensor, ToType

#: op class -> what its kernel does (engine/gpu_batch.py runs them)
KINDS = {Decode: "decode", RandomCropDecodeResize: "decode_crop",
         RandomResizedCrop: "geometry", Resize: "geometry", CenterCrop: "geometry",
         Crop: "geometry",
         RandomHorizontalFlip: "flip", RandomVerticalFlip: "flip", HorizontalFlip: "flip",
         VerticalFlip: "flip",
         Normalize: "point", Rescale: "point", ToTensor: "point", HWC2CHW: "layout",
         TypeCast: "cast", ToType: "cast"}

#: the dtypes a GPU cast gives: those torch casts to on every device as numpy does (no torch
#: kernel for uint16/32/64, complex pixels would need another resample)
CAST_TYPES = tuple(np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.int32, np.int64,
                                         np.uint8, np.float16, np.float32, np.float64))

#: what GPU-placed ops may be, for the error refusing others
SUPPORTED = ", ".join(sorted(c.__name__ for c in KINDS))


def op_refusal(op):
    """Why ``op`` has no GPU kernel, or None."""
    kind = KINDS.get(type(op))
    name = type(op).__name__
    if kind is None:
        return f"{name} has no GPU kernel (GPU ops: {SUPPORTED})"
    if kind == "decode" and getattr(op, "to_pil", False):
        return "Decode(to_pil=True) gives PIL images, which stay on the CPU"
    interpolation = getattr(op, "interpolation", None)
    if interpolation is not None and interpolation != Inter.BILINEAR:
        return f"{name}(interpolation={interpolation.name}) has no GPU kernel (only BILINEAR)"
    dtype = cast_type(op)
    if dtype is not None and dtype not in CAST_TYPES:
        return (f"{name} to {dtype.name} has no GPU kernel (GPU casts: "
                f"{', '.join(t.name for t in CAST_TYPES)})")
    return None


def cast_type(op):
    """The numpy dtype a cast op (or a ToTensor with another output_type than float32) gives
    the batch, or None."""
    if KINDS.get(type(op)) == "cast":
        return np.dtype(op.data_type)
    if isinstance(op, ToTensor) and np.dtype(op.output_type) != np.float32:
        return np.dtype(op.output_type)
    return None


def op_on_gpu(map_device, op):
    """True when ``op`` of a map placed at ``map_device`` (None, "CPU" or "GPU") is on the
    GPU: the map's "CPU" wins, an op's own placement wins over the map's "GPU"."""
    own = getattr(op, "device_target", None)
    return map_device != "CPU" and (own == "GPU" or (map_device == "GPU" and own is None))


def placed_on_gpu(map_device, ops):
    """True when a map asks for the GPU for any of its ops."""
    return any(op_on_gpu(map_device, op) for op in ops)


def fixed_size(op):
    """True when a geometry op gives every row the same (H, W)."""
    if isinstance(op, Resize):
        return not is_int(op.size)     # an int resizes the shorter side: the ratio stays
    return True


def run_refusal(map_device, ops):
    """Why a map's ops cannot all run on the GPU, or None: an op placed on the CPU, an op
    without a kernel, a run not starting with a decode, geometry after the pixels turned
    float, or an output whose size depends on each image (the batch would not stack)."""
    explicit = [k for k, op in enumerate(ops) if getattr(op, "device_target", None) == "CPU"]
    if explicit:
        return (f"operations[{explicit[0]}] {type(ops[explicit[0]]).__name__} is placed on the "
                f"CPU (.device('CPU'))")
    for k, op in enumerate(ops):
        why = op_refusal(op)
        if why is not None:
            return f"operations[{k}]: {why}"
    if KINDS[type(ops[0])] not in ("decode", "decode_crop"):
        return (f"the run starts with {type(ops[0]).__name__}, not Decode (the GPU path reads "
                f"encoded images)")
    fixed = KINDS[type(ops[0])] == "decode_crop"
    chw = floating = False
    cast = None         # the op that cast the batch last (casts come last: after the kernel)
    for k, op in enumerate(ops[1:], 1):
        kind = KINDS[type(op)]
        name = type(op).__name__
        if kind in ("decode", "decode_crop"):
            return f"operations[{k}] {name} decodes again"
        if cast is not None and kind not in ("cast", "layout"):
            return (f"operations[{k}] {name} follows {cast} (GPU casts come last: only "
                    f"casts and HWC2CHW may follow them)")
        if kind in ("geometry", "flip") and (floating or chw):
            return (f"operations[{k}] {name} follows a pointwise or layout op (GPU geometry "
                    f"runs on HWC uint8 images)")
        if kind == "geometry":
            fixed = fixed or fixed_size(op)     # Resize(int) of equal sizes gives equal ones
        if isinstance(op, Normalize) and op.is_hwc == chw:
            return (f"operations[{k}] Normalize(is_hwc={op.is_hwc}) does not match the "
                    f"{'CHW' if chw else 'HWC'} layout it receives")
        if kind == "point":
            if (floating or chw) and isinstance(op, ToTensor):
                return f"operations[{k}] ToTensor follows a float or layout op (it takes HWC)"
            floating = True
            chw = chw or isinstance(op, ToTensor)
        if kind == "layout":
            if chw:
                return f"operations[{k}] HWC2CHW receives CHW images"
            chw = True
        dtype = cast_type(op)
        if dtype is not None:
            if floating and dtype.kind in "iu" and kind == "cast":
                # numpy and torch agree on float-to-integer casts only within the type's range
                return (f"operations[{k}] {name} casts float pixels to {dtype.name} (no GPU "
                        f"kernel: out of range, the CPU's values are not torch's)")
            cast = f"{name}({dtype.name})"
            floating = dtype.kind == "f"
    if not fixed:
        return ("the output size depends on each image (no RandomResizedCrop, CenterCrop, "
                "Crop or Resize to (h, w) after the decode): the batch would not stack")
    return None
