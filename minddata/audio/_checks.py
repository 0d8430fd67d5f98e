"""Argument checks with MindSpore's words (its audio validators': "Input NAME is not within the
required interval of [LOW, HIGH].", "Argument NAME with value V is not of type [...]")."""
import numbers

FLOAT_MAX = 16777216
INT32_MAX = 2147483647


def _type_error(value, name, types):
    raise TypeError(f"Argument {name} with value {value!r} is not of type {list(types)}, but "
                    f"got {type(value)}.")


def check_int(value, name, low=None, high=INT32_MAX, low_open=False):
    if isinstance(value, bool) or not isinstance(value, int):
        _type_error(value, name, [int])
    _check_range(value, name, low, high, low_open)
    return value


def check_number(value, name, low=None, high=FLOAT_MAX, low_open=False):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        _type_error(value, name, [int, float])
    _check_range(value, name, low, high, low_open)
    return float(value)


def check_float(value, name, low=None, high=FLOAT_MAX, low_open=False):
    if not isinstance(value, float) and not (isinstance(value, numbers.Real) and
                                              not isinstance(value, (bool, int))):
        _type_error(value, name, [float])
    _check_range(value, name, low, high, low_open)
    return float(value)


def check_bool(value, name):
    if not isinstance(value, bool):
        _type_error(value, name, [bool])
    return value


def _check_range(value, name, low, high, low_open):
    if low is None:
        return
    below = value <= low if low_open else value < low
    if below or (high is not None and value > high):
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"{'(' if low_open else '['}{low}, {high}].")


def check_enum(value, enum_type, name):
    if not isinstance(value, enum_type):
        _type_error(value, name, [enum_type])
    return value
