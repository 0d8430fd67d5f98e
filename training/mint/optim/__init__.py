"""`mindspore.mint.optim`: torch-style optimizers (AdamW, Adam, SGD) with param_groups, called
with the gradients as MindSpore's (`optimizer(grads)`). Argument checks and state Parameters
are MindSpore 2.10's (measured: `exp_avg.<name>`, `exp_avg_sq.<name>` and a float32 (1,)
`state_step`; `momentum_buf.<name>` and an int32 0-d `step_t`; with amsgrad each group's
`max_exp_avg_sq.<name>` under group["max_exp_avg_sq"]), so checkpoints of the optimizer
interchange. The update rules are torch.optim's, which MindSpore documents as its own
(MindSpore 2.10's CPU build cannot run them: AdamW's kernel is unregistered, Adam and SGD
leave the weights unchanged). Each rule is written once on arrays: numpy arrays of the
Parameters on the numpy backend, and on the torch backend (torch gradients) the Parameters'
bound torch tensors, updated in place on their device with torch operations."""
import numpy as np

from training.backends.dispatch import is_torch
from training.nn.cell import Cell
from training.ops.array_kernels import host_array
from training.tensor import Parameter, ParameterTuple, Tensor


def _host(value):
    return np.asarray(host_array(value))


def _typed(value, name, types, optimizer):
    if not isinstance(value, types):
        raise TypeError(f"For '{optimizer}', the type of '{name}' should be "
                        f"'{types[0].__name__}', but got type '{type(value).__name__}'.")


def _at_least_zero(value, what):
    if value < 0.0:
        raise ValueError(f"Invalid {what}: {value}")


class _Numpy:
    """The array functions a rule uses, for numpy arrays."""
    sqrt, maximum = staticmethod(np.sqrt), staticmethod(np.maximum)


class _Torch:
    """The array functions a rule uses, for torch tensors (on their device)."""

    def __init__(self):
        import torch
        self.sqrt, self.maximum = torch.sqrt, torch.maximum


class _Optimizer(Cell):
    """param_groups (dicts of 'params' and options, as torch's); `state_names` gives the
    Parameters of state kept per parameter, each as `<state>.<parameter name>`; the step
    count is the Parameter `step_name`."""
    state_names = ()
    step_name, step_shape, step_dtype = "state_step", (1,), np.float32

    def __init__(self, params, defaults):
        super().__init__()
        params = list(params)
        if not params:
            raise ValueError("For 'Optimizer', the argument params must not be empty.")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self.defaults, self.param_groups = defaults, []
        for group in groups:
            group = dict(group)
            group["params"] = list(group["params"])
            for key, value in defaults.items():
                group.setdefault(key, value)
            if group.get("amsgrad"):        # kept in the group, not registered (MindSpore's)
                group["max_exp_avg_sq"] = self._zeros_like("max_exp_avg_sq", group["params"])
            self.param_groups.append(group)
        self.parameters = ParameterTuple(p for g in self.param_groups for p in g["params"])
        for state in self.state_names:
            kept = self._zeros_like(state, self.parameters)
            for k, kept_state in enumerate(kept):   # registered, so checkpoints include them
                kept_state._local_name = kept_state.name
                self._params[f"{state}_{k}"] = kept_state
            object.__setattr__(self, state, kept)
        setattr(self, self.step_name, Parameter(Tensor(np.zeros(self.step_shape,
                                                                self.step_dtype)),
                                                name=self.step_name, requires_grad=False))

    @staticmethod
    def _zeros_like(state, params):
        return ParameterTuple(Parameter(Tensor(np.zeros(p.shape, _host(p).dtype)),
                                        name=f"{state}.{p.name}", requires_grad=False)
                              for p in params)

    def construct(self, gradients):
        gradients = list(gradients)
        if len(gradients) != len(self.parameters):
            raise ValueError(f"For '{self.cls_name}', got {len(gradients)} gradients for "
                             f"{len(self.parameters)} parameters")
        counter = getattr(self, self.step_name)
        step = int(_host(counter).reshape(-1)[0]) + 1
        counter.data = np.full(self.step_shape, step, self.step_dtype)     # kept on the host
        on_torch = bool(gradients) and is_torch(gradients[0])
        index = 0
        for group in self.param_groups:
            for k, p in enumerate(group["params"]):
                states = {name: getattr(self, name)[index] for name in self.state_names}
                if group.get("amsgrad"):
                    states["max_exp_avg_sq"] = group["max_exp_avg_sq"][k]
                if on_torch:
                    self._step_torch(p, gradients[index], states, group, step)
                else:
                    self._step_host(p, gradients[index], states, group, step)
                index += 1
        return True

    def _step_host(self, p, grad, states, group, step):
        value = _host(p)
        kept = {name: _host(state).astype(value.dtype) for name, state in states.items()}
        new, kept = self.update(value, _host(grad).astype(value.dtype), kept, group, step,
                                _Numpy)
        p.set_data(Tensor(new))
        for name, state in kept.items():
            states[name].set_data(Tensor(state))

    def _step_torch(self, p, grad, states, group, step):
        import torch
        from training.backends.torch_cells import bind, param
        value = param(p)
        bound = {name: bind(state, value.device, value.dtype) for name, state in states.items()}
        with torch.no_grad():
            new, kept = self.update(value.detach(), grad.detach().to(value.device, value.dtype),
                                    dict(bound), group, step, _Torch())
            value.copy_(new)
            for name, tensor in kept.items():
                bound[name].copy_(tensor)

    def update(self, p, grad, states, group, step, xp):
        """(the new parameter, the states it changed) from arrays of one backend (`xp` its
        sqrt and maximum)."""
        raise NotImplementedError


def _rate(lr):
    return float(_host(lr)) if hasattr(lr, "shape") else float(lr)


class AdamW(_Optimizer):
    """torch's AdamW: decoupled weight decay (p -= lr * weight_decay * p), then Adam's
    step; amsgrad divides by the largest second moment so far."""
    state_names = ("exp_avg", "exp_avg_sq")
    decoupled = True

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01,
                 amsgrad=False, *, maximize=False):
        name = type(self).__name__
        _typed(betas, "betas", (tuple,), name)
        if len(betas) != 2:
            raise ValueError(f"For '{name}', the 'betas size' must be in [2], but got "
                             f"{len(betas)}.")
        for what, value in (("betas[0]", betas[0]), ("betas[1]", betas[1]), ("eps", eps),
                            ("weight_decay", weight_decay), ("lr", lr)):
            _typed(value, what, (float,), name)
        _typed(amsgrad, "amsgrad", (bool,), name)
        _typed(maximize, "maximize", (bool,), name)
        _at_least_zero(lr, "learning rate")
        _at_least_zero(eps, "epsilon value")
        for k, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {k}: {beta}")
        _at_least_zero(weight_decay, "weight_decay value")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay, "amsgrad": amsgrad,
                                  "maximize": maximize})

    def update(self, p, grad, states, group, step, xp):
        beta1, beta2 = group["betas"]
        lr, decay = _rate(group["lr"]), group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        if self.decoupled:
            p = p * (1 - lr * decay)
        elif decay:
            grad = grad + decay * p
        m = states["exp_avg"] * beta1 + grad * (1 - beta1)
        v = states["exp_avg_sq"] * beta2 + grad * grad * (1 - beta2)
        kept = {"exp_avg": m, "exp_avg_sq": v}
        if group["amsgrad"]:
            v = kept["max_exp_avg_sq"] = xp.maximum(states["max_exp_avg_sq"], v)
        denominator = xp.sqrt(v) / float(np.sqrt(1 - beta2 ** step)) + group["eps"]
        return p - m / denominator * (lr / (1 - beta1 ** step)), kept


class Adam(AdamW):
    """torch's Adam: L2 weight decay added to the gradient (weight_decay 0 by default)."""
    decoupled = False

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class SGD(_Optimizer):
    """torch's SGD: weight decay added to the gradient, then momentum (the first step's
    buffer the gradient), dampening and Nesterov's momentum."""
    state_names = ("momentum_buf",)
    step_name, step_shape, step_dtype = "step_t", (), np.int32

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        numbers = (float, int, bool)
        _typed(lr, "lr", numbers + (Tensor,), "SGD")
        for what, value in (("momentum", momentum), ("weight_decay", weight_decay),
                            ("dampening", dampening)):
            _typed(value, what, numbers, "SGD")
        _typed(nesterov, "nesterov", (bool,), "SGD")
        _typed(maximize, "maximize", (bool,), "SGD")
        _at_least_zero(_rate(lr), "learning rate")
        _at_least_zero(momentum, "momentum value")
        _at_least_zero(weight_decay, "weight_decay value")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov,
                                  "maximize": maximize})
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                             f"'dampening' must equal to 0.0, but got 'momentum' {momentum}, "
                             f"'dampening' {dampening}")

    def update(self, p, grad, states, group, step, xp):
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"]:
            grad = grad + p * group["weight_decay"]
        kept = {}
        if group["momentum"]:
            buf = grad if step == 1 else states["momentum_buf"] * group["momentum"] + \
                grad * (1 - group["dampening"])
            kept["momentum_buf"] = buf
            grad = grad + buf * group["momentum"] if group["nesterov"] else buf
        return p - grad * _rate(group["lr"]), kept


__all__ = ["AdamW", "Adam", "SGD"]


def __dir__():
    return __all__
