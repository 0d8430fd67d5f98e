"""Element-wise `mindspore.ops` math, comparison and logic functions on both backends, with
MindSpore 2.10's type rules (measured on its CPU kernels):

- the result type of tensors of several types is the highest kind's (bool < int < float), the
  wider of that kind: int32 with float16 gives float16 (numpy's float64);
- a Python number does not widen a tensor of its kind or higher; a float with an integer or
  bool tensor gives float32;
- each op takes some kinds of the result type only (`KINDS`): Sin of an int32 tensor is a
  TypeError, Sqrt of one computes in float32.

`elementwise` does this once for every op: numpy-backend Tensors record the gradient the op's
derivative gives (MindSpore's: zero for steps such as Floor), torch tensors go to torch."""
import math

import numpy as np

from training.ops.array_kernels import as_tensor, cast, np_dtype_of, torch_dtype, torch_of
from training.tensor import Tensor, _unbroadcast

#: the result kinds an op takes: "float" only floats (TypeError else); "to_float" computes
#: integers and bools in float32; "number" refuses bools; "integer" refuses floats; "any".
KINDS = ("float", "to_float", "number", "integer", "any")
_RANK = {"b": 0, "i": 1, "u": 1, "f": 2}
_WEAK = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float32)}


def _dtype_and_weakness(value, op, weak_0d):
    if isinstance(value, (bool, int, float)):
        return _WEAK[type(value)], True
    dtype = np_dtype_of(value)
    if dtype is None:
        raise TypeError(f"For '{op}', the inputs must be Tensors or numbers, but got "
                        f"{type(value).__name__}")
    return dtype, bool(weak_0d and not tuple(value.shape) and dtype.kind == "f")


def result_dtype(values, op, weak_0d=()):
    """MindSpore's type of an element-wise result of `values` (tensors and Python numbers).
    `weak_0d` lists the positions (MindSpore's mul and div: both; fmod: the second) where a 0-d
    float tensor beside a larger one is weak like a Python float: it does not widen a float
    tensor, but unlike a Python float it gives its own type to integers and bools (measured:
    int32 (3,) * float64 () is float64, float16 (3,) * float64 () float16, fmod(float16 (3,),
    float64 ()) float16 but fmod(float64 (), float16 (3,)) float64). Without a larger one the
    numbers count as int64 and float32 tensors."""
    if weak_0d and not any(np_dtype_of(v) is not None and tuple(v.shape) for v in values):
        typed = [(_WEAK[type(v)] if isinstance(v, (bool, int, float)) else np_dtype_of(v),
                  False) for v in values]
    else:
        typed = [_dtype_and_weakness(v, op, i in weak_0d) for i, v in enumerate(values)]
    strong = [d for d, weak in typed if not weak] or [d for d, _ in typed]
    rank = max(_RANK[d.kind] for d in strong)
    dtype = np.result_type(*[d for d in strong if _RANK[d.kind] == rank])
    weak_rank = max((_RANK[d.kind] for d, weak in typed if weak), default=-1)
    if weak_rank > rank:
        dtype = np.result_type(*[d for d, weak in typed if weak and _RANK[d.kind] == weak_rank])
    return dtype


def check_kind(dtype, kind, op):
    """The dtype the op computes in, for a result type `dtype`; TypeError where refused."""
    refused = {"float": "biu", "number": "b", "integer": "f"}.get(kind, "")
    if dtype.kind in refused:
        raise TypeError(f"For '{op}', the type of the input must be in "
                        f"{_ALLOWED[kind]}, but got {dtype}")
    if kind == "to_float" and dtype.kind in "biu":
        return np.dtype(np.float32)
    return dtype


_ALLOWED = {"float": "[float16, float32, float64]", "number": "[int, uint, float]",
            "integer": "[bool, int, uint]"}


def elementwise(op, values, forward, derivatives=None, kind="any", torch_forward=None,
                out_dtype=None, weak_0d=()):
    """`forward(*arrays)` of `values` (tensors and numbers broadcast together) in the dtype
    `check_kind` gives; `out_dtype` (bool for comparisons) overrides the result's dtype.
    `derivatives(g, *arrays, out)` gives each input's gradient (None: no gradient flows);
    `torch_forward(*torch tensors)` (default `forward`, a torch function too) on torch."""
    dtype = check_kind(result_dtype(values, op, weak_0d), kind, op)
    torch = torch_of(*values)
    if torch:
        from training.backends.torch_cells import torch_arguments
        values, _ = torch_arguments(list(values), {})      # a Parameter: its bound tensor
        like = next(v for v in values if torch_of(v))
        # a Python number becomes a 0-d CPU tensor, which torch takes beside tensors on any
        # device (a copy to the GPU per call would wait for it)
        args = [torch.as_tensor(v, dtype=torch_dtype(torch, dtype), device=None if isinstance(
            v, (bool, int, float)) else like.device)
                if not torch_of(v) or v.dtype != torch_dtype(torch, dtype) else v
                for v in values]
        out = (torch_forward or forward)(*args)
        return out if out_dtype is None else out.to(torch_dtype(torch, out_dtype))
    arrays = [np.asarray(v.data if isinstance(v, Tensor) else v, dtype) for v in values]
    with np.errstate(all="ignore"):
        out = np.asarray(forward(*arrays))
    out = out.astype(out_dtype if out_dtype is not None else dtype, copy=False)
    if derivatives is None or dtype.kind != "f":
        return Tensor(out)

    def backward(g):
        with np.errstate(all="ignore"):
            grads = _float16_overflow_safe(derivatives, g, arrays, out)
        return tuple(None if grad is None or not isinstance(v, Tensor) else
                     _unbroadcast(np.broadcast_to(grad, g.shape), v.shape).astype(v.dtype)
                     for v, grad in zip(values, grads))
    return Tensor.from_op(out, values, backward)


def _float16_overflow_safe(derivatives, g, arrays, out):
    """derivatives(g, *arrays, out), each step rounded in the arrays' type as MindSpore's
    kernels round float16 (measured); where a float16 step overflows to give inf or NaN though
    the gradient is finite in float16 (MindSpore's value there: a documented deviation), the
    gradient computed in float32 and rounded once."""
    grads = derivatives(g, *arrays, out)
    if out.dtype != np.float16:
        return grads
    wide = derivatives(*[np.asarray(a, np.float32) if np.asarray(a).dtype == np.float16 else a
                         for a in [g, *arrays, out]])
    return tuple(None if narrow is None else _finite_where_possible(narrow, broad)
                 for narrow, broad in zip(grads, wide))


def _finite_where_possible(narrow, broad):
    narrow, broad = np.asarray(narrow), np.asarray(broad).astype(np.float16)
    return np.where(np.isfinite(narrow) | ~np.isfinite(broad), narrow, broad)


def _unary(name, forward, derivative=None, kind="float", torch_name=None, out_dtype=None,
           gradient=None):
    """A one-input function (MindSpore's argument `input`); derivative(x, out) is d out/d x;
    None for a bool output, "zero" for a step function; or gradient(g, x, out), the gradient in
    MindSpore's rounding order."""
    def function(input):  # noqa: A002  (MindSpore's argument name)
        if gradient is not None:
            derivatives = lambda g, x, out: (gradient(g, x, out),)  # noqa: E731
        elif derivative == "zero":
            derivatives = lambda g, x, out: (np.zeros_like(x),)  # noqa: E731
        elif derivative is not None:
            derivatives = lambda g, x, out: (g * derivative(x, out),)  # noqa: E731
        else:
            derivatives = None
        torch = torch_of(input)
        torch_forward = getattr(torch, torch_name or name) if torch else None
        return elementwise(_PRIMITIVE.get(name, name.capitalize()), [input], forward,
                           derivatives, kind, torch_forward, out_dtype)
    function.__name__ = function.__qualname__ = name
    return function


_erf_float64 = np.vectorize(math.erf, otypes=[np.float64])


_erfc_float64 = np.vectorize(math.erfc, otypes=[np.float64])


def _erf(x):
    """float16 through float32, as MindSpore's kernel (rounded twice: 0 of 63k float16 values
    differ)."""
    return _erf_float64(x).astype(np.float32 if x.dtype == np.float16 else x.dtype).astype(
        x.dtype)


def _erfc(x):
    """erfc itself, not 1 - erf (which rounds erfc(3.2) of float16 to 0), float16 through
    float32 as MindSpore's kernel (2 of 63k float16 values differ by an ulp, at ties)."""
    return _erfc_float64(x).astype(np.float32 if x.dtype == np.float16 else x.dtype).astype(
        x.dtype)


def _erf_gradient(sign):
    """sign * g * (2 / sqrt(pi) * exp(-x^2)): MindSpore's order, each step rounded in the
    input's type, the constant too (float16: 1.128), exp of float16 through float32 (measured
    on every float16 value: 6 of 63k differ by an ulp, where MindSpore's own exp does)."""
    def gradient(g, x, out):
        scale = np.asarray(sign * 2 / math.sqrt(math.pi), x.dtype)
        return g * (scale * _via_float32(np.exp)(-(x * x)))
    return gradient


def _via_float32(function):
    """function of float16 arrays computed in float32 and rounded once, as MindSpore's CPU
    kernels (numpy's float16 loops round sin(300) to -0.9995, MindSpore -1.0); of other types
    as they are."""
    def rounded_once(*arrays):
        arrays = [np.asarray(a) for a in arrays]
        if not any(a.dtype == np.float16 for a in arrays):
            return function(*arrays)
        return np.asarray(function(*[a.astype(np.float32) if a.dtype == np.float16 else a
                                     for a in arrays])).astype(np.float16)
    return rounded_once


def _log1p(x):
    """float16 in float32, rounded once: MindSpore 2.10's float16 Log1p rounds 1 + x to float16
    first and so loses what log1p is for (log1p(0.0012235) 0.000976, log1p(6e-8) 0; here
    0.0012226 and 6e-8): a documented deviation."""
    return _via_float32(np.log1p)(x)


def _expm1(x):
    """float16 in float32, rounded once: MindSpore 2.10's float16 Expm1 is exp(x) rounded to
    float16, minus 1 (expm1(1e-7) 0, expm1(-0.02238) -0.02197; here 1.2e-7 and -0.02214): a
    documented deviation."""
    return _via_float32(np.expm1)(x)


def _expm1_gradient(g, x, out):
    """g * exp(x); of float16 in float32, rounded once (the forward's deviation: MindSpore's
    g * (out + 1) with its out gives -14.05 for -14.04 * exp(0.000488), here -14.05 too only by
    chance of rounding; its out is double the truth there)."""
    if np.asarray(x).dtype == np.float16:
        return (np.asarray(g, np.float32) * np.exp(np.asarray(x, np.float32))).astype(np.float16)
    return g * (out + 1)


# MindSpore's primitive names where they are not the function's capitalized
_PRIMITIVE = {"asin": "Asin", "acos": "ACos", "atan": "Atan", "asinh": "Asinh",
              "acosh": "Acosh", "atanh": "Atanh", "rsqrt": "Rsqrt", "expm1": "Expm1",
              "log1p": "Log1p", "isnan": "IsNan", "isinf": "IsInf", "isfinite": "IsFinite",
              "logical_not": "LogicalNot"}

ceil = _unary("ceil", np.ceil, "zero")
floor = _unary("floor", np.floor, "zero")
sign = _unary("sign", np.sign, "zero", kind="number")
sin = _unary("sin", _via_float32(np.sin), lambda x, out: _via_float32(np.cos)(x))
cos = _unary("cos", _via_float32(np.cos), gradient=lambda g, x, out: -g * _via_float32(np.sin)(x))
tan = _unary("tan", np.tan, lambda x, out: 1 + out * out)
# the inverse functions' gradients as MindSpore's kernels: of x for asin, acos and atanh, of
# the output for asinh and acosh; float16 through float32, rounded once, but atanh's, whose
# bprop is float16 steps (each measured on every float16 value: 0 of 63k differ, acosh's 2)
def _asin(x):
    """float16 through float64 (numpy's float32 arcsin rounds asin(0.1365) of float16 to 0.137,
    MindSpore's kernel and the truth 0.1368)."""
    return np.arcsin(x.astype(np.float64)).astype(np.float16) if x.dtype == np.float16 else \
        np.arcsin(x)


asin = _unary("asin", _asin, gradient=_via_float32(lambda g, x, out: g / np.sqrt(1 - x * x)))
acos = _unary("acos", np.arccos, gradient=_via_float32(
    lambda g, x, out: -g / np.sqrt(1 - x * x)))
atan = _unary("atan", np.arctan, gradient=lambda g, x, out: g / (1 + x * x))
sinh = _unary("sinh", np.sinh, lambda x, out: np.cosh(x))
cosh = _unary("cosh", np.cosh, lambda x, out: np.sinh(x))
asinh = _unary("asinh", np.arcsinh, gradient=_via_float32(lambda g, x, out: g / np.cosh(out)))
acosh = _unary("acosh", np.arccosh, gradient=_via_float32(lambda g, x, out: g / np.sinh(out)))
atanh = _unary("atanh", np.arctanh, gradient=lambda g, x, out: g / (1 - x * x))
reciprocal = _unary("reciprocal", lambda x: 1 / x, lambda x, out: -out * out, kind="to_float")
erf = _unary("erf", _erf, gradient=_erf_gradient(1))
erfc = _unary("erfc", _erfc, gradient=_erf_gradient(-1))
expm1 = _unary("expm1", _expm1, gradient=_expm1_gradient)
log1p = _unary("log1p", _log1p, gradient=lambda g, x, out: g / (1 + x))
exp = _unary("exp", np.exp, lambda x, out: out)
log = _unary("log", np.log, gradient=lambda g, x, out: g / x)
square = _unary("square", np.square, lambda x, out: 2 * x, kind="number")
neg = _unary("neg", np.negative, lambda x, out: -np.ones_like(x), kind="number")
negative = neg
isnan = _unary("isnan", np.isnan, kind="any", out_dtype=np.bool_)
isinf = _unary("isinf", np.isinf, out_dtype=np.bool_)
isfinite = _unary("isfinite", np.isfinite, kind="any", out_dtype=np.bool_)
logical_not = _unary("logical_not", np.logical_not, kind="any", out_dtype=np.bool_)
arcsin, arccos, arctan = asin, acos, atan
arcsinh, arccosh, arctanh = asinh, acosh, atanh


def abs(input):  # noqa: A001,A002
    """Bools stay bools, as MindSpore's."""
    torch = torch_of(input)
    return elementwise("Abs", [input], np.abs, lambda g, x, out: (g * np.sign(x),), "any",
                       torch and (lambda x: x if x.dtype == torch.bool else x.abs()))


def sqrt(x):
    """Integers and bools in float32."""
    return elementwise("Sqrt", [x], np.sqrt, lambda g, x, out: (g / (out * 2),), "to_float",
                       torch_forward=torch_of(x) and torch_of(x).sqrt)


def rsqrt(input):  # noqa: A002
    """1 / sqrt(x); the gradient in MindSpore's rounding order, out cubed times g * -0.5 (64
    of 64 random float16 cases equal; at 6e4 the cube is below float16's smallest step and
    the gradient -0, where -0.5 * out * out * out * g gave -6e-8)."""
    return elementwise("Rsqrt", [input], lambda x: 1 / np.sqrt(x),
                       lambda g, x, out: ((out * out * out) * (g * -0.5),), "float",
                       torch_forward=torch_of(input) and torch_of(input).rsqrt)


def round(input, *, decimals=0):  # noqa: A001,A002  (MindSpore's names)
    """Half to even, as MindSpore's (and numpy's)."""
    torch = torch_of(input)
    return elementwise("Round", [input], lambda x: np.round(x, decimals),
                       lambda g, x, out: (np.zeros_like(x),), "number",
                       torch and (lambda x: torch.round(x, decimals=decimals)
                                  if x.is_floating_point() else x.clone()))


def _binary(name, primitive, forward, derivatives=None, kind="any", torch_name=None,
            out_dtype=None, names=("input", "other"), weak_0d=()):
    """A two-input function with MindSpore's argument names; `derivatives(g, x, y, out)`."""
    def function(*args, **kwargs):
        x, y = _two_arguments(name, names, args, kwargs)
        torch = torch_of(x, y)
        return elementwise(primitive, [x, y], forward, derivatives, kind,
                           torch and _torch_function(torch, torch_name or name), out_dtype,
                           weak_0d)
    function.__name__ = function.__qualname__ = name
    return function


def _two_arguments(name, names, args, kwargs):
    values = list(args) + [kwargs.pop(n) for n in names[len(args):] if n in kwargs]
    if kwargs or len(values) != 2:
        raise TypeError(f"{name}() takes the arguments {names}, but got {len(args)} "
                        f"positional and {sorted(kwargs) or 'no other'} keyword arguments")
    return values


def _integer_safe(torch_function):
    """A torch division op giving 0 where an integer divisor is 0 (torch raises), as numpy."""
    def divide(x, y):
        if x.is_floating_point():
            return torch_function(x, y)
        import torch
        if x.dtype == torch.bool:       # in uint8: torch has no bool kernel
            return divide(x.byte(), y.byte()).bool()
        zero = y == 0
        out = torch_function(x, y.masked_fill(zero, 1))
        return out.masked_fill(zero.to(out.device), 0)
    return divide


def _torch_function(torch, name):
    """torch's function `name`; the divisions give 0 for an integer divisor 0, and floor
    division of floats is floor(x / y) (torch's floor_divide has no gradient)."""
    if name == "floor_divide":       # (a zero gradient, where torch has none)
        return _integer_safe(lambda x, y: torch.where(torch.zeros((), dtype=torch.bool),
                                                      x + y, torch.floor_divide(x.detach(),
                                                                                y.detach()))
                             if x.is_floating_point() else torch.floor_divide(x, y))
    if name in ("remainder", "fmod"):
        return _integer_safe(getattr(torch, name))
    if name in ("real_div", "pow"):
        function = torch.true_divide if name == "real_div" else torch.pow
        return lambda x, y: function(x, y) if x.is_floating_point() else \
            _torch_integer_result(torch, function, x, y)
    return getattr(torch, name)


def _torch_integer_result(torch, function, x, y):
    """_integer_result on torch tensors."""
    limits = np.iinfo(str(x.dtype).replace("torch.", "")) if x.dtype != torch.bool else \
        np.iinfo(np.uint8)
    out = torch.nan_to_num(torch.trunc(function(x.double(), y.double())), nan=0.0)
    # (int64's largest value is no float64: its rounding would wrap to the smallest)
    return torch.where(out >= float(limits.max), torch.tensor(int(limits.max), dtype=x.dtype),
                       out.clamp(min=int(limits.min)).to(x.dtype))


def _integer_result(function, x, y):
    """function(x, y), for integers computed in float64 and truncated toward zero (an integer
    to a negative power is 0 unless it is 1 or -1, as MindSpore's; a division by 0 gives the
    integer type's extreme, 0/0 gives 0)."""
    if x.dtype.kind not in "iub":
        return function(x, y)
    out = np.nan_to_num(np.trunc(function(x.astype(np.float64), y.astype(np.float64))), nan=0.0)
    limits = np.iinfo(x.dtype) if x.dtype.kind != "b" else np.iinfo(np.uint8)
    # (int64's largest value is no float64: its rounding would wrap to the smallest)
    return np.where(out >= limits.max, limits.max, np.maximum(out, limits.min).astype(
        limits.dtype))


def _zero(g, x, y, out):
    return np.zeros_like(x), np.zeros_like(y)


def _atan2_grads(g, x, y, out):
    """MindSpore's order: g / (x^2 + y^2) first (float16: 0 where the sum overflows)."""
    scaled = g / (x * x + y * y)
    return scaled * y, scaled * -x


def _xlogy(x, y):
    """0 where x is 0 and y is not NaN (torch's rule; MindSpore's CPU kernel gives NaN where
    log(y) is not finite)."""
    out = x * np.log(y)
    return np.where((x == 0) & ~np.isnan(y) & np.isnan(out), 0, out)   # (0 * log(0.5): -0)


atan2 = _binary("atan2", "Atan2", np.arctan2, _atan2_grads, "float")
arctan2 = atan2
floor_divide = _binary("floor_divide", "FloorDiv", np.floor_divide, _zero)
floor_div = _binary("floor_div", "FloorDiv", np.floor_divide, _zero, names=("x", "y"),
                    torch_name="floor_divide")
floor_mod = _binary("floor_mod", "FloorMod", np.mod, lambda g, x, y, out: (
    g, -g * np.floor_divide(x, y)), "number", names=("x", "y"), torch_name="remainder")
remainder = _binary("remainder", "FloorMod", np.mod, lambda g, x, y, out: (
    g, -g * np.floor_divide(x, y)))
fmod = _binary("fmod", "Mod", np.fmod, lambda g, x, y, out: (g, -g * np.trunc(x / y)),
               weak_0d=(1,))
mod = _binary("mod", "Mod", np.fmod, lambda g, x, y, out: (g, -g * np.trunc(x / y)),
              "number", torch_name="fmod", names=("x", "y"))    # the primitive: no bools
# the gradients as MindSpore's: log(y) for x (0 where x is 0 and y <= 0), g * x / y for y
xlogy_primitive = _binary("xlogy", "Xlogy", _xlogy, lambda g, x, y, out: (
    np.where((x == 0) & (y <= 0), 0, g * np.log(y)), g * x / y), "float")


def xlogy(input, other):  # noqa: A002
    """x * log(y), as MindSpore 2.10's function: a Python number is a float32 tensor (xlogy of
    a float16 tensor and 2 is float32, of an int32 one float32) and two bool tensors are
    float32 ([True, False, True] and [True, True, False]: [0, 0, -inf]); its primitive Xlogy
    refuses bools and weakens numbers."""
    like = next(v for v in (input, other) if np_dtype_of(v) is not None) if any(
        np_dtype_of(v) is not None for v in (input, other)) else None
    bools = all(getattr(np_dtype_of(v), "kind", "") == "b" for v in (input, other))
    input, other = (_in_float32(v, like) if bools or isinstance(v, (bool, int, float)) else v
                    for v in (input, other))
    return xlogy_primitive(input, other)


def _in_float32(value, like):
    """A tensor or a Python number as a float32 tensor of `like`'s backend and device."""
    torch = torch_of(like)
    if torch:
        return torch.as_tensor(value, device=like.device).to(torch.float32)
    return cast(as_tensor(value), np.float32) if isinstance(value, Tensor) else \
        Tensor(np.asarray(value, np.float32))


not_equal = _binary("not_equal", "NotEqual", np.not_equal, out_dtype=np.bool_)
greater_equal = _binary("greater_equal", "GreaterEqual", np.greater_equal, out_dtype=np.bool_)
less_equal = _binary("less_equal", "LessEqual", np.less_equal, out_dtype=np.bool_)
equal = _binary("equal", "Equal", np.equal, out_dtype=np.bool_, torch_name="eq")
greater = _binary("greater", "Greater", np.greater, out_dtype=np.bool_, torch_name="gt")
less = _binary("less", "Less", np.less, out_dtype=np.bool_, torch_name="lt")
ne, ge, le = not_equal, greater_equal, less_equal
add = _binary("add", "Add", np.add, lambda g, x, y, out: (g, g), "number")
sub = _binary("sub", "Sub", np.subtract, lambda g, x, y, out: (g, -g), "number")
mul = _binary("mul", "Mul", np.multiply, lambda g, x, y, out: (g * y, g * x), weak_0d=(0, 1))
# MindSpore's rounding order for y's gradient, -g * (out / y) (-g * out / y differs by an ulp
# in about a quarter of random float16 cases, and overflows or flushes where it does not); the
# primitive RealDiv's is -((g / y) * out) (measured: 114 of 512 random float16 cases differ)
div = _binary("div", "RealDiv", np.true_divide, lambda g, x, y, out: (g / y, -g * (out / y)),
              "to_float", weak_0d=(0, 1))
real_div = _binary("real_div", "RealDiv", lambda x, y: _integer_result(np.true_divide, x, y),
                   lambda g, x, y, out: (g / y, -((g / y) * out)), "number", names=("x", "y"),
                   torch_name="real_div")       # the primitive: integers stay integers, bools
# are refused (MindSpore 2.10: TypeError), as by Minimum (MindSpore's CPU kernel: TypeError)
pow = _binary("pow", "Pow", lambda x, y: _integer_result(  # noqa: A001  (MindSpore's name)
    np.power, x, y), lambda g, x, y, out: ((y * np.power(x, y - 1)) * g, np.where(
        (x == 0) & np.isfinite(out), 0, out * np.log(x)) * g), "number",
    names=("input", "exponent"))        # (MindSpore's rounding order: g last)
maximum = _binary("maximum", "Maximum", lambda x, y: _pick(x > y, x, y), lambda g, x, y, out: (
    _selected(g, x, y), _selected(g, y, x)))       # a tie's gradient in halves, as MindSpore's
minimum = _binary("minimum", "Minimum", lambda x, y: _pick(x < y, x, y), lambda g, x, y, out: (
    _selected(g, y, x), _selected(g, x, y)), "number")
bitwise_and = _binary("bitwise_and", "BitwiseAnd", np.bitwise_and, kind="integer")
bitwise_or = _binary("bitwise_or", "BitwiseOr", np.bitwise_or, kind="integer")
bitwise_xor = _binary("bitwise_xor", "BitwiseXor", np.bitwise_xor, kind="integer")


def _logical(name, primitive, forward):
    """MindSpore's logical ops take tensors of any type, and bool numbers only."""
    compare = _binary(name, primitive, forward, out_dtype=np.bool_)

    def function(input, other):  # noqa: A002
        for value in (input, other):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                raise TypeError(f"For '{primitive}', the inputs must be Tensors or bools, but "
                                f"got {type(value).__name__}")
        return compare(input, other)
    function.__name__ = function.__qualname__ = name
    return function


logical_and = _logical("logical_and", "LogicalAnd", np.logical_and)
logical_or = _logical("logical_or", "LogicalOr", np.logical_or)
logical_xor = _logical("logical_xor", "LogicalXor", np.logical_xor)


def div_no_nan(x, y):
    """x / y, 0 where y is 0 (the primitive DivNoNan); floats only."""
    torch = torch_of(x, y)
    safe = lambda y: np.where(y == 0, 1, y)  # noqa: E731
    return elementwise("DivNoNan", [x, y], lambda x, y: np.where(y == 0, 0, x / safe(y)),
                       lambda g, x, y, out: (np.where(y == 0, 0, g / safe(y)),
                                             np.where(y == 0, 0, -g * (out / safe(y)))),
                       "float", torch and (lambda x, y: torch.where(
                           y == 0, torch.zeros_like(x), x / torch.where(y == 0, 1, y))))


def mul_no_nan(x, y):
    """x * y, 0 where y is 0 even where x is inf or NaN (the primitive MulNoNan); the gradient
    for y is g * x there too, as MindSpore's (torch's where would give 0)."""
    torch = torch_of(x, y)
    return elementwise("MulNoNan", [x, y], lambda x, y: np.where(y == 0, 0, x * y),
                       lambda g, x, y, out: (np.where(y == 0, 0, g * y), g * x), "number",
                       torch and _torch_mul_no_nan(torch).apply)


def _torch_mul_no_nan(torch):
    """MulNoNan as a torch autograd function with MindSpore's gradients (made once)."""
    global _TORCH_MUL_NO_NAN
    if _TORCH_MUL_NO_NAN is None:
        class MulNoNan(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                ctx.save_for_backward(x, y)
                return torch.where(y == 0, torch.zeros_like(x * y), x * y)

            @staticmethod
            def backward(ctx, g):
                x, y = ctx.saved_tensors
                grads = (torch.where(y == 0, torch.zeros_like(g * y), g * y), g * x)
                return tuple(grad.sum_to_size(v.shape) if needed else None for grad, v, needed
                             in zip(grads, (x, y), ctx.needs_input_grad))
        _TORCH_MUL_NO_NAN = MulNoNan
    return _TORCH_MUL_NO_NAN


_TORCH_MUL_NO_NAN = None


def squared_difference(x, y):
    return elementwise("SquaredDifference", [x, y], lambda x, y: (x - y) * (x - y),
                       lambda g, x, y, out: (2 * g * (x - y), -2 * g * (x - y)), "number")


def lerp(input, end, weight):  # noqa: A002
    """input + weight * (end - input): input and end of one type, float16 or float32; weight a
    float or a float tensor."""
    types = [np_dtype_of(v) for v in (input, end)]
    if types[0] != types[1] or types[0] not in (np.float16, np.float32) or not (
            isinstance(weight, float) or getattr(np_dtype_of(weight), "kind", "") == "f"):
        raise TypeError(f"For 'Lerp', 'input' and 'end' must be Tensors of one type, float16 or "
                        f"float32, and 'weight' a float or a float Tensor, but got {types} and "
                        f"{type(weight).__name__}")
    weight = _in_type_of(weight, input)
    return elementwise("Lerp", [input, end, weight], lambda s, e, w: s + w * (e - s),
                       lambda g, s, e, w, out: (g * (1 - w), g * w, g * (e - s)), "float")


def _in_type_of(value, like):
    """A tensor `value` in the type of the tensor `like` (the gradient flowing back in its own
    type): bounds and weights that do not widen the result, as MindSpore's."""
    dtype = np_dtype_of(value)
    if dtype is None or dtype == np_dtype_of(like):
        return value
    if torch_of(value):
        return value.to(torch_dtype(torch_of(value), np_dtype_of(like)))
    return cast(as_tensor(value), np_dtype_of(like))


def _same_types(op, *tensors):
    types = [np_dtype_of(t) for t in tensors]
    if len(set(types)) != 1 or types[0] is None:
        raise TypeError(f"For '{op}', the input type must be same, but got {types}")


def addcmul(input, tensor1, tensor2, value=1):  # noqa: A002
    _same_types("Addcmul", input, tensor1, tensor2)
    return elementwise("Addcmul", [input, tensor1, tensor2, value],
                       lambda x, a, b, v: x + v * a * b,
                       lambda g, x, a, b, v, out: (g, g * v * b, g * v * a, g * a * b), "number")


def addcdiv(input, tensor1, tensor2, value=1):  # noqa: A002
    _same_types("Addcdiv", input, tensor1, tensor2)
    return elementwise("Addcdiv", [input, tensor1, tensor2, value],
                       lambda x, a, b, v: x + v * a / b,
                       lambda g, x, a, b, v, out: (g, g * v / b, -g * v * a / (b * b),
                                                   g * a / b), "float")


def clamp(input, min=None, max=None):  # noqa: A001,A002  (MindSpore's names)
    """input limited to [min, max] (either may be None, not both; both Tensors or both
    numbers); the gradient flows where the input is inside."""
    if len({np_dtype_of(b) is None for b in (min, max) if b is not None}) > 1:
        raise TypeError("For 'clamp', 'min' and 'max' must both be Tensors or both numbers, "
                        f"but got {type(min).__name__} and {type(max).__name__}")
    if any(value is not None and (isinstance(value, bool) or getattr(
            np_dtype_of(value), "kind", "") == "b") for value in (input, min, max)):
        raise ValueError("For Clamp, the dtype of 'input', 'min' and 'max' must not be bool.")
    shapes = [tuple(v.shape) for v in (input, min, max) if np_dtype_of(v) is not None]
    if np.broadcast_shapes(*shapes) != shapes[0]:
        raise ValueError(f"For Clamp, the shape of 'input' {shapes[0]} and the shapes of its "
                         f"bounds {shapes[1:]} cannot broadcast to the input's.")
    return _clamp(input, min, max, _tie_share, in_input_type=False)


clip = clamp


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """clamp, a Tensor bound beside a number bound too; a tie's gradient is split in halves
    with either (MindSpore's: maximum then minimum)."""
    return _clamp(x, clip_value_min, clip_value_max, lambda bound: 0.5, in_input_type=True)


def _clamp(input, min, max, tie_share, in_input_type):  # noqa: A002
    """`tie_share(bound)`: the share of a tie's gradient that goes to the input. As MindSpore
    2.10's: clip_by_value takes its bounds, numbers too, in the input's type (an int32 input
    clipped at -0.5 at 0, int32), clamp gives the type of the input and its Tensor bounds
    (int32 with float16 bounds: float16; float16 with float32 bounds: float32)."""
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must not be None")
    if in_input_type and np_dtype_of(input) is not None:     # (numbers truncated to ints)
        min, max = (np.asarray(b).astype(np_dtype_of(input)).item() if isinstance(
            b, (int, float)) and not isinstance(b, bool) else _in_type_of(b, input)
            for b in (min, max))
    bounds = [b for b in (min, max) if b is not None]
    low = (lambda x, *b: x) if min is None else (lambda x, *b: np.maximum(x, b[0]))
    high = (lambda x, *b: x) if max is None else (lambda x, *b: np.minimum(x, b[-1]))

    def derivatives(g, x, *rest):
        """max(x, min) then min(., max); a tie with a Tensor bound splits the gradient in
        halves, with a number gives it to x, as MindSpore's (and torch's)."""
        bound = list(rest[:-1])
        lowered = low(x, *bound)
        grads = []
        if max is not None:
            top, share = bound.pop(), tie_share(max)
            g, g_top = g * _step(top, lowered, share), g * _step(lowered, top, 1 - share)
        if min is not None:
            share = tie_share(min)
            grads.append(g * _step(bound[0], x, 1 - share))
            g = g * _step(x, bound[0], share)
        return (g, *grads, *([g_top] if max is not None else []))
    torch = torch_of(input, *bounds)
    return elementwise("clamp", [input, *bounds], lambda x, *b: high(low(x, *b), *b),
                       derivatives, "number", torch and (lambda x, *b: _torch_clamp(
                           torch, x, _torch_bound(min, b[0], tie_share),
                           _torch_bound(max, b[-1], tie_share))))


def _torch_bound(bound, converted, tie_share):
    """The bound as a tensor where a tie is split (torch's maximum/minimum), as a number where
    the input takes it (torch's clamp)."""
    return None if bound is None else bound if tie_share(bound) == 1.0 else converted


def _tie_share(bound):
    """The share of a tie's gradient the input gets against `bound`."""
    return 1.0 if np_dtype_of(bound) is None else 0.5


def _pick(first, x, y):
    """x where `first`, else y, as MindSpore's Maximum/Minimum kernels (max(0, -0) is -0, the
    second); a NaN in either comes through (MindSpore's max(NaN, 1) is 1: documented)."""
    return np.where(first | np.isnan(x), x, y) if x.dtype.kind == "f" else np.where(first, x, y)


def _selected(g, a, b):
    """max(a, b)'s gradient for a: g where a > b, half of it where equal, else +0 (MindSpore's
    MaximumGrad/MinimumGrad: +0, where g * 0 gave -0 for a negative g)."""
    return np.where(a > b, g, np.where(a == b, g * 0.5, 0)).astype(g.dtype)


def _step(a, b, tie=0.5):
    """d max(a, b) / d a: 1 where a > b, `tie` where equal."""
    return (a > b) + tie * (a == b)


def _torch_clamp(torch, x, low, high):
    """torch's maximum/minimum with a tensor bound split a tie in halves, its clamp with a
    number gives it to x."""
    if low is not None:
        x = torch.maximum(x, low) if torch_of(low) else torch.clamp(x, min=low)
    if high is not None:
        x = torch.minimum(x, high) if torch_of(high) else torch.clamp(x, max=high)
    return x


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):  # noqa: A002
    """NaN, +inf and -inf replaced (by default by 0 and the type's largest and lowest); the
    gradient flows where the input was finite. float16 and float32, as MindSpore's."""
    if np_dtype_of(input) == np.float64:
        raise TypeError("For NanToNum, the dtype of 'input' must not be float64.")
    torch = torch_of(input)
    return elementwise("NanToNum", [input], lambda x: np.nan_to_num(
        x, nan=nan, posinf=posinf, neginf=neginf), lambda g, x, out: (g * np.isfinite(x),),
        "any", torch and (lambda x: torch.nan_to_num(x, nan, posinf, neginf)))


def addn(x):
    """The sum of a list or tuple of tensors of one shape and dtype."""
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError(f"For 'AddN', 'x' must be a non-empty list or tuple of Tensors, but got "
                        f"{type(x).__name__}")
    total = x[0]
    for item in x[1:]:
        total = total + item
    return total


__all__ = [name for name, value in globals().items() if callable(value) and not name.startswith(
    "_") and getattr(value, "__module__", None) == __name__ and name not in (
    "elementwise", "result_dtype", "check_kind", "mod", "real_div", "xlogy_primitive")]
