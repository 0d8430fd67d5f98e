"""Argument checks of the optimizers in MindSpore's words (its validator's messages, measured in
2.10), so a ported script's wrong hyperparameter fails with MindSpore's error type and text."""


def check_float(cls_name, name, value):
    """A float argument: an int (or bool) is a TypeError, as in MindSpore."""
    if not isinstance(value, float):
        raise TypeError(f"For '{cls_name}', the type of '{name}' should be 'float', but got type "
                        f"'{type(value).__name__}'.")
    return value


def check_open_unit(cls_name, name, value, closed=False):
    """A float in (0, 1), or in [0, 1] when ``closed``."""
    check_float(cls_name, name, value)
    inside = 0.0 <= value <= 1.0 if closed else 0.0 < value < 1.0
    if not inside:
        interval = "[0.0, 1.0]" if closed else "(0.0, 1.0)"
        raise ValueError(f"For '{cls_name}', the '{name}' must be in range of {interval}, but got "
                         f"{value} with type 'float'.")
    return value


def check_positive(cls_name, name, value, allow_zero=False):
    """A float > 0 (>= 0 when ``allow_zero``)."""
    check_float(cls_name, name, value)
    if value < 0 or value == 0 and not allow_zero:
        raise ValueError(f"For '{cls_name}', the '{name}' must be float and must "
                         f"{'>=' if allow_zero else '>'} 0, but got '{value}' with type 'float'.")
    return value


def check_betas(cls_name, beta1, beta2, eps):
    """beta1 and beta2 floats in (0, 1), eps a float > 0 (the Adam family, AdaMax, Lamb): the types
    first, then the values, as MindSpore checks them."""
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        check_float(cls_name, name, value)
    check_open_unit(cls_name, "beta1", beta1)
    check_open_unit(cls_name, "beta2", beta2)
    check_positive(cls_name, "eps", eps)
