"""The element-wise math, reduction, search and indexing primitives of `mindspore.ops`
(ops.Ceil()(x), ops.CumSum(exclusive=True)(x, 0), ops.GatherD()(x, 1, index), ...): each keeps
its construction arguments and calls the function of training.ops.elementwise, reductions or
indexing. (A module apart: operations.py imports it after defining Primitive.)"""
import numpy as np

from training.ops import elementwise as E
from training.ops import indexing as I
from training.ops import reductions as R
from training.ops.operations import Primitive, _Reduce


def _calling(name, function):
    """A primitive without construction arguments, called as `function`."""
    return type(name, (Primitive,), {
        "__call__": lambda self, *args: function(*args),
        "__doc__": f"ops.{name}()(...): {function.__name__}'s primitive."})


_CALLING = {
    "Ceil": E.ceil, "Floor": E.floor, "Round": E.round, "Sign": E.sign, "Sin": E.sin,
    "Cos": E.cos, "Tan": E.tan, "Asin": E.asin, "ACos": E.acos, "Atan": E.atan,
    "Sinh": E.sinh, "Cosh": E.cosh, "Asinh": E.asinh, "Acosh": E.acosh, "Atanh": E.atanh,
    "Reciprocal": E.reciprocal, "Rsqrt": E.rsqrt, "Erf": E.erf, "Erfc": E.erfc,
    "Expm1": E.expm1, "Log1p": E.log1p, "IsNan": E.isnan, "IsInf": E.isinf,
    "IsFinite": E.isfinite, "LogicalNot": E.logical_not, "Atan2": E.atan2,
    "FloorDiv": E.floor_div, "FloorMod": E.floor_mod, "Mod": E.mod,
    "DivNoNan": E.div_no_nan, "MulNoNan": E.mul_no_nan,
    "SquaredDifference": E.squared_difference, "Xlogy": E.xlogy_primitive, "NotEqual": E.not_equal,
    "GreaterEqual": E.greater_equal, "LessEqual": E.less_equal,
    "LogicalAnd": E.logical_and, "LogicalOr": E.logical_or, "LogicalXor": E.logical_xor,
    "BitwiseAnd": E.bitwise_and, "BitwiseOr": E.bitwise_or, "BitwiseXor": E.bitwise_xor,
    "Lerp": E.lerp, "Addcmul": E.addcmul, "Addcdiv": E.addcdiv, "AddN": E.addn,
    "GatherD": I.gather_d, "GatherNd": I.gather_nd, "ScatterNd": I.scatter_nd,
    "TensorScatterUpdate": I.tensor_scatter_update, "TensorScatterAdd": I.tensor_scatter_add,
    "MaskedFill": I.masked_fill, "MaskedSelect": I.masked_select, "Diag": I.diag,
    "Identity": I.identity, "Slice": I.slice, "Size": I.size, "Rank": I.rank,
    "ScalarToTensor": I.scalar_to_tensor, "TupleToArray": I.tuple_to_array,
    "LinSpace": I.linspace,
}
for _name, _function in _CALLING.items():
    globals()[_name] = _calling(_name, _function)


class Eye(Primitive):
    def __call__(self, n, m, t):
        return I.eye(n, m, t)


class ReduceProd(_Reduce):
    function = staticmethod(R.reduce_prod)


class ReduceAll(_Reduce):
    function = staticmethod(R.all)


class ReduceAny(_Reduce):
    function = staticmethod(R.any)


class ArgMaxWithValue(Primitive):
    """(int64 index, value) of the maximum along axis (int64 as measured; MindSpore's
    documentation says int32)."""
    largest = True

    def __init__(self, axis=0, keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def __call__(self, x):
        values, index = R._with_index(x, self.axis, self.keep_dims, self.name, self.largest,
                                      np.int64)
        return index, values


class ArgMinWithValue(ArgMaxWithValue):
    largest = False


class Argmin(Primitive):
    def __init__(self, axis=-1, output_type=np.int32):
        super().__init__()
        self.axis, self.output_type = axis, output_type

    def __call__(self, x):
        from training.ops.functional import _np_dtype
        if not x.shape:
            raise ValueError(f"For primitive[Argmin], the axis must be in [0,0), but got "
                             f"{self.axis}.")
        return R._with_index(x, self.axis, False, "Argmin", False,
                             _np_dtype(self.output_type))[1]


class _Scan(Primitive):
    """CumSum/CumProd(exclusive, reverse)(x, axis)."""
    scan = None

    def __init__(self, exclusive=False, reverse=False):
        super().__init__()
        for name, value in (("exclusive", exclusive), ("reverse", reverse)):
            if not isinstance(value, bool):
                raise TypeError(f"For '{self.name}', '{name}' must be a bool, but got {value!r}")
        self.exclusive, self.reverse = exclusive, reverse

    def __call__(self, x, axis):
        return R._scan(x, axis, None, self.name, self.exclusive, self.reverse, type(self).scan)


class CumSum(_Scan):
    scan = staticmethod(np.cumsum)


class CumProd(_Scan):
    scan = staticmethod(np.cumprod)


class Sort(Primitive):
    def __init__(self, axis=-1, descending=False):
        super().__init__()
        self.axis, self.descending = axis, descending

    def __call__(self, x):
        return R.sort(x, self.axis, self.descending)


class TopK(Primitive):
    """The k largest along the last axis."""

    def __init__(self, sorted=True):  # noqa: A002  (MindSpore's name)
        super().__init__()
        self.sorted = sorted

    def __call__(self, input_x, k):
        return R.topk(input_x, k, None, True, self.sorted)


class LpNorm(Primitive):
    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        super().__init__()
        self.axis, self.p, self.keep_dims, self.epsilon = axis, p, keep_dims, epsilon

    def __call__(self, input):  # noqa: A002
        return R.lp_norm(input, self.axis, self.p, self.keep_dims, self.epsilon)


class L2Normalize(Primitive):
    def __init__(self, axis=0, epsilon=1e-4):
        super().__init__()
        self.axis, self.epsilon = axis, epsilon

    def __call__(self, x):
        return R.l2_normalize(x, self.axis, self.epsilon)


class BroadcastTo(Primitive):
    def __init__(self, shape):
        super().__init__()
        self.shape = tuple(shape)

    def __call__(self, input_x):
        return I.broadcast_to(input_x, self.shape)


class Range(Primitive):
    def __init__(self, maxlen=1000000):
        super().__init__()
        self.maxlen = maxlen

    def __call__(self, start, limit, delta):
        return I.range(start, limit, delta, self.maxlen)


class Meshgrid(Primitive):
    def __init__(self, indexing="xy"):
        super().__init__()
        self.indexing = indexing

    def __call__(self, inputs):
        return I.meshgrid(*inputs, indexing=self.indexing)


class Einsum(Primitive):
    def __init__(self, equation):
        super().__init__()
        if not isinstance(equation, str):
            raise TypeError(f"For 'Einsum', 'equation' must be a str, but got {equation!r}")
        self.equation = equation

    def __call__(self, operands):
        return I.einsum(self.equation, *operands)


class Tril(Primitive):
    def __init__(self, diagonal=0):
        super().__init__()
        self.diagonal = diagonal

    def __call__(self, x):
        return I.tril(x, self.diagonal)


class Triu(Tril):
    def __call__(self, x):
        return I.triu(x, self.diagonal)


class Roll(Primitive):
    def __init__(self, shifts, dims=None):
        super().__init__()
        self.shifts, self.dims = shifts, dims

    def __call__(self, input_x):
        return I.roll(input_x, self.shifts, self.dims)


class ReverseV2(Primitive):
    def __init__(self, axis):
        super().__init__()
        self.axis = tuple(axis)

    def __call__(self, input_x):
        return I.flip(input_x, self.axis)


class Unstack(Primitive):
    def __init__(self, axis=0, num=None):
        super().__init__()
        self.axis, self.num = axis, num

    def __call__(self, input_x):
        return I.unstack(input_x, self.axis)


class Pad(Primitive):
    """Zeros around the input: `paddings` holds one (before, after) pair per axis."""

    def __init__(self, paddings):
        super().__init__()
        pairs = tuple(tuple(pair) for pair in paddings)
        if any(len(pair) != 2 or min(pair) < 0 for pair in pairs):
            raise ValueError(f"For 'Pad', 'paddings' must be non-negative (before, after) "
                             f"pairs, but got {paddings}")
        self.paddings = pairs

    def __call__(self, input_x):
        if len(self.paddings) != len(input_x.shape):
            raise ValueError(f"For 'Pad', 'paddings' must have one pair per axis of the input "
                             f"({len(input_x.shape)}), but got {len(self.paddings)}")
        flat = [amount for pair in reversed(self.paddings) for amount in pair]
        return I.pad(input_x, flat)


class MirrorPad(Primitive):
    def __init__(self, mode="REFLECT"):
        super().__init__()
        self.mode = mode

    def __call__(self, input_x, paddings):
        return I.mirror_pad(input_x, paddings, self.mode)


class BiasAdd(Primitive):
    def __init__(self, data_format="NCHW"):
        super().__init__()
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For 'BiasAdd', 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', "
                             f"but got {data_format!r}")
        self.data_format = data_format

    def __call__(self, input_x, bias):
        return I.bias_add(input_x, bias, self.data_format)


class StridedSlice(Primitive):
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                 shrink_axis_mask=0):
        super().__init__()
        self.masks = (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)

    def __call__(self, input_x, begin, end, strides):
        return I.strided_slice(input_x, begin, end, strides, *self.masks)


__all__ = list(_CALLING) + [
    "Eye", "ReduceProd", "ReduceAll", "ReduceAny", "ArgMaxWithValue", "ArgMinWithValue",
    "Argmin", "CumSum", "CumProd", "Sort", "TopK", "LpNorm", "L2Normalize", "BroadcastTo",
    "Range", "Meshgrid", "Einsum", "Tril", "Triu", "Roll", "ReverseV2", "Unstack", "Pad",
    "MirrorPad", "BiasAdd", "StridedSlice"]
