"""Plan compiler: fuses runs of native ops into one plan executed per row.

A fusable run reads, in order (every part optional, at least two ops):

    Decode | RandomCropDecodeResize          (only first)
    Crop | CenterCrop | RandomCrop | Resize | RandomResizedCrop ...   geometry
    RandomHorizontalFlip | RandomVerticalFlip | HorizontalFlip | VerticalFlip ...
    Normalize (is_hwc) | Rescale            one pointwise op
    HWC2CHW

At run time the geometry folds into one source box, one resize and one output window (a crop
after a resize only narrows the window), so a row costs one native call: a JPEG is decoded only
over the rows and columns the output needs (region decode), at a coarser DCT scale when a random
crop op allows it (see settings), and crop, resize, flips, normalize and the CHW layout are one
pass writing the output array. When a row does not fold (a second resize, a crop that pads, a
non-uint8 image...) the plan runs the ops one by one with the same seeds, so results never
depend on whether fusion happened. Op i of a plan draws from derive_seed(seed, i), as in Compose.
"""
import math

import numpy as np

from transforms_c import _native, settings
from transforms_c._base import native_ready, _to_numpy
from transforms_c._rng import Rng, derive_seed, eager_seed
from transforms_c.vision.crop import CenterCrop, Crop, RandomCrop
from transforms_c.vision.decode import (Decode, decode_other, encoded_bytes, is_jpeg,
                                        jpeg_size)
from transforms_c.vision.flip import (HorizontalFlip, RandomHorizontalFlip, RandomVerticalFlip,
                                      VerticalFlip)
from transforms_c.vision.normalize import HWC2CHW, Normalize, Rescale, per_channel
from transforms_c.vision.resize import NATIVE_INTERP, Resize, cv2_scale, resize_array
from transforms_c.vision.resized_crop import RandomCropDecodeResize, RandomResizedCrop

_PHASE_START, _PHASE_GEOMETRY, _PHASE_FLIP, _PHASE_POINT, _PHASE_LAYOUT = range(5)
_FLIPS = (RandomHorizontalFlip, RandomVerticalFlip, HorizontalFlip, VerticalFlip)
_CROPS = (Crop, CenterCrop, RandomCrop)


def _phase_of(op, position):
    """The phase an op belongs to, or None when it cannot be part of a plan."""
    kind = type(op)
    if kind is Decode:
        return _PHASE_START if position == 0 and not op.to_pil else None
    if kind is RandomCropDecodeResize:
        return _PHASE_GEOMETRY if position == 0 else None
    if kind in (Crop, CenterCrop, Resize, RandomResizedCrop):
        return _PHASE_GEOMETRY
    if kind is RandomCrop:
        return None if op.pads else _PHASE_GEOMETRY
    if kind in _FLIPS:
        return _PHASE_FLIP
    if kind is Normalize and op.is_hwc:  # NormalizePad is a subclass, excluded by `is`
        return _PHASE_POINT
    if kind is Rescale:
        return _PHASE_POINT
    if kind is HWC2CHW:
        return _PHASE_LAYOUT
    return None


def _run_end(ops, start):
    """End (exclusive) of the longest fusable run beginning at `start`."""
    phase = -1
    end = start
    for position in range(start, len(ops)):
        p = _phase_of(ops[position], position - start)
        if p is None or p < phase or (p == phase and p in (_PHASE_POINT, _PHASE_LAYOUT)):
            break
        if p == _PHASE_START and position != start:
            break
        phase = p
        end = position + 1
    return end


def compile_operations(ops):
    """Replaces each run of two or more fusable native ops by a FusedPlan; other ops are kept.
    The result offers the same is_random/apply protocol, with the same output."""
    ops = list(ops)
    compiled = []
    i = 0
    while i < len(ops):
        end = _run_end(ops, i)
        if end - i >= 2:
            compiled.append(FusedPlan(ops[i:end]))
            i = end
        else:
            compiled.append(ops[i])
            i += 1
    return compiled


def run_unfused(ops, seeds, data):
    for op, seed in zip(ops, seeds):
        data = op.apply((data,), seed)[0]
    return data


class _Unfoldable(Exception):
    """This row's geometry does not fold into one pass; run the ops one by one."""


class _Geometry:
    """Source box (x, y, w, h) -> resize to virt (w, h) -> window (x, y, w, h)."""

    def __init__(self, width, height):
        self.box = [0, 0, width, height]
        self.virt = None
        self.window = None
        self.interp = None
        self.random_crop_op = None

    def current_hw(self):
        if self.virt is None:
            return self.box[3], self.box[2]
        return self.window[3], self.window[2]

    def crop(self, top, left, height, width):
        cur_h, cur_w = self.current_hw()
        if top < 0 or left < 0 or top + height > cur_h or left + width > cur_w:
            raise _Unfoldable
        if self.virt is None:
            self.box = [self.box[0] + left, self.box[1] + top, width, height]
        else:
            self.window = [self.window[0] + left, self.window[1] + top, width, height]

    def resize(self, height, width, interp, random_crop_op=None):
        if self.virt is not None:
            raise _Unfoldable
        self.virt = (width, height)
        self.window = [0, 0, width, height]
        self.interp = interp
        self.random_crop_op = random_crop_op


class _Pass:
    """Flip, pointwise and layout parameters of the pass."""

    def __init__(self):
        self.hflip = False
        self.vflip = False
        self.point = _native.POINT_NONE
        self.p0 = self.p1 = None
        self.chw = False


def _fold(ops, seeds, width, height, channels):
    geo = _Geometry(width, height)
    pss = _Pass()
    for op, seed in zip(ops, seeds):
        kind = type(op)
        if kind is Decode:
            continue
        cur_h, cur_w = geo.current_hw()
        if kind in (RandomResizedCrop, RandomCropDecodeResize):
            if geo.virt is not None:
                raise _Unfoldable
            top, left, crop_h, crop_w = op.window(cur_h, cur_w, Rng(seed))
            geo.crop(top, left, crop_h, crop_w)
            out_h, out_w = op.output_hw()
            geo.resize(out_h, out_w, op.interpolation, op)
        elif kind is Resize:
            out_h, out_w = op.output_shape(cur_h, cur_w)
            geo.resize(out_h, out_w, op.interpolation)
        elif kind is RandomCrop:
            geo.crop(*_random_crop_window(op, cur_h, cur_w, seed))
        elif kind in (Crop, CenterCrop):
            window = op.window(cur_h, cur_w)
            if window is None:
                raise _Unfoldable
            geo.crop(*window)
        elif kind in (RandomHorizontalFlip, HorizontalFlip):
            if kind is HorizontalFlip or op.draw(Rng(seed)):
                pss.hflip = not pss.hflip
        elif kind in (RandomVerticalFlip, VerticalFlip):
            if kind is VerticalFlip or op.draw(Rng(seed)):
                pss.vflip = not pss.vflip
        elif kind is Normalize:
            pss.point = _native.POINT_NORMALIZE
            pss.p0 = per_channel(op.mean, channels, "Normalize", "mean")
            pss.p1 = per_channel(op.std, channels, "Normalize", "std")
        elif kind is Rescale:
            pss.point = _native.POINT_RESCALE
            pss.p0 = np.full(channels, op.rescale, np.float32)
            pss.p1 = np.full(channels, op.shift, np.float32)
        elif kind is HWC2CHW:
            pss.chw = True
        else:  # pragma: no cover - compile_operations only admits the kinds above
            raise _Unfoldable
    if geo.virt is None:
        geo.virt = (geo.box[2], geo.box[3])
        geo.window = [0, 0, geo.box[2], geo.box[3]]
        geo.interp = None
    return geo, pss


def _random_crop_window(op, height, width, seed):
    try:
        return op.window(height, width, Rng(seed))
    except RuntimeError:
        raise _Unfoldable from None


def _allocate(pss, out_h, out_w, channels, out):
    dtype = np.uint8 if pss.point == _native.POINT_NONE else np.float32
    shape = (channels, out_h, out_w) if pss.chw else (out_h, out_w, channels)
    if (out is not None and isinstance(out, np.ndarray) and out.dtype == dtype
            and out.flags.c_contiguous and out.size == out_h * out_w * channels):
        return out.reshape(shape)
    return np.empty(shape, dtype)


def _needed_span(win, count, scale, src_count, interp):
    """[lo, hi) of the source indices read for virtual indices [win, win + count), with a margin
    of two so that no tap is clamped at a trimmed edge."""
    if interp == _native.INTERP_COPY:
        lo, hi = win, win + count
    elif interp in (_native.INTERP_NEAREST, _native.INTERP_AREA):
        # Area reads [v * scale, (v + 1) * scale) (or two taps from floor(v * scale) when
        # enlarging): one source pixel past the nearest-neighbour span covers both.
        lo = int(math.floor(win * scale))
        hi = int(math.floor((win + count) * scale)) + 2
    else:  # linear: taps s, s + 1; cubic: s - 1 .. s + 2
        cubic = interp == _native.INTERP_CUBIC
        lo = int(math.floor(np.float32((win + 0.5) * scale - 0.5))) - (1 if cubic else 0)
        hi = int(math.floor(np.float32((win + count - 1 + 0.5) * scale - 0.5))) + (3 if cubic
                                                                                 else 2)
    lo = max(0, lo - 2)
    hi = min(src_count, hi + 2)
    return lo, max(hi, lo + 1)


def _approximate_denominator(geo):
    op = geo.random_crop_op
    if op is None:
        return 1
    enabled = op.approximate_decode
    if enabled is None:
        enabled = settings.get_approximate_decode()
    if not enabled:
        return 1
    box_w, box_h = geo.box[2], geo.box[3]
    virt_w, virt_h = geo.virt
    for denom in (8, 4, 2):
        if box_w / denom >= virt_w and box_h / denom >= virt_h:
            return denom
    return 1


def _run_jpeg(data, geo, pss, width, height, out, op_name):
    box_x, box_y, box_w, box_h = geo.box
    virt_w, virt_h = geo.virt
    win_x, win_y, out_w, out_h = geo.window
    result = _allocate(pss, out_h, out_w, 3, out)
    native_interp = (_native.INTERP_COPY if geo.interp is None
                     else NATIVE_INTERP.get(geo.interp))
    max_pixels = settings.get_max_image_pixels()
    p0 = pss.p0 if pss.p0 is not None else _EMPTY
    p1 = pss.p1 if pss.p1 is not None else _EMPTY
    if native_interp is None:
        # OpenCV-only interpolation: exact decode of the box, cv2.resize, then the pass.
        region = np.empty((box_h, box_w, 3), np.uint8)
        _decode_into(data, 1, box_x, box_y, region, max_pixels, op_name)
        resized = resize_array(region, virt_h, virt_w, geo.interp, op_name)
        _native.resample(resized, result, virt_w, virt_h, _native.INTERP_COPY, 0.0, 0.0, 0.0,
                         0.0, win_x, win_y, pss.hflip, pss.vflip, pss.point, p0, p1, pss.chw)
        return result
    denom = _approximate_denominator(geo)
    if denom > 1:
        scaled_w, scaled_h = _native.jpeg_scaled(width, height, denom)
        fx, fy = box_x / denom, box_y / denom
        fw, fh = box_w / denom, box_h / denom
        rx, ry = int(math.floor(fx)), int(math.floor(fy))
        rw = min(scaled_w, int(math.ceil(fx + fw))) - rx
        rh = min(scaled_h, int(math.ceil(fy + fh))) - ry
        scale_x, scale_y = fw / virt_w, fh / virt_h
        offset_x, offset_y = fx - rx, fy - ry
    else:
        scale_x = cv2_scale(box_w, virt_w) if native_interp != _native.INTERP_COPY else 1.0
        scale_y = cv2_scale(box_h, virt_h) if native_interp != _native.INTERP_COPY else 1.0
        lo_x, hi_x = _needed_span(win_x, out_w, scale_x, box_w, native_interp)
        lo_y, hi_y = _needed_span(win_y, out_h, scale_y, box_h, native_interp)
        rx, ry, rw, rh = box_x + lo_x, box_y + lo_y, hi_x - lo_x, hi_y - lo_y
        offset_x, offset_y = -float(lo_x), -float(lo_y)
        if native_interp == _native.INTERP_COPY:
            # A copy reads virtual index v at v: shift the window instead of the taps.
            win_x, win_y = win_x - lo_x, win_y - lo_y
            virt_w, virt_h = rw, rh
            offset_x = offset_y = 0.0
    try:
        _native.decode_resample(data, denom, rx, ry, rw, rh, result, virt_w, virt_h,
                                native_interp, scale_x, scale_y, offset_x, offset_y, win_x, win_y,
                                pss.hflip, pss.vflip, pss.point, p0, p1, pss.chw, max_pixels)
    except RuntimeError as exc:
        raise RuntimeError(f"{op_name}: {exc}") from None
    return result


_EMPTY = np.zeros(1, np.float32)


def _decode_into(data, denom, x, y, region, max_pixels, op_name):
    try:
        _native.jpeg_decode_into(data, denom, x, y, region, max_pixels)
    except RuntimeError as exc:
        raise RuntimeError(f"{op_name}: {exc}") from None


def _run_image(image, geo, pss, out, op_name):
    src = native_ready(image)
    channels = src.shape[2]
    box_x, box_y, box_w, box_h = geo.box
    virt_w, virt_h = geo.virt
    win_x, win_y, out_w, out_h = geo.window
    result = _allocate(pss, out_h, out_w, channels, out)
    box = src[box_y:box_y + box_h, box_x:box_x + box_w]
    p0 = pss.p0 if pss.p0 is not None else _EMPTY
    p1 = pss.p1 if pss.p1 is not None else _EMPTY
    if geo.interp is None:
        interp = _native.INTERP_COPY
    else:
        interp = NATIVE_INTERP.get(geo.interp)
    if interp is None:
        box = resize_array(box, virt_h, virt_w, geo.interp, op_name)
        if box.ndim == 2:
            box = box[:, :, None]
        interp = _native.INTERP_COPY
    scale_x = cv2_scale(box.shape[1], virt_w) if interp != _native.INTERP_COPY else 1.0
    scale_y = cv2_scale(box.shape[0], virt_h) if interp != _native.INTERP_COPY else 1.0
    _native.resample(box, result, virt_w, virt_h, interp, scale_x, scale_y, 0.0, 0.0, win_x,
                     win_y, pss.hflip, pss.vflip, pss.point, p0, p1, pss.chw)
    return result


def run_chain(ops, seeds, data, out=None):
    """Runs ops (a fusable run) on one row's column with per-op seeds; see the module doc."""
    op_name = type(ops[0]).__name__
    starts_with_decode = type(ops[0]) in (Decode, RandomCropDecodeResize)
    if starts_with_decode:
        data = encoded_bytes(_to_numpy(data), op_name)
        if is_jpeg(data):
            width, height = jpeg_size(data, op_name)
            try:
                geo, pss = _fold(ops, seeds, width, height, 3)
            except _Unfoldable:
                return _fallback(ops, seeds, data)
            return _run_jpeg(data, geo, pss, width, height, out, op_name)
        image = decode_other(data, op_name)
    else:
        image = data
        if (not isinstance(image, np.ndarray) or image.dtype != np.uint8
                or image.ndim not in (2, 3) or image.size == 0):
            return run_unfused(ops, seeds, data)
    channels = 1 if image.ndim == 2 else image.shape[2]
    try:
        geo, pss = _fold(ops, seeds, image.shape[1], image.shape[0], channels)
    except (_Unfoldable, RuntimeError):
        # Unfused ops raise the proper error (or handle padding) themselves.
        return _fallback(ops, seeds, image if not starts_with_decode else data)
    result = _run_image(image, geo, pss, out, op_name)
    if image.ndim == 2:
        result = result.reshape(result.shape[1:] if pss.chw else result.shape[:2])
    return result


def _fallback(ops, seeds, data):
    if type(ops[0]) is RandomCropDecodeResize:
        # The unfused meaning of RandomCropDecodeResize: Decode, then RandomResizedCrop.
        first = ops[0]
        image = Decode().apply((data,), 0)[0]
        rrc = RandomResizedCrop(first.size, first.scale, first.ratio, first.interpolation,
                                first.max_attempts)
        data = rrc.apply((image,), seeds[0])[0]
        return run_unfused(ops[1:], seeds[1:], data)
    return run_unfused(ops, seeds, data)


class FusedPlan:
    """A run of native ops executed as one native plan per row (see the module doc). Offers the
    op protocol: is_random, apply(arrays, seed), apply_batch(rows, seeds, out=None), op(*arrays).
    """

    is_native = True

    def __init__(self, ops):
        self.ops = list(ops)
        if _run_end(self.ops, 0) != len(self.ops):
            raise ValueError(f"operations {self.ops!r} do not form one fusable run")
        self.is_random = any(getattr(op, "is_random", False) for op in self.ops)

    def seeds(self, seed):
        return [derive_seed(seed, i) for i in range(len(self.ops))]

    def apply(self, arrays, seed, out=None):
        if len(arrays) != 1:
            raise RuntimeError(f"{self!r}: expected 1 input column, got {len(arrays)}")
        return (run_chain(self.ops, self.seeds(seed), arrays[0], out),)

    def apply_batch(self, rows, seeds, out=None):
        """Runs the plan on each row tuple (one column each) with its seed. `out` is None, an
        array whose first axis is the batch (rows are written straight into out[i] when the
        shape and dtype match; otherwise copied), or a sequence holding such an array first.
        Returns the list of output row tuples (views into `out` when given)."""
        target = out[0] if isinstance(out, (list, tuple)) else out
        if target is not None and len(target) < len(rows):
            raise ValueError(f"out holds {len(target)} rows, fewer than the {len(rows)} given")
        results = []
        for i, (row, seed) in enumerate(zip(rows, seeds)):
            slot = target[i] if target is not None else None
            value = self.apply(tuple(row), seed, slot)[0]
            if slot is not None and not np.shares_memory(value, slot):
                # A row that took a fallback path: copy it into its slot only when it has the
                # slot's exact shape (never reshape a (W, H) image into an (H, W) slot).
                if value.shape != slot.shape:
                    raise RuntimeError(f"{self!r}: row {i} has shape {value.shape}, the batch "
                                       f"array expects {slot.shape}")
                slot[...] = value
                value = slot
            results.append((value,))
        return results

    def __call__(self, *arrays):
        arrays = tuple(_to_numpy(a) for a in arrays)
        out = self.apply(arrays, eager_seed() if self.is_random else 0)
        return out[0]

    def __repr__(self):
        return "FusedPlan(" + ", ".join(repr(op) for op in self.ops) + ")"


__all__ = ["compile_operations", "FusedPlan", "run_chain", "run_unfused"]
