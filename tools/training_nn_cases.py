"""tools/training_vs_mindspore.py's layer and optimizer cases: how they are drawn and run.

A layer case builds one ``nn`` layer (every argument drawn, some wrong), sets its parameters to
fixed values (or gives them as ``weight_init``/``bias_init`` arrays), runs it in training or eval
mode and gives three steps: the output, the gradients of sum(output * fixed weights) with
respect to the input and to each trainable parameter (by name), and every parameter after both
calls (BatchNorm's moving statistics). An optimizer case builds one ``nn`` optimizer on fixed
Parameters (plain or in groups; a float, per-step or scheduled learning rate; loss scale;
weight decay over names with ``gamma``/``beta``; hyperparameters some of them wrong), calls it
2-5 times with given gradients as ``opt(grads)`` and gives every parameter and optimizer state
by name after each call (the learning-rate Parameters too: 'learning_rate' and the groups'
'learning_rate_group_<i>'; with group rates get_lr() as well). Its parameter groups are 1-3
dicts with drawn 'lr' (fixed, per-step list or Tensor, schedule), 'weight_decay' (a float or a
schedule), 'grad_centralization' and an 'order_params' entry, some of them wrong. Run in
MindSpore's interpreter this module imports numpy only."""
import numpy as np

from training_layer_cases import TRAINED, MORE_LAYERS, more_layer_case

TENSOR = "__tensor__"
LAYERS = ["Dense", "Conv2d", "Conv1d", "Conv2dTranspose", "BatchNorm1d", "BatchNorm2d",
          "LayerNorm", "GroupNorm", "Embedding", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
          "Pad", "Flatten", "Dropout", "ReLU", "ReLU6", "Sigmoid", "Tanh", "HSwish", "HSigmoid",
          "PReLU", "LeakyReLU", "GELU", "Softmax", "LogSoftmax"] + MORE_LAYERS
OPTIMIZERS = ["SGD", "Momentum", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad", "AdaMax",
              "Adadelta", "Lamb", "LARS", "Rprop", "ASGD", "FTRL", "ProximalAdagrad", "LazyAdam",
              "AdamOffload", "AdaFactor"]
# optimizer parameters: MindSpore skips weight decay on names with "gamma" or "beta"
PARAMETER_NAMES = ["fc.weight", "fc.bias", "bn.gamma", "bn.beta", "conv.weight", "ln.beta"]
# (a second dimension of 16: what gradient centralization changes)
PARAMETER_SHAPES = [(3,), (2, 3), (2, 1, 2), (2, 16), (2, 16, 1, 1)]
SCHEDULES = [("ExponentialDecayLR", (0.1, 0.9, 2)), ("CosineDecayLR", (0.01, 0.1, 3)),
             ("WarmUpLR", (0.1, 3))]


def tensor(array):
    """An input made a Tensor in each library."""
    return (TENSOR, array)


def is_tensor(value):
    return isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) \
        and value[0] == TENSOR


def normal(d, shape):
    """Continuous values: no ties, so a maximum's gradient has one place to go."""
    return (d.rng.standard_normal(shape) * d.r.choice([1.0, 3.0])).astype(np.float32)


def now_and_then(d, kwargs, options, chance=0.3):
    """Adds each option (a name and the values to draw from) to ``kwargs`` with ``chance``."""
    for option, values in options.items():
        if d.r.random() < chance:
            kwargs[option] = d.r.choice(values)


def conv_case(d, name):
    c = d.r.choice
    group = c([1, 1, 2])
    cin, cout = group * c([1, 2]), group * c([1, 2])
    one_d = name == "Conv1d"
    kernel = c([1, 2, 3]) if one_d else c([1, 2, 3, (2, 3)])
    pair = (1, kernel) if one_d else (kernel, kernel) if isinstance(kernel, int) else kernel
    mode = c(["same", "valid", "pad"])
    kwargs = {"stride": c([1, 2] if one_d else [1, 2, (1, 2)]), "pad_mode": mode,
              "has_bias": c([False, True]), "group": group,
              "dilation": c([1, 2] if one_d else [1, 2, (2, 1)])}
    if mode == "pad" or d.r.random() < 0.05:        # padding in another mode: refused
        kwargs["padding"] = c([0, 1, 2] if one_d else [0, 1, (1, 0, 2, 1)])
    if name == "Conv2dTranspose":   # (refused outside 'pad' mode, or not below the stride)
        now_and_then(d, kwargs, {"output_padding": [1, (1, 0)]}, 0.5 if mode == "pad" else 0.05)
        shape = (cin, cout // group) + pair
    else:       # (Conv1d's weight_init is 3-D, its weight (out, in / group, 1, kernel))
        shape = (cout, cin // group) + (pair[1:] if one_d else pair)
    if d.r.random() < 0.4:      # the weights given as arrays (a wrong shape now and then)
        kwargs["weight_init"] = tensor(normal(d, shape if d.r.random() < 0.9 else shape[::-1]))
        if kwargs["has_bias"]:
            kwargs["bias_init"] = tensor(normal(d, (cout,)))
    size = c([4, 6]) if one_d else (c([4, 5]), c([4, 6]))
    x = normal(d, (c([1, 2]), cin) + ((size,) if one_d else size))
    return (cin, cout, kernel), kwargs, x


def pooling_case(d, name):
    c = d.r.choice
    args = (c([1, 2, 3, (3, 2)]), c([1, 2, 3]))
    kwargs = {"pad_mode": c(["valid", "same", "pad", "pad"])}
    # the options, each now and then; now and then one MindSpore refuses (padding past half
    # the kernel, wrong types, MaxPool2d's options outside 'pad' mode)
    wrong = d.r.random() < 0.2
    options = {"padding": [1, (1, 0)] + [2, 1.0] * wrong, "ceil_mode": [True] + [1] * wrong}
    options.update({"dilation": [2, (1, 2)] + [0] * wrong, "return_indices": [True]}
                   if name == "MaxPool2d" else
                   {"count_include_pad": [False], "divisor_override": [2] + [0, 1.5] * wrong})
    if name == "MaxPool2d" and kwargs["pad_mode"] != "pad" and not wrong:
        options = {}
    now_and_then(d, kwargs, options)
    return args, kwargs, normal(d, (c([1, 2]), c([1, 3]), c([4, 7]), c([5, 6])))


def normalization_case(d, name):
    c = d.r.choice
    n, ch = c([2, 3]), c([2, 3, 4])
    if name.startswith("BatchNorm"):
        kwargs = {"eps": c([1e-5, 1e-3]), "momentum": c([0.9, 0.5, 0.1])}
        now_and_then(d, kwargs, {"affine": [False], "use_batch_statistics": [True, False]}, 0.2)
        return (ch,), kwargs, normal(d, (n, ch) if name == "BatchNorm1d" else (n, ch, 3, 2))
    if name == "GroupNorm":
        groups = c([g for g in (1, 2, 4) if ch % g == 0] + [3])     # 3 of 2 or 4: refused
        kwargs = {"eps": c([1e-5, 1e-2])}
        now_and_then(d, kwargs, {"affine": [False]}, 0.2)
        return (groups, ch), kwargs, normal(d, (n, ch, 2, 3))
    shape = (n, ch, 3)
    axis = c([-1, 1, 2])
    params_axis = c([-1, 1, 2, axis])
    kwargs = {"begin_norm_axis": axis, "begin_params_axis": params_axis,
              "epsilon": c([1e-7, 1e-3])}
    return (list(shape[params_axis:]) if params_axis != -1 else [shape[-1]],), kwargs, \
        normal(d, shape)


def activation_case(d, name):
    c = d.r.choice
    x = normal(d, c([(2, 5), (2, 3, 4), (1, 3, 2, 2)]))
    args, kwargs = (), {}
    if name == "LeakyReLU":
        args = (c([0.2, 0.01, 1.5]),)
    elif name == "GELU":
        kwargs["approximate"] = c([True, False])
    elif name in ("Softmax", "LogSoftmax"):
        kwargs["axis"] = c([-1, 0, 1, (0, 1)] if name == "Softmax" else [-1, 0, 1])
    elif name == "PReLU":
        channels = x.shape[1]
        kwargs = {"channel": c([1, channels, channels + 1]), "w": c([0.25, 0.0, -0.5])}
    elif name == "Dropout":
        kwargs = {"p": c([0.0, 0.5])}
    elif name == "Flatten":
        kwargs = {"start_dim": c([1, 0]), "end_dim": c([-1, 1])}
    return args, kwargs, x


def layer_case(d):
    """("layer", name, args, kwargs, (train, input, salt)): the parameters that no
    ``*_init`` array sets get fixed values made from ``salt``."""
    name = d.r.choice(LAYERS)
    c = d.r.choice
    if name == "Dense":
        cin, cout, bias = c([3, 5]), c([2, 4]), c([False, True])
        args = (cin, cout)
        kwargs = {"has_bias": bias, "activation": c([None, "relu", "tanh", "sigmoid"])}
        if d.r.random() < 0.3:
            kwargs["weight_init"] = tensor(normal(d, (cout, cin)))
        x = normal(d, (c([1, 2]), cin))
    elif name.startswith("Conv") and name not in MORE_LAYERS:
        args, kwargs, x = conv_case(d, name)
    elif name in ("MaxPool2d", "AvgPool2d"):
        args, kwargs, x = pooling_case(d, name)
    elif name in ("BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm"):
        args, kwargs, x = normalization_case(d, name)
    elif name == "Embedding":
        vocab = c([4, 6])
        args, kwargs = (vocab, c([2, 3])), {}
        now_and_then(d, kwargs, {"use_one_hot": [True], "padding_idx": [0, 2, vocab]})
        x = d.rng.integers(0, vocab, c([(3,), (2, 3)])).astype(np.int32)
    elif name == "AdaptiveAvgPool2d":
        args, kwargs = (c([1, 2, (2, 3), (None, 2), 3]),), {}
        x = normal(d, (c([1, 2]), 2, c([4, 5]), c([3, 6])))
    elif name == "Pad":
        paddings = ((0, 0), (0, 0), (c([0, 1, 2]), c([0, 1])), (c([1, 2]), c([0, 1])))
        args, kwargs = (paddings,), {"mode": c(["CONSTANT", "REFLECT", "SYMMETRIC"])}
        x = normal(d, (1, 2, 3, 3))
    elif name in MORE_LAYERS:
        args, kwargs, x = more_layer_case(d, name)
    else:
        args, kwargs, x = activation_case(d, name)
    if name in ("Dense", "Conv2d", "BatchNorm2d") and d.r.random() < 0.1:
        x = np.concatenate([x, x], axis=1)      # one channel or feature count too many
    train = d.r.random() < 0.5 if name in ("BatchNorm1d", "BatchNorm2d", "Dropout") + TRAINED \
        else False
    if name == "Dropout" and train:
        kwargs["p"] = 0.0       # a training-mode dropout is random unless it drops nothing
    return ("layer", name, args, kwargs, (train, tensor(x), d.r.randrange(100)))


def fixed_values(name, shape, salt):
    """A parameter's values, the same in both interpreters (no generator whose stream could
    change between their numpy versions); variances stay positive."""
    size = int(np.prod(shape, dtype=np.int64))
    values = np.sin(np.arange(size) * 1.37 + salt + 3.1 * len(name)) * 1.5
    if "variance" in name:
        values = np.abs(values) + 0.2
    return values.reshape(shape).astype(np.float32)


def output_weights(shape):
    return np.cos(np.arange(int(np.prod(shape, dtype=np.int64))) * 0.71).reshape(
        shape).astype(np.float32)


def run_layer(lib, case, plain, error):
    """The layer's steps: output, gradients by name ("x" the input's), parameters after."""
    _, name, args, kwargs, (train, x, salt) = case
    made = []
    try:
        cell = getattr(lib.nn, name)(*args, **lib.resolve(kwargs))
        given = {key[:-len("_init")] for key in kwargs if key.endswith("_init")}
        for param_name, param in cell.parameters_and_names():
            if param_name not in given:
                param.set_data(lib.Tensor(fixed_values(param_name, param.shape, salt)))
        cell.set_train(train)
        inputs = lib.input(x[1])
        out = cell(inputs)
        made.append(("ok", plain(out)))
        first = out[0] if isinstance(out, tuple) else out
        weights = lib.input(output_weights(tuple(first.shape)))
        trainable = cell.trainable_params()
        position = 0 if x[1].dtype.kind == "f" else None
        if position is not None or trainable:
            def weighted_sum(value):
                result = cell(value)
                return ((result[0] if isinstance(result, tuple) else result) * weights).sum()
            _, grads = lib.value_and_grad(weighted_sum, position, trainable or None)(inputs)
            # by attribute path (a lone PReLU's Parameter is named "a" in MindSpore)
            path = {id(p): key for key, p in cell.parameters_and_names()}
            names = ["x"] * (position is not None) + [path[id(p)] for p in trainable]
            if position is not None and trainable:
                grads = (grads[0],) + tuple(grads[1])
            elif position is not None:
                grads = (grads,)
            made.append(("ok", ("dict", {key: plain(g) for key, g in zip(names, grads)})))
        made.append(("ok", ("dict", {key: plain(p) for key, p in cell.parameters_and_names()})))
    except Exception as exc:         # an outcome to compare, like a value
        made.append(error(exc))
    return made


def learning_rate(d, steps, wrong):
    """A float (an int or a negative one if ``wrong``), a list or 1-D array with a rate per
    step (one short now and then), or a LearningRateSchedule's name and arguments."""
    c = d.r.choice
    kind = c(["float", "float", "list", "array", "schedule"])
    if kind == "float":
        return c([0.1, 0.01, 0.5, 0.0] + [-0.1, 1] * wrong)
    if kind == "schedule":
        return ("schedule", c(SCHEDULES))
    rates = [round(d.r.uniform(0.0, 0.2), 3) for _ in range(steps + c([0, 0, 0, -1, 2]))]
    return rates if kind == "list" else tensor(np.array(rates, np.float32))


HYPERPARAMETERS = {     # name: {argument: values, the last ones wrong}
    "SGD": {"momentum": [0.0, 0.9, 0.5, -0.1], "dampening": [0.0, 0.1, -0.5],
            "nesterov": [False, True, 1]},
    "Momentum": {"use_nesterov": [False, True, 1]},
    "Adam": {"beta1": [0.9, 0.5, 1.0], "beta2": [0.999, 0.9, 0.0], "eps": [1e-8, 1e-3, 0],
             "use_nesterov": [False, True, 1], "use_amsgrad": [False, True, 1]},
    "AdamWeightDecay": {"beta1": [0.9, 0.5, 1], "beta2": [0.999, 0.9, 0.0],
                        "eps": [1e-6, 1e-3, 0.0]},
    "RMSProp": {"decay": [0.9, 0.5, -0.5], "momentum": [0.0, 0.9, -1.0],
                "epsilon": [1e-10, 1e-3, 0.0], "centered": [False, True, 1]},
    "Adagrad": {"accum": [0.1, 1.0, -0.1], "update_slots": [True, False, 1]},
    "AdaMax": {"beta1": [0.9, 0.5, 1.0], "beta2": [0.999, 0.9, 1], "eps": [1e-8, 1e-3, 0.0]},
    "Adadelta": {"rho": [0.9, 0.5, 1.5], "epsilon": [1e-6, 1e-3, -1.0]},
    "Lamb": {"beta1": [0.9, 0.5, 0.0], "beta2": [0.999, 0.9, 1], "eps": [1e-6, 1e-3, 0.0]},
    "LARS": {"epsilon": [1e-5, 1e-3, 1], "coefficient": [0.001, 0.02, 1],
             "use_clip": [False, True, 1]},
    "Rprop": {"etas": [(0.5, 1.2), (0.3, 1.5), (1.2, 0.5), [0.5, 1.2]],
              "step_sizes": [(1e-6, 50.0), (0.01, 0.2), (1, 50.0), (0.2, 0.01)]},
    "ASGD": {"lambd": [1e-4, 0.01, 1], "alpha": [0.75, 0.5, 1], "t0": [1e6, 2.0, 1]},
    "FTRL": {"initial_accum": [0.1, 1.0, -0.1], "lr_power": [-0.5, -0.3, 0.5],
             "l1": [0.0, 0.01, -1.0], "l2": [0.0, 0.1, 1], "use_locking": [False, 1]},
    "ProximalAdagrad": {"accum": [0.1, 1.0, -0.1], "l1": [0.0, 0.01, 1], "l2": [0.0, 0.1, -0.1]},
    "LazyAdam": {"beta1": [0.9, 0.5, 1.0], "beta2": [0.999, 0.9, 0.0], "eps": [1e-8, 1e-3, 0],
                 "use_nesterov": [False, True, 1]},
    "AdamOffload": {"beta1": [0.9, 0.5, 1.0], "eps": [1e-8, 1e-3, 0.0],
                    "use_nesterov": [False, True, 1]},
    "AdaFactor": {"eps": [(1e-30, 1e-3), (1e-20, 0.01), (1e-30,)],
                  "clip_threshold": [1.0, 0.5, 1], "decay_rate": [0.8, 0.5, 1.0],
                  "beta1": [0.9, 0.0, -0.5],
                  "scale_parameter": [True, False, 1], "warmup_init": [False, True]},
}
NO_LOSS_SCALE = ("AdamWeightDecay", "Lamb", "LARS", "Rprop", "ASGD")
# the optimizers LARS wraps in these cases
LARS_WRAPPED = ["Momentum", "SGD", "Adam", "AdamWeightDecay"]


def hyperparameters(d, kwargs, name, wrong):
    """Each of the optimizer's hyperparameters now and then (a wrong value if ``wrong``)."""
    for argument, values in HYPERPARAMETERS[name].items():
        if d.r.random() < 0.5:
            kwargs[argument] = d.r.choice(values if wrong else values[:-1])


def optimizer_case(d):
    """("optimizer", name, (), kwargs, (parameters, groups, gradients per step)): parameters
    as [(name, array)], groups as MindSpore's dicts naming them (or None)."""
    c = d.r.choice
    name = c(OPTIMIZERS)
    names = d.r.sample(PARAMETER_NAMES, c([1, 2, 3]))
    shapes = [c(PARAMETER_SHAPES) for _ in names]
    params = [(key, normal(d, shape)) for key, shape in zip(names, shapes)]
    steps = d.r.randint(2, 5)
    wrong = d.r.random() < 0.15
    kwargs = {"learning_rate": learning_rate(d, steps, wrong)}
    if name == "FTRL" and not wrong:    # (a fixed float rate > 0, else refused)
        kwargs["learning_rate"] = c([0.1, 0.01, 0.5])
    if name == "AdaFactor" and d.r.random() < 0.6:      # its own relative step (no rate)
        kwargs = {}
    elif name == "AdaFactor":
        kwargs["relative_step"] = False
    wrapped = c(LARS_WRAPPED) if name == "LARS" else name
    if wrapped == "Momentum":
        kwargs["momentum"] = c([0.9, 0.0, 0.5] + [-0.1] * wrong)
    hyperparameters(d, kwargs, wrapped, wrong)
    if d.r.random() < 0.5:
        kwargs["weight_decay"] = c([0.01, 0.1, ("schedule", SCHEDULES[0])] + [-0.1] * wrong)
    if wrapped not in NO_LOSS_SCALE and d.r.random() < 0.3:
        kwargs["loss_scale"] = c([2.0, 128.0, 0.0] if wrong else [2.0, 128.0])
    if wrapped == "SGD" and kwargs.get("nesterov") is True and not wrong:
        kwargs.update(momentum=0.9, dampening=0.0)     # (else refused)
    if name == "LARS":      # the wrapped optimizer's arguments inside LARS's
        kwargs = {"optimizer": (wrapped, kwargs)}
        hyperparameters(d, kwargs, name, wrong)
    rate = raw_rates(kwargs.get("learning_rate"))     # (group lists as long, but if wrong)
    length = len(rate) if rate is not None else steps + (d.r.random() < 0.1)
    groups = parameter_groups(d, names, length, wrong) if d.r.random() < 0.45 else None
    # the gradients in the optimizer's order of the parameters (order_params' where given)
    order = groups[-1]["order_params"] if groups and "order_params" in groups[-1] else names
    if len(order) != len(names) or set(order) != set(names):
        order = names       # (a wrong order_params is refused before any step)
    grads = [[normal(d, shapes[names.index(key)]) for key in order] for _ in range(steps)]
    return ("optimizer", name, (), kwargs, (params, groups, grads))


def raw_rates(rate):
    """A drawn per-step list of rates (a list, or a Tensor's array), or None."""
    rate = rate[1] if is_tensor(rate) else rate
    return rate if isinstance(rate, (list, np.ndarray)) else None


def parameter_groups(d, names, length, wrong):
    """1-3 groups over ``names`` (MindSpore's dicts, parameters by name), each with an 'lr'
    (fixed, a list of ``length`` rates, a Tensor of them, a schedule), a 'weight_decay' (a float
    or a schedule) and 'grad_centralization' now and then, and an 'order_params' entry now and
    then; with ``wrong`` some value MindSpore refuses (a list of another length, a negative
    rate or decay, an int flag, an order that leaves a parameter out)."""
    c = d.r.choice
    cuts = sorted(d.r.sample(range(1, len(names)), min(len(names) - 1, c([0, 1, 2]))))
    bounds = [0] + cuts + [len(names)]
    groups = [{"params": names[start:end]} for start, end in zip(bounds, bounds[1:])]
    for group in groups:
        if d.r.random() < 0.5:
            rates = [round(d.r.uniform(0.0, 0.2), 3) for _ in range(
                length + (c([-1, 1]) if wrong and d.r.random() < 0.3 else 0))]
            group["lr"] = c([c([0.05, 0.2, 0.0, 1] + [-0.1] * wrong), rates,
                             tensor(np.array(rates, np.float32)), ("schedule", c(SCHEDULES))])
        if d.r.random() < 0.5:
            group["weight_decay"] = c([0.0, 0.05, 0.01, 1, ("schedule", SCHEDULES[0])] +
                                      [-0.1] * wrong)
        if d.r.random() < 0.3:
            group["grad_centralization"] = c([True, False] + [1] * wrong)
    if d.r.random() < 0.4:
        order = d.r.sample(names, len(names))
        groups.append({"order_params": order[1:] if wrong and len(order) > 1 else order})
    return groups


# what MindSpore's optimizers keep as Parameters and this package as attributes (README): SGD's
# first-step flags, the momentum, and AdaFactor's placeholder first moment without beta1 (an
# unnamed "Parameter$1" in MindSpore)
HELD_APART = ("stat.", "momentum", "Parameter")


def is_schedule(value):
    """Whether a drawn value is a schedule's ("schedule", (name, arguments))."""
    return isinstance(value, tuple) and len(value) == 2 and value[0] == "schedule"


def with_schedule(lib, values):
    """``values`` (a dict of arguments or a group) with each drawn schedule's name and
    arguments made the library's schedule."""
    for key, value in values.items():
        if is_schedule(value):
            values[key] = getattr(lib.nn, value[1][0])(*value[1][1])
    return values


def run_optimizer(lib, case, plain, error):
    """Every parameter and optimizer state by name after each call (up to the first that
    raises)."""
    _, name, _, kwargs, (params, groups, grads) = case
    made = []
    try:
        by_name = {key: lib.Parameter(lib.Tensor(value), name=key) for key, value in params}
        chosen = list(by_name.values()) if groups is None else [
            with_schedule(lib, {key: [by_name[n] for n in value] if key in (
                "params", "order_params") else lib.resolve(value) for key, value in group.items()})
            for group in groups]
        kwargs = with_schedule(lib, lib.resolve(kwargs))
        if name == "LARS":
            wrapped, inner = kwargs.pop("optimizer")
            optimizer = lib.nn.LARS(getattr(lib.nn, wrapped)(chosen, **with_schedule(lib, inner)),
                                    **kwargs)
        else:
            optimizer = getattr(lib.nn, name)(chosen, **kwargs)
        for step in grads:
            # with group rates each parameter's rate for the step (get_lr() is a float here
            # without them, a Parameter or Tensor in MindSpore: README)
            rates = plain(optimizer.get_lr()) if getattr(optimizer, "is_group_lr", False) \
                else None
            optimizer(tuple(lib.input(g) for g in step))
            values = {key: plain(p) for key, p in by_name.items()}
            # by the states' names (LARS's keys of its wrapped optimizer's start with "opt.")
            values.update((p.name, plain(p)) for _, p in optimizer.parameters_and_names()
                          if not p.name.startswith(HELD_APART))
            if rates is not None:
                values["get_lr()"] = rates
            made.append(("ok", ("dict", values)))
    except Exception as exc:         # an outcome to compare, like a value
        made.append(error(exc))
    return made


def centralizes_a_gradient(case):
    """Whether a group with 'grad_centralization' holds a parameter whose gradient MindSpore
    centralizes (a second dimension of 16) in an optimizer that centralizes."""
    _, name, _, kwargs, (params, groups, _) = case
    wrapped = kwargs["optimizer"][0] if name == "LARS" else name
    if not groups or wrapped in ("AdamWeightDecay", "AdamOffload", "AdaFactor"):
        return False
    shapes = dict((key, value.shape) for key, value in params)
    return any(group.get("grad_centralization") is True and len(shapes[key]) > 1 and
               shapes[key][1] % 16 == 0 for group in groups for key in group.get("params", ()))


def documented_optimizer(case, why):
    """The README's word for an optimizer difference it lists as a deviation, or None."""
    _, name, _, kwargs, (params, groups, _) = case
    theirs_only = "raises RuntimeError in MindSpore only" in why
    decays = [kwargs.get("weight_decay")] + [group.get("weight_decay") for group in groups or ()]
    rules = [
        (name == "ASGD" and any(map(is_schedule, decays)) and
         is_schedule(kwargs.get("learning_rate")) and "largest difference" in why,
         "ASGD's first step moves by the first rate (MindSpore 2.10's does not move when both "
         "the rate and the weight decay are schedules and the decay applies to no parameter: "
         "its eta stays 0)"),
        (name == "RMSProp" and not kwargs.get("centered") and "largest difference" in why and
         any(value.size >= 8 for _, value in params),
         "RMSProp divides by sqrt(mean_square + epsilon) in every element, as documented "
         "(MindSpore 2.10's CPU kernel divides by sqrt(mean_square) + epsilon in each whole "
         "block of 8 elements)"),
        (theirs_only and centralizes_a_gradient(case),
         "grad_centralization runs on the CPU (MindSpore 2.10 has no CPU kernel for "
         "Centralization: RuntimeError)"),
    ]
    return next((word for applies, word in rules if applies), None)
