"""ASGD, averaged SGD (MindSpore's): param = param * (1 - lambd*eta) - eta*g; the average `ax`
follows param (ax += (param - ax) * mu once mu is below 1); then eta = lr / (1 + lambd*lr*t)^alpha
and mu = 1 / max(1, t - t0) for step t (from 1). eta starts at the first step's rate."""
import numpy as np

from training.nn.optim.checks import check_float
from training.nn.optim.elementwise import ElementwiseOptimizer, f32
from training.tensor import Parameter


class ASGD(ElementwiseOptimizer):
    state_names = ("mu", "eta", "ax")

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        for name, value in (("lambd", lambd), ("alpha", alpha), ("t0", t0)):
            check_float(self.cls_name, name, value)
        self.lambd, self.alpha, self.t0 = f32(lambd), f32(alpha), f32(t0)
        # 0-d, named "mu_<param>" and "eta_<param>" (no dot), as MindSpore's
        for name, start in (("mu", 1.0), ("eta", 0.0)):
            self._register_states(name, [
                Parameter(np.array(start, np.float32), name=f"{name}_{p.name}",
                          requires_grad=False) for p in self.parameters])
        self._register_states("ax", self.clone_state("ax_"))

    def update(self, xp, index, param, grad, states, lr):
        mu, eta, ax = states
        t = np.float32(int(self.global_step.data[0]) + 1)
        if t == 1:
            eta[...] = lr
        rate = f32(eta)
        param[...] = param * f32(1 - np.float32(self.lambd) * np.float32(rate)) - rate * grad
        if f32(mu) != 1:
            ax[...] = ax + (param - ax) * f32(mu)
        else:
            ax[...] = param
        lr32 = np.float32(lr)
        eta[...] = f32(lr32 / np.power(np.float32(1) + np.float32(self.lambd) * lr32 * t,
                                       np.float32(self.alpha)))
        mu[...] = f32(np.float32(1) / max(np.float32(1), t - np.float32(self.t0)))
