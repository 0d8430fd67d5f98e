"""mindspore.numpy's comparisons, logic and tests (bool results, no gradients)."""
import numpy as np

from training.numpy._core import as_tensor, dtype_of, new_tensor, operands, shape_of
from training.ops import array_kernels as K
from training.ops import functional as F


def _compare(name, compute):
    def function(x1, x2):
        x1, x2 = operands(name, x1, x2)
        return compute(x1, x2)
    function.__name__ = function.__qualname__ = name
    return function


def _as_bool_tensors(name, x1, x2):
    """Logical ops take numbers of any type: each operand a tensor."""
    return [as_tensor(v, name) for v in operands(name, x1, x2)]


equal = _compare("equal", F.equal)
not_equal = _compare("not_equal", F.not_equal)
less = _compare("less", F.less)
less_equal = _compare("less_equal", F.less_equal)
greater = _compare("greater", F.greater)
greater_equal = _compare("greater_equal", F.greater_equal)
logical_and = _compare("logical_and", lambda x1, x2: F.logical_and(
    *_as_bool_tensors("logical_and", x1, x2)))
logical_or = _compare("logical_or", lambda x1, x2: F.logical_or(
    *_as_bool_tensors("logical_or", x1, x2)))
logical_xor = _compare("logical_xor", lambda x1, x2: F.logical_xor(
    *_as_bool_tensors("logical_xor", x1, x2)))


def _test(name, compute):
    def function(x):
        return compute(as_tensor(x, name))
    function.__name__ = function.__qualname__ = name
    return function


logical_not = _test("logical_not", F.logical_not)
isnan = _test("isnan", F.isnan)
isfinite = _test("isfinite", F.isfinite)
isinf = _test("isinf", lambda x: F.isinf(x) if dtype_of(x).kind == "f" else
              F.zeros_like(x, dtype=np.bool_))
isposinf = _test("isposinf", lambda x: F.logical_and(isinf(x), F.greater(x, 0)))
isneginf = _test("isneginf", lambda x: F.logical_and(isinf(x), F.less(x, 0)))
signbit = _test("signbit", lambda x: new_tensor(np.signbit(K.host_array(x)), x))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b|, of two tensors of one type."""
    a, b = (as_tensor(v, "isclose") for v in operands("isclose", a, b))
    if dtype_of(a) != dtype_of(b):
        raise TypeError(f"For 'isclose', the two inputs must have one type, but got "
                        f"{dtype_of(a)} and {dtype_of(b)}")
    x, y = K.host_array(a), K.host_array(b)
    with np.errstate(all="ignore"):
        close = np.isclose(x, y, rtol, atol, equal_nan)
    return new_tensor(close, a)


def array_equal(a1, a2, equal_nan=False):
    """A 0-d bool tensor: the same shape and values."""
    a1, a2 = (as_tensor(v, "array_equal") for v in (a1, a2))
    same = shape_of(a1) == shape_of(a2) and np.array_equal(K.host_array(a1), K.host_array(a2),
                                                           equal_nan=equal_nan)
    return new_tensor(np.asarray(same), a1)


def array_equiv(a1, a2):
    """A 0-d bool tensor: the shapes broadcast and the values are equal."""
    a1, a2 = (as_tensor(v, "array_equiv") for v in (a1, a2))
    try:
        same = bool(np.all(np.equal(K.host_array(a1), K.host_array(a2))))
    except ValueError:
        same = False
    return new_tensor(np.asarray(same), a1)


def in1d(ar1, ar2, invert=False):
    """Whether each element of the flattened ar1 is in ar2."""
    ar1, ar2 = (as_tensor(v, "in1d") for v in (ar1, ar2))
    return new_tensor(np.isin(K.host_array(ar1).ravel(), K.host_array(ar2), invert=invert), ar1)


def isin(element, test_elements, invert=False):
    element, test_elements = (as_tensor(v, "isin") for v in (element, test_elements))
    return new_tensor(np.isin(K.host_array(element), K.host_array(test_elements),
                              invert=invert), element)


__all__ = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
           "logical_and", "logical_or", "logical_xor", "logical_not", "isnan", "isfinite",
           "isinf", "isposinf", "isneginf", "signbit", "isclose", "array_equal", "array_equiv",
           "in1d", "isin"]
