"""What a fusable op declares, and the state the PIL path's ops fold themselves into.

A fused plan (transforms_c.fusion) is a run of ops whose phases never go backwards:

    START (decode) -> GEOMETRY (crops, resizes) -> FLIP -> POINT (one affine) -> LAYOUT (CHW)
    -> TENSOR (pointwise steps on the CHW float tensor, e.g. the PIL path's Normalize)

Each op class says, by itself, whether and where it fits (``fusion_phase``) and how a row of a
plan folds it: by its native step (``native_step``, a dict for transforms_c._batch), or, for an
op without one (the PIL path's), by its Python ``fold``, which changes this module's Geometry
and PassParams for one row. A plan never mixes the two. Adding a fusable op is a change to that
op alone: the compiler in fusion.py knows no op class.

A native op is folded in C++ only. ``native_step()`` returns ``{"kind": "<name>", <param>:
number or list of numbers, ...}``; the step named ``<name>`` is a C++ unit of its own in
src/steps/ (one file per op module) that registers itself under that name (``RegisterStep``,
src/native_step.h), reads its parameters once when a plan is built and, per row, folds itself
into the C++ Geometry and PassParams, and declares what it does to the row's shape and dtype.
The per-row path runs that plan on one row (``_batch.RowPlanHandle``), native batches on many
(``_batch.BatchEngineHandle``). A native op's parameters, phase and step kind are declared once,
in its schema (transforms_c/schema.py: ``NativeOperation`` builds ``fusion_phase`` and
``native_step`` from it, and the C++ registry checks every plan's steps against its ranges); an
instance without a step (a value only its Python kernel runs, e.g. Inter.PILCUBIC) is not
fused. So a new fusable op with a native step is: its class with its schema, its
src/steps/<module>.cpp, and that file's name on the ``# distutils: sources`` line of
transforms_c/_batch.pyx (a directive takes no glob).

Optional declarations (transforms_c/contract.py: ``FusableOperation`` states them all,
``FusionDefaults`` gives the op base classes their defaults): ``ends_fused_run = False`` for an
op whose unfused output is not an array (a PIL image), so a run never ends on it; on a decoding
op (``decodes = True``), ``fuses_encoded(data)`` saying whether the plan's native decode gives
its pixels for these bytes and ``apply_unfused(data, seed)`` for a row that does not fold;
``point_feeds_next`` / ``point_follows_previous`` for two pointwise ops of one pass;
in a Python ``fold``, ``geo.resize`` takes an object with ``resize(image, height, width)`` (the
op's own resizer, e.g. Pillow's filters).
"""
import numpy as np

from transforms_c import _native

PHASE_START, PHASE_GEOMETRY, PHASE_FLIP, PHASE_POINT, PHASE_LAYOUT, PHASE_TENSOR = range(6)
#: Phases that at most one op of a plan may occupy.
SINGLE_PHASES = (PHASE_LAYOUT,)


def points_chain(first, second):
    """Whether two consecutive pointwise ops fold into one pass: the first declares that its
    output may feed another pointwise op of the pass (Rescale) and the second that it may
    follow one (Normalize)."""
    return first.point_feeds_next and second.point_follows_previous


def uint8_table(channels):
    """A POINT_TABLE pass's table (``channels`` x 256 float32) holding the uint8 values
    themselves, for pointwise steps to be applied to in numpy's float32 arithmetic."""
    return np.tile(np.arange(256, dtype=np.float32), (channels, 1))


def table_point(table):
    """PassParams.point of a tabulated pass (see uint8_table)."""
    return (_native.POINT_TABLE, np.ascontiguousarray(table, np.float32).ravel())


def point_table(pss, channels):
    """The (channels, 256) table of the pass's pointwise steps so far, or None when they are
    not tabulated (a native affine op folded in)."""
    if pss.point is None:
        return uint8_table(channels)
    if pss.point[0] != _native.POINT_TABLE:
        return None
    return pss.point[1].reshape(channels, 256)


class Unfoldable(Exception):
    """This row's geometry does not fold into one pass; run the ops one by one."""


class Geometry:
    """Source box (x, y, w, h) -> resize to virt (w, h) -> window (x, y, w, h)."""

    def __init__(self, width, height):
        self.box = [0, 0, width, height]
        self.virt = None
        self.window = None
        self.interp = None      # the resize's resizer (an object with resize(image, h, w))

    def current_hw(self):
        if self.virt is None:
            return self.box[3], self.box[2]
        return self.window[3], self.window[2]

    def crop(self, top, left, height, width):
        cur_h, cur_w = self.current_hw()
        if top < 0 or left < 0 or top + height > cur_h or left + width > cur_w:
            raise Unfoldable
        if self.virt is None:
            self.box = [self.box[0] + left, self.box[1] + top, width, height]
        else:
            self.window = [self.window[0] + left, self.window[1] + top, width, height]

    def resize(self, height, width, interp):
        if self.virt is not None:
            raise Unfoldable
        self.virt = (width, height)
        self.window = [0, 0, width, height]
        self.interp = interp


class PassParams:
    """Flip, pointwise and layout parameters of the pass."""

    def __init__(self):
        self.hflip = False
        self.vflip = False
        self.point = None      # (native point op, p0, p1[, p2, p3]) once pointwise ops folded in
        self.chw = False

    def flip(self, axis):
        """Mirror left-right (axis 0) or top-bottom (axis 1) once more."""
        if axis == 0:
            self.hflip = not self.hflip
        else:
            self.vflip = not self.vflip
