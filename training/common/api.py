"""`mindspore.jit` / `ms_function` and friends. MindSpore compiles the decorated function to a
graph; here every function runs eagerly (numpy) or through torch, which computes the same
values, so the decorators return the function unchanged."""


def jit(function=None, *args, **kwargs):
    """`@jit` and `@jit(...)`: the function itself."""
    if function is None or not callable(function):
        return lambda fn: fn
    return function


ms_function = jit


def jit_class(cls):
    return cls


ms_class = jit_class


def mutable(input_data, dynamic_len=False):
    """Marks a value as variable for MindSpore's compiler; eager execution needs no marking."""
    return input_data
