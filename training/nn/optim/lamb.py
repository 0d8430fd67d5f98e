"""Lamb (MindSpore's): Adam's moments with bias correction for step t, update
u = m_hat / (sqrt(v_hat) + eps) + wd * param, and a layer-wise trust ratio
||param|| / ||u|| (1 where either norm is 0): param -= lr * ratio * u. The decay goes into the
update (not the gradient); Lamb has no loss scale."""
import numpy as np

from training.nn.optim.checks import check_betas
from training.nn.optim.elementwise import ElementwiseOptimizer, f32


class Lamb(ElementwiseOptimizer):
    state_names = ("moments1", "moments2")
    takes_raw_gradients = True      # the decay goes into the update

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        check_betas(self.cls_name, beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = f32(beta1), f32(beta2), f32(eps)
        self._register_states("moments1", self.clone_state("lamb_m"))
        self._register_states("moments2", self.clone_state("lamb_v"))

    def update(self, xp, index, param, grad, states, lr):
        m, v = states
        b1, b2 = np.float32(self.beta1), np.float32(self.beta2)
        t = np.float32(int(self.global_step.data[0]) + 1)
        m[...] = self.beta1 * m + f32(1 - b1) * grad
        v[...] = self.beta2 * v + f32(1 - b2) * (grad * grad)
        m_hat = m / f32(1 - b1 ** t)
        v_hat = v / f32(1 - b2 ** t)
        step = m_hat / (xp.sqrt(v_hat) + self.eps)
        decay = self._decay(self.parameters[index])
        if decay:
            step = step + f32(decay) * param
        param_norm, step_norm = xp.sqrt((param * param).sum()), xp.sqrt((step * step).sum())
        ratio = param_norm / step_norm if param_norm > 0 and step_norm > 0 else 1.0
        param[...] = param - lr * ratio * step
