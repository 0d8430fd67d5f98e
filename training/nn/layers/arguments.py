"""Argument checks in MindSpore 2.10's validator words, shared by the layers added for the
model zoo (image cells, EmbeddingLookup)."""


def positive_float(value, name, cls):
    """`value`, which must be a float above zero (TypeError for another type, ValueError for
    one at or below zero, as MindSpore's check_positive_float)."""
    if not isinstance(value, float):
        raise TypeError(f"For '{cls}', the '{name}' must be float, but got "
                        f"'{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"For '{cls}', the '{name}' must be float and must > 0, but got "
                         f"'{value}' with type 'float'.")
    return value
