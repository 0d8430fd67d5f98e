"""Adam with bias correction folded into the step size, as MindSpore's Adam; with
`use_amsgrad`, AMSGrad (the step divides by the largest second moment seen so far, state
"vhat"; MindSpore then ignores `use_nesterov`, and so does this)."""
import numpy as np

from training.nn.optim.checks import check_betas
from training.nn.optim.optimizer import Optimizer, by_rate, per_parameter, pick
from training.tensor import Parameter


def update_moments_torch(m, v, grads, beta1, beta2):
    """Adam's moment updates on torch tensor lists, in place: m = b1*m + (1-b1)*g and
    v = b2*v + (1-b2)*g*g (Adam and AdamWeightDecay share them)."""
    import torch
    torch._foreach_mul_(m, float(beta1))
    torch._foreach_add_(m, grads, alpha=float(1 - beta1))
    torch._foreach_mul_(v, float(beta2))
    torch._foreach_addcmul_(v, grads, grads, value=float(1 - beta2))


class Adam(Optimizer):
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
                 use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_betas(self.cls_name, beta1, beta2, eps)
        self.check_bool("use_nesterov", use_nesterov)
        self.check_bool("use_amsgrad", use_amsgrad)
        # float32, as MindSpore's: 1 - beta2 in float32 is 0.00100004673 for 0.999, and the
        # step follows its square root
        self.beta1, self.beta2, self.eps = np.float32(beta1), np.float32(beta2), eps
        self.use_nesterov, self.use_amsgrad = use_nesterov and not use_amsgrad, use_amsgrad
        self._register_states("moment1", self.clone_state("moment1"))
        self._register_states("moment2", self.clone_state("moment2"))
        if use_amsgrad:
            self._register_states("vhat", self.clone_state("vhat"))
        # 0-d, as MindSpore's (a checkpoint's shapes match)
        self.beta1_power = Parameter(np.array(1.0, np.float32), name="beta1_power",
                                     requires_grad=False)
        self.beta2_power = Parameter(np.array(1.0, np.float32), name="beta2_power",
                                     requires_grad=False)

    def _step_size(self, lr):
        return lr * np.sqrt(1 - self.beta2_power.data) / (1 - self.beta1_power.data)

    def apply_gradients(self, gradients, lr):
        lrs = per_parameter(lr, len(gradients))
        b1, b2 = self.beta1, self.beta2
        self.beta1_power.data = self.beta1_power.data * b1
        self.beta2_power.data = self.beta2_power.data * b2
        largest = self.vhat if self.use_amsgrad else self.moment2
        for p, g, m, v, vhat, lr in zip(self.parameters, gradients, self.moment1, self.moment2,
                                        largest, lrs):
            step_size = self._step_size(lr)
            m.data[...] = b1 * m.data + (1 - b1) * g
            v.data[...] = b2 * v.data + (1 - b2) * g * g
            if vhat is not v:
                np.maximum(vhat.data, v.data, out=vhat.data)
            direction = (b1 * m.data + (1 - b1) * g) if self.use_nesterov else m.data
            p.data -= (step_size * direction / (np.sqrt(vhat.data) + self.eps)).astype(
                p.dtype, copy=False)

    def apply_gradients_torch(self, params, grads, lr):
        lrs = per_parameter(lr, len(params))
        import torch
        b1, b2 = self.beta1, self.beta2
        # the powers stay host values (assigned, so a bound copy is written back too)
        self.beta1_power.data = self.beta1_power.data * b1
        self.beta2_power.data = self.beta2_power.data * b2
        m = self.state_tensors(self.moment1, params)
        v = self.state_tensors(self.moment2, params)
        update_moments_torch(m, v, grads, b1, b2)
        direction = m
        if self.use_nesterov:
            direction = torch._foreach_mul(m, float(b1))
            torch._foreach_add_(direction, grads, alpha=float(1 - b1))
        if self.use_amsgrad:
            vhat = self.state_tensors(self.vhat, params)
            torch._foreach_maximum_(vhat, v)
            v = vhat
        denominator = torch._foreach_sqrt(v)
        torch._foreach_add_(denominator, self.eps)
        for lr, indices in by_rate(lrs):
            torch._foreach_addcdiv_(pick(params, indices), pick(direction, indices),
                                    pick(denominator, indices),
                                    value=-float(self._step_size(np.float32(lr))))
