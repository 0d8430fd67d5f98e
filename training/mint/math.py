"""mint's element-wise functions: arithmetic with torch's `alpha` and `rounding_mode`,
comparisons, logic, and the unary functions (training.ops computes them, with MindSpore's type
rules and gradients on both backends)."""
import numpy as np

from training.mint._core import (HALF_SINGLE, cast, dtype_of, float_only, host_array, operand,
                                 supported, tensor_argument, type_name)
from training.ops import functional as ops

# Unary functions whose mint form is training.ops' own (same argument, same type rules).
abs = ops.abs  # noqa: A001
acos = arccos = ops.acos
acosh = arccosh = ops.acosh
asin = arcsin = ops.asin
asinh = arcsinh = ops.asinh
atan = arctan = ops.atan
atanh = arctanh = ops.atanh
ceil = ops.ceil
cos = ops.cos
cosh = ops.cosh
erf = ops.erf
erfc = ops.erfc
exp = ops.exp
expm1 = ops.expm1
floor = ops.floor
isfinite = ops.isfinite
isinf = ops.isinf
isnan = ops.isnan
log = ops.log
log1p = ops.log1p
logical_not = ops.logical_not
neg = negative = ops.neg
reciprocal = ops.reciprocal
rsqrt = ops.rsqrt
sin = ops.sin
sinh = ops.sinh
sqrt = ops.sqrt
square = ops.square
tan = ops.tan
atan2 = arctan2 = ops.atan2
maximum = ops.maximum
minimum = ops.minimum
eq = ops.equal
ne = not_equal = ops.ne
gt = greater = ops.greater
ge = greater_equal = ops.greater_equal
lt = less = ops.less
le = less_equal = ops.less_equal
logical_and = ops.logical_and
logical_or = ops.logical_or
logical_xor = ops.logical_xor
bitwise_and = ops.bitwise_and
bitwise_or = ops.bitwise_or
bitwise_xor = ops.bitwise_xor
remainder = ops.remainder
nan_to_num = ops.nan_to_num
lerp = ops.lerp


def xlogy(input, other):  # noqa: A002
    """An integer or bool tensor beside a Python number is computed in float32 (measured:
    mint.xlogy of bool [True, False] and 2 is float32 [0.693, 0])."""
    if isinstance(other, (bool, int, float)) and hasattr(input, "dtype") and \
            dtype_of(input).kind in "biu":
        input = cast(input, np.float32)
    return ops.xlogy(input, other)


def _scaled(input, other, alpha, op):  # noqa: A002
    """alpha * other; a float alpha needs a float operand (MindSpore 2.10's TypeError, for
    add(int32 tensor, 2, alpha=0.5)); a Python number stays one (int32 + 2 * 2 is int32)."""
    if not isinstance(alpha, (bool, int, float)):
        raise TypeError(f"For '{op}', 'alpha' must be a number, but got {type(alpha).__name__}")
    if isinstance(alpha, float) and not any(
            isinstance(v, float) or hasattr(v, "dtype") and dtype_of(v).kind == "f"
            for v in (input, other)):
        raise TypeError(f"For '{op}', floating alpha need floating input and other")
    if alpha == 1:
        return other
    if isinstance(other, (bool, int, float)):
        return other * alpha
    return ops.mul(other, alpha)


def _in_float_type(input, other):  # noqa: A002
    """A bool or integer tensor beside a float tensor in the float tensor's type, even a 0-d
    one (mint's mul and div: bool (3,) * float64 () is float64, * float16 () float16)."""
    if hasattr(input, "dtype") and hasattr(other, "dtype"):
        kinds = dtype_of(input).kind, dtype_of(other).kind
        if kinds[0] in "biu" and kinds[1] == "f":
            return cast(input, dtype_of(other)), other
        if kinds[1] in "biu" and kinds[0] == "f":
            return input, cast(other, dtype_of(input))
    return input, other


def add(input, other, *, alpha=1):  # noqa: A002
    """input + alpha * other (bool + bool is logical or, as mint's)."""
    input, other = operand(input, "add"), operand(other, "add")
    if alpha == 1 and _bools(input, other):
        return ops.logical_or(input, other)
    return ops.add(input, _scaled(input, other, alpha, "add"))


def sub(input, other, *, alpha=1):  # noqa: A002
    """input - alpha * other (bool - bool is logical xor whatever alpha, as mint's: measured
    sub([True, False], [True, True], alpha=2) is [False, True])."""
    if _bools(input, other):
        return ops.logical_xor(input, other)
    input, other = operand(input, "sub"), operand(other, "sub")
    return ops.sub(input, _scaled(input, other, alpha, "sub"))


def fmod(input, other):  # noqa: A002
    return ops.fmod(*_in_float_type(input, other))


def mul(input, other):  # noqa: A002
    input, other = operand(input, "mul"), operand(other, "mul")
    if _bools(input, other):
        return ops.logical_and(input, other)
    return ops.mul(*_in_float_type(input, other))


def _bools(*values):
    return all(isinstance(v, bool) or hasattr(v, "dtype") and dtype_of(v) == np.bool_
               for v in values) and any(hasattr(v, "dtype") for v in values)


def div(input, other, *, rounding_mode=None):  # noqa: A002
    """True division (integers give float32); 'floor' and 'trunc' round the quotient."""
    input, other = operand(input, "div"), operand(other, "div")
    if rounding_mode is None:
        return ops.div(*_in_float_type(input, other))
    if rounding_mode == "floor":
        return ops.floor_divide(input, other)
    if rounding_mode == "trunc":
        quotient = ops.div(input, other)
        kind = np.result_type(*[dtype_of(v) if hasattr(v, "dtype") else type(v)
                                for v in (input, other)])
        truncated = ops.sign(quotient) * ops.floor(ops.abs(quotient))
        return cast(truncated, kind) if kind.kind in "iu" else truncated
    raise ValueError(f"For 'div', 'rounding_mode' must be None, 'floor' or 'trunc', but got "
                     f"{rounding_mode!r}")


divide = div


def floor_divide(input, other):  # noqa: A002
    return ops.floor_divide(operand(input, "floor_divide"), operand(other, "floor_divide"))


def pow(input, exponent):  # noqa: A001,A002
    """input ** exponent; an integer to a negative integer power is mint's RuntimeError."""
    if hasattr(input, "dtype") and dtype_of(input).kind in "iu" and \
            isinstance(exponent, int) and not isinstance(exponent, bool) and exponent < 0:
        raise RuntimeError("For primitive [PowTensorScalar], Integers to negative integer "
                           "powers are not allowed.")
    return ops.pow(input, exponent)


def float_power(input, exponent):  # noqa: A002
    """In float64, as torch's and mint's."""
    as64 = [cast(v, np.float64) if hasattr(v, "dtype") else float(v) for v in (input, exponent)]
    return ops.pow(*as64)


def clamp(input, min=None, max=None):  # noqa: A001,A002
    if min is None and max is None:
        raise ValueError("For Clamp, at least one of 'min' or 'max' must not be None.")
    return ops.clamp(tensor_argument(input, "clamp"), min, max)


clip = clamp


def round(input, *, decimals=0):  # noqa: A001,A002
    """Half to even; mint's CPU build takes decimals=0 only (RuntimeError otherwise)."""
    if decimals != 0:
        raise RuntimeError(f"For Round only support decimals equal 0, but got decimals "
                           f"equal {decimals}")
    if dtype_of(input) in (np.bool_, np.uint8):     # (measured: its kernel's Init fails)
        raise RuntimeError(f"For 'Round', it does not support the type "
                           f"{type_name(dtype_of(input))}")
    return ops.round(input)


def sign(input):  # noqa: A002
    return ops.sign(supported(input, "Sign", (np.bool_, np.int32, np.int64, np.float16,
                                              np.float32, np.float64)))


def trunc(input):  # noqa: A002
    """Integers and bools unchanged (a copy), as mint's."""
    if dtype_of(input).kind in "biu":
        return ops.identity(input)
    return ops.sign(input) * ops.floor(ops.abs(input))


fix = trunc


def frac(input):  # noqa: A002
    return ops.sub(input, trunc(input))


def log2(input):  # noqa: A002
    return ops.div(ops.log(input), float(np.log(2.0)))


def log10(input):  # noqa: A002
    return ops.div(ops.log(input), float(np.log(10.0)))


def exp2(input):  # noqa: A002
    return ops.pow(2.0, input if dtype_of(input).kind == "f" else cast(input, np.float32))


def sinc(input):  # noqa: A002
    """sin(pi x) / (pi x), 1 at 0."""
    scaled = ops.mul(input if dtype_of(input).kind == "f" else cast(input, np.float32), np.pi)
    safe = ops.where(ops.equal(scaled, 0), ops.ones_like(scaled), scaled)
    return ops.where(ops.equal(scaled, 0), ops.ones_like(scaled), ops.div(ops.sin(safe), safe))


def logaddexp(input, other):  # noqa: A002
    supported(input, "LogAddExp", HALF_SINGLE)
    if hasattr(other, "dtype"):
        supported(other, "LogAddExp", HALF_SINGLE, "other")
    top = ops.maximum(input, other)
    return top + ops.log1p(ops.exp(-ops.abs(ops.sub(input, other))))


def logaddexp2(input, other):  # noqa: A002
    return ops.div(logaddexp(ops.mul(input, float(np.log(2.0))),
                             ops.mul(other, float(np.log(2.0)))), float(np.log(2.0)))


def addcmul(input, tensor1, tensor2, *, value=1):  # noqa: A002
    return ops.addcmul(input, tensor1, tensor2, value)


def addcdiv(input, tensor1, tensor2, *, value=1):  # noqa: A002
    return ops.addcdiv(input, tensor1, tensor2, value)


def bitwise_not(input):  # noqa: A002
    if dtype_of(input) == np.bool_:
        return ops.logical_not(input)
    return ops.sub(ops.neg(input), 1)


def isneginf(input):  # noqa: A002
    return ops.logical_and(ops.isinf(input), ops.less(input, 0))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    if _bools(input, other):        # (mint takes bools: equality)
        input, other = cast(input, np.int32), cast(other, np.int32)
    difference = ops.abs(ops.sub(input, other))
    close = ops.less_equal(difference, atol + rtol * ops.abs(other))
    close = ops.logical_or(close, ops.equal(input, other))
    if equal_nan:
        close = ops.logical_or(close, ops.logical_and(ops.isnan(input), ops.isnan(other)))
    return close


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    return bool(host_array(ops.all(isclose(input, other, rtol, atol, equal_nan))))


def equal(input, other):  # noqa: A002
    """Whether the two tensors have the same shape and elements (a Python bool)."""
    if tuple(input.shape) != tuple(other.shape):
        return False
    return bool(host_array(ops.all(ops.equal(input, other))))


def erfinv(input):  # noqa: A002
    """The inverse error function: Newton steps on erf from a rational start."""
    x = input if dtype_of(input).kind == "f" else cast(input, np.float32)
    w = -ops.log((1.0 - x) * (1.0 + x))
    y = ops.sign(x) * ops.sqrt(ops.sqrt((2 / (np.pi * 0.147) + w / 2) ** 2 - w / 0.147) -
                               (2 / (np.pi * 0.147) + w / 2))
    for _ in range(2):
        y = y - (ops.erf(y) - x) / (2 / np.sqrt(np.pi) * ops.exp(-y * y))
    return y


def tanh(input):  # noqa: A002
    return ops.tanh(float_only(input, "Tanh"))


def sigmoid(input):  # noqa: A002
    return ops.sigmoid(float_only(input, "Sigmoid"))
