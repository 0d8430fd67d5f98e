"""`mindspore.mint.optim`: torch-style optimizers (AdamW, Adam, SGD) with param_groups, called
with the gradients as MindSpore's (`optimizer(grads)`). State Parameters are named as
MindSpore 2.10's (measured: `exp_avg.<name>`, `exp_avg_sq.<name>`, `momentum_buf.<name>`), so
checkpoints of the optimizer interchange. The update runs on the host in float32/float64 numpy
and is written back into each Parameter (either backend)."""
import numpy as np

from training.nn.cell import Cell
from training.ops.array_kernels import host_array
from training.tensor import Parameter, ParameterTuple, Tensor


def _host(value):
    return np.asarray(host_array(value))


def _check(value, name, low=0.0):
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < low:
        raise ValueError(f"Invalid {name}: {value!r}")


class Optimizer(Cell):
    """param_groups (dicts of 'params' and options, as torch's); `state_names` gives the
    Parameters of state kept per parameter, each as `<state>.<parameter name>`."""
    state_names = ()
    step_name, step_shape = "state_step", (1,)      # SGD's is 'step_t', 0-d (measured)

    def __init__(self, params, defaults):
        super().__init__()
        params = list(params)
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self.defaults, self.param_groups = defaults, []
        for group in groups:
            group = dict(group)
            group["params"] = list(group["params"])
            for key, value in defaults.items():
                group.setdefault(key, value)
            self.param_groups.append(group)
        self.parameters = ParameterTuple(p for g in self.param_groups for p in g["params"])
        self.state = {}
        for state in self.state_names:
            kept = ParameterTuple(Parameter(Tensor(np.zeros(p.shape, _host(p).dtype)),
                                            name=f"{state}.{p.name}", requires_grad=False)
                                  for p in self.parameters)
            for k, kept_state in enumerate(kept):   # registered, so checkpoints include them
                kept_state._local_name = kept_state.name
                self._params[f"{state}_{k}"] = kept_state
            object.__setattr__(self, state, kept)
        self.state_step = Parameter(Tensor(np.zeros(self.step_shape, np.float32)),
                                    name=self.step_name, requires_grad=False)

    def construct(self, gradients):
        gradients = list(gradients)
        if len(gradients) != len(self.parameters):
            raise ValueError(f"The optimizer has {len(self.parameters)} parameters, but got "
                             f"{len(gradients)} gradients")
        step = int(_host(self.state_step).reshape(-1)[0]) + 1
        self.state_step.set_data(Tensor(np.full(self.step_shape, step, np.float32)))
        index = 0
        for group in self.param_groups:
            for p in group["params"]:
                grad = _host(gradients[index])
                if group.get("maximize"):
                    grad = -grad
                states = {name: getattr(self, name)[index] for name in self.state_names}
                value = _host(p)
                new = self.update(value.astype(np.float64), grad.astype(np.float64), states,
                                  group, step)
                p.set_data(Tensor(new.astype(value.dtype)))
                index += 1
        return True

    @staticmethod
    def _read(state):
        return _host(state).astype(np.float64)

    @staticmethod
    def _write(state, value):
        state.set_data(Tensor(value.astype(_host(state).dtype)))


class AdamW(Optimizer):
    """Decoupled weight decay: p -= lr * weight_decay * p, then Adam's step."""
    state_names = ("exp_avg", "exp_avg_sq")
    decoupled = True

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01,
                 amsgrad=False, *, maximize=False):
        _check(lr, "learning rate")
        _check(eps, "epsilon value")
        _check(weight_decay, "weight_decay value")
        for k, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {k}: {beta}")
        if amsgrad:
            raise NotImplementedError("amsgrad is not provided")
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps,
                                  "weight_decay": weight_decay, "amsgrad": amsgrad,
                                  "maximize": maximize})

    def update(self, p, grad, states, group, step):
        beta1, beta2 = group["betas"]
        lr, decay = float(group["lr"]), group["weight_decay"]
        if self.decoupled:
            p = p * (1 - lr * decay)
        elif decay:
            grad = grad + decay * p
        m = beta1 * self._read(states["exp_avg"]) + (1 - beta1) * grad
        v = beta2 * self._read(states["exp_avg_sq"]) + (1 - beta2) * grad * grad
        self._write(states["exp_avg"], m)
        self._write(states["exp_avg_sq"], v)
        m_hat = m / (1 - beta1 ** step)
        v_hat = v / (1 - beta2 ** step)
        return p - lr * m_hat / (np.sqrt(v_hat) + group["eps"])


class Adam(AdamW):
    """L2 weight decay added to the gradient (weight_decay 0 by default)."""
    decoupled = False

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class SGD(Optimizer):
    state_names = ("momentum_buf",)
    step_name, step_shape = "step_t", ()

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        _check(lr, "learning rate")
        _check(momentum, "momentum value")
        _check(weight_decay, "weight_decay value")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov,
                                  "maximize": maximize})

    def update(self, p, grad, states, group, step):
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * p
        if group["momentum"]:
            buf = grad if step == 1 else group["momentum"] * self._read(
                states["momentum_buf"]) + (1 - group["dampening"]) * grad
            self._write(states["momentum_buf"], buf)
            grad = grad + group["momentum"] * buf if group["nesterov"] else buf
        return p - float(group["lr"]) * grad


__all__ = ["AdamW", "Adam", "SGD", "Optimizer"]
