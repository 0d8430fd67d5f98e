"""Momentum (MindSpore's ApplyMomentum): accum = momentum * accum + grad; param -= lr * accum
(Nesterov: param -= lr * (grad + momentum * accum))."""
from training.nn.optim.optimizer import Optimizer, by_rate, per_parameter, pick


class Momentum(Optimizer):
    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(momentum, (int, float)) or momentum < 0:
            raise ValueError(f"For 'Momentum', 'momentum' must be a float >= 0, but got "
                             f"{momentum!r}")
        self.momentum = float(momentum)
        self.use_nesterov = self.check_bool("use_nesterov", use_nesterov)
        self._register_states("moments", self.clone_state("moments"))

    def apply_gradients(self, gradients, lr):
        lrs = per_parameter(lr, len(gradients))
        m = self.momentum
        for p, g, acc, lr in zip(self.parameters, gradients, self.moments, lrs):
            acc.data *= m
            acc.data += g
            step = g + m * acc.data if self.use_nesterov else acc.data
            p.data -= (lr * step).astype(p.dtype, copy=False)

    def apply_gradients_torch(self, params, grads, lr):
        lrs = per_parameter(lr, len(params))
        import torch
        accs = self.state_tensors(self.moments, params)
        torch._foreach_mul_(accs, self.momentum)
        torch._foreach_add_(accs, grads)
        steps = torch._foreach_add(grads, accs, alpha=self.momentum) if self.use_nesterov else accs
        for lr, indices in by_rate(lrs):
            torch._foreach_add_(pick(params, indices), pick(steps, indices), alpha=-lr)
