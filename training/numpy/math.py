"""mindspore.numpy's element-wise math with its measured type rules (MindSpore 2.10, CPU):
each function casts its input to the type it computes in (`_UNARY_RULES`: sin of an int32
tensor is float32, of a bool one float16; exp of an int32 tensor is a TypeError; ceil gives
float32 for every input), then calls training.ops, so gradients are recorded on numpy-backend
Tensors and torch tensors go to torch."""
import numpy as np

from training.numpy._core import as_tensor, cast, dtype_of, new_tensor, operands
from training.numpy.logic import signbit
from training.ops import array_kernels as K
from training.ops import functional as F
from training.ops.elementwise import real_div, result_dtype

_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)


def _refuse(op, dtype, allowed):
    raise TypeError(f"For '{op}', the input type must be in {allowed}, but got {dtype}")


def _float_only(op, dtype):
    return dtype if dtype.kind == "f" else _refuse(op, dtype, "[float16, float32, float64]")


def _trig(op, dtype):
    """bool -> float16, integers -> float32, floats as they are."""
    return dtype if dtype.kind == "f" else _F16 if dtype.kind == "b" else _F32


def _to_float32(op, dtype):
    return dtype if dtype.kind == "f" else _F32


def _number(op, dtype):
    return dtype if dtype.kind != "b" else _refuse(op, dtype, "[int, uint, float]")


def _any(op, dtype):
    return dtype


def _integer(op, dtype):
    return dtype if dtype.kind in "iu" else _refuse(op, dtype, "[int8, ..., uint64]")


def _unary(name, compute, rule):
    """`compute(tensor)` after casting the array_like input to the type `rule` gives."""
    def function(x):
        x = as_tensor(x, name)
        return compute(cast(x, rule(name, dtype_of(x))))
    function.__name__ = function.__qualname__ = name
    return function


_LN10, _LN2 = float(np.log(10.0)), float(np.log(2.0))
absolute = _unary("absolute", F.abs, _any)
fabs = _unary("fabs", F.abs, _any)
negative = _unary("negative", F.neg, _number)
positive = _unary("positive", F.identity, _number)
sqrt = _unary("sqrt", F.sqrt, _to_float32)
square = _unary("square", F.square, _number)
exp = _unary("exp", F.exp, _float_only)
expm1 = _unary("expm1", F.expm1, _float_only)
log = _unary("log", F.log, _float_only)
log1p = _unary("log1p", F.log1p, _float_only)
log10 = _unary("log10", lambda x: F.log(x) * (1 / _LN10), _float_only)
log2 = _unary("log2", lambda x: F.log(x) * (1 / _LN2), _float_only)
floor = _unary("floor", F.floor, _float_only)
rint = _unary("rint", F.round, _float_only)
sin = _unary("sin", F.sin, _trig)
cos = _unary("cos", F.cos, _trig)
tan = _unary("tan", F.tan, _trig)
arcsin = _unary("arcsin", F.asin, _trig)
arccos = _unary("arccos", F.acos, _trig)
arctan = _unary("arctan", F.atan, _trig)
sinh = _unary("sinh", F.sinh, _trig)
cosh = _unary("cosh", F.cosh, _trig)
tanh = _unary("tanh", F.tanh, _trig)
arcsinh = _unary("arcsinh", F.asinh, _trig)
arccosh = _unary("arccosh", F.acosh, _trig)
arctanh = _unary("arctanh", F.atanh, _trig)
deg2rad = _unary("deg2rad", lambda x: x * float(np.pi / 180), _to_float32)
radians = _unary("radians", lambda x: x * float(np.pi / 180), _to_float32)
rad2deg = _unary("rad2deg", lambda x: x * float(180 / np.pi), _to_float32)
invert = _unary("invert", lambda x: F.bitwise_xor(x, F.full_like(x, -1)), _integer)
bitwise_not = invert
# every input in float32 (float64 too), as measured
ceil = _unary("ceil", F.ceil, lambda op, dtype: _F32)
# float16 stays, every other input float32
trunc = _unary("trunc", lambda x: F.sign(x) * F.floor(F.abs(x)),
               lambda op, dtype: _F16 if dtype == _F16 else _F32)
fix = _unary("fix", lambda x: F.sign(x) * F.floor(F.abs(x)),
             lambda op, dtype: _F16 if dtype == _F16 else _F32)
cbrt = _unary("cbrt", lambda x: F.sign(x) * F.pow(F.abs(x), 1.0 / 3),
              lambda op, dtype: dtype if dtype == np.float64 else _F32)
sign = _unary("sign", F.sign, lambda op, dtype: _number(op, dtype) if dtype.kind == "f"
              else _F32 if dtype.kind != "b" else _number(op, dtype))
# integers keep their type (1 / 2 is 0), bools become int64
reciprocal = _unary("reciprocal", lambda x: real_div(1, x) if dtype_of(x).kind != "f"
                    else F.reciprocal(x), lambda op, dtype: np.dtype(np.int64)
                    if dtype.kind == "b" else dtype)
abs = absolute  # noqa: A001  (numpy's name)


def around(a, decimals=0):
    """Half to even; integers stay, bools are refused (RuntimeError, as MindSpore's)."""
    a = as_tensor(a, "around")
    if dtype_of(a).kind == "b":
        raise RuntimeError("For 'Round', it does not support this kernel type: bool")
    return F.round(a, decimals=decimals) if dtype_of(a).kind == "f" else F.identity(a)


round = around  # noqa: A001


def exp2(x):
    """2 ** x: integers stay integers, bools become int64."""
    (x,) = operands("exp2", x)
    return F.pow(2, x)


# --- two inputs ------------------------------------------------------------------------------
def _binary(name, compute, rule=None):
    """`compute(x1, x2)` of the array_like inputs; `rule(op, dtype)` gives the type the two
    (of result type dtype, MindSpore's rules) are computed in."""
    def function(x1, x2):
        x1, x2 = operands(name, x1, x2)
        # both in the result type: training.ops' mul and div would count a 0-d float tensor
        # as a Python float (not widening), mindspore.numpy's do not
        dtype = result_dtype([x1, x2], name)
        dtype = dtype if rule is None else rule(name, dtype)
        return compute(cast(x1, dtype), cast(x2, dtype))
    function.__name__ = function.__qualname__ = name
    return function


def _division(op, dtype):
    """Integers and bools in float32 (MindSpore 2.10 also gives float32 for two float64
    tensors, or float64 with an integer: a deviation documented, float64 stays here)."""
    return _to_float32(op, dtype)


def _no_bool(op, dtype):
    return _number(op, dtype)


def _floats(op, dtype):
    return _float_only(op, dtype)


def _logaddexp(x1, x2, log_, exp_):
    top = F.maximum(x1, x2)
    top = F.stop_gradient(F.where(F.isfinite(top), top, F.zeros_like(top)))
    return log_(exp_(x1 - top) + exp_(x2 - top)) + top


add = _binary("add", F.add)
subtract = _binary("subtract", F.sub)
multiply = _binary("multiply", F.mul)
divide = _binary("divide", F.div, _division)
true_divide = _binary("true_divide", F.div, _division)
floor_divide = _binary("floor_divide", F.floor_divide)
power = _binary("power", F.pow)
float_power = _binary("float_power", F.pow, lambda op, dtype: _F32)
remainder = _binary("remainder", F.remainder)
mod = _binary("mod", F.remainder)
fmod = _binary("fmod", F.fmod)
maximum = _binary("maximum", F.maximum)
minimum = _binary("minimum", F.minimum, _no_bool)


def arctan2(x1, x2):
    """Each operand in the type sin would compute it in (bool float16, integers float32),
    then both in their common type: float16 with int64 gives float32, as MindSpore's."""
    x1, x2 = (cast(v, _trig("arctan2", dtype_of(v))) for v in operands("arctan2", x1, x2))
    dtype = result_dtype([x1, x2], "arctan2")
    return F.atan2(cast(x1, dtype), cast(x2, dtype))


hypot = _binary("hypot", lambda x1, x2: F.sqrt(x1 * x1 + x2 * x2),
                lambda op, dtype: _to_float32(op, _no_bool(op, dtype)))
heaviside = _binary("heaviside", lambda x1, x2: F.where(
    F.less(x1, 0), F.zeros_like(x1), F.where(F.greater(x1, 0), F.ones_like(x1), x2)), _any)
logaddexp = _binary("logaddexp", lambda x1, x2: _logaddexp(x1, x2, F.log, F.exp), _floats)
logaddexp2 = _binary("logaddexp2", lambda x1, x2: _logaddexp(
    x1, x2, lambda v: F.log(v) * (1 / _LN2), lambda v: F.pow(2, v)), _floats)
bitwise_and = _binary("bitwise_and", F.bitwise_and)
bitwise_or = _binary("bitwise_or", F.bitwise_or)
bitwise_xor = _binary("bitwise_xor", F.bitwise_xor)


def copysign(x1, x2):
    """|x1| with x2's sign, in x1's type (MindSpore's: an integer x1 stays integer)."""
    x1, x2 = operands("copysign", x1, x2)
    x1 = as_tensor(x1, "copysign")
    if dtype_of(x1).kind == "b":
        _refuse("copysign", dtype_of(x1), "[int, uint, float]")
    magnitude = F.abs(x1)
    negative_ = signbit(x2)         # (-0.0 counts as negative, as numpy's)
    shape = np.broadcast_shapes(tuple(x1.shape), tuple(negative_.shape))
    return F.where(F.broadcast_to(negative_, shape), -magnitude, magnitude)


def _integer_pair(name, compute):
    def function(x1, x2):
        x1, x2 = (as_tensor(v, name) for v in operands(name, x1, x2))
        dtype = result_dtype([x1, x2], name)
        if dtype.kind not in "iu":
            _refuse(name, dtype, "[int8, ..., uint64]")
        return new_tensor(compute(K.host_array(x1), K.host_array(x2)).astype(dtype), x1)
    function.__name__ = function.__qualname__ = name
    return function


gcd = _integer_pair("gcd", np.gcd)
lcm = _integer_pair("lcm", np.lcm)


def divmod(x1, x2):  # noqa: A001  (numpy's name)
    return floor_divide(x1, x2), remainder(x1, x2)


def clip(a, a_min, a_max):
    """`a` limited to [a_min, a_max] (either may be None, not both)."""
    if a_min is None and a_max is None:
        raise ValueError("For 'clip', one of max or min must be given.")
    (a,) = operands("clip", a)
    bounds = [b if b is None or isinstance(b, (int, float)) else as_tensor(b, "clip")
              for b in (a_min, a_max)]
    out = a
    if bounds[0] is not None:
        out = F.maximum(out, bounds[0])
    if bounds[1] is not None:
        out = F.minimum(out, bounds[1])
    return cast(out, dtype_of(a))


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th difference along axis."""
    from training.numpy.array_ops import concatenate
    a = as_tensor(a, "diff")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"For 'diff', 'n' must be a non-negative int, but got {n!r}")
    parts = [as_tensor(p, "diff") for p in (prepend, a, append) if p is not None]
    out = concatenate(parts, axis) if len(parts) > 1 else a
    for _ in range(n):
        size = out.shape[axis]
        if size < 1:
            raise ValueError("For 'diff', n is bigger then the specified dimension, this will "
                             "result in an empty tensor.")
        out = F.narrow(out, axis, 1, size - 1) - F.narrow(out, axis, 0, size - 1) \
            if size > 1 else F.narrow(out, axis, 0, 0)
    return out


def ediff1d(ary, to_end=None, to_begin=None):
    from training.numpy.array_ops import concatenate
    flat = F.reshape(as_tensor(ary, "ediff1d"), (-1,))
    out = diff(flat)
    parts = [F.reshape(as_tensor(v, "ediff1d"), (-1,)) for v in (to_begin,) if v is not None]
    parts += [out] + [F.reshape(as_tensor(v, "ediff1d"), (-1,)) for v in (to_end,)
                      if v is not None]
    return concatenate(parts) if len(parts) > 1 else out


__all__ = [name for name, value in list(globals().items()) if callable(value) and not
           name.startswith("_") and getattr(value, "__module__", None) == __name__ or
           name in ("abs", "round", "bitwise_not")]
