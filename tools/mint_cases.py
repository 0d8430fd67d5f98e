"""tools/mint_vs_mindspore.py's cases: one ``mindspore.mint`` or ``mint.nn.functional``
function, or a ``mint.nn`` layer or loss cell (those MindSpore 2.10's CPU runs), called on
random arguments, valid or not (tensors of float16/32/64, int32/64 and bool, broadcast and
empty shapes; dims, sizes and options in and out of range). A case is ops_cases' ("function",
name, (), args, kwargs), or ("primitive", "nn.ReLU", init, args, {}) for a cell without
Parameters, a name with dots looked up below mint ("nn.functional.relu"); or
training_nn_cases' ("layer", name, args, kwargs, (train, input, salt)) for a mint.nn layer
with Parameters. Drawn with ops_cases' Draw; in MindSpore's interpreter this module
imports numpy only."""
import random

import numpy as np

from ops_cases import FLOATS, Draw, dtype
from training_nn_cases import tensor

UNARY = ["abs", "neg", "exp", "log", "sqrt", "rsqrt", "square", "sigmoid", "tanh", "sin",
         "cos", "floor", "ceil", "sign", "reciprocal", "erf", "erfc", "expm1", "log1p",
         "isnan", "isinf", "isfinite", "logical_not", "trunc", "asin", "atan", "sinh",
         "nn.functional.relu", "nn.functional.silu", "nn.functional.softplus",
         "nn.functional.hardswish", "nn.functional.hardsigmoid", "nn.functional.hardshrink",
         "nn.functional.softshrink", "nn.functional.sigmoid", "nn.functional.tanh"]
BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "eq", "ne", "gt", "ge", "lt", "le",
          "logical_and", "logical_or", "logical_xor", "atan2", "fmod", "remainder", "xlogy",
          "pow"]
REDUCTIONS = ["sum", "mean", "prod", "max", "min", "amax", "amin", "all", "any", "nansum"]


def unary(d):
    return ("function", d.c(UNARY), (), (d.tensor(d.shape()),), {})


def binary(d):
    name = d.c(BINARY)
    shape = d.shape()
    x = d.tensor(shape)
    other = d.c([d.tensor(d.partner(shape)), d.tensor(d.partner(shape)), 2, 0.5, True])
    kwargs = {"alpha": d.c([2, 0.5])} if name in ("add", "sub") and d.r.random() < 0.3 else {}
    return ("function", name, (), (x, other), kwargs)


def reduction(d):
    name = d.c(REDUCTIONS)
    shape = d.c([(2, 3), (2, 1, 3), (4,), (), (3, 2, 2)])
    x = d.tensor(shape, d.c(FLOATS + [np.int32, np.int64, np.bool_]))
    ndim = len(shape)
    if name in ("max", "min"):
        args = d.c([(x,), (x, d.axis(ndim))])
        return ("function", name, (), args, {"keepdim": True} if len(args) > 1 and
                d.r.random() < 0.3 else {})
    dim = d.c([None, d.axis(ndim), (0, -1) if ndim > 1 else None])
    if name == "prod":
        dim = d.c([None, d.axis(ndim)])
    kwargs = {"keepdim": d.c([False, True])}
    if name in ("sum", "mean", "prod") and d.r.random() < 0.2:
        kwargs["dtype"] = dtype(d.c(["float32", "int64"]))
    return ("function", name, (), (x, dim), kwargs)


def shaping(d):
    shape = d.c([(2, 3), (3, 4), (2, 3, 2), (4,), (1, 3)])
    ndim = len(shape)
    x = d.tensor(shape, d.c(FLOATS + [np.int32]))
    axis = d.axis(ndim)
    size = shape[axis % ndim] if -ndim <= axis < ndim else 1
    index = tensor(d.rng.integers(0, size, tuple(
        d.c([1, 2]) if i == axis % ndim else n for i, n in enumerate(shape))).astype(
        d.c([np.int64, np.int32])))
    choices = [
        ("function", "cat", (), ([x, d.tensor(shape, x[1].dtype)], axis), {}),
        ("function", "concat", (), ([x, x], axis), {}),
        ("function", "split", (), (x, d.c([1, 2, [1, size - 1]]), axis), {}),
        ("function", "chunk", (), (x, d.c([1, 2, 3]), axis), {}),
        ("function", "permute", (), (x, tuple(reversed(range(ndim)))), {}),
        ("function", "transpose", (), (x, axis, d.axis(ndim)), {}),
        ("function", "unsqueeze", (), (x, d.c([0, -1, axis])), {}),
        ("function", "squeeze", (), (x, d.c([0, axis])), {}),
        ("function", "flatten", (), (x,), {"start_dim": d.c([0, 1 if ndim > 1 else 0])}),
        ("function", "reshape", (), (x, d.c([(-1,), (shape[-1], -1)])), {}),
        ("function", "gather", (), (x, axis, index), {}),
        ("function", "narrow", (), (x, axis, d.c([0, 1]), 1), {}),
        ("function", "flip", (), (x, d.c([(0,), (axis,)])), {}),
        ("function", "tile", (), (x, d.c([(2,), (1, 2)])), {}),
        ("function", "broadcast_to", (), (x, (2,) + shape), {}),
        ("function", "t", (), (x,), {}),
        ("function", "unbind", (), (x, axis), {}),
        ("function", "select", (), (x, axis, 0), {}),
        ("function", "swapaxes", (), (x, axis, 0), {}),
        ("function", "where", (), (tensor(d.array(shape, np.bool_)), x,
                                   d.c([d.tensor(d.partner(shape)), 0.0, 2])), {}),
        ("function", "clamp", (), (x, d.c([-1, -0.5, None])), {"max": d.c([1, 0.5, None])}),
        ("function", "masked_select", (), (x, tensor(d.array(shape, np.bool_))), {}),
        ("function", "scatter", (), (x, axis, index, d.tensor(index[1].shape, x[1].dtype)), {}),
        ("function", "diff", (), (x,), {"dim": d.c([-1, 0])}),
    ]
    return d.c(choices)


def products(d):
    kind = d.c([np.float32, np.float32, np.float16, np.int32])
    m, n, k = (d.r.randint(1, 3) for _ in range(3))
    a, b = d.tensor((m, n), kind), d.tensor((n, k), d.c([kind, kind, np.float32]))
    choices = [
        ("function", "matmul", (), (a, d.c([b, d.tensor((n,), kind)])), {}),
        ("function", "bmm", (), (d.tensor((2, m, n), kind), d.tensor((2, n, k), kind)), {}),
        ("function", "softmax", (), (d.tensor((m, n), d.c(FLOATS + [np.int32])), d.c([-1, 0])),
         {}),
        ("function", "nn.functional.softmax", (), (d.tensor((m, n)),), {"dim": d.c([-1, 0])}),
        ("function", "nn.functional.glu", (), (d.tensor((2, 4)),), {"dim": d.c([-1, 0])}),
        ("function", "nn.functional.prelu", (), (d.tensor((2, 3, 2)), tensor(np.array(
            d.c([[0.25], [0.1, 0.2, 0.3]]), np.float32))), {}),
        ("function", "lerp", (), (d.tensor((2, 3)), d.tensor((2, 3)), d.c([0.5, 0.25])), {}),
        ("function", "cummax", (), (d.tensor((2, 3)), d.c([0, 1])), {}),
        ("function", "cumprod", (), (d.tensor((2, 3), d.c([np.float32, np.int32])), 1), {}),
    ]
    return d.c(choices)


def losses(d):
    logits = d.tensor((3, 4))
    probabilities = tensor(np.abs(d.array((3, 4), np.float32)) % 1)
    labels = tensor(d.rng.integers(0, 4, (3,)).astype(np.int64))
    reduction = d.c(["mean", "sum", "none"])
    choices = [
        ("function", "nn.functional.binary_cross_entropy_with_logits", (), (
            logits, probabilities), {"reduction": reduction}),
        ("function", "nn.functional.binary_cross_entropy", (), (probabilities, tensor(
            (d.array((3, 4), np.float32) > 0).astype(np.float32))), {"reduction": reduction}),
        ("function", "nn.functional.smooth_l1_loss", (), (logits, d.tensor((3, 4))), {
            "reduction": reduction, "beta": d.c([1.0, 0.5])}),
        ("function", "nn.functional.nll_loss", (), (logits, labels), {"reduction": reduction}),
        ("function", "nn.functional.group_norm", (), (d.tensor((2, 4, 3)), d.c([1, 2, 4])), {}),
    ]
    return d.c(choices)


# mint.nn's layers MindSpore 2.10's CPU build runs (measured with pynative_synchronize; the
# others lack kernels there: tests/training/test_mint_nn_layers.py checks them against torch.nn)
ACTIVATIONS = [("ReLU", ()), ("SiLU", ()), ("Sigmoid", ()), ("Tanh", ()), ("Hardswish", ()),
               ("Hardsigmoid", ()), ("Hardshrink", (0.5,)), ("Hardshrink", (1.0,)),
               ("Softshrink", (0.5,)), ("Softmax", (1,)), ("Softmax", (-1,)), ("GLU", (-1,)),
               ("Flatten", ()), ("Identity", ()), ("Dropout", (0.5,)), ("Dropout2d", (0.3,))]
LOSS_CELLS = ["SmoothL1Loss", "BCELoss", "BCEWithLogitsLoss", "NLLLoss"]


def layers(d):
    """A mint.nn layer: one with Parameters as training_nn_cases.layer_case's ("layer", name,
    args, kwargs, (train, input, salt)), run by its run_layer; one without called as a
    primitive (built with init, then called on the input); a loss cell on (input, target)."""
    c = d.c
    kind = c(["parameters"] * 3 + ["activation"] * 3 + ["pooling", "loss"])
    if kind == "parameters":
        name = c(["Linear", "GroupNorm", "PReLU"])
        n = c([1, 2])
        if name == "Linear":
            cin = c([3, 4])
            args, kwargs = (cin, c([2, 5])), {"bias": c([True, False])}
            x = d.tensor((n, c([cin, cin, cin + 1])), c([np.float32, np.float32, np.float16]))
        elif name == "GroupNorm":
            args, kwargs = (c([1, 2]), 4), {"eps": c([1e-5, 1e-3]), "affine": c([True, False])}
            x = d.tensor((n, c([4, 4, 3]), c([2, 3])))
        else:
            args, kwargs = (c([1, 3]),), {"init": c([0.25, -0.5])}
            x = d.tensor((n, 3, c([2, 4])))
        return ("layer", name, args, kwargs, (c([False, True]), x, d.r.randrange(100)))
    if kind == "activation":
        name, init = c(ACTIVATIONS)
        shape = (2, 4, c([2, 3])) if name in ("GLU", "Dropout2d") else c([(3, 4), (2, 3, 2)])
        return ("primitive", f"nn.{name}", init, (d.tensor(shape),), {})
    if kind == "pooling":
        x = d.tensor((c([1, 2]), 2, c([4, 5]), c([4, 6])))
        return c([("primitive", "nn.AdaptiveMaxPool2d", (c([1, 2, (2, 3)]),), (x,), {}),
                  ("primitive", "nn.Upsample", (None, c([2.0, 3.0])), (x,), {}),
                  ("primitive", "nn.PixelShuffle", (2,), (d.tensor((1, 4, 2, 3)),), {})])
    name = c(LOSS_CELLS)
    reduction = (c(["mean", "sum", "none"]),)
    logits = d.tensor((3, 4))
    if name == "NLLLoss":
        labels = tensor(d.rng.integers(0, 4, (3,)).astype(c([np.int64, np.int32])))
        return ("primitive", "nn.NLLLoss", (None, -100) + reduction, (logits, labels), {})
    probabilities = tensor(np.abs(d.array((3, 4), np.float32)) % 1)
    if name == "BCELoss":
        return ("primitive", "nn.BCELoss", (None,) + reduction, (probabilities, tensor(
            (d.array((3, 4), np.float32) > 0).astype(np.float32))), {})
    if name == "BCEWithLogitsLoss":
        return ("primitive", "nn.BCEWithLogitsLoss", (None,) + reduction,
                (logits, probabilities), {})
    return ("primitive", "nn.SmoothL1Loss", reduction + (c([1.0, 0.5]),),
            (logits, d.tensor((3, 4))), {})


def cases(seed, count):
    r = random.Random(seed)
    makers = [unary] * 3 + [binary] * 3 + [reduction] * 3 + [shaping] * 4 + [products] * 2 + \
        [losses] * 1 + [layers] * 3
    return [r.choice(makers)(Draw(r.randrange(1 << 30))) for _ in range(count)]
