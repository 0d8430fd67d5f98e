"""Argument checks with MindSpore's error types: a wrong type raises TypeError, a value out of
range raises ValueError, and both name the argument. bool is refused where an int is expected
(bool is a subclass of int in Python, but ``DatasetCache(True)`` is almost surely a mistake)."""

UINT32_MAX = 2**32 - 1
INT32_MAX = 2**31 - 1
UINT64_MAX = 2**64 - 1


def check_type(value, types, name):
    if isinstance(value, bool) and bool not in types:
        raise TypeError(f"Argument {name} with value {value!r} is not of type "
                        f"{[t.__name__ for t in types]}, but got {type(value).__name__}.")
    if not isinstance(value, types):
        raise TypeError(f"Argument {name} with value {value!r} is not of type "
                        f"{[t.__name__ for t in types]}, but got {type(value).__name__}.")


def check_int_range(value, low, high, name):
    check_type(value, (int,), name)
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}], "
                         f"got {value}.")


def check_pos_uint32(value, name):
    check_int_range(value, 1, UINT32_MAX, name)


def check_pos_int32(value, name):
    check_int_range(value, 1, INT32_MAX, name)


def check_pos_uint64(value, name):
    check_int_range(value, 1, UINT64_MAX, name)
