"""LazyAdam and AdamOffload (MindSpore's): on dense gradients both are Adam (MindSpore's Adam
kernel: step size lr * sqrt(1 - b2^t) / (1 - b1^t), Nesterov optional); their bias-correction
powers have shape (1,), not Adam's 0-d. (LazyAdam's lazy part, updating only the rows a sparse
gradient names, and AdamOffload's host-side update have nothing to do on dense gradients.)"""
import numpy as np

from training.nn.optim.adamax import beta_power
from training.nn.optim.checks import check_betas, check_positive
from training.nn.optim.elementwise import ElementwiseOptimizer, f32


class LazyAdam(ElementwiseOptimizer):
    state_names = ("moment1", "moment2")

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_betas(self.cls_name, beta1, beta2, eps)
        self.check_weight_decay(weight_decay)
        self.check_bool("use_locking", use_locking)
        self.use_nesterov = self.check_bool("use_nesterov", use_nesterov)
        self.beta1, self.beta2, self.eps = f32(beta1), f32(beta2), f32(eps)
        self.beta1_power = beta_power("beta1_power")
        self.beta2_power = beta_power("beta2_power")
        self._register_states("moment1", self.clone_state("moment1"))
        self._register_states("moment2", self.clone_state("moment2"))

    def check_weight_decay(self, weight_decay):
        # (MindSpore's LazyAdam names it 'weight_dacay' in this message)
        check_positive(self.cls_name, "weight_dacay", weight_decay, allow_zero=True)

    def begin_step(self):
        self.beta1_power.data = self.beta1_power.data * np.float32(self.beta1)
        self.beta2_power.data = self.beta2_power.data * np.float32(self.beta2)

    def update(self, xp, index, param, grad, states, lr):
        m, v = states
        b1, b2 = self.beta1, self.beta2
        b1p, b2p = self.beta1_power.data[0], self.beta2_power.data[0]
        step = f32(np.float32(lr) * np.sqrt(np.float32(1) - b2p) / (np.float32(1) - b1p))
        m[...] = b1 * m + f32(1 - b1) * grad
        v[...] = b2 * v + f32(1 - b2) * (grad * grad)
        direction = b1 * m + f32(1 - b1) * grad if self.use_nesterov else m
        param[...] = param - step * direction / (xp.sqrt(v) + self.eps)


class AdamOffload(LazyAdam):
    centralizes = False     # (MindSpore's AdamOffload skips gradient centralization)

    def check_weight_decay(self, weight_decay):
        pass    # (the base's check: AdamOffload takes an int weight decay)
