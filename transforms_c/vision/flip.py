"""Flips: RandomHorizontalFlip, RandomVerticalFlip (and the deterministic HorizontalFlip /
VerticalFlip of MindSpore 2.x)."""
import numpy as np

from transforms_c import _native, folding
from transforms_c._base import image_hwc
from transforms_c._validate import check_type
from transforms_c.schema import FLOAT, INT, Native, NativeOperation, OpSchema, Param

#: The flip step's parameters: axis 0 mirrors left-right, 1 top-bottom (the op's own); prob, the
#: probability of the flip (the random flips' argument, 1 for the others).
AXIS = Native("axis", INT, 0, 1)
PROB = Param("prob", FLOAT, 0.0, 1.0, native=("prob",))


def hflip(img):
    return np.ascontiguousarray(img[:, ::-1])


def vflip(img):
    return np.ascontiguousarray(img[::-1])


class RandomHorizontalFlip(NativeOperation):
    """RandomHorizontalFlip(prob=0.5): mirrors left-right with probability prob (a batch
    <..., H, W, C>: all its images or none)."""

    schema = OpSchema(params=(PROB,), phase=folding.PHASE_FLIP, step="flip", step_only=(AXIS,))

    is_random = True
    pil_input = "image"
    batched = True
    multi_input = True

    def __init__(self, prob=0.5):
        check_type(prob, (float, int), "prob")     # MindSpore's order of the types
        self.schema.bind(self, prob=prob)

    def draw(self, rng):
        return rng.random() < self.prob

    def draws(self, seeds):
        """draw() from each seed (one per row) at once in native code, as a bool array."""
        return _native.coin_flips(np.ascontiguousarray(seeds, np.uint64), float(self.prob))

    _axis = 0       # 0: left-right, 1: top-bottom

    def native_values(self):
        return {"axis": self._axis}

    def _compute(self, img, rng):
        image_hwc(img, type(self).__name__)
        return hflip(img) if self.draw(rng) else img


class RandomVerticalFlip(RandomHorizontalFlip):
    """RandomVerticalFlip(prob=0.5): mirrors top-bottom with probability prob; unlike
    RandomHorizontalFlip and VerticalFlip it refuses a batch <..., H, W, C>, as MindSpore 2.10
    does (its documented RuntimeError)."""

    _axis = 1
    batched = False

    def _compute(self, img, rng):
        image_hwc(img, type(self).__name__)
        return vflip(img) if self.draw(rng) else img


class _FixedFlip(NativeOperation):
    schema = OpSchema(phase=folding.PHASE_FLIP, step="flip", step_only=(AXIS,) + PROB.natives)

    batched = True
    _axis = 0

    def native_values(self):
        return {"axis": self._axis, "prob": 1.0}


class HorizontalFlip(_FixedFlip):

    def _compute(self, img, rng):
        image_hwc(img, "HorizontalFlip")
        return hflip(img)


class VerticalFlip(_FixedFlip):
    _axis = 1

    def _compute(self, img, rng):
        image_hwc(img, "VerticalFlip")
        return vflip(img)
