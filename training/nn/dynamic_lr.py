"""`mindspore.nn.dynamic_lr`: learning-rate lists, one value per step, by MindSpore's formulas.
`current_epoch` is floor(step / step_per_epoch)."""
import math


def _positive_int(value, name, api):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{api}', '{name}' must be an int, but got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"For '{api}', '{name}' must be a positive int, but got {value}")


def _number(value, name, api, minimum=None, strict=False):
    """A rate: a Python float (MindSpore 2.10 refuses ints with TypeError), finite, at least
    (above, when ``strict``) ``minimum``."""
    if not isinstance(value, float):
        raise TypeError(f"For '{api}', '{name}' must be float, but got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"For '{api}', '{name}' must be a legal value, but got {value}")
    if minimum is not None and (value <= minimum if strict else value < minimum):
        raise ValueError(f"For '{api}', '{name}' must be {'>' if strict else '>='} {minimum}, "
                         f"but got {value}")


def _boolean(value, name, api):
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', '{name}' must be bool, but got {type(value).__name__}")


def _check_decay(api, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                 is_stair):
    # MindSpore's order: the counts, then the rates (what raises first when both are wrong)
    for name, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch),
                        ("decay_epoch", decay_epoch)):
        _positive_int(value, name, api)
    _number(learning_rate, "learning_rate", api, 0, strict=True)
    _number(decay_rate, "decay_rate", api, 0, strict=True)
    _boolean(is_stair, "is_stair", api)


def _progress(total_step, step_per_epoch, decay_epoch, is_stair):
    """current_epoch / decay_epoch for each step (floored when is_stair)."""
    for i in range(total_step):
        p = math.floor(i / step_per_epoch) / decay_epoch
        yield math.floor(p) if is_stair else p


def piecewise_constant_lr(milestone, learning_rates):
    """learning_rates[j] for the steps before milestone[j]; milestone[-1] steps in all."""
    if not isinstance(milestone, (list, tuple)) or not isinstance(learning_rates, (list, tuple)):
        raise TypeError("For 'piecewise_constant_lr', 'milestone' and 'learning_rates' must be "
                        "lists")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', 'milestone' ({len(milestone)}) and "
                         f"'learning_rates' ({len(learning_rates)}) must have the same length")
    previous = 0
    lr = []
    for step, rate in zip(milestone, learning_rates):
        _positive_int(step, "milestone", "piecewise_constant_lr")
        _number(rate, "learning_rates", "piecewise_constant_lr")
        if step < previous:     # a repeated milestone adds no step, as in MindSpore
            raise ValueError(f"For 'piecewise_constant_lr', 'milestone' must not decrease, but "
                             f"got {list(milestone)}")
        lr += [rate] * (step - previous)
        previous = step
    return lr


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """learning_rate * decay_rate ** (current_epoch / decay_epoch) (floored when is_stair)."""
    _check_decay("exponential_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch,
                 decay_epoch, is_stair)
    return [learning_rate * decay_rate ** p
            for p in _progress(total_step, step_per_epoch, decay_epoch, is_stair)]


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """learning_rate * e ** (-decay_rate * current_epoch); with is_stair, current_epoch is
    floor(current_epoch / decay_epoch) * decay_epoch."""
    _check_decay("natural_exp_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch,
                 decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        lr.append(learning_rate * math.e ** (-decay_rate * epoch))
    return lr


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False):
    """learning_rate / (1 + decay_rate * current_epoch / decay_epoch) (floored when is_stair)."""
    _check_decay("inverse_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch,
                 decay_epoch, is_stair)
    return [learning_rate / (1 + decay_rate * p)
            for p in _progress(total_step, step_per_epoch, decay_epoch, is_stair)]


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """min_lr + (max_lr - min_lr) / 2 * (1 + cos(pi * min(current_epoch, decay_epoch) /
    decay_epoch))."""
    api = "cosine_decay_lr"
    _number(min_lr, "min_lr", api, 0)
    _number(max_lr, "max_lr", api, 0, strict=True)
    if min_lr >= max_lr:
        raise ValueError(f"For '{api}', 'max_lr' must be greater than 'min_lr', but got "
                         f"max_lr={max_lr}, min_lr={min_lr}")
    for name, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch),
                        ("decay_epoch", decay_epoch)):
        _positive_int(value, name, api)
    delta = 0.5 * (max_lr - min_lr)
    return [min_lr + delta * (1 + math.cos(math.pi * min(math.floor(i / step_per_epoch),
                                                         decay_epoch) / decay_epoch))
            for i in range(total_step)]


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch,
                        decay_epoch, power, update_decay_epoch=False):
    """(learning_rate - end_learning_rate) * (1 - epoch / decay) ** power + end_learning_rate,
    epoch = min(current_epoch, decay_epoch); with update_decay_epoch, epoch = current_epoch and
    decay = decay_epoch * max(ceil(current_epoch / decay_epoch), 1)."""
    api = "polynomial_decay_lr"
    _number(learning_rate, "learning_rate", api, 0, strict=True)
    _number(end_learning_rate, "end_learning_rate", api, 0)
    _number(power, "power", api, 0, strict=True)
    for name, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch),
                        ("decay_epoch", decay_epoch)):
        _positive_int(value, name, api)
    _boolean(update_decay_epoch, "update_decay_epoch", api)
    delta = learning_rate - end_learning_rate
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        decay = decay_epoch
        if update_decay_epoch:
            decay = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            epoch = min(epoch, decay_epoch)
        lr.append(delta * (1 - epoch / decay) ** power + end_learning_rate)
    return lr


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """learning_rate * min(current_epoch, warmup_epoch) / warmup_epoch."""
    api = "warmup_lr"
    _number(learning_rate, "learning_rate", api, 0)
    for name, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch),
                        ("warmup_epoch", warmup_epoch)):
        _positive_int(value, name, api)
    return [learning_rate * min(math.floor(i / step_per_epoch), warmup_epoch) / warmup_epoch
            for i in range(total_step)]
