"""Loss scaling and mixed precision (`mindspore.amp`, `mindspore.train.loss_scale_manager`).

Managers, as Model's `loss_scale_manager`: FixedLossScaleManager(loss_scale,
drop_overflow_update) and DynamicLossScaleManager(init_loss_scale, scale_factor, scale_window)
(the scale is divided by scale_factor on overflow, and multiplied by it after scale_window
steps without one, never below 1). Scalers, for functional training with value_and_grad:
StaticLossScaler / DynamicLossScaler with scale(), unscale() and adjust(grads_finite); and
all_finite(grads)."""
import numbers

import numpy as np

from training.tensor import Tensor, as_array


def _positive(value, name, api, minimum=0.0, strict=True):
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"For '{api}', '{name}' must be a number, but got {type(value).__name__}")
    if value < minimum or (strict and value == minimum):
        raise ValueError(f"For '{api}', '{name}' must be {'>' if strict else '>='} {minimum}, "
                         f"but got {value}")


def _check_window(scale_window, api):
    """A positive int, as MindSpore's: a float or a bool is a TypeError."""
    if not isinstance(scale_window, int) or isinstance(scale_window, bool):
        raise TypeError(f"For '{api}', 'scale_window' must be int, but got "
                        f"{type(scale_window).__name__}")
    if scale_window <= 0:
        raise ValueError(f"For '{api}', 'scale_window' must be > 0, but got {scale_window}")


def all_finite(inputs):
    """True (a bool Tensor) when every gradient is free of inf and NaN."""
    from training.ops.functional import _torch_of
    for value in inputs:
        torch = _torch_of(value)
        finite = bool(torch.isfinite(value).all()) if torch else \
            bool(np.isfinite(as_array(value)).all())
        if not finite:
            return Tensor(np.array(False))
    return Tensor(np.array(True))


class LossScaleManager:
    """Base class of the managers."""

    def get_loss_scale(self):
        raise NotImplementedError

    def update_loss_scale(self, overflow):
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A constant scale. With drop_overflow_update=False the optimizer must be built with the
    same loss_scale (it unscales), as MindSpore requires; with True, steps whose gradients
    overflow are skipped."""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        _positive(loss_scale, "loss_scale", "FixedLossScaleManager", 1.0, strict=False)
        self._loss_scale = loss_scale      # as given: an int stays one, as in MindSpore
        self._drop_overflow_update = bool(drop_overflow_update)

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self):
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """The scale is fixed."""

    def get_update_cell(self):
        if not self._drop_overflow_update:
            return None
        from training.nn.loss_scale import FixedLossScaleUpdateCell
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """The scale, as given (an int stays one until an overflow halves it, as in MindSpore).
    scale_factor must be > 1 (MindSpore takes any positive one; torch's GradScaler, which the
    torch backend maps it onto, refuses the others)."""

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        _positive(init_loss_scale, "init_loss_scale", "DynamicLossScaleManager", 1.0, strict=False)
        _positive(scale_factor, "scale_factor", "DynamicLossScaleManager", 1.0)
        _check_window(scale_window, "DynamicLossScaleManager")
        self._loss_scale = init_loss_scale
        self._read_scale = None
        self.scale_factor, self.scale_window = scale_factor, scale_window
        self.increase_ratio, self.decrease_ratio = scale_factor, 1.0 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0

    @property
    def loss_scale(self):
        return float(self._read_scale()) if self._read_scale is not None else self._loss_scale

    @loss_scale.setter
    def loss_scale(self, value):
        self._loss_scale = value

    def follow(self, read_scale):
        """From now on the scale is ``read_scale()``, read only when asked for: a device-side
        scaler (torch.amp.GradScaler on CUDA) keeps it on the GPU, and reading it after every
        step would stop the host until the step has finished."""
        self._read_scale = read_scale

    def get_loss_scale(self):
        return self.loss_scale

    def get_drop_overflow_update(self):
        return True

    def update_loss_scale(self, overflow):
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
        elif (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
            self.loss_scale *= self.increase_ratio
        self.cur_iter += 1

    def get_update_cell(self):
        from training.nn.loss_scale import DynamicLossScaleUpdateCell
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


class StaticLossScaler:
    """scale(x) = x * scale_value; unscale(grads) divides; adjust() keeps the scale."""

    def __init__(self, scale_value):
        _positive(scale_value, "scale_value", type(self).__name__, 1.0, strict=False)
        self.scale_value = Tensor(np.array(scale_value, np.float32))

    def scale(self, inputs):
        return _map(inputs, lambda x: x * float(self.scale_value.asnumpy()))

    def unscale(self, inputs):
        return _map(inputs, lambda x: x * (1.0 / float(self.scale_value.asnumpy())))

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(StaticLossScaler):
    """adjust(grads_finite): the scale is divided by scale_factor (at least 1) when the
    gradients overflowed, and multiplied by it after scale_window finite steps."""

    def __init__(self, scale_value, scale_factor, scale_window):
        super().__init__(scale_value)
        _positive(scale_factor, "scale_factor", "DynamicLossScaler", 1.0)
        _check_window(scale_window, "DynamicLossScaler")
        self.scale_factor, self.scale_window = scale_factor, scale_window
        self.counter = 0

    def adjust(self, grads_finite):
        value = float(self.scale_value.asnumpy())
        if bool(np.asarray(as_array(grads_finite))):
            self.counter += 1
            if self.counter == self.scale_window:
                value, self.counter = value * self.scale_factor, 0
        else:
            value, self.counter = max(value / self.scale_factor, 1.0), 0
        self.scale_value = Tensor(np.array(value, np.float32))
        return True


def _map(inputs, fn):
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(fn(x) for x in inputs)
    return fn(inputs)
