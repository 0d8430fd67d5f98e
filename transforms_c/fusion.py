"""Plan compiler: fuses runs of native ops into one plan executed per row.

A fusable run is a sequence of ops whose declared phases (transforms_c/folding.py) never go
backwards: a decode first, then geometry (crops, resizes), flips, at most one pointwise op
(Normalize or Rescale, or a Rescale followed by a Normalize, computed one after the other in
float32 as unfused) and at most one layout op (HWC2CHW), at least two ops in all. Each op
declares its own phase and folds itself (``fusion_phase``, ``fold``), so this compiler knows no
op class.

At run time the geometry folds into one source box, one resize and one output window (a crop
after a resize only narrows the window), so a row costs one native call: a JPEG is decoded only
over the rows and columns the output needs (region decode), at a coarser DCT scale when a random
crop op allows it (see settings), and crop, resize, flips, normalize and the CHW layout are one
pass writing the output array. When a row does not fold (a second resize, a crop that pads, a
non-uint8 image...) the plan runs the ops one by one with the same seeds, so results never
depend on whether fusion happened.

Seeds: every op of a plan draws from its own seed. In a pipeline the engine gives each op the
seed of its own position in the map (``apply_seeds``), so fusing one more op never changes what
another op draws; eager calls and Compose give op i of a plan ``derive_seed(seed, i)``.
"""
import math

import numpy as np

from transforms_c import _native, folding, settings
from transforms_c._base import is_pil, native_ready, _to_numpy
from transforms_c._rng import derive_seed, eager_seed
from transforms_c.contract import FusableOperation
from transforms_c.vision.decode import decode_other, encoded_bytes, is_jpeg, jpeg_size
from transforms_c.vision.resize import NATIVE_INTERP, cv2_scale, resize_array


def _phase_of(op, position):
    """The phase an op declares for `position` in a run, or None when it cannot be fused."""
    return op.fusion_phase(position) if isinstance(op, FusableOperation) else None


def _run_end(ops, start):
    """End (exclusive) of the longest fusable run beginning at `start`."""
    phase = -1
    end = start
    for position in range(start, len(ops)):
        p = _phase_of(ops[position], position - start)
        if p is None or p < phase or (p == phase and p in folding.SINGLE_PHASES):
            break
        if p == phase == folding.PHASE_POINT and not folding.points_chain(ops[position - 1],
                                                                           ops[position]):
            break
        if p == folding.PHASE_START and position != start:
            break
        phase = p
        end = position + 1
    # A run ends on an op whose unfused output is an array (a pass writes arrays): not on one
    # that gives a PIL image (the PIL path's Decode, crops and flips).
    while end > start and not ops[end - 1].ends_fused_run:
        end -= 1
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


_Unfoldable = folding.Unfoldable


def _fold(ops, seeds, width, height, channels):
    geo = folding.Geometry(width, height)
    pss = folding.PassParams()
    for op, seed in zip(ops, seeds):
        op.fold(geo, pss, seed, channels)
    if geo.virt is None:
        geo.virt = (geo.box[2], geo.box[3])
        geo.window = [0, 0, geo.box[2], geo.box[3]]
        geo.interp = None
    return geo, pss


def _point_args(pss):
    """(native point op, p0, p1, p2, p3) of the pass."""
    if pss.point is None:
        return _native.POINT_NONE, _EMPTY, _EMPTY, _EMPTY, _EMPTY
    return tuple(pss.point) + (_EMPTY,) * (5 - len(pss.point))


def _allocate(pss, out_h, out_w, channels, out):
    dtype = np.uint8 if pss.point is None else np.float32
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
    if op is None or not op.allows_approximate_decode():
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
    point, p0, p1, p2, p3 = _point_args(pss)
    if native_interp is None:
        # A resize the pass lacks: exact decode of the box, that resize, then the pass.
        region = np.empty((box_h, box_w, 3), np.uint8)
        _decode_into(data, 1, box_x, box_y, region, max_pixels, op_name)
        resized = native_ready(_resize_box(region, geo, op_name))
        _native.resample(resized, result, virt_w, virt_h, _native.INTERP_COPY, 0.0, 0.0, 0.0,
                         0.0, win_x, win_y, pss.hflip, pss.vflip, point, p0, p1, pss.chw,
                         p2, p3)
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
                                pss.hflip, pss.vflip, point, p0, p1, pss.chw, max_pixels, p2,
                                p3)
    except RuntimeError as exc:
        raise RuntimeError(f"{op_name}: {exc}") from None
    return result


_EMPTY = np.zeros(1, np.float32)


def _decode_into(data, denom, x, y, region, max_pixels, op_name):
    try:
        _native.jpeg_decode_into(data, denom, x, y, region, max_pixels)
    except RuntimeError as exc:
        raise RuntimeError(f"{op_name}: {exc}") from None


def _resize_box(box, geo, op_name):
    """The box resized to the plan's virtual size by a kernel the native pass lacks: an op's
    own resizer (``geo.interp.resize``, e.g. Pillow's filters) or OpenCV."""
    virt_w, virt_h = geo.virt
    resizer = getattr(geo.interp, "resize", None)
    if resizer is not None:
        return resizer(box, virt_h, virt_w)
    return resize_array(box, virt_h, virt_w, geo.interp, op_name)


def _run_image(image, geo, pss, out, op_name):
    src = native_ready(image)
    channels = src.shape[2]
    box_x, box_y, box_w, box_h = geo.box
    virt_w, virt_h = geo.virt
    win_x, win_y, out_w, out_h = geo.window
    result = _allocate(pss, out_h, out_w, channels, out)
    box = src[box_y:box_y + box_h, box_x:box_x + box_w]
    point, p0, p1, p2, p3 = _point_args(pss)
    if geo.interp is None:
        interp = _native.INTERP_COPY
    else:
        interp = NATIVE_INTERP.get(geo.interp)
    if interp is None:
        box = _resize_box(box, geo, op_name)
        if box.ndim == 2:
            box = box[:, :, None]
        interp = _native.INTERP_COPY
    scale_x = cv2_scale(box.shape[1], virt_w) if interp != _native.INTERP_COPY else 1.0
    scale_y = cv2_scale(box.shape[0], virt_h) if interp != _native.INTERP_COPY else 1.0
    _native.resample(box, result, virt_w, virt_h, interp, scale_x, scale_y, 0.0, 0.0, win_x,
                     win_y, pss.hflip, pss.vflip, point, p0, p1, pss.chw, p2, p3)
    return result


def run_chain(ops, seeds, data, out=None):
    """Runs ops (a fusable run) on one row's column with per-op seeds; see the module doc."""
    op_name = type(ops[0]).__name__
    starts_with_decode = ops[0].decodes
    if starts_with_decode:
        data = encoded_bytes(data if is_pil(data) else _to_numpy(data), op_name)
        if not ops[0].fuses_encoded(data):
            return run_unfused(ops, seeds, data)   # a format only the op's own decoder reads
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
    data = ops[0].apply_unfused(data, seeds[0])
    return run_unfused(ops[1:], seeds[1:], data)


class FusedPlan:
    """A run of native ops executed as one native plan per row (see the module doc). Offers the
    op protocol: is_random, apply(arrays, seed), apply_seeds(arrays, seeds), op(*arrays)
    (transforms_c.contract.FusedPlanLike).
    """

    is_native = True

    def __init__(self, ops):
        self.ops = list(ops)
        if _run_end(self.ops, 0) != len(self.ops):
            raise ValueError(f"operations {self.ops!r} do not form one fusable run")
        self.is_random = any(op.is_random for op in self.ops)

    def seeds(self, seed):
        return [derive_seed(seed, i) for i in range(len(self.ops))]

    def apply(self, arrays, seed):
        """Runs the plan with op i seeded derive_seed(seed, i) (eager calls, Compose)."""
        return self.apply_seeds(arrays, self.seeds(seed))

    def apply_seeds(self, arrays, seeds):
        """Runs the plan with one seed per op (the engine passes each op's own seed)."""
        if len(arrays) != 1:
            raise RuntimeError(f"{self!r}: expected 1 input column, got {len(arrays)}")
        if len(seeds) != len(self.ops):
            raise ValueError(f"{self!r}: expected {len(self.ops)} seeds, got {len(seeds)}")
        return (run_chain(self.ops, list(seeds), arrays[0]),)

    def native_steps(self):
        """The plan as native steps (transforms_c._batch), or None when an op of it has no
        native step (then only the per-row Python path runs it)."""
        steps = [op.native_step() for op in self.ops]
        return None if any(s is None for s in steps) else steps

    def __call__(self, *arrays):
        arrays = tuple(_to_numpy(a) for a in arrays)
        out = self.apply(arrays, eager_seed() if self.is_random else 0)
        return out[0]

    def __repr__(self):
        return "FusedPlan(" + ", ".join(repr(op) for op in self.ops) + ")"


__all__ = ["compile_operations", "FusedPlan", "run_chain", "run_unfused"]
