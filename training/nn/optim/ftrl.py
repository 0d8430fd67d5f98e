"""FTRL (MindSpore's ApplyFtrl), follow-the-regularized-leader:
accum' = accum + g^2; linear += g - (accum'^-p - accum^-p) / lr * param (p = lr_power);
param = (sign(linear)*l1 - linear) / (accum'^-p / lr + 2*l2) where |linear| > l1, else 0.
Weight decay applies to every parameter (MindSpore's FTRL skips no gamma/beta)."""

import numpy as np

from training.nn.optim.checks import check_float, check_positive
from training.nn.optim.elementwise import ElementwiseOptimizer, f32


class FTRL(ElementwiseOptimizer):
    state_names = ("moments", "linear")
    decays_all = True

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0,
                 l2=0.0, use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(f"For 'FTRL', dynamic learning rate and group learning rate are "
                             f"currently not supported in FTRL, they should all be false, but got "
                             f"dynamic learning rate {self.dynamic_lr} and group learning rate "
                             f"{self.is_group_lr}.")
        check_positive(self.cls_name, "initial_accum", initial_accum, allow_zero=True)
        check_positive(self.cls_name, "learning_rate", learning_rate)
        check_float(self.cls_name, "lr_power", lr_power)
        if lr_power > 0:
            raise ValueError(f"For 'FTRL', the 'lr_power' must be <= 0, but got {lr_power}.")
        check_positive(self.cls_name, "l1", l1, allow_zero=True)
        check_positive(self.cls_name, "l2", l2, allow_zero=True)
        self.check_bool("use_locking", use_locking)
        self.l1, self.l2, self.lr_power = f32(l1), f32(l2), f32(lr_power)
        self._register_states("moments", self.clone_state("moments", fill=initial_accum))
        self._register_states("linear", self.clone_state("linear"))

    def _power(self, xp, accum):
        """accum ** -lr_power, correctly rounded to float32 as MindSpore's powf (by way of
        float64: torch's float32 sqrt can be one ulp off, and the update's difference of two
        powers divided by the rate makes that ulp large)."""
        if xp is np:
            return (accum.astype(np.float64) ** -self.lr_power).astype(np.float32)
        return (accum.double() ** -self.lr_power).float()

    def update(self, xp, index, param, grad, states, lr):
        accum, linear = states
        new_accum = accum + grad * grad
        old_power, new_power = self._power(xp, accum), self._power(xp, new_accum)
        linear[...] = linear + grad - (new_power - old_power) / lr * param
        quadratic = new_power / lr + 2 * self.l2
        shrunk = (xp.sign(linear) * self.l1 - linear) / quadratic
        param[...] = xp.where(xp.abs(linear) > self.l1, shrunk, xp.zeros_like(param))
        accum[...] = new_accum
