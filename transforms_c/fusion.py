"""Plan compiler: fuses runs of fusable ops into one plan executed per row.

A fusable run is a sequence of ops whose declared phases (transforms_c/folding.py) never go
backwards: a decode first, then geometry (crops, resizes), flips, at most one pointwise op
(Normalize or Rescale, or a Rescale followed by a Normalize, computed one after the other in
float32 as unfused) and at most one layout op (HWC2CHW), at least two ops in all. Each op
declares its own phase (``fusion_phase``), so this compiler knows no op class. A run is either
all native ops (each declares a native step, ``native_step()``) or all ops folded in Python (the
PIL path's, ``fold``): the two never mix in one run.

At run time the geometry folds into one source box, one resize and one output window (a crop
after a resize only narrows the window), so a row costs one native call: a JPEG is decoded only
over the rows and columns the output needs (region decode), at a coarser DCT scale when a random
crop op allows it (see settings), and crop, resize, flips, normalize and the CHW layout are one
pass writing the output array. When a row does not fold (a second resize, a crop that pads, a
non-uint8 image...) the plan runs the ops one by one with the same seeds, so results never
depend on whether fusion happened.

A plan of native ops is folded by the C++ steps only (src/steps/, src/row_plan.cpp): each row
runs through ``_batch.RowPlanHandle``, the native batch node's RowPlan run on one row in the
calling thread (GIL released), so the per-row path and the native batches share every bit of
their folding. A plan of PIL-path ops (no native steps) folds in Python (``fold`` on each op,
``_run_folded``): a JPEG decoded over the box, the op's own resizer, then the pass.

Seeds: every op of a plan draws from its own seed. In a pipeline the engine gives each op the
seed of its own position in the map (``apply_seeds``), so fusing one more op never changes what
another op draws; eager calls and Compose give op i of a plan ``derive_seed(seed, i)``.
"""
import numpy as np

from transforms_c import _batch, _native, folding, settings
from transforms_c._base import is_pil, _to_numpy
from transforms_c._rng import derive_seed, eager_seed
from transforms_c.contract import FusableOperation
from transforms_c.schema import NativeOperation
from transforms_c.vision.decode import decode_other, encoded_bytes, is_jpeg, jpeg_size


def _phase_of(op, position):
    """The phase an op declares for `position` in a run, or None when it cannot be fused."""
    return op.fusion_phase(position) if isinstance(op, FusableOperation) else None


def _is_native(op):
    """Whether the op is folded by its native step (else by its Python ``fold``)."""
    return op.native_step() is not None


def _run_end(ops, start):
    """End (exclusive) of the longest fusable run beginning at `start`."""
    phase = -1
    end = start
    native = None
    for position in range(start, len(ops)):
        p = _phase_of(ops[position], position - start)
        if p is None or p < phase or (p == phase and p in folding.SINGLE_PHASES):
            break
        if p == phase == folding.PHASE_POINT and not folding.points_chain(ops[position - 1],
                                                                           ops[position]):
            break
        if p == folding.PHASE_START and position != start:
            break
        if native is None:
            native = _is_native(ops[position])
        elif _is_native(ops[position]) != native:
            break       # native ops and Python-folded ops never share a run
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


def _may_refuse_size(op):
    """Whether the op declares its fused output size and asks for a side over 1000 pixels:
    only then can MindSpore's limit (a side at most 1000 times its input) refuse a row."""
    if getattr(op, "fused_output_hw", None) is None:
        return False
    size = getattr(op, "size", None)
    return size is not None and max(np.atleast_1d(size)) > 1000


def _check_output_sizes(ops, seeds, height, width):
    """MindSpore's size limits of the plan's resizing ops (RuntimeError in its words), on the
    sizes each op sees from an image of (height, width), before the plan allocates its output
    (measured in MindSpore 2.10: Decode then Resize((100000, 100000)) on a 40x50 JPEG raises
    'Resize: the resizing width or height is too big, ...' where the fused run asked numpy for
    28 GiB). The walk ends at a geometric op that does not declare ``fused_output_hw``."""
    for position, (op, seed) in enumerate(zip(ops, seeds)):
        if op.fusion_phase(position) != folding.PHASE_GEOMETRY:
            continue        # decode, flips, pointwise and layout steps keep the size
        walk = getattr(op, "fused_output_hw", None)
        if walk is None:
            return
        height, width = walk(height, width, seed)


def run_unfused(ops, seeds, data):
    for op, seed in zip(ops, seeds):
        data = op.apply((data,), seed)[0]
    return data


def _fallback(ops, seeds, data):
    data = ops[0].apply_unfused(data, seeds[0])
    return run_unfused(ops[1:], seeds[1:], data)


# -- plans of native ops: the C++ row plan, one row at a time ---------------------------------

def _run_native(plan, seeds, data):
    """One row through the plan's C++ RowPlan (see the module doc); rows it leaves (None) run
    op by op, which gives the ops' own values or errors."""
    ops = plan.ops
    if ops[0].decodes:
        op_name = type(ops[0]).__name__
        data = encoded_bytes(data if is_pil(data) else _to_numpy(data), op_name)
        if not ops[0].fuses_encoded(data):
            return run_unfused(ops, seeds, data)   # a format only the op's own decoder reads
        if is_jpeg(data):
            width, height = jpeg_size(data, op_name)
            if plan._checks_sizes:
                _check_output_sizes(ops, seeds, height, width)
            out = plan._handle(_batch.INPUT_ENCODED).run_row(data, seeds,
                                                             image_size=(width, height))
            return _fallback(ops, seeds, data) if out is None else out
        image = decode_other(data, op_name)    # PNG, BMP...: decoded here, folded natively
    else:
        image = data
        if (not isinstance(image, np.ndarray) or image.dtype != np.uint8
                or image.ndim not in (2, 3) or image.size == 0):
            return run_unfused(ops, seeds, data)
    if plan._checks_sizes:
        _check_output_sizes(ops, seeds, image.shape[0], image.shape[1])
    out = plan._handle(_batch.INPUT_IMAGE).run_row(image, seeds)
    return _fallback(ops, seeds, data) if out is None else out


# -- plans of Python-folded ops (the PIL path) -------------------------------------------------

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


_EMPTY = np.zeros(1, np.float32)


def _point_args(pss):
    """(native point op, p0, p1, p2, p3) of the pass."""
    if pss.point is None:
        return _native.POINT_NONE, _EMPTY, _EMPTY, _EMPTY, _EMPTY
    return tuple(pss.point) + (_EMPTY,) * (5 - len(pss.point))


def _run_folded(ops, seeds, data):
    """One row of a Python-folded plan: a run that starts with a decoding op (the PIL path's
    Decode) on a JPEG folds into the box to decode, the ops' own resize and one pass; anything
    else runs op by op."""
    op_name = type(ops[0]).__name__
    if not ops[0].decodes:
        return run_unfused(ops, seeds, data)
    data = encoded_bytes(data if is_pil(data) else _to_numpy(data), op_name)
    if not ops[0].fuses_encoded(data) or not is_jpeg(data):
        return run_unfused(ops, seeds, data)
    width, height = jpeg_size(data, op_name)
    try:
        geo, pss = _fold(ops, seeds, width, height, 3)
    except folding.Unfoldable:
        return _fallback(ops, seeds, data)
    box_x, box_y, box_w, box_h = geo.box
    virt_w, virt_h = geo.virt
    win_x, win_y, out_w, out_h = geo.window
    dtype = np.uint8 if pss.point is None else np.float32
    result = np.empty((3, out_h, out_w) if pss.chw else (out_h, out_w, 3), dtype)
    max_pixels = settings.get_max_image_pixels()
    point, p0, p1, p2, p3 = _point_args(pss)
    try:
        if geo.interp is None:      # no resize: decode the box straight into the pass
            _native.decode_resample(data, 1, box_x, box_y, box_w, box_h, result, virt_w,
                                    virt_h, _native.INTERP_COPY, 1.0, 1.0, 0.0, 0.0, win_x,
                                    win_y, pss.hflip, pss.vflip, point, p0, p1, pss.chw,
                                    max_pixels, p2, p3)
            return result
        region = np.empty((box_h, box_w, 3), np.uint8)
        _native.jpeg_decode_into(data, 1, box_x, box_y, region, max_pixels)
    except RuntimeError as exc:
        raise RuntimeError(f"{op_name}: {exc}") from None
    resized = geo.interp.resize(region, virt_h, virt_w)     # the op's own resizer
    if resized.ndim == 2:
        resized = resized[:, :, None]
    _native.resample(np.ascontiguousarray(resized), result, virt_w, virt_h,
                     _native.INTERP_COPY, 0.0, 0.0, 0.0, 0.0, win_x, win_y, pss.hflip,
                     pss.vflip, point, p0, p1, pss.chw, p2, p3)
    return result


class FusedPlan:
    """A run of fusable ops executed as one plan per row (see the module doc). Offers the op
    protocol: is_random, apply(arrays, seed), apply_seeds(arrays, seeds), op(*arrays)
    (transforms_c.contract.FusedPlanLike).
    """

    is_native = True

    def __init__(self, ops):
        self.ops = list(ops)
        if _run_end(self.ops, 0) != len(self.ops):
            raise ValueError(f"operations {self.ops!r} do not form one fusable run")
        self.is_random = any(op.is_random for op in self.ops)
        #: Folded by the C++ steps (every op has a native step) or by the ops' Python fold.
        self._native = self.native_steps() is not None
        self._handles = {}
        #: Whether rows are checked against MindSpore's size limits before the native run.
        self._checks_sizes = any(_may_refuse_size(op) for op in self.ops)

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
        if self._native:
            return (_run_native(self, list(seeds), arrays[0]),)
        return (_run_folded(self.ops, list(seeds), arrays[0]),)

    def native_steps(self):
        """The plan as native steps (transforms_c._batch), or None when an op of it has no
        native step (then its ops fold in Python)."""
        steps = [op.native_step() for op in self.ops]
        return None if any(s is None for s in steps) else steps

    def _handle(self, input_kind):
        """The plan's RowPlanHandle for rows of `input_kind`, built on first use and again
        when what its steps were built from changed: the image limit, or a value an op gives
        its step besides its arguments (``native_values()``: e.g. the approximate decode
        switch)."""
        # A schema op's step is its (checked, fixed) arguments plus native_values(); another
        # op's, native_step() itself.
        key = (settings.get_max_image_pixels(),
               [op.native_values() if isinstance(op, NativeOperation) else op.native_step()
                for op in self.ops])
        cached = self._handles.get(input_kind)
        if cached is not None and cached[0] == key:
            return cached[1]
        handle = _batch.RowPlanHandle(self.native_steps(), input_kind, key[0])
        self._handles[input_kind] = (key, handle)
        return handle

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_handles"] = {}      # native handles are rebuilt where the plan is unpickled
        return state

    def __call__(self, *arrays):
        arrays = tuple(_to_numpy(a) for a in arrays)
        out = self.apply(arrays, eager_seed() if self.is_random else 0)
        return out[0]

    def __repr__(self):
        return "FusedPlan(" + ", ".join(repr(op) for op in self.ops) + ")"


__all__ = ["compile_operations", "FusedPlan", "run_unfused"]
