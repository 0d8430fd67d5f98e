"""AdamWeightDecay (MindSpore's): Adam moments without bias correction, and weight decay added
to the update (decoupled from the gradient): param -= lr * (m / (sqrt(v) + eps) + wd * param)."""
import numpy as np

from training.nn.optim.adam import update_moments_torch
from training.nn.optim.checks import check_betas
from training.nn.optim.optimizer import Optimizer, by_rate, per_parameter, pick


class AdamWeightDecay(Optimizer):
    centralizes = False     # (MindSpore's AdamWeightDecay skips gradient centralization)

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        check_betas(self.cls_name, beta1, beta2, eps)
        # float32, as MindSpore's (1 - beta2 rounds there: see Adam)
        self.beta1, self.beta2, self.eps = np.float32(beta1), np.float32(beta2), eps
        self._register_states("moments1", self.clone_state("adam_m"))
        self._register_states("moments2", self.clone_state("adam_v"))

    def preprocess(self, gradients):
        return self.unscale(gradients)  # the decay goes into the update, not the gradient

    def apply_gradients(self, gradients, lr):
        lrs = per_parameter(lr, len(gradients))
        b1, b2 = self.beta1, self.beta2
        for p, g, m, v, lr in zip(self.parameters, gradients, self.moments1, self.moments2, lrs):
            m.data[...] = b1 * m.data + (1 - b1) * g
            v.data[...] = b2 * v.data + (1 - b2) * g * g
            update = m.data / (np.sqrt(v.data) + self.eps)
            decay = self._decay(p)
            if decay:
                update = update + decay * p.data
            p.data -= (lr * update).astype(p.dtype, copy=False)

    def _preprocess_torch(self, params, grads):
        import torch
        return torch._foreach_div(grads, self.loss_scale) if self.loss_scale != 1.0 else grads

    def apply_gradients_torch(self, params, grads, lr):
        lrs = per_parameter(lr, len(params))
        import torch
        b1, b2 = self.beta1, self.beta2
        m = self.state_tensors(self.moments1, params)
        v = self.state_tensors(self.moments2, params)
        update_moments_torch(m, v, grads, b1, b2)
        denominator = torch._foreach_sqrt(v)
        torch._foreach_add_(denominator, self.eps)
        update = torch._foreach_div(m, denominator)
        for i, p_cell in enumerate(self.parameters):
            decay = self._decay(p_cell)
            if decay:
                update[i].add_(params[i], alpha=decay)
        for lr, indices in by_rate(lrs):
            torch._foreach_add_(pick(params, indices), pick(update, indices), alpha=-lr)
