"""The rules for operations whose output a cache stores: never a random operation (such rows
would freeze one epoch's random draws and replay them every epoch, silently changing
training), and only operations whose code and state can be fingerprinted (identity.py), so
that a changed operation can never be served the rows of the old one."""
from .identity import describe_operation, refuse_unidentified


def _is_random(op):
    flag = getattr(op, "is_random", False)
    if callable(flag):
        flag = flag()
    return bool(flag)


def _op_name(op):
    name = getattr(op, "name", None)
    if isinstance(name, str) and name:
        return name
    return type(op).__name__ if not isinstance(op, type) else op.__name__


def assert_cacheable(operations):
    """Raise RuntimeError naming the first random operation in ``operations`` (one op or a
    list; fused plans and nested lists such as Compose's are looked into), or naming an
    operation that cannot be fingerprinted."""
    ops = operations if isinstance(operations, (list, tuple)) else [operations]
    _assert_not_random(ops)
    refuse_unidentified(",".join(describe_operation(op) for op in ops))


def _assert_not_random(ops):
    for op in ops:
        # Compose-like containers (transforms/operations) and fused plans (ops): name the
        # random op inside rather than the container.
        inner = (getattr(op, "transforms", None) or getattr(op, "operations", None)
                 or getattr(op, "ops", None))
        if isinstance(inner, (list, tuple)) and inner:
            _assert_not_random(inner)
        if _is_random(op):
            raise RuntimeError(
                f"DatasetCache cannot cache the output of the random operation {_op_name(op)}: "
                "cached rows would repeat the same random result every epoch. Put the cache "
                "before the random operation (e.g. on the source or on a map of deterministic "
                "operations) or remove cache=.")
