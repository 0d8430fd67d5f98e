"""Adagrad (MindSpore's ApplyAdagrad): accum += g^2 (starting from `accum`);
param -= lr * g / sqrt(accum). With update_slots=False the accumulator stays fixed."""
import numpy as np

from training.nn.optim.optimizer import Optimizer, by_rate, per_parameter, pick


class Adagrad(Optimizer):
    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if accum < 0:
            raise ValueError(f"For 'Adagrad', 'accum' must be >= 0, but got {accum}")
        self.update_slots = self.check_bool("update_slots", update_slots)
        self._register_states("accum", self.clone_state("accum", fill=accum))

    def apply_gradients(self, gradients, lr):
        lrs = per_parameter(lr, len(gradients))
        for p, g, acc, lr in zip(self.parameters, gradients, self.accum, lrs):
            if self.update_slots:
                acc.data += g * g
            p.data -= (lr * g / np.sqrt(acc.data)).astype(p.dtype, copy=False)

    def apply_gradients_torch(self, params, grads, lr):
        lrs = per_parameter(lr, len(params))
        import torch
        accs = self.state_tensors(self.accum, params)
        if self.update_slots:
            torch._foreach_addcmul_(accs, grads, grads)
        roots = torch._foreach_sqrt(accs)
        for lr, indices in by_rate(lrs):
            torch._foreach_addcdiv_(pick(params, indices), pick(grads, indices),
                                    pick(roots, indices), value=-lr)
