"""RMSProp (MindSpore's ApplyRMSProp / ApplyCenteredRMSProp):
mean_square = decay * mean_square + (1 - decay) * g^2 (starting from ones);
moment = momentum * moment + lr * g / sqrt(mean_square + eps) (centered: mean_square -
mean_grad^2 under the root, mean_grad = decay * mean_grad + (1 - decay) * g); param -= moment."""
import numpy as np

from training.nn.optim.optimizer import Optimizer, by_rate, per_parameter, pick


class RMSProp(Optimizer):
    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if decay < 0:    # (MindSpore takes a decay above 1 too)
            raise ValueError(f"For 'RMSProp', 'decay' must be >= 0, but got {decay}")
        if momentum < 0:
            raise ValueError(f"For 'RMSProp', 'momentum' must be >= 0, but got {momentum}")
        if epsilon <= 0:
            raise ValueError(f"For 'RMSProp', 'epsilon' must be > 0, but got {epsilon}")
        self.decay, self.momentum, self.epsilon = decay, momentum, epsilon
        self.centered = self.check_bool("centered", centered)
        if centered:
            self._register_states("mean_grad", self.clone_state("mean_grad"))
        self._register_states("mean_square", self.clone_state("mean_square", fill=1.0))
        self._register_states("moment", self.clone_state("moment"))

    def apply_gradients(self, gradients, lr):
        lrs = per_parameter(lr, len(gradients))
        d = self.decay
        for i, (p, g, lr) in enumerate(zip(self.parameters, gradients, lrs)):
            ms, mom = self.mean_square[i], self.moment[i]
            ms.data[...] = d * ms.data + (1 - d) * g * g
            denominator = ms.data
            if self.centered:
                mg = self.mean_grad[i]
                mg.data[...] = d * mg.data + (1 - d) * g
                denominator = ms.data - mg.data * mg.data
            mom.data[...] = self.momentum * mom.data + lr * g / np.sqrt(denominator + self.epsilon)
            p.data -= mom.data.astype(p.dtype, copy=False)

    def apply_gradients_torch(self, params, grads, lr):
        lrs = per_parameter(lr, len(params))
        import torch
        d = self.decay
        mean_square = self.state_tensors(self.mean_square, params)
        moment = self.state_tensors(self.moment, params)
        torch._foreach_mul_(mean_square, d)
        torch._foreach_addcmul_(mean_square, grads, grads, value=1 - d)
        denominator = mean_square
        if self.centered:
            mean_grad = self.state_tensors(self.mean_grad, params)
            torch._foreach_mul_(mean_grad, d)
            torch._foreach_add_(mean_grad, grads, alpha=1 - d)
            denominator = torch._foreach_addcmul(mean_square, mean_grad, mean_grad, value=-1)
        denominator = torch._foreach_add(denominator, self.epsilon)
        torch._foreach_sqrt_(denominator)
        torch._foreach_mul_(moment, self.momentum)
        for lr, indices in by_rate(lrs):
            torch._foreach_addcdiv_(pick(moment, indices), pick(grads, indices),
                                    pick(denominator, indices), value=lr)
        torch._foreach_sub_(params, moment)
