"""tools/numpy_vs_mindspore.py's cases: one ``mindspore.numpy`` function called on random
arguments, valid or not (tensors of float16/32/64, int32/64 and bool, broadcast and empty
shapes, Python numbers and lists; axes, sizes and options in and out of range). A case is
ops_cases' ("function", name, (), args, kwargs), drawn with its Draw. Run in MindSpore's
interpreter this module imports numpy only."""
import random

import numpy as np

from ops_cases import FLOATS, Draw, dtype
from training_nn_cases import tensor

UNARY = ["absolute", "fabs", "negative", "positive", "sqrt", "square", "exp", "expm1", "log",
         "log1p", "log10", "log2", "floor", "rint", "sin", "cos", "tan", "arcsin", "arccos",
         "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "deg2rad",
         "radians", "rad2deg", "invert", "ceil", "trunc", "fix", "cbrt", "sign", "reciprocal",
         "exp2", "isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit",
         "logical_not", "around", "ravel", "copy", "asarray", "array", "asfarray"]
BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power",
          "float_power", "remainder", "mod", "fmod", "maximum", "minimum", "arctan2", "hypot",
          "heaviside", "logaddexp", "logaddexp2", "bitwise_and", "bitwise_or", "bitwise_xor",
          "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
          "logical_and", "logical_or", "logical_xor", "isclose", "array_equal", "array_equiv",
          "divmod"]
REDUCTIONS = ["sum", "mean", "amax", "amin", "ptp", "std", "var", "average", "argmax",
              "argmin", "cumsum", "cumprod", "count_nonzero", "nansum", "nanmean", "nanmax",
              "nanmin", "nanstd", "nanvar", "nancumsum", "sometrue"]


def operand(d, shape):
    """A tensor mostly; now and then a Python number or a list."""
    roll = d.r.random()
    if roll < 0.1:
        return d.c([2, -1.5, True, 0, 0.5])
    if roll < 0.15:
        return d.array(shape, d.c([np.int32, np.float32])).tolist()
    return d.tensor(shape)


def unary(d):
    name = d.c(UNARY)
    x = operand(d, d.shape())
    if name == "around":
        return ("function", name, (), (x,), {"decimals": d.c([0, 1])})
    return ("function", name, (), (x,), {})


def binary(d):
    name = d.c(BINARY)
    shape = d.shape()
    x1, x2 = operand(d, shape), operand(d, d.partner(shape))
    if d.r.random() < 0.2:
        x1, x2 = x2, x1
    return ("function", name, (), (x1, x2), {})


def reduction(d):
    name = d.c(REDUCTIONS)
    shape = d.c([(2, 3), (2, 1, 3), (4,), (), (0, 3), (3, 2, 2)])
    x = d.tensor(shape, d.c(FLOATS + [np.int32, np.int64, np.bool_]))
    if d.r.random() < 0.2 and x[1].dtype.kind == "f" and x[1].size:
        x[1].ravel()[0] = np.nan
    ndim = len(shape)
    axis = d.c([None, d.axis(ndim), (0, -1) if ndim > 1 else None])
    kwargs = {}
    if name in ("argmax", "argmin", "cumsum", "cumprod", "nancumsum"):
        axis = d.c([None, d.axis(ndim)])
    elif name != "average" and d.r.random() < 0.3:
        kwargs["keepdims"] = True
    if name in ("std", "var", "nanstd", "nanvar") and d.r.random() < 0.4:
        kwargs["ddof"] = 1
    if name in ("amax", "amin") and d.r.random() < 0.2:
        kwargs["initial"] = 0.5
    if name == "average" and d.r.random() < 0.4 and isinstance(axis, int) and \
            -ndim <= axis < ndim:
        kwargs["weights"] = tensor(np.abs(d.array((shape[axis],), x[1].dtype)) + 1)
    return ("function", name, (), (x, axis), kwargs)


def creation(d):
    kind = d.c([None, dtype("float32"), dtype("int32"), dtype("float16")])
    data = d.c([[1, 2, 3], [[1.5, 2], [3, 4]], [True, False], 2.5, 3, [1, 2.5]])
    square = d.tensor(d.c([(3,), (3, 3), (2, 4)]))
    choices = [
        ("function", d.c(["array", "asarray"]), (), (data,), {"dtype": kind}),
        ("function", d.c(["zeros", "ones", "empty"]), (), (d.c([(2, 3), 4, [2, 1], 0]),),
         {"dtype": kind} if kind else {}),
        ("function", "full", (), (d.c([(2, 3), 3]), d.c([1, 2.5, True, [1, 2, 3]])),
         {"dtype": kind}),
        ("function", d.c(["zeros_like", "ones_like", "empty_like"]), (), (d.tensor(),),
         {"dtype": kind}),
        ("function", "full_like", (), (d.tensor(), d.c([1, 2.5, True])), {"dtype": kind}),
        ("function", "arange", (), (d.c([0, 1, 0.5, 5]), d.c([5, 3.5, 7, None])),
         {"step": d.c([None, 1, 2, 0.5]), "dtype": kind}),
        ("function", "linspace", (), (d.c([0, -1.0]), d.c([1, 5.0]), d.c([1, 4, 5])),
         {"endpoint": d.c([True, False]), "dtype": kind}),
        ("function", d.c(["logspace", "geomspace"]), (), (d.c([1, 2.0]), d.c([3, 4.0]),
                                                          d.c([1, 3, 4])), {}),
        ("function", d.c(["eye", "tri"]), (), (d.c([1, 3]), d.c([None, 2, 4]), d.c([0, 1, -1])),
         {"dtype": kind or dtype("float32")}),
        ("function", "identity", (), (d.c([1, 3]),), {"dtype": kind or dtype("float32")}),
        ("function", d.c(["tril", "triu"]), (), (square, d.c([0, 1, -1])), {}),
        ("function", d.c(["diag", "diagflat"]), (), (square, d.c([0, 1, -1])), {}),
        ("function", "meshgrid", (), (d.tensor((3,), np.float32), d.tensor((2,), np.float32)),
         {"indexing": d.c(["xy", "ij"])}),
        ("function", "indices", (), (d.c([(2, 3), (3,)]),), {}),
        ("function", d.c(["tril_indices", "triu_indices"]), (), (d.c([2, 3]),
                                                                   d.c([0, 1, -1])), {}),
        ("function", "vander", (), (d.tensor((3,), d.c([np.float32, np.int32])),), {
            "N": d.c([None, 2, 4])}),
    ]
    return d.c(choices)


def shaping(d):
    shape = d.c([(2, 3), (3, 4), (2, 3, 2), (4,), (1, 3)])
    ndim = len(shape)
    x = d.tensor(shape)
    axis = d.axis(ndim)
    other = d.tensor(d.c([shape, shape, (5,)]), d.c([x[1].dtype, np.float32]))
    choices = [
        ("function", "reshape", (), (x, d.c([(-1,), (shape[-1], -1), (5, -1)])), {}),
        ("function", "transpose", (), (x, d.c([None, tuple(reversed(range(ndim))),
                                               (0,) * ndim])), {}),
        ("function", "moveaxis", (), (x, axis, d.axis(ndim)), {}),
        ("function", "swapaxes", (), (x, axis, d.axis(ndim)), {}),
        ("function", "rollaxis", (), (x, axis, d.c([0, 1])), {}),
        ("function", "expand_dims", (), (x, d.c([0, -1, axis, (0, 2)])), {}),
        ("function", "squeeze", (), (x, d.c([None, 0, axis])), {}),
        ("function", d.c(["atleast_1d", "atleast_2d", "atleast_3d"]), (), (x,), {}),
        ("function", "concatenate", (), ((x, other), d.c([0, axis, None])), {}),
        ("function", "stack", (), ((x, other), d.c([0, -1, axis])), {}),
        ("function", d.c(["hstack", "vstack", "dstack", "column_stack"]), (), ((x, other),),
         {}),
        ("function", "append", (), (x, other, d.c([None, 0, axis])), {}),
        ("function", d.c(["split", "array_split"]), (), (x, d.c([1, 2, 3, [1, 2]]), axis), {}),
        ("function", d.c(["hsplit", "vsplit"]), (), (x, d.c([1, 2, [1]])), {}),
        ("function", "broadcast_to", (), (x, d.c([(2,) + shape, (3,) + shape, (5,)])), {}),
        ("function", "broadcast_arrays", (), (x, d.tensor(d.partner(shape))), {}),
        ("function", "tile", (), (x, d.c([2, (2, 1), (1, 1, 2)])), {}),
        ("function", "repeat", (), (x, d.c([1, 2]), d.c([None, axis])), {}),
        ("function", "flip", (), (x, d.c([None, axis, (0, -1)])), {}),
        ("function", d.c(["fliplr", "flipud"]), (), (x,), {}),
        ("function", "roll", (), (x, d.c([1, -2, 3]), d.c([None, axis])), {}),
        ("function", "rot90", (), (x, d.c([1, 2, -1])), {}),
    ]
    return d.c(choices)


def indexing(d):
    shape = d.c([(2, 3), (3, 4), (2, 3, 2), (4,)])
    ndim = len(shape)
    x = d.tensor(shape, d.c(FLOATS + [np.int32]))
    axis = d.axis(ndim)
    size = shape[axis % ndim]
    index = tensor(d.rng.integers(-1 if d.r.random() < 0.1 else 0, size, (2,)).astype(np.int32))
    along = tensor(d.rng.integers(0, size, tuple(1 if i == axis % ndim else n
                                                for i, n in enumerate(shape))).astype(np.int32))
    mask = tensor(d.array(shape, np.bool_))
    choices = [
        ("function", "take", (), (x, index), {"axis": d.c([None, axis])}),
        ("function", "take_along_axis", (), (x, along, axis), {}),
        ("function", "choose", (), (tensor(d.rng.integers(0, 2, shape).astype(np.int32)),
                                    [x, d.tensor(shape, x[1].dtype)]), {}),
        ("function", "select", (), ([mask], [x]), {"default": d.c([0, 2.5])}),
        ("function", "where", (), (mask, x, d.c([d.tensor(d.partner(shape)), 0, 1.5])), {}),
        ("function", "diagonal", (), (x, d.c([0, 1, -1])), {}),
        ("function", "pad", (), (x, d.c([1, (1, 2)])), {"mode": d.c(["constant", "edge",
                                                                      "reflect", "wrap"])}),
        ("function", "argwhere", (), (x,), {}),
        ("function", "searchsorted", (), (tensor(np.array([1.0, 2.0, 3.0], np.float32)),
                                          tensor(d.array((3,), np.float32))), {
            "side": d.c(["left", "right"])}),
        ("function", d.c(["isin", "in1d"]), (), (x, tensor(np.array([0, 1], x[1].dtype))), {}),
    ]
    return d.c(choices)


def linalg(d):
    kind = d.c([np.float32, np.float32, np.float64, np.int32])
    m, n, k = (d.r.randint(1, 3) for _ in range(3))
    a, b = d.tensor((m, n), kind), d.tensor((n, k), d.c([kind, kind, np.float32]))
    vector = d.tensor((n,), kind)
    choices = [
        ("function", "dot", (), (d.c([a, vector]), d.c([b, vector])), {}),
        ("function", "matmul", (), (a, d.c([b, vector])), {}),
        ("function", d.c(["outer", "inner", "kron"]), (), (d.c([a, vector]),
                                                           d.c([b, vector])), {}),
        ("function", "tensordot", (), (a, b, d.c([1, 0, ((1,), (0,))])), {}),
        ("function", "cross", (), (d.tensor((2, 3), kind), d.tensor((2, 3), kind)), {}),
        ("function", "trace", (), (d.tensor((3, 3), d.c([kind, np.bool_])), d.c([0, 1])), {}),
        ("function", "multi_dot", (), ([a, b, d.tensor((k, 2), kind)],), {}),
        ("function", "matrix_power", (), (d.tensor((2, 2), kind), d.c([0, 1, 3])), {}),
        ("function", "norm", (), (d.tensor((2, 3), kind),), {
            "ord": d.c([None, 1, 2, float("inf")]), "axis": d.c([None, 1, -1]),
            "keepdims": d.c([False, True])}),
    ]
    return d.c(choices)


def numerics(d):
    """Polynomials, convolutions, statistics, sets, windows and grids."""
    kind = d.c([np.float32, np.float32, np.float64, np.int32])
    vector = d.tensor((d.r.randint(1, 4),), kind)
    other = d.tensor((d.r.randint(1, 3),), d.c([kind, np.float32]))
    rows = d.tensor((2, d.r.randint(2, 4)), kind)
    integers = tensor(d.rng.integers(0, 4, (5,)).astype(np.int32))
    choices = [
        ("function", d.c(["convolve", "correlate"]), (), (vector, other), {
            "mode": d.c(["full", "same", "valid"])}),
        ("function", d.c(["polyadd", "polysub", "polymul"]), (), (vector, other), {}),
        ("function", "polyval", (), (vector, d.tensor((2,), kind)), {}),
        ("function", d.c(["polyder", "polyint"]), (), (vector, d.c([1, 2])), {}),
        ("function", "trapz", (), (rows,), {"dx": d.c([1.0, 0.5]), "axis": d.c([-1, 0])}),
        ("function", "gradient", (), (d.c([rows, vector]),), {}),
        ("function", "unwrap", (), (tensor(np.array([0.0, 3.5, 7.0, -1.0], np.float32)),), {}),
        ("function", d.c(["cov", "corrcoef"]), (), (rows,), {"rowvar": d.c([True, False])}),
        ("function", "bincount", (), (integers,), {"minlength": d.c([0, 6])}),
        ("function", "digitize", (), (vector, tensor(np.array([-1.0, 0.0, 1.0], np.float32))),
         {"right": d.c([False, True])}),
        ("function", d.c(["histogram", "histogram_bin_edges"]), (), (rows, d.c([2, 3])), {}),
        ("function", "interp", (), (d.tensor((3,), np.float32), tensor(np.array(
            [-1.0, 0.0, 2.0], np.float32)), tensor(np.array([1.0, 3.0, -2.0], np.float32))),
         {}),
        ("function", d.c(["unique", "intersect1d", "setdiff1d"]), (), (integers, tensor(
            np.array([1, 2], np.int32))) if d.r.random() < 0.7 else (integers,), {}),
        ("function", d.c(["copysign", "gcd", "lcm"]), (), (d.tensor((3,), d.c([kind, np.int32])),
                                                          d.tensor((3,), kind)), {}),
        ("function", d.c(["bartlett", "blackman", "hamming", "hanning"]), (), (d.c([1, 4, 5]),),
         {}),
        ("function", "ix_", (), (integers, tensor(np.array([2, 0], np.int32))), {}),
        ("function", "unravel_index", (), (tensor(np.array([5, 1], np.int32)), (2, 3)), {}),
        ("function", "ravel_multi_index", (), ((tensor(np.array([1, 0], np.int32)), tensor(
            np.array([2, 1], np.int32))), (2, 3)), {}),
    ]
    return d.c(choices)


def cases(seed, count):
    r = random.Random(seed)
    makers = [unary] * 3 + [binary] * 3 + [reduction] * 3 + [creation] * 2 + [shaping] * 2 + \
        [indexing] * 2 + [linalg] * 2 + [numerics] * 2
    return [r.choice(makers)(Draw(r.randrange(1 << 30))) for _ in range(count)]
