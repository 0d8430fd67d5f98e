"""`Optimizer` base, as MindSpore 2.10's: the parameters plain or in groups (groups.py: per-group
'lr', 'weight_decay' and 'grad_centralization', ordered by 'order_params'), learning rates
(fixed, a rate per step or a schedule; per group: Parameters named 'learning_rate_group_<i>',
i the group's index, besides the optimizer's own 'learning_rate', so checkpoints interchange),
weight decay (a float or a schedule Cell; without groups none on names with gamma/beta), gradient
centralization and loss scale."""
import numpy as np

from training.backends.dispatch import is_torch
from training.nn.cell import Cell
from training.nn.optim.groups import (Groups, Rate, checked_list, is_dynamic, preprocess_lr,
                                      preprocess_weight_decay)
from training.tensor import Parameter, ParameterTuple, Tensor, as_array


def by_rate(lrs):
    """[(lr, indices)]: the parameters' indices by learning rate, so a torch foreach kernel runs
    once per rate (one kernel without group rates)."""
    groups = {}
    for index, lr in enumerate(lrs):
        groups.setdefault(float(lr), []).append(index)
    return list(groups.items())


def per_parameter(lr, count):
    """The rate of each of `count` parameters: `lr` is one rate for all (no group rates) or a
    list of one per parameter."""
    return list(lr) if isinstance(lr, (list, tuple)) else [lr] * count


def pick(values, indices):
    return [values[i] for i in indices]


def centralized(grad):
    """MindSpore's gradient centralization: a gradient of 2 or more dimensions whose second
    dimension is a multiple of 16 loses its mean over every dimension but the first; any other
    stays as it is (MindSpore 2.10's rule; its CPU has no kernel for it)."""
    if grad.ndim < 2 or grad.shape[1] % 16:
        return grad
    axes = tuple(range(1, grad.ndim))
    if is_torch(grad):
        return grad - grad.mean(dim=axes, keepdim=True)
    return grad - grad.mean(axis=axes, keepdims=True)


class Optimizer(Cell):
    centralizes = True      # False where MindSpore's optimizer skips gradient centralization
    decays_all = False      # True: no gamma/beta filter without groups (MindSpore's FTRL)

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        params = checked_list(parameters, "parameters")
        if not (all(isinstance(p, Parameter) for p in params) or
                all(isinstance(p, dict) for p in params)):
            raise TypeError("For 'Optimizer', all elements of the argument 'parameters' must be "
                            "'Parameter' or 'dict', please check the 'parameters'.")
        if loss_scale <= 0:
            raise ValueError(f"For '{self.cls_name}', 'loss_scale' must be > 0, got {loss_scale}")
        self.loss_scale = loss_scale
        self.global_step = Parameter(np.array([0], np.int32), name="global_step",
                                     requires_grad=False)
        learning_rate = preprocess_lr(self.cls_name, learning_rate)
        self.is_group = isinstance(params[0], dict)
        if self.is_group:
            groups = Groups(self.cls_name, params, learning_rate, weight_decay)
            params, rates, decays = groups.params, groups.rates, groups.decays
            gc_flags = groups.centralized
            self.is_group_lr, self.dynamic_lr = groups.is_group_lr, groups.dynamic
        else:
            rates = [Rate(learning_rate, "learning_rate")] * len(params)
            gc_flags = [False] * len(params)
            self.is_group_lr, self.dynamic_lr = False, is_dynamic(learning_rate)
        weight_decay = preprocess_weight_decay(self.cls_name, weight_decay)
        if not self.is_group:
            decays = [weight_decay if self.decays_all or not ("beta" in p.name or
                                                              "gamma" in p.name)
                      else 0.0 for p in params]
        object.__setattr__(self, "parameters", ParameterTuple(params))
        self._expose_weight_decay(weight_decay, params, decays)
        # MindSpore 2.10's flag (measured): a schedule as the weight decay, or in any group
        self.dynamic_weight_decay = isinstance(weight_decay, Cell) or \
            any(isinstance(d, Cell) for d in decays)
        self._decays = {id(p): d for p, d in zip(params, decays)}
        self._decays_handed_over = False        # (to a LARS around this optimizer)
        self._centralized = {id(p) for p, flag in zip(params, gc_flags) if flag} \
            if self.centralizes else set()
        self._set_rates(rates)

    def _expose_weight_decay(self, weight_decay, params, decays):
        """`weight_decay` and `decay_flags` as MindSpore 2.10 shows them (measured): a fixed
        decay as a float32 Tensor scaled by loss_scale (FTRL keeps the float), with groups one
        per parameter; the flags filter gamma/beta without groups, else mark decays above 0."""
        def shown(decay):
            return decay if isinstance(decay, Cell) else \
                Tensor(np.float32(decay * self.loss_scale))
        if self.is_group:
            object.__setattr__(self, "weight_decay", tuple(shown(d) for d in decays))
            self.decay_flags = tuple(isinstance(d, Cell) or d > 0 for d in decays)
            return
        self.weight_decay = weight_decay if self.decays_all else shown(weight_decay)
        self.decay_flags = tuple(self.decays_all or not ("beta" in p.name or "gamma" in p.name)
                                 for p in params)

    def _set_rates(self, rates):
        """The per-parameter Rates, and `learning_rate` as MindSpore's: the one rate's Parameter
        (or schedule), or with group rates each parameter's."""
        self._rates = rates
        if not self.is_group_lr:
            self.learning_rate = rates[0].source
            return
        for rate in rates:
            if rate.parameter is not None:      # registered: checkpoints hold them
                rate.parameter._local_name = rate.parameter.name
                self._params[rate.parameter.name] = rate.parameter
        object.__setattr__(self, "learning_rate", tuple(rate.source for rate in rates))

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

    # --- learning rates ---------------------------------------------------------------------
    def _step(self):
        return int(self.global_step.data[0])

    def get_lr(self):
        """The rate of the coming step: a float; with group rates one per parameter, their
        Parameters (fixed rates) or 0-d Tensors (dynamic ones), as MindSpore's."""
        step = self._step()
        if not self.is_group_lr:
            return float(self._rates[0].at(step))
        if not self.dynamic_lr:
            return tuple(rate.parameter for rate in self._rates)
        return tuple(Tensor(np.asarray(rate.at(step), np.float32)) for rate in self._rates)

    def get_lr_parameter(self, param):
        """The learning-rate Parameter (a schedule for a scheduled rate) of `param`, or a list
        of them for a list of parameters."""
        if not isinstance(param, (Parameter, list)):
            raise TypeError(f"For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' "
                            f"type, but got {type(param)}.")
        ids = [id(p) for p in self.parameters]
        found = []
        for p in param if isinstance(param, list) else [param]:
            if not isinstance(p, Parameter):
                raise TypeError(f"For '{self.cls_name}', the type of 'parameter' should be "
                                f"'Parameter', but got type '{type(p).__name__}'.")
            if id(p) not in ids:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in "
                                 f"optimizer, please check whether the argument 'param' is "
                                 f"correct.")
            found.append(self._rates[ids.index(id(p))].source)
        return found if isinstance(param, list) else found[0]

    def _step_lrs(self):
        """Each parameter's rate for the step about to run (float32)."""
        step, values = self._step(), {}
        for rate in self._rates:
            if id(rate) not in values:
                values[id(rate)] = rate.at(step, self.cls_name)
        return [values[id(rate)] for rate in self._rates]

    def _step_lr(self):
        """What apply_gradients takes: the step's rate, or with group rates each parameter's."""
        lrs = self._step_lrs()
        return lrs if self.is_group_lr else lrs[0]

    def _current_lr(self):
        """The rate of the step run last (the first parameter's), as callbacks read it."""
        return float(self._rates[0].at(max(self._step() - 1, 0)))

    def _assign_lr(self, lr):
        """A callback's new rate (LearningRateScheduler, ReduceLROnPlateau): fixed from now on."""
        if self.is_group_lr:
            raise ValueError(f"For '{self.cls_name}', a callback cannot set the learning rate of "
                             f"an optimizer with group learning rates")
        rate = self._rates[0]
        if rate.schedule is None and rate.parameter.data.ndim == 0:
            rate.parameter.data = np.asarray(lr, np.float32)
        else:
            self.dynamic_lr = False
            self._set_rates([Rate(float(lr), "learning_rate")] * len(self.parameters))

    # --- gradients ------------------------------------------------------------------------
    def _decay(self, param):
        """The weight decay of `param` at this step (0 once a LARS applies it instead)."""
        return 0.0 if self._decays_handed_over else self._decay_value(param)

    def _decay_value(self, param):
        decay = self._decays[id(param)]
        if isinstance(decay, Cell):     # a dynamic weight decay: its value at the global step
            return float(np.asarray(as_array(decay(self._step())), np.float32).reshape(()))
        return decay

    def unscale(self, gradients):
        """Divide by the loss scale the loss was multiplied with."""
        if self.loss_scale == 1.0:
            return list(gradients)
        return [g / self.loss_scale for g in gradients]

    def centralize(self, gradients):
        """Gradient centralization of the parameters of groups with 'grad_centralization'."""
        if not self._centralized:
            return list(gradients)
        return [centralized(g) if id(p) in self._centralized else g
                for p, g in zip(self.parameters, gradients)]

    def preprocess(self, gradients):
        """Unscale (loss_scale), add weight decay and centralize, as MindSpore's optimizers
        (which decay the scaled gradient by loss_scale * weight_decay, then unscale)."""
        out = []
        for p, g in zip(self.parameters, self.unscale(gradients)):
            decay = self._decay(p)
            out.append(g + decay * p.data if decay else g)
        return self.centralize(out)

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
        self.apply_gradients(self.preprocess(gradients), self._step_lr())
        self.global_step.data[0] += 1
        return True

    def apply_gradients(self, gradients, lr):
        """Updates the parameters: `lr` is the step's rate (float32), with group rates a list
        of each parameter's (per_parameter() gives that list in both cases)."""
        raise NotImplementedError

    # --- the torch backend ----------------------------------------------------------------
    def step_torch(self, params, grads):
        """construct()'s update on the torch backend: `params` are the bound torch tensors of
        self.parameters, `grads` their gradients (called under torch.no_grad())."""
        lr = self._step_lr()
        if self.apply_gradients_torch is None:
            # No torch rule: the numpy rule on host copies, written back through Parameter.data.
            host = [g.detach().float().cpu().numpy() for g in grads]
            self.apply_gradients(self.preprocess(host), lr)
        else:
            self.apply_gradients_torch(params, self._preprocess_torch(params, grads), lr)
        self.global_step.data = self.global_step.data + 1

    def _preprocess_torch(self, params, grads):
        """preprocess() on torch tensors: unscale, weight decay (foreach kernels), centralize."""
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
            decayed = torch._foreach_add(pick(out, indices), pick(params, indices), alpha=decay)
            for i, g in zip(indices, decayed):
                out[i] = g
        return self.centralize(out)

    def state_tensors(self, states, params):
        """The bound torch tensors of state Parameters, on their parameters' devices."""
        from training.backends.torch_cells import bind
        return [bind(s, p.device, p.dtype) for s, p in zip(states, params)]

    apply_gradients_torch = None  # the subclasses that have a torch rule define it
