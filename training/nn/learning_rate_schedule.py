"""`mindspore.nn.learning_rate_schedule`: learning rates computed from the global step, as
Cells (`schedule(global_step)` -> a float32 Tensor); an optimizer given one evaluates it at
every step."""
import math

import numpy as np

from training.nn.cell import Cell
from training.nn.dynamic_lr import _boolean, _number, _positive_int
from training.tensor import Tensor, as_array


class LearningRateSchedule(Cell):
    def construct(self, global_step):
        raise NotImplementedError(f"{self.cls_name} must define construct(global_step)")


def _step(global_step):
    if type(global_step).__module__.startswith("torch"):  # a call on the torch backend's device
        return float(global_step.reshape(-1)[0])
    return float(np.asarray(as_array(global_step)).reshape(-1)[0])


def _lr(value):
    return Tensor(np.asarray(value, np.float32))


class _Decay(LearningRateSchedule):
    """learning_rate, decay_rate, decay_steps and is_stair, checked as MindSpore does."""

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        _positive_int(decay_steps, "decay_steps", self.cls_name)    # first, as MindSpore
        _number(learning_rate, "learning_rate", self.cls_name, 0, strict=True)
        _number(decay_rate, "decay_rate", self.cls_name, 0, strict=True)
        _boolean(is_stair, "is_stair", self.cls_name)
        self.learning_rate, self.decay_rate = learning_rate, decay_rate
        self.decay_steps, self.is_stair = decay_steps, is_stair

    def progress(self, global_step):
        p = _step(global_step) / self.decay_steps
        return math.floor(p) if self.is_stair else p


class ExponentialDecayLR(_Decay):
    """learning_rate * decay_rate ** p, p = step / decay_steps (floored when is_stair)."""

    def construct(self, global_step):
        return _lr(self.learning_rate * self.decay_rate ** self.progress(global_step))


class NaturalExpDecayLR(_Decay):
    """learning_rate * e ** (-decay_rate * p)."""

    def construct(self, global_step):
        return _lr(self.learning_rate * math.exp(-self.decay_rate * self.progress(global_step)))


class InverseDecayLR(_Decay):
    """learning_rate / (1 + decay_rate * p)."""

    def construct(self, global_step):
        return _lr(self.learning_rate / (1 + self.decay_rate * self.progress(global_step)))


class CosineDecayLR(LearningRateSchedule):
    """min_lr + (max_lr - min_lr) / 2 * (1 + cos(pi * min(step, decay_steps) / decay_steps))."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        _number(min_lr, "min_lr", "CosineDecayLR", 0)
        _number(max_lr, "max_lr", "CosineDecayLR", 0, strict=True)
        if min_lr >= max_lr:
            raise ValueError(f"For 'CosineDecayLR', 'max_lr' must be greater than 'min_lr', but "
                             f"got max_lr={max_lr}, min_lr={min_lr}")
        _positive_int(decay_steps, "decay_steps", "CosineDecayLR")
        self.min_lr, self.max_lr, self.decay_steps = min_lr, max_lr, decay_steps

    def construct(self, global_step):
        p = min(_step(global_step), self.decay_steps) / self.decay_steps
        return _lr(self.min_lr + 0.5 * (self.max_lr - self.min_lr) * (1 + math.cos(math.pi * p)))


class PolynomialDecayLR(LearningRateSchedule):
    """(learning_rate - end_learning_rate) * (1 - step / decay) ** power + end_learning_rate,
    step capped at decay_steps; with update_decay_steps, decay = decay_steps *
    max(ceil(step / decay_steps), 1)."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        _number(learning_rate, "learning_rate", "PolynomialDecayLR", 0, strict=True)
        _number(end_learning_rate, "end_learning_rate", "PolynomialDecayLR", 0)
        _positive_int(decay_steps, "decay_steps", "PolynomialDecayLR")
        _boolean(update_decay_steps, "update_decay_steps", "PolynomialDecayLR")
        _number(power, "power", "PolynomialDecayLR", 0, strict=True)
        self.learning_rate, self.end_learning_rate = learning_rate, end_learning_rate
        self.decay_steps, self.power, self.update_decay_steps = decay_steps, power, update_decay_steps

    def construct(self, global_step):
        step, decay = _step(global_step), self.decay_steps
        if self.update_decay_steps:
            decay = self.decay_steps * max(math.ceil(step / self.decay_steps), 1)
        else:
            step = min(step, self.decay_steps)
        delta = self.learning_rate - self.end_learning_rate
        return _lr(delta * (1 - step / decay) ** self.power + self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """learning_rate * min(step, warmup_steps) / warmup_steps."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        _number(learning_rate, "learning_rate", "WarmUpLR", 0)
        _positive_int(warmup_steps, "warmup_steps", "WarmUpLR")
        self.learning_rate, self.warmup_steps = learning_rate, warmup_steps

    def construct(self, global_step):
        return _lr(self.learning_rate * min(_step(global_step), self.warmup_steps)
                   / self.warmup_steps)
