"""AdaMax (MindSpore's ApplyAdaMax): m = b1*m + (1-b1)*g; v = max(b2*v, |g|);
param -= lr / (1 - b1^t) * m / (v + eps)."""
import numpy as np

from training.nn.optim.checks import check_betas
from training.nn.optim.elementwise import ElementwiseOptimizer, f32
from training.tensor import Parameter


def beta_power(name):
    """A bias-correction power: shape (1,), 1.0 at the start, as MindSpore's."""
    return Parameter(np.ones(1, np.float32), name=name, requires_grad=False)


class AdaMax(ElementwiseOptimizer):
    state_names = ("moment1", "moment2")

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08,
                 weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_betas(self.cls_name, beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = f32(beta1), f32(beta2), f32(eps)
        self.beta1_power = beta_power("beta1_power")
        self._register_states("moment1", self.clone_state("moment1"))
        self._register_states("moment2", self.clone_state("moment2"))

    def begin_step(self):
        self.beta1_power.data = self.beta1_power.data * np.float32(self.beta1)

    def update(self, xp, index, param, grad, states, lr):
        m, v = states
        b1 = self.beta1
        m[...] = b1 * m + f32(1 - b1) * grad
        v[...] = xp.maximum(self.beta2 * v, xp.abs(grad))
        step = f32(np.float32(lr) / (1 - self.beta1_power.data[0]))
        param[...] = param - step * (m / (v + self.eps))
