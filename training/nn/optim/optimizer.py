"""`Optimizer` base: parameter groups of one, learning rates (fixed, per-step list or schedule),
weight decay with MindSpore's filter (no decay on BatchNorm gamma/beta), and loss scale."""
import numpy as np

from training.backends.dispatch import is_torch
from training.nn.cell import Cell
from training.tensor import Parameter, ParameterTuple, Tensor, as_array


class Optimizer(Cell):
    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        params = list(parameters)
        if params and isinstance(params[0], dict):
            params, self._group_decay = self._parameter_groups(params, weight_decay)
        else:
            self._group_decay = None
        if not params:
            raise ValueError(f"For '{self.cls_name}', the 'params' list must not be empty")
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError(f"For '{self.cls_name}', every element of 'params' must be a "
                                f"Parameter, but got {type(p).__name__}")
        if weight_decay < 0:
            raise ValueError(f"For '{self.cls_name}', 'weight_decay' must be >= 0, got {weight_decay}")
        if loss_scale <= 0:
            raise ValueError(f"For '{self.cls_name}', 'loss_scale' must be > 0, got {loss_scale}")
        object.__setattr__(self, "parameters", ParameterTuple(params))
        self.weight_decay, self.loss_scale = weight_decay, loss_scale
        self._schedule = None
        if isinstance(learning_rate, Tensor):  # 0-d: a fixed rate; 1-d: one rate per step
            learning_rate = learning_rate.asnumpy()
            learning_rate = float(learning_rate) if learning_rate.ndim == 0 else learning_rate
        if callable(learning_rate):
            self._schedule, value = learning_rate, learning_rate(0)
        elif isinstance(learning_rate, (list, tuple, np.ndarray)):
            self._schedule = np.asarray(learning_rate, dtype=np.float32).reshape(-1)
            value = self._schedule[0]
        elif isinstance(learning_rate, (int, float)) and not isinstance(learning_rate, bool):
            if learning_rate < 0:
                raise ValueError(f"For '{self.cls_name}', 'learning_rate' must be >= 0, "
                                 f"but got {learning_rate}")
            value = learning_rate
        else:
            raise TypeError(f"For '{self.cls_name}', 'learning_rate' must be a float, a list or a "
                            f"schedule, but got {type(learning_rate).__name__}")
        self.learning_rate = Parameter(np.array(value, np.float32), name="learning_rate",
                                       requires_grad=False)
        self.global_step = Parameter(np.array([0], np.int32), name="global_step",
                                     requires_grad=False)

    def _parameter_groups(self, groups, weight_decay):
        """Parameters and per-parameter weight decay from MindSpore's group dicts: 'params'
        with an optional 'weight_decay'; an 'order_params' entry fixes the parameters' order."""
        params, decay, order = [], {}, None
        for group in groups:
            unknown = set(group) - {"params", "weight_decay", "order_params"}
            if unknown:
                raise ValueError(f"For '{self.cls_name}', parameter groups with {sorted(unknown)} "
                                 f"are not provided (per-group 'lr' and 'grad_centralization'); "
                                 f"groups may set 'params', 'weight_decay' and 'order_params'")
            if "order_params" in group:
                order = list(group["order_params"])
                continue
            for p in group["params"]:
                params.append(p)
                decay[id(p)] = group.get("weight_decay", weight_decay)
        if order is not None:
            missing = [p.name for p in order if id(p) not in decay]
            if missing:
                raise ValueError(f"For '{self.cls_name}', 'order_params' holds parameters that "
                                 f"are in no group: {missing}")
            params = order
        return params, decay

    def clone_state(self, prefix, fill=0.0):
        """One state Parameter per optimized parameter, filled with `fill`, named
        "<prefix>.<param name>"."""
        return [Parameter(np.full_like(p.data, fill), name=f"{prefix}.{p.name}",
                          requires_grad=False) for p in self.parameters]

    def _register_states(self, attr, states):
        # States are registered as parameters so checkpoints include them (MindSpore does too).
        for i, s in enumerate(states):
            s._local_name = s.name
            self._params[f"{attr}_{i}"] = s
        object.__setattr__(self, attr, states)

    def get_lr(self):
        step = int(self.global_step.data[0])
        if self._schedule is None:
            return float(self.learning_rate.data)
        if callable(self._schedule):
            return float(self._schedule(step))
        return float(self._schedule[min(step, len(self._schedule) - 1)])

    def _step_lr(self):
        """The learning rate of the step about to run; a per-step list that has no rate for it
        is a RuntimeError, as in MindSpore (whose Gather refuses the index), not its last rate
        again. (get_lr, which callbacks read after the last step too, keeps the last.)"""
        step = int(self.global_step.data[0])
        if isinstance(self._schedule, np.ndarray) and step >= len(self._schedule):
            raise RuntimeError(f"For '{self.cls_name}', the learning rate list has "
                               f"{len(self._schedule)} values, but step {step} (counted from 0) "
                               f"needs one more: give a rate for every step")
        return self.get_lr()

    def _decay(self, param):
        if self._group_decay is not None:
            return self._group_decay[id(param)]
        if "beta" in param.name or "gamma" in param.name:
            return 0.0
        return self.weight_decay

    def unscale(self, gradients):
        """Divide by the loss scale the loss was multiplied with."""
        if self.loss_scale == 1.0:
            return list(gradients)
        return [g / self.loss_scale for g in gradients]

    def preprocess(self, gradients):
        """Unscale (loss_scale) and add weight decay, as MindSpore's optimizers do."""
        out = []
        for p, g in zip(self.parameters, self.unscale(gradients)):
            decay = self._decay(p)
            out.append(g + decay * p.data if decay else g)
        return out

    def construct(self, gradients):
        if len(gradients) and is_torch(gradients[0]):  # a training cell on the torch backend
            import torch
            from training.backends.torch_cells import param
            if len(gradients) != len(self.parameters):
                raise ValueError(f"For '{self.cls_name}', got {len(gradients)} gradients for "
                                 f"{len(self.parameters)} parameters")
            with torch.no_grad():
                self.step_torch([param(p) for p in self.parameters], list(gradients))
            return True
        gradients = [as_array(g) for g in gradients]  # Tensors from value_and_grad, or arrays
        if len(gradients) != len(self.parameters):
            raise ValueError(f"For '{self.cls_name}', got {len(gradients)} gradients for "
                             f"{len(self.parameters)} parameters")
        lr = self._step_lr()
        self.learning_rate.data[...] = lr
        self.apply_gradients(self.preprocess(gradients), np.float32(lr))
        self.global_step.data[0] += 1
        return True

    def apply_gradients(self, gradients, lr):
        raise NotImplementedError

    # --- the torch backend ----------------------------------------------------------------
    def step_torch(self, params, grads):
        """construct()'s update on the torch backend: `params` are the bound torch tensors of
        self.parameters, `grads` their gradients (called under torch.no_grad())."""
        lr = self._step_lr()
        self.learning_rate.data = np.asarray(lr, np.float32)
        if self.apply_gradients_torch is None:
            # No torch rule: the numpy rule on host copies, written back through Parameter.data.
            host = [g.detach().float().cpu().numpy() for g in grads]
            self.apply_gradients(self.preprocess(host), np.float32(lr))
        else:
            self.apply_gradients_torch(params, self._preprocess_torch(params, grads), lr)
        self.global_step.data = self.global_step.data + 1

    def _preprocess_torch(self, params, grads):
        """preprocess() on torch tensors: unscale, then weight decay (foreach kernels)."""
        import torch
        if self.loss_scale != 1.0:
            grads = torch._foreach_div(grads, self.loss_scale)
        by_decay = {}  # one foreach kernel per weight-decay value, not one kernel per parameter
        for i, p_cell in enumerate(self.parameters):
            decay = self._decay(p_cell)
            if decay:
                by_decay.setdefault(decay, []).append(i)
        out = list(grads)
        for decay, indices in by_decay.items():
            decayed = torch._foreach_add([out[i] for i in indices], [params[i] for i in indices],
                                         alpha=decay)
            for i, g in zip(indices, decayed):
                out[i] = g
        return out

    def state_tensors(self, states, params):
        """The bound torch tensors of state Parameters, on their parameters' devices."""
        from training.backends.torch_cells import bind
        return [bind(s, p.device, p.dtype) for s, p in zip(states, params)]

    apply_gradients_torch = None  # the subclasses that have a torch rule define it
