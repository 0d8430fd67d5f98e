"""Learning rates and parameter groups of the optimizers, as MindSpore 2.10 reads them.

A learning rate is fixed (a float, an int, a 0-d Tensor), one rate per step (a list, a tuple, a
1-D Tensor) or a LearningRateSchedule. A group is a dict with 'params' and optionally 'lr',
'weight_decay' (a float or a schedule Cell) and 'grad_centralization'; a dict holding only
'order_params' gives the parameters' order. The checks, their order, error types and messages
are MindSpore's (measured in 2.10)."""
from collections.abc import Iterable

import numpy as np

from training.nn.cell import Cell
from training.nn.learning_rate_schedule import LearningRateSchedule
from training.tensor import Parameter, Tensor, as_array

GROUP_KEYS = ["params", "lr", "weight_decay", "order_params", "grad_centralization"]


def non_negative(cls_name, name, value):
    """An int or float argument as a float >= 0 (MindSpore's check_non_negative_float)."""
    value = float(value)
    if value < 0:
        raise ValueError(f"For '{cls_name}', the '{name}' must be float and must >= 0, but got "
                         f"'{value}' with type 'float'.")
    return value


def preprocess_lr(cls_name, learning_rate):
    """A float, a 1-D float32 array (one rate per step) or a schedule, checked."""
    if isinstance(learning_rate, (float, int)):     # (a bool too: True is 1.0 in MindSpore)
        return non_negative(cls_name, "learning rate", learning_rate)
    if isinstance(learning_rate, LearningRateSchedule):
        return learning_rate
    if isinstance(learning_rate, Tensor):
        values = learning_rate.asnumpy().astype(np.float32)
        if values.ndim > 1:
            raise ValueError(f"For 'Optimizer', if 'learning_rate' is Tensor type, then the "
                             f"dimension of it should be 0 or 1, but got {values.ndim}.")
        return float(values) if values.ndim == 0 else values
    if isinstance(learning_rate, Iterable):
        return np.array(list(learning_rate)).astype(np.float32)
    raise TypeError(f"For 'Optimizer', the argument 'learning_rate' must be int, float, Tensor, "
                    f"Iterable or LearningRateSchedule, but got {type(learning_rate)}.")


def is_dynamic(rate):
    return not isinstance(rate, float)


def preprocess_weight_decay(cls_name, weight_decay):
    """A float >= 0, or a Cell giving the decay of a step (a dynamic weight decay)."""
    if isinstance(weight_decay, (float, int)):
        return non_negative(cls_name, "weight_decay", weight_decay)
    if isinstance(weight_decay, Cell):
        return weight_decay
    raise TypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int, float or Cell.but "
                    f"got {type(weight_decay)}")


class Rate:
    """One learning rate of an optimizer: a 0-d Parameter (fixed), a 1-D Parameter (a rate per
    step), or a schedule (no Parameter), as MindSpore holds them. ``wrapped``: a fixed rate among
    dynamic group rates, which MindSpore computes as lr + 1.0 - 1.0 in float32 (0.1 gives
    0.10000002)."""

    def __init__(self, value, name, wrapped=False):
        self.schedule = value if isinstance(value, LearningRateSchedule) else None
        self.parameter = None if self.schedule is not None else Parameter(
            np.asarray(value, np.float32), name=name, requires_grad=False)
        self.wrapped = wrapped

    @property
    def source(self):
        """What get_lr_parameter gives: the Parameter, or the schedule."""
        return self.parameter if self.schedule is None else self.schedule

    def at(self, step, cls_name=None):
        """The rate (float32) of step ``step`` (from 0). With ``cls_name``, a per-step list that
        has no rate for the step is a RuntimeError, as in MindSpore (whose Gather refuses the
        index); without, its last rate (what callbacks read after the last step)."""
        if self.schedule is not None:
            return np.float32(np.asarray(as_array(self.schedule(step))).reshape(()))
        values = np.asarray(self.parameter.data, np.float32)
        if values.ndim == 0:
            one = np.float32(1)
            return np.float32(values + one) - one if self.wrapped else values[()]
        if step >= len(values) and cls_name is not None:
            raise RuntimeError(f"For '{cls_name}', the learning rate list has {len(values)} "
                               f"values, but step {step} (counted from 0) needs one more: give a "
                               f"rate for every step")
        return values[min(step, len(values) - 1)]


def check_groups(groups):
    """The keys and parameters of every group (MindSpore's _check_group_params)."""
    for group in groups:
        unknown = [key for key in group if key not in GROUP_KEYS]
        if unknown:
            raise KeyError(f"For 'Optimizer', the key in group params must be one of in "
                           f"{GROUP_KEYS}, but got {unknown}.")
        if "order_params" in group:
            if len(group) > 1:
                raise ValueError(f"For 'Optimizer', the order params dict in group parameters "
                                 f"should only include the 'order_params' key, but got "
                                 f"{group.keys()}.")
            if not isinstance(group["order_params"], Iterable):
                raise TypeError(f"For 'Optimizer', the value of 'order_params' in group "
                                f"parameters should be Iterable type, but got "
                                f"{type(group['order_params'])}.")
            continue
        for index, param in enumerate(checked_list(group["params"], "group `params`")):
            if not isinstance(param, Parameter):
                raise TypeError(f"For 'Optimizer', the element in group parameters must be "
                                f"Parameter type, but got {type(param)} at index {index}.")


def checked_list(parameters, what):
    """``parameters`` as a list: not None, iterable, not empty."""
    if parameters is None:
        raise ValueError(f"For 'Optimizer', the argument {what} can not be None.")
    if not isinstance(parameters, Iterable):
        raise TypeError(f"For 'Optimizer', the argument {what} must be Iterable type, but got "
                        f"{type(parameters)}.")
    parameters = list(parameters)
    if not parameters:
        raise ValueError(f"For 'Optimizer', the argument {what} must not be empty.")
    return parameters


class Groups:
    """The parameters of an optimizer given in groups, in their final order, each with its
    Rate, weight decay and gradient-centralization flag."""

    def __init__(self, cls_name, groups, learning_rate, weight_decay):
        check_groups(groups)
        rates = {index: preprocess_lr(cls_name, group["lr"])
                 for index, group in enumerate(groups) if "lr" in group}
        self.is_group_lr = bool(rates)
        self.dynamic = is_dynamic(learning_rate) or any(map(is_dynamic, rates.values()))
        lists = [r for r in [learning_rate] + list(rates.values()) if isinstance(r, np.ndarray)]
        if any(len(r) != len(lists[0]) for r in lists):
            raise ValueError("For 'Optimizer', the Tensor type dynamic learning rate in group "
                             "must be the same size as the argument 'learning_rate'.")
        wrapped = self.is_group_lr and self.dynamic
        self.default_rate = Rate(learning_rate, "learning_rate", wrapped)
        self.params, self.rates, self.decays, self.centralized = [], [], [], []
        order = None
        for index, group in enumerate(groups):
            if "order_params" in group:
                order = list(group["order_params"])
                continue
            rate = Rate(rates[index], f"learning_rate_group_{index}", wrapped) \
                if index in rates else self.default_rate
            decay = preprocess_weight_decay(cls_name, group.get("weight_decay", weight_decay))
            centralized = group.get("grad_centralization", False)
            if not isinstance(centralized, bool):
                raise TypeError(f"For 'Optimizer', the 'gradients_centralization' must be bool "
                                f"type, but got {type(centralized)}.")
            for param in group["params"]:
                if param.name in [p.name for p in self.params]:
                    raise RuntimeError(f"For 'Optimizer', the {param.name} parameter already "
                                       f"exists, it does not support repeated setting. Please "
                                       f"check whether the optimizer parameter has been set "
                                       f"multiple times.")
                self.params.append(param)
                self.rates.append(rate)
                self.decays.append(decay)
                self.centralized.append(centralized)
        if order:
            self._reorder(order)

    def _reorder(self, order):
        if len(order) != len(self.params):
            raise ValueError(f"For 'Optimizer',the length of order parameters must be the same as "
                             f"the length of group parameters, but got order parameters' length "
                             f"{len(order)}, group parameters' length {len(self.params)}.")
        names = [p.name for p in order]      # (as long as the groups': a name given twice
        positions = []                          # leaves another out)
        for param in self.params:
            if param.name not in names:
                raise ValueError(f"'{param.name}' is not in list")
            positions.append(names.index(param.name))
        for attr in ("params", "rates", "decays", "centralized"):
            values = getattr(self, attr)
            ordered = [None] * len(values)
            for position, value in zip(positions, values):
                ordered[position] = value
            setattr(self, attr, ordered)
