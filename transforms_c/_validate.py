"""Argument checks shared by the op constructors: MindSpore's error types (TypeError for a wrong
type, ValueError for a value out of range), raised at construction, naming the parameter."""
import numbers

INT32_MAX = 2147483647
MAX_SIZE = 16777216


def is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def wrong_type(name, value, *types):
    """MindSpore's type error, word for word ("Argument x with value v is not of type
    [<class 'int'>], but got <class 'str'>."): its suite and ported scripts match on it."""
    shown = '""' if repr(value) == repr("") else value
    # MindSpore lists the types as a tuple when a bool is refused where an int is wanted (its
    # bool check); any other refusal lists them (ErrorSamplesMode, an int enum, included).
    listed = types if isinstance(value, bool) and int in types else list(types)
    return TypeError(f"Argument {name} with value {shown} is not of type {listed}, "
                     f"but got {type(value)}.")


def check_type(value, types, name):
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in _as_tuple(types)):
        raise wrong_type(name, value, *_as_tuple(types))


def _as_tuple(types):
    return types if isinstance(types, tuple) else (types,)


def check_int(value, name, low=None, high=None):
    if not is_int(value):
        raise wrong_type(name, value, int)
    check_range(value, name, low, high)
    return int(value)


def check_float(value, name, low=None, high=None, low_open=False, high_open=False):
    if not is_number(value):
        raise wrong_type(name, value, int, float)
    check_range(value, name, low, high, low_open, high_open)
    return float(value)


def check_number(value, name, low=None, high=None, range_name=None):
    """check_float with the words of MindSpore's newer colour ops: their type error lists float
    first, and some of their range errors name no argument (range_name "")."""
    if not is_number(value):
        raise wrong_type(name, value, float, int)
    check_range(value, name if range_name is None else range_name, low, high)
    return float(value)


def dtype_words(dtype):
    """A numpy dtype as MindSpore's messages name it (text arrays: "bytes", "string")."""
    return {"S": "bytes", "U": "string", "O": "object"}.get(dtype.kind, dtype.name)


def check_range(value, name, low=None, high=None, low_open=False, high_open=False):
    bad = ((low is not None and (value < low or (low_open and value == low))) or
           (high is not None and (value > high or (high_open and value == high))))
    if bad:
        lo = "(" if low_open else "["
        hi = ")" if high_open else "]"
        # MindSpore's sentence, ending "...of [low, high].", then the value given (some of its
        # checks name no argument: name "").
        label = f"{name} " if name else ""
        raise ValueError(f"Input {label}is not within the required interval of "
                         f"{lo}{low}, {high}{hi}. Got {value}.")


def check_bool(value, name):
    if not isinstance(value, bool):
        raise wrong_type(name, value, bool)
    return value


def check_sequence(value, name, length=None, lengths=None, length_error=TypeError):
    """A list or tuple (of ``length`` or one of ``lengths`` items). A wrong length is a
    TypeError, as MindSpore's validators raise for scale/ratio/degrees pairs, kernel sizes,
    coordinates, translate and shear (a few of its checks raise ValueError: ``length_error``)."""
    if not isinstance(value, (list, tuple)):
        raise wrong_type(name, value, list, tuple)
    allowed = lengths if lengths is not None else ((length,) if length is not None else None)
    if allowed is not None and len(value) not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise length_error(f"{name} should be a list or tuple of length {want}.")
    return value


#: MindSpore's sentence for a size that is neither an int nor a pair (a 1-element one too). Its
#: tests compare whole argument-error messages, so the sentences here are its own, exactly.
SIZE_ERROR = "Size should be a single integer or a list/tuple (h, w) of length 2."


def check_size(size, name="size", low=1, high=MAX_SIZE):
    """int or (h, w): each in [low, high] (by default [1, 16777216]), with the words of
    MindSpore's crop size check (its range error names no argument). Returns an int or an
    (h, w) tuple."""
    check_type(size, (int, list, tuple), name)
    if is_int(size):
        check_range(size, "", low, high)
        return int(size)
    if len(size) != 2:
        raise TypeError(SIZE_ERROR)
    for i, value in enumerate(size):
        check_type(value, int, f"{name}[{i}]")
        check_range(value, "", low, high)
    return tuple(int(v) for v in size)


def check_resize_size(size, name="size"):
    """Resize's size with the words of MindSpore's resize size check: an int in
    [1, 16777216], or an (h, w) list/tuple of ints in [1, 2147483647] ("size at dim i")."""
    if is_int(size):
        check_range(size, "", 1, MAX_SIZE)
        return int(size)
    if not isinstance(size, (list, tuple)):
        raise TypeError(SIZE_ERROR)
    if len(size) != 2:
        raise TypeError(SIZE_ERROR)
    return tuple(check_int(v, f"{name} at dim {i}", 1, INT32_MAX) for i, v in enumerate(size))


def check_ints(value, name, length, low=None, high=None):
    """A list or tuple of ``length`` ints in [low, high] -> a tuple of them."""
    check_sequence(value, name, length=length)
    return tuple(check_int(v, name, low, high) for v in value)


def check_values(values, name, low=None, high=None, low_open=False):
    """A non-empty list or tuple of numbers in [low, high] (one per channel) -> a tuple of
    floats."""
    check_sequence(values, name)
    if len(values) == 0:
        raise ValueError(f"{name} should not be empty.")
    return tuple(check_float(v, f"{name}[{i}]", low, high, low_open=low_open)
                 for i, v in enumerate(values))


def check_choice(value, choices, name):
    """One of the strings ``choices``."""
    if not isinstance(value, str):
        raise wrong_type(name, value, str)
    if value not in choices:
        want = " or ".join(repr(c) for c in choices)
        raise ValueError(f"{name} should be {want}, got {value!r}.")
    return value


def size_hw(size):
    """(h, w) for an int or a pair size."""
    return (size, size) if is_int(size) else tuple(size)


def check_range_pair(value, name, low=None, high=None, ordered=True, low_open=False,
                     length_error=TypeError):
    """A (min, max) pair of numbers within [low, high] with min <= max."""
    check_sequence(value, name, length=2, length_error=length_error)
    for v in value:
        check_float(v, name, low, high, low_open=low_open)
    if ordered and value[0] > value[1]:
        raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
    return float(value[0]), float(value[1])


def check_factor_range(value, name, center=1.0, low=0.0, high=None):
    """A single non-negative number f -> (max(low, center - f), center + f); a pair is checked
    within [low, high] (colour factors: brightness, contrast, saturation)."""
    if is_number(value):
        check_float(value, name, 0.0, high)
        return max(low, center - value), center + value
    return check_range_pair(value, name, low, high)


def check_symmetric_range(value, name, bound=None):
    """A single non-negative number d (at most ``bound``) -> (-d, d); a pair is checked within
    [-bound, bound] (rotation degrees, hue shift)."""
    if is_number(value):
        check_float(value, name, 0, bound)
        return -float(value), float(value)
    if bound is None:
        return check_range_pair(value, name)
    return check_range_pair(value, name, -bound, bound)


def check_enum(value, enum_cls, name):
    if not isinstance(value, enum_cls):
        raise wrong_type(name, value, enum_cls)
    return value


def check_fill_value(value, name="fill_value", low=0, high=255):
    """int in [low, high] (by default [0, 255]) or a 3-tuple of them. Returns a tuple of 3
    ints."""
    if is_int(value):
        check_int(value, name, low, high)
        return (int(value),) * 3
    if isinstance(value, tuple) and len(value) == 3:
        return tuple(check_int(v, f"{name}[{i}]", low, high) for i, v in enumerate(value))
    # MindSpore: a list, or a tuple of another length, is a TypeError too
    raise TypeError(f"{name} should be a single integer or a 3-tuple.")


def check_padding(padding, name="padding", low=0, high=INT32_MAX):
    """int, (lr, tb) or (left, top, right, bottom) of ints in [low, high] (by default
    non-negative) -> (l, t, r, b), with MindSpore's words (its range error names a padding
    value "pad_value")."""
    check_type(padding, (tuple, list, numbers.Number), name)
    if not isinstance(padding, (list, tuple)):
        p = check_int(padding, name, low, high)
        return (p, p, p, p)
    if len(padding) not in (2, 4):
        raise ValueError(f"The size of the {name} list or tuple should be 2 or 4.")
    values = [check_int(v, f"{name}[{i}]") for i, v in enumerate(padding)]
    for v in values:
        check_range(v, "pad_value", low, high)
    if len(values) == 2:
        return (values[0], values[1], values[0], values[1])
    return tuple(values)
