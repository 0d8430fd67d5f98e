"""SGD with optional momentum, dampening and Nesterov."""
from training.nn.cell import Cell
from training.nn.optim.optimizer import Optimizer, by_rate, per_parameter, pick


class SGD(Optimizer):
    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if any(isinstance(d, Cell) for d in self._decays.values()) or \
                isinstance(weight_decay, Cell):
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the "
                            "argument 'weight_decay' or 'weight_decay' set in grouped 'params' "
                            "must be float or int type.")
        if momentum < 0:
            raise ValueError(f"For 'SGD', 'momentum' must be >= 0, but got {momentum}")
        if dampening < 0:
            raise ValueError(f"For 'SGD', the argument 'dampening' must be at least 0.0, but got "
                             f"'dampening' {dampening}")
        self.check_bool("nesterov", nesterov)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("For 'SGD', nesterov needs momentum > 0 and dampening 0")
        self.momentum, self.dampening, self.nesterov = momentum, dampening, nesterov
        self._register_states("accum", self.clone_state("accum"))
        self._started = False

    def apply_gradients(self, gradients, lr):
        lrs = per_parameter(lr, len(gradients))
        for p, g, acc, lr in zip(self.parameters, gradients, self.accum, lrs):
            if self.momentum:
                if self._started:
                    acc.data[...] = self.momentum * acc.data + (1 - self.dampening) * g
                else:
                    acc.data[...] = g
                step = g + self.momentum * acc.data if self.nesterov else acc.data
            else:
                step = g
            p.data -= (lr * step).astype(p.dtype, copy=False)
        self._started = True

    def apply_gradients_torch(self, params, grads, lr):
        lrs = per_parameter(lr, len(params))
        import torch
        steps = grads
        if self.momentum:
            accs = self.state_tensors(self.accum, params)
            if self._started:
                torch._foreach_mul_(accs, self.momentum)
                torch._foreach_add_(accs, grads, alpha=1 - self.dampening)
            else:
                torch._foreach_copy_(accs, grads)
            steps = torch._foreach_add(grads, accs, alpha=self.momentum) if self.nesterov else accs
        for lr, indices in by_rate(lrs):
            torch._foreach_add_(pick(params, indices), pick(steps, indices), alpha=-lr)
        self._started = True
