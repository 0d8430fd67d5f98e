"""tools/ops_vs_mindspore.py's cases: one ``mindspore.ops`` function or primitive called on
random arguments, valid or not (shapes with broadcasting and empty ones; float16/32/64, int32/64
and bool tensors; Python numbers; axes, sizes and options in and out of range). A case is
(label, form, name, init, args, kwargs): form "function" calls ``ops.<name>(*args,
**kwargs)``, "primitive" calls ``ops.<name>(*init)(*args)``. Tensors are ``tensor(array)``
markers, dtypes ``dtype("float32")`` markers, each made in the library that runs the case. Run
in MindSpore's interpreter this module imports numpy only."""
import random

import numpy as np

from training_nn_cases import is_tensor, tensor

DTYPE = "__dtype__"
FLOATS = [np.float32, np.float32, np.float16, np.float64]
DTYPES = FLOATS + [np.int32, np.int64, np.bool_]
SHAPES = [(), (3,), (2, 3), (2, 1, 3), (0, 3), (4, 1), (1, 3)]


def dtype(name):
    return (DTYPE, name)


class Draw:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.rng = np.random.default_rng(seed)

    def c(self, options):
        return self.r.choice(options)

    def shape(self):
        return self.c(SHAPES)

    def array(self, shape, kind=None, low=-3, high=4, extremes=False):
        """Random values of `kind`; with `extremes`, float16 ones now and then across float16's
        whole range (`float16_range`)."""
        kind = kind or self.c(DTYPES)
        if extremes and np.dtype(kind) == np.float16 and self.r.random() < 0.5:
            return self.float16_range(shape)
        if np.dtype(kind).kind == "b":
            return np.asarray(self.rng.integers(0, 2, shape)).astype(bool)
        if np.dtype(kind).kind in "iu":
            return np.asarray(self.rng.integers(low, high, shape)).astype(kind)
        scale = self.c([1.0, 2.0, 0.5])
        values = np.asarray(self.rng.standard_normal(shape) * scale)
        if self.r.random() < 0.15:
            values = np.round(values * 2) / 2       # ties and exact halves
        return values.astype(kind)

    def float16_range(self, shape):
        """float16 magnitudes from subnormals (6e-8) to near its largest, now and then exactly
        0, -0.0, 6e-8, 6.1e-5 (the smallest normal), 6e4 or 65504: where a float16 step of a
        kernel overflows or flushes, its rounding order shows."""
        size = int(np.prod(shape))
        magnitude = np.exp(self.rng.uniform(np.log(6e-8), np.log(6.5e4), size))
        special = self.rng.random(size) < 0.25
        magnitude[special] = self.rng.choice([0.0, 6e-8, 6.1e-5, 1e-4, 300.0, 6e4, 65504.0],
                                             int(special.sum()))
        sign = np.where(self.rng.random(size) < 0.5, -1.0, 1.0)
        return np.asarray((magnitude * sign).reshape(shape), np.float16)

    def tensor(self, shape=None, kind=None, **options):
        return tensor(self.array(self.shape() if shape is None else shape, kind, **options))

    def partner(self, shape):
        """A shape that broadcasts with `shape` (now and then one that does not)."""
        options = [shape, shape, shape[1:], tuple(1 if self.r.random() < 0.5 else n
                                                  for n in shape), ()]
        if self.r.random() < 0.08:
            options = [(5,), (2, 2)]
        return self.c(options)

    def float_kind(self):
        return self.c(FLOATS)

    def axis(self, ndim):
        return self.c(list(range(-max(ndim, 1), max(ndim, 1))) + [max(ndim, 1)] *
                      (self.r.random() < 0.1))


UNARY = {"ceil": "Ceil", "floor": "Floor", "round": "Round", "sign": "Sign", "sin": "Sin",
         "cos": "Cos", "tan": "Tan", "asin": "Asin", "acos": "ACos", "atan": "Atan",
         "sinh": "Sinh", "cosh": "Cosh", "asinh": "Asinh", "acosh": "Acosh", "atanh": "Atanh",
         "reciprocal": "Reciprocal", "rsqrt": "Rsqrt", "erf": "Erf", "erfc": "Erfc",
         "expm1": "Expm1", "log1p": "Log1p", "isnan": "IsNan", "isinf": "IsInf",
         "isfinite": "IsFinite", "logical_not": "LogicalNot", "neg": "Neg", "abs": "Abs",
         "square": "Square", "sqrt": "Sqrt", "exp": "Exp", "log": "Log", "tanh": "Tanh",
         "sigmoid": "Sigmoid"}
BINARY = {"atan2": "Atan2", "floor_div": "FloorDiv", "floor_mod": "FloorMod",
          "remainder": None, "fmod": "Mod", "xlogy": "Xlogy", "ne": "NotEqual",
          "ge": "GreaterEqual", "le": "LessEqual", "logical_and": "LogicalAnd",
          "logical_or": "LogicalOr", "logical_xor": "LogicalXor", "bitwise_and": "BitwiseAnd",
          "bitwise_or": "BitwiseOr", "bitwise_xor": "BitwiseXor", None: "DivNoNan",
          "mul_no_nan": "MulNoNan", "squared_difference": "SquaredDifference", "add": "Add",
          "sub": "Sub", "mul": "Mul", "div": "RealDiv", "pow": "Pow", "maximum": "Maximum",
          "minimum": "Minimum", "equal": "Equal", "greater": "Greater", "less": "Less"}


def unary(d):
    name, primitive = d.c(sorted(UNARY.items()))
    # (Tanh and Sigmoid of other types: MindSpore's CPU kernel errors, not checked here)
    x = d.tensor(kind=d.c([np.float16, np.float32]) if name in ("tanh", "sigmoid") else None,
                 extremes=True)
    if d.r.random() < 0.5:
        return ("function", name, (), (x,), {})
    return ("primitive", primitive, (), (x,), {})


def binary(d):
    name, primitive = d.c(sorted(BINARY.items(), key=str))
    shape = d.shape()
    x = d.tensor(shape, extremes=True)
    y = d.tensor(d.partner(shape), extremes=True) if d.r.random() < 0.8 else \
        d.c([2, -1.5, True, 0])
    if d.r.random() < 0.2:
        x, y = y, x
    if name and (primitive is None or d.r.random() < 0.5) and name != "mul_no_nan" and \
            name != "squared_difference":
        return ("function", name, (), (x, y), {})
    return ("primitive", primitive, (), (x, y), {})


def ternary(d):
    kind = d.float_kind()
    shape = d.shape()
    other = lambda: d.tensor(d.partner(shape), kind if d.r.random() < 0.9 else None)  # noqa
    name = d.c(["lerp", "addcmul", "addcdiv", "clamp", "clip_by_value", "masked_fill",
                "where"])
    x = d.tensor(shape, kind)
    if name == "lerp":
        return ("function", name, (), (x, other(), d.c([0.3, other()])), {})
    if name in ("addcmul", "addcdiv"):
        return ("function", name, (), (x, other(), other()), {"value": d.c([1, 0.5, 2])})
    if name in ("clamp", "clip_by_value"):
        low, high = d.c([None, -0.5, other()]), d.c([None, 0.7, other()])
        return ("function", name, (), (x, low, high), {})
    mask = tensor(d.array(d.partner(shape), np.bool_ if d.r.random() < 0.9 else np.int32))
    if name == "where":
        return ("function", name, (), (mask, x, other()), {})
    return ("function", name, (), (x, mask, d.c([0.5, 2, tensor(np.asarray(1.5, kind))])),
            {})


def reduction(d):
    shape = d.c([(2, 3), (2, 1, 3), (4,), (), (0, 3), (3, 2, 2)])
    x = d.tensor(shape, d.c(FLOATS + [np.int32]))
    ndim = len(shape)
    axis = d.axis(ndim)
    axes = d.c([(), None, axis, (0, -1) if ndim > 1 else axis])
    keep = d.c([False, True])
    choices = [
        ("function", "prod", (), (x, axes, keep), {}),
        ("primitive", "ReduceProd", (keep,), (x, axes if axes is not None else ()), {}),
        ("function", d.c(["all", "any"]), (), (x, axes, keep), {}),
        ("primitive", d.c(["ReduceAll", "ReduceAny"]), (keep,), (
            tensor(d.array(shape, np.bool_)), axes if axes is not None else ()), {}),
        ("function", "argmin", (), (x, d.c([None, axis]), keep), {}),
        ("function", d.c(["max", "min"]), (), (x, d.c([None, axis]), keep), {}),
        ("primitive", d.c(["ArgMaxWithValue", "ArgMinWithValue"]), (axis, keep), (x,), {}),
        ("primitive", "Argmin", (axis,), (x,), {}),
        ("function", d.c(["cumsum", "cumprod"]), (), (x, axis), {}),
        ("primitive", d.c(["CumSum", "CumProd"]), (d.c([False, True]), d.c([False, True])),
         (x, axis), {}),
        ("function", "sort", (), (x, axis, d.c([False, True])), {}),
        ("primitive", "Sort", (axis, d.c([False, True])), (x,), {}),
        ("function", "topk", (), (x, d.c([0, 1, 2, 3])), {"dim": d.c([None, axis]),
                                                           "largest": d.c([True, False])}),
        ("primitive", "TopK", (), (x, d.c([1, 2, 5])), {}),
        ("function", "norm", (), (x, d.c([None, 2, 1, float("inf"), 3, 0])), {
            "dim": d.c([None, axis]), "keepdim": keep}),
        ("primitive", "LpNorm", (axis, d.c([1, 2]), keep), (x,), {}),
        ("primitive", "L2Normalize", (axis, d.c([1e-4, 1e-12])), (x,), {}),
        ("function", "count_nonzero", (), (x, axes if axes is not None else (), keep), {}),
        ("function", d.c(["std", "var"]), (), (x, d.c([None, axis, (0, -1) if ndim > 1 else
                                                       axis]), d.c([0, 1]), keep), {}),
        ("function", "logsumexp", (), (x, axis, keep), {}),
    ]
    return d.c(choices)


def indexing(d):
    shape = d.c([(2, 3), (3, 4), (2, 3, 2), (4,)])
    ndim = len(shape)
    x = d.tensor(shape, d.c(FLOATS + [np.int32]))
    axis = d.axis(ndim)
    index_kind = d.c([np.int32, np.int64, np.int32, np.float32])
    cut = tuple(d.r.randint(1, n) for n in shape)
    wide = d.r.randint(0, 1) if d.r.random() < 0.9 else 1
    index = tensor(d.rng.integers(-wide, shape[axis % ndim] + (d.r.random() < 0.08),
                                  cut).astype(index_kind))
    depth = d.r.randint(1, ndim)
    nd = tensor(np.stack([d.rng.integers(0, shape[k] + (d.r.random() < 0.05), (2,))
                          for k in range(depth)], -1).astype(index_kind))
    updates = tensor(d.array((2,) + shape[depth:], x[1].dtype))
    pairs = [d.r.randint(0, 2) for _ in range(2 * d.r.randint(1, ndim))]
    begin = [d.r.randint(0, n - 1) for n in shape]
    choices = [
        ("function", d.c(["gather_d", "gather_elements"]), (), (x, axis, index), {}),
        ("primitive", "GatherD", (), (x, axis, index), {}),
        ("function", "gather_nd", (), (x, nd), {}),
        ("primitive", "GatherNd", (), (x, nd), {}),
        ("function", "scatter_nd", (), (nd, updates, shape), {}),
        ("function", d.c(["tensor_scatter_update", "tensor_scatter_add"]), (), (x, nd, updates),
         {}),
        ("function", "broadcast_to", (), (x, d.c([(2,) + shape, (-1,) * ndim, (3,) + shape,
                                                  (5,)])), {}),
        ("function", d.c(["tril", "triu"]), (), (x, d.c([0, 1, -1, 3])), {}),
        ("primitive", d.c(["Tril", "Triu"]), (d.c([0, 1, -1]),), (x,), {}),
        ("function", "diag", (), (tensor(d.array(d.c([(3,), (2, 2)]), x[1].dtype)),), {}),
        ("function", "roll", (), (x, d.c([1, -2, 3]), d.c([axis, None])), {}),
        ("function", "flip", (), (x, d.c([(axis,), (0, -1), axis])), {}),
        ("primitive", "ReverseV2", (d.c([(axis,), (0,)]),), (x,), {}),
        ("function", d.c(["unstack", "unbind"]), (), (x, axis), {}),
        ("function", "pad", (), (x, tuple(pairs)), {"mode": d.c(["constant", "constant",
                                                                 "reflect", "replicate",
                                                                 "circular"])}),
        ("primitive", "Pad", (tuple((d.r.randint(0, 2), d.r.randint(0, 2)) for _ in shape),),
         (x,), {}),
        ("function", "bias_add", (), (x, tensor(d.array((shape[1 % ndim],), x[1].dtype))), {}),
        ("function", "slice", (), (x, begin, [d.c([1, -1]) for _ in shape]), {}),
        ("function", "strided_slice", (), (x, begin, [n for n in shape], [
            d.c([1, 2]) for _ in shape]), {"shrink_axis_mask": d.c([0, 0, 1]),
                                           "end_mask": d.c([0, 1])}),
        ("function", "masked_select", (), (x, tensor(d.array(d.partner(shape), np.bool_))), {}),
        ("function", "einsum", (), (d.c(["ij,jk->ik", "ij->ji", "ij,ij->i", "ij->"]),
                                    tensor(d.array((2, 3), np.float32)),
                                    tensor(d.array((3, 3) if d.r.random() < 0.5 else (2, 3),
                                                   np.float32))), {}),
        ("function", "narrow", (), (x, axis, d.r.randint(0, 1), d.r.randint(0, 2)), {}),
        ("function", "chunk", (), (x, d.c([1, 2, 3]), axis), {}),
        ("function", d.c(["size", "rank", "numel", "identity"]), (), (x,), {}),
        ("function", "meshgrid", (), (tensor(d.array((3,), np.float32)),
                                      tensor(d.array((2,), np.float32))),
         {"indexing": d.c(["xy", "ij"])}),
        ("function", "full_like", (), (x, d.c([1, 2.5])), {}),
        ("function", "repeat_interleave", (), (x, d.c([1, 2]), d.c([None, axis])), {}),
        ("function", "nan_to_num", (), (tensor(np.array([np.nan, np.inf, -np.inf, 1.5],
                                                        d.float_kind())),), {}),
    ]
    return d.c(choices)


def creation(d):
    kind = d.c([None, dtype("float32"), dtype("int32"), dtype("float16")])
    choices = [
        ("function", "eye", (), (d.c([1, 3]), d.c([None, 2, 4])), {"dtype": kind}),
        ("function", "arange", (), (d.c([0, 1, 0.5]), d.c([5, 3.5, 7])), {
            "step": d.c([1, 2, 0.5]), "dtype": kind}),
        ("function", "linspace", (), (d.c([0.0, -1.0]), d.c([1.0, 5.0]), d.c([1, 4, 5])), {}),
        ("function", "full", (), (d.c([(2, 3), (4,)]), d.c([1, 2.5, True])), {"dtype": kind}),
        ("function", "addn", (), ([d.tensor((2, 3), np.float32) for _ in range(3)],), {}),
    ]
    return d.c(choices)


def sparse_labels(d, batch, classes, frames):
    """TensorFlow's sparse labels: (batch, position) int64 pairs and int32 values in [0,
    classes - 1) (now and then the blank, or too many for the frames)."""
    indices, values = [], []
    for row in range(batch):
        length = d.r.randint(0, frames + (d.r.random() < 0.1))
        for position in range(length):
            indices.append((row, position))
            values.append(d.r.randrange(classes - 1 + (d.r.random() < 0.03)))
    return tensor(np.asarray(indices, np.int64).reshape(-1, 2)), tensor(np.asarray(values,
                                                                                   np.int32))


def zoo_primitives(d):
    """InvertPermutation on tuples (now and then no permutation) and TensorFlow's CTCLoss on
    random logits, sparse labels (repeats included) and frame counts, every option drawn."""
    if d.r.random() < 0.3:
        perm = list(range(d.r.randint(1, 6)))
        d.r.shuffle(perm)
        if d.r.random() < 0.2:
            perm[0] = d.c([perm[-1], len(perm), -1, 1.0])
        return ("primitive", "InvertPermutation", (), (d.c([tuple, list])(perm),), {})
    frames, batch, classes = d.c([3, 5, 7]), d.c([1, 2, 3]), d.c([2, 3, 5])
    init = tuple(d.r.random() < 0.3 for _ in range(3))
    if d.r.random() < 0.05:
        init = (1,) + init[1:]
    logits = d.tensor((frames, batch, classes), d.c([np.float32, np.float32, np.float64]))
    lengths = np.asarray([d.r.randint(max(frames - 2, 1), frames) for _ in range(batch)],
                         np.int32)
    return ("primitive", "CTCLoss", init, (logits,) + sparse_labels(d, batch, classes, frames)
            + (tensor(lengths),), {})


def clip_and_unfold(d):
    """ops.clip_by_norm of a tensor or a list of them (norms above and below max_norm, every
    norm_type, NaN or inf now and then) or ops.unfold of an NCHW image (every option drawn,
    now and then a wrong one)."""
    if d.r.random() < 0.5:
        kind = d.c([np.float32, np.float32, np.float16, np.float64])
        tensors = [d.tensor(d.c([(3,), (2, 3), ()]), kind) for _ in range(d.c([1, 1, 2, 3]))]
        if d.r.random() < 0.1:
            tensors[0][1].ravel()[:1] = d.c([np.nan, np.inf])
        x = tensors[0] if len(tensors) == 1 and d.r.random() < 0.7 else d.c([list, tuple])(
            tensors)
        return ("function", "clip_by_norm", (), (x, d.c([0.5, 1.0, 10.0, 2])), {
            "norm_type": d.c([2.0, 2.0, 1, 3.0, float("inf"), 4]),
            "error_if_nonfinite": d.c([False, False, True])})
    sizes = lambda good, bad: d.c(good + bad * (d.r.random() < 0.1))   # noqa: E731
    kwargs = {"dilation": sizes([1, 2, (1, 2)], [0]), "padding": sizes([0, 1, (1, 0)], [-1]),
              "stride": sizes([1, 2, (2, 1)], [(1, 1, 1)])}
    x = d.tensor(d.c([(1, 2, 5, 6), (2, 1, 4, 4), (1, 1, 3, 5)] + [(2, 4, 4)] * (
        d.r.random() < 0.1)), d.c(FLOATS + [np.int32]))
    return ("function", "unfold", (), (x, sizes([1, 2, 3, (2, 3), [2, 1]], [0, 2.0])), kwargs)


def documented_clip_by_norm(case, why):
    """The README's word for an ops.clip_by_norm difference it lists as a deviation, or None."""
    norm_type = case[4]["norm_type"]
    if norm_type == float("inf") or not norm_type % 2:
        return None
    if "largest difference" in why:
        return ("ops.clip_by_norm takes the norm of the magnitudes (MindSpore 2.10 raises the "
                "signed values to norm_type: with an odd or fractional one negative values "
                "cancel or give NaN, [[3, -4], [1, 2]] with norm_type 1 has norm 2 there)")
    if "non-finite" in why and "in MindSpore only" in why and signed_norm_nan(case):
        return ("ops.clip_by_norm takes the norm of the magnitudes, so error_if_nonfinite "
                "raises only where it is not finite (MindSpore 2.10's signed norm is NaN where "
                "a tensor's signed sum of powers is negative, and it raises there)")
    return None


def signed_norm_nan(case):
    """Whether MindSpore's norm of the signed values (a tensor's sum of x ** norm_type to the
    power 1 / norm_type) is NaN for one of the case's tensors."""
    given, norm_type = case[3][0], case[4]["norm_type"]
    arrays = [value[1] for value in ([given] if is_tensor(given) else given)]
    with np.errstate(all="ignore"):
        return any(np.isnan(np.sum(a.astype(np.float64) ** norm_type) ** (1 / norm_type))
                   for a in arrays)


def documented_unfold(case, why):
    """The README's word for an ops.unfold difference it lists as a deviation, or None."""
    if "raises ValueError here only" in why and "Im2Col" in why:
        return ("ops.unfold refuses a dilated kernel larger than the padded input (MindSpore "
                "2.10 rounds the window count toward zero: one window past the image when the "
                "shortfall is below the stride, its missing elements 0)")
    return None


def cases(seed, count):
    r = random.Random(seed)
    makers = [unary] * 3 + [binary] * 3 + [ternary] * 2 + [reduction] * 3 + [indexing] * 3 + \
        [creation, zoo_primitives, clip_and_unfold]
    return [r.choice(makers)(Draw(r.randrange(1 << 30))) for _ in range(count)]


def documented_ctc(case, why):
    """The README's word for a CTCLoss difference it lists as a deviation, or None."""
    _, _, init, args, _ = case
    frames, batch = args[0][1].shape[:2]
    rows, lengths = args[1][1][:, 0], args[3][1]
    labels = [int((rows == b).sum()) for b in range(batch)]
    if any(count == 0 for count in labels):
        return ("CTCLoss takes a sequence without labels (its loss: every frame the blank; "
                "MindSpore 2.10's CPU kernel raises RuntimeError 'log_beta_b' or leaves the last "
                "frame out)")
    if "raises RuntimeError in MindSpore only" in why and "log_beta_b" in why:
        return ("CTCLoss runs one-frame sequences, with ignore_longer_outputs_than_inputs "
                "others too (MindSpore 2.10's CPU kernel: RuntimeError 'log_beta_b')")
    if init[2] is True and "largest difference" in why and any(
            n > t for n, t in zip(labels, lengths)):
        return ("CTCLoss(ignore_longer_outputs_than_inputs=True) gives a sequence with more "
                "labels than frames a loss and gradient of 0, as documented (MindSpore 2.10's "
                "CPU kernel: the float maximum)")
    if "raises RuntimeError here only" in why and "num_classes - 1" in why:
        return ("CTCLoss refuses a label equal to the blank (num_classes - 1), as TensorFlow's "
                "(MindSpore 2.10 takes it and gives a loss of no defined meaning)")
    if (why.startswith("step 1:") or "step 0: element 1:" in why) and (
            "largest difference" in why or "NaN at other places" in why) and \
            min(lengths) < frames:
        return ("CTCLoss's gradient, output and through autodiff, is 0 on the frames past a "
                "sequence's length (MindSpore 2.10's CPU kernel leaves them unwritten: other "
                "memory's values now and then, measured; its loss does not depend on them)")
    return None
