"""Flips: RandomHorizontalFlip, RandomVerticalFlip (and the deterministic HorizontalFlip /
VerticalFlip of MindSpore 2.x)."""
import numpy as np

from transforms_c import folding
from transforms_c._rng import Rng
from transforms_c._base import TensorOperation, image_hwc
from transforms_c._validate import check_float


def hflip(img):
    return np.ascontiguousarray(img[:, ::-1])


def vflip(img):
    return np.ascontiguousarray(img[::-1])


class RandomHorizontalFlip(TensorOperation):
    """RandomHorizontalFlip(prob=0.5): mirrors left-right with probability prob (a batch
    <..., H, W, C>: all its images or none)."""

    is_random = True
    is_native = True
    pil_input = "image"
    batched = True

    def __init__(self, prob=0.5):
        self.prob = check_float(prob, "prob", 0.0, 1.0)

    def draw(self, rng):
        return rng.random() < self.prob

    _axis = 0       # 0: left-right, 1: top-bottom

    def fusion_phase(self, position):
        return folding.PHASE_FLIP

    def fold(self, geo, pss, seed, channels):
        if self.draw(Rng(seed)):
            pss.flip(self._axis)

    def native_step(self):
        return {"kind": "flip", "axis": self._axis, "prob": self.prob}

    def _compute(self, img, rng):
        image_hwc(img, type(self).__name__)
        return hflip(img) if self.draw(rng) else img


class RandomVerticalFlip(RandomHorizontalFlip):
    """RandomVerticalFlip(prob=0.5): mirrors top-bottom with probability prob."""

    _axis = 1

    def _compute(self, img, rng):
        image_hwc(img, type(self).__name__)
        return vflip(img) if self.draw(rng) else img


class _FixedFlip(TensorOperation):
    is_native = True
    batched = True
    _axis = 0

    def fusion_phase(self, position):
        return folding.PHASE_FLIP

    def fold(self, geo, pss, seed, channels):
        pss.flip(self._axis)

    def native_step(self):
        return {"kind": "flip", "axis": self._axis, "prob": 1.0}


class HorizontalFlip(_FixedFlip):

    def _compute(self, img, rng):
        image_hwc(img, "HorizontalFlip")
        return hflip(img)


class VerticalFlip(_FixedFlip):
    _axis = 1

    def _compute(self, img, rng):
        image_hwc(img, "VerticalFlip")
        return vflip(img)
