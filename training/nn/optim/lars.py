"""LARS (MindSpore's), layer-wise adaptive rate scaling around another optimizer: each
parameter that `lars_filter` keeps gets the gradient
(g + wd*w) * coefficient * ||w|| / (||g|| + wd*||w|| + epsilon) (the ratio 1 where a norm is 0;
with `use_clip`, min(ratio / lr, 1)) before the wrapped optimizer steps. LARS takes over the
wrapped optimizer's loss scale and weight decay (its groups' too, a dynamic decay at each
step): a filtered-out parameter (a bias, a LayerNorm) gets neither, as in MindSpore. With
`use_clip` the rate is each parameter's (group rates too)."""
import numpy as np

from training.backends.dispatch import is_torch
from training.nn.optim.checks import check_float
from training.nn.optim.elementwise import f32
from training.nn.optim.optimizer import Optimizer
from training.tensor import Parameter, as_array


def _lars_filter(param):
    return "LayerNorm" not in param.name and "bias" not in param.name


class LARS(Optimizer):
    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False,
                 lars_filter=_lars_filter):
        super().__init__(0.0, [Parameter(np.array(0.0, np.float32), name="fake_param")])
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"For 'LARS', the type of 'optimizer' should be 'Optimizer', but got "
                            f"type '{type(optimizer).__name__}'.")
        check_float(self.cls_name, "epsilon", epsilon)
        check_float(self.cls_name, "coefficient", coefficient)
        self.use_clip = self.check_bool("use_clip", use_clip)
        self.epsilon, self.coefficient = f32(epsilon), f32(coefficient)
        self.fake_param = self.parameters[0]
        # "fake_lr", as MindSpore's: the wrapped optimizer's rate keeps "learning_rate"
        self.learning_rate = Parameter(np.array(0.0, np.float32), name="fake_lr",
                                       requires_grad=False)
        self.opt = optimizer
        self.global_step = optimizer.global_step       # one counter, as MindSpore's
        object.__setattr__(self, "parameters", optimizer.parameters)
        self.lars_flags = [bool(lars_filter(p)) for p in self.parameters]
        if use_clip and optimizer.is_group_lr and optimizer.dynamic_lr:
            raise ValueError("For 'LARS', if the argument 'use_clip' is set to True, then the "
                             "dynamic learning rate and group learning rate cannot both be true.")
        # the wrapped optimizer's decay and loss scale, applied here from now on
        self.loss_scale = optimizer.loss_scale
        self.dynamic_weight_decay = optimizer.dynamic_weight_decay
        optimizer._decays_handed_over = True
        optimizer.loss_scale = 1.0

    def construct(self, gradients):
        gradients = list(gradients)
        if len(gradients) != len(self.parameters):
            raise ValueError(f"For 'LARS', got {len(gradients)} gradients for "
                             f"{len(self.parameters)} parameters")
        lrs = self.opt._step_lrs()
        decays = [self.opt._decay_value(p) for p in self.parameters]
        if gradients and is_torch(gradients[0]):
            import torch
            from training.backends.torch_cells import param
            with torch.no_grad():
                scaled = [self._scaled(torch, param(p), g, d, flag, f32(lr)) for p, g, d, flag, lr
                          in zip(self.parameters, gradients, decays, self.lars_flags, lrs)]
        else:
            scaled = [self._scaled(np, p.data, as_array(g), d, flag, f32(lr)) for p, g, d, flag, lr
                      in zip(self.parameters, gradients, decays, self.lars_flags, lrs)]
        return self.opt(tuple(scaled))

    def _scaled(self, xp, weight, grad, decay, flag, lr):
        if self.loss_scale != 1.0:
            grad = grad * f32(1.0 / self.loss_scale)
        if not flag:
            return grad
        decay = f32(decay)
        weight_norm = xp.sqrt((weight * weight).sum())
        grad_norm = xp.sqrt((grad * grad).sum())
        ratio = 1.0
        if weight_norm > 0 and grad_norm > 0:
            ratio = self.coefficient * weight_norm / (grad_norm + decay * weight_norm +
                                                      self.epsilon)
        if self.use_clip:
            ratio = min(float(ratio) / lr, 1.0) if lr else 1.0
        return (grad + decay * weight) * ratio
