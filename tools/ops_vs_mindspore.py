"""``training.ops`` (= ``mindspore.ops``) against MindSpore 2.10, on random arguments.

Each case (tools/ops_cases.py) calls one element-wise math, comparison or logic function or
primitive, a reduction or search, an indexing, shape or creation op, on random arguments,
valid or not (broadcast and empty shapes; float16/32/64, int32/64 and bool tensors; Python
numbers; axes, sizes and options in and out of range); then, where the result is a float
tensor, takes the gradient of sum(result * fixed weights) with respect to every float tensor
argument (``ms.grad`` in MindSpore's interpreter, ``training.ops.grad`` here). It runs in
MindSpore's interpreter (``--mindspore-python``; PyNative synchronous, so that a failed op's
error is not raised again by the next case) and here twice: on numpy-backend Tensors and on
torch tensors. The outcomes are compared step by step as tools/training_vs_mindspore.py
compares them: where it raises (another exception type counted apart as "error type"), the
structure, dtypes, shapes and values (floats within 1e-5 of the largest magnitude, float16
within two ulps; the numpy backend's float16 results of the element-wise ops in FLOAT16_EXACT
bit for bit, signed zeros included). Differences the README documents as deviations are
counted apart.

    .venv/bin/python tools/ops_vs_mindspore.py [--seed 1] [--cases 300]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import importlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
from ops_cases import (DTYPE, cases, documented_clip_by_norm, documented_ctc,  # noqa: E402
                       documented_unfold)
from training_nn_cases import is_tensor, output_weights              # noqa: E402
from training_vs_mindspore import difference, error, plain           # noqa: E402

CASE_TIMEOUT_S = 30
# element-wise ops whose float16 forward and gradients the numpy backend rounds as MindSpore's
# kernels (measured on every float16 value); exp, atan, tan, cosh, acosh, erf and erfc stay
# within the float16 tolerance (MindSpore's own approximations: its exp is an ulp off on 10)
FLOAT16_EXACT = {"asin", "Asin", "acos", "ACos", "asinh", "Asinh", "atanh", "Atanh",
                 "sqrt", "Sqrt", "log", "Log", "tanh", "Tanh", "sigmoid", "Sigmoid", "log1p",
                 "Log1p", "expm1", "Expm1", "sin", "Sin", "cos", "Cos", "reciprocal",
                 "Reciprocal", "square", "Square", "rsqrt", "Rsqrt", "abs", "Abs", "neg", "Neg",
                 "xlogy", "Xlogy", "pow", "Pow", "atan2", "Atan2", "maximum", "Maximum",
                 "minimum", "Minimum", "div", "RealDiv", "mul", "Mul", "add", "Add", "sub",
                 "Sub"}


class Library:
    """``mindspore.ops`` or ``training.ops``; this package on the numpy backend or, with
    ``torch``, its tensor arguments torch tensors."""

    def __init__(self, name, torch=False):
        self.root = importlib.import_module(name)
        if hasattr(self.root, "set_backend"):       # this package
            self.root.set_backend("torch" if torch else "numpy")
        else:       # MindSpore: a failed op's error must not come back at the next op
            self.root.set_context(pynative_synchronize=True)
        self.ops = importlib.import_module(f"{name}.ops")
        self.torch = importlib.import_module("torch") if torch else None

    def resolve(self, value):
        """Markers to this library's objects, keyword arguments' (dtype=...) included."""
        if isinstance(value, dict):
            return {key: self.resolve(item) for key, item in value.items()}
        if is_tensor(value):
            return self.torch.tensor(value[1]) if self.torch else self.root.Tensor(value[1])
        if isinstance(value, tuple) and len(value) == 2 and value[0] == DTYPE:
            return getattr(self.root, value[1])
        if isinstance(value, (tuple, list)):
            return type(value)(self.resolve(item) for item in value)
        return value


def run_case(lib, case):
    """[forward outcome] and, for a float tensor result, [..., gradients outcome]."""
    form, name, init, args, kwargs = case
    try:
        op = getattr(lib.ops, name)
        call = op(*lib.resolve(init)) if form == "primitive" else op
        inputs, options = lib.resolve(args), lib.resolve(kwargs)
        out = call(*inputs, **options)
        made = [("ok", plain(out))]
    except Exception as exc:            # an outcome to compare, like a value
        return [error(exc)]
    first = out[0] if isinstance(out, (tuple, list)) and out else out
    dtype = str(getattr(first, "dtype", "")).lower()
    positions = tuple(i for i, value in enumerate(args) if is_tensor(value) and
                      value[1].dtype.kind == "f")
    if "float" not in dtype or not positions or isinstance(out, (tuple, list)) and \
            name in ("unstack", "unbind", "chunk", "meshgrid"):
        return made
    weights = lib.resolve(("__tensor__", output_weights(tuple(first.shape)).astype(
        dtype.replace("torch.", "").replace("mindspore.", ""))))

    def loss(*tensors):
        given = list(inputs)
        for position, value in zip(positions, tensors):
            given[position] = value
        result = call(*given, **options)
        result = result[0] if isinstance(result, (tuple, list)) else result
        return (result * weights).sum()
    try:
        grads = lib.ops.grad(loss, grad_position=tuple(range(len(positions))))(
            *[inputs[p] for p in positions])
        # (MindSpore gives one position's gradient bare, this package in a tuple)
        made.append(("ok", plain(list(grads) if isinstance(grads, (tuple, list)) else [grads])))
    except Exception as exc:
        made.append(error(exc))
    return made


def outcomes(library_name, seed, count, start=0):
    return differential_reference.case_by_case(lambda name: Library(name), cases, run_case)(
        library_name, seed, count, start)


def classify(case, ours, theirs):
    """(kind, item, why) or (None, None, None); `ours` is (numpy backend, torch backend)."""
    if theirs and theirs[0][0] == "crash":
        return "MindSpore crashed", "crash", theirs[0][1][2]
    for backend, mine in zip(("", "torch backend: "), ours):
        if mine is None:
            continue
        steps = min(len(mine), len(theirs))
        why = difference(mine, theirs) if mine[steps - 1][0] == "error" or theirs[
            steps - 1][0] == "error" or len(mine) == len(theirs) else \
            difference(mine[:1], theirs[:1]) or f"{len(mine)} steps here, {len(theirs)} in " \
            f"MindSpore"
        if not why and not backend and case[1] in FLOAT16_EXACT:
            why = float16_bits(mine, theirs)
        if why:
            word = documented(case, backend + why)
            return ("documented" if word else "different", "outcome", backend + why +
                    (f" [documented: {word}]" if word else ""))
    return error_type(ours[0], theirs)


def error_type(ours, theirs):
    """("error type", "outcome", why) for the first step where both raise, another exception
    type each; (None, None, None) if there is none."""
    for mine, reference in zip(ours, theirs):
        if mine[0] == reference[0] == "error" and mine[1] != reference[1]:
            return "error type", "outcome", f"{mine[1]} here, {reference[1]} in MindSpore: " \
                f"{reference[2][:120]}"
    return None, None, None


def float16_bits(ours, theirs):
    """Why float16 values that agree within the tolerance differ in their bits, or None."""
    if isinstance(ours, (list, tuple)) and ours and isinstance(ours[0], str):
        kind, value = ours[0], ours[1] if len(ours) > 1 else None
        if kind in ("ok", "list") and theirs[0] == kind:
            return float16_bits(value, theirs[1])
        if kind in ("Tensor", "array") and theirs[0] == kind and value.dtype == np.float16:
            other = theirs[1]
            same = (value.view(np.uint16) == other.view(np.uint16)) | (
                np.isnan(value) & np.isnan(other))
            if not same.all():
                where = np.flatnonzero(~same)[:3]
                return f"float16 bits differ: {value.ravel()[where]} here, " \
                    f"{other.ravel()[where]} in MindSpore"
        return None
    if isinstance(ours, (list, tuple)):
        return next((why for why in (float16_bits(a, b) for a, b in zip(ours, theirs)) if why),
                    None)
    return None


def zero_by_zero(args):
    """Whether a float dividend holds 0 where its divisor does (both tensors or numbers)."""
    x, y = (np.asarray(value[1] if is_tensor(value) else value) for value in args[:2])
    if np.result_type(x, y).kind != "f":
        return False
    try:
        x, y = np.broadcast_arrays(x, y)
    except ValueError:
        return False
    return bool(((x == 0) & (y == 0)).any())


def tiny_divisor(args):
    """Whether a float32/float64 division's divisor holds a non-zero |y| <= its epsilon."""
    x, y = (np.asarray(value[1] if is_tensor(value) else value) for value in args[:2])
    dtype = np.result_type(x, y)
    if dtype not in (np.float32, np.float64):
        return False
    y = np.abs(y.astype(dtype))
    return bool(((y != 0) & (y <= np.finfo(dtype).eps)).any())


def exclusive_over_one(args):
    """Whether a CumProd's axis (its second argument) has size 1."""
    shape = args[0][1].shape if is_tensor(args[0]) else ()
    axis = args[1] if len(args) > 1 else None
    return isinstance(axis, int) and -len(shape) <= axis < len(shape) and shape[axis] == 1


def documented(case, why):
    """The README's word for a difference it lists as a deviation, or None."""
    form, name, init, args, kwargs = case
    arrays = [value[1] for value in args if is_tensor(value)]
    theirs_only = "raises" in why and "in MindSpore only" in why
    gradient = why.startswith("step 1:")
    empty = any(a.size == 0 for a in arrays)
    rules = [
        (name == "CTCLoss", name == "CTCLoss" and documented_ctc(case, why)),
        (gradient and name in FLOAT16_EXACT and any(a.dtype == np.float16 for a in arrays) and
         ("largest difference inf" in why or "NaN at other places" in why),
         "a float16 gradient whose float16 step overflows though the gradient is finite is "
         "computed in float32 and rounded once (MindSpore 2.10: inf or NaN, xlogy's gradient "
         "for y inf for 8928)"),
        (name in ("log1p", "Log1p", "expm1", "Expm1") and
         any(a.dtype == np.float16 for a in arrays) and "theirs" not in why and
         "raises" not in why,
         "log1p and expm1 of float16 are computed in float32 and rounded once (MindSpore 2.10 "
         "rounds 1 + x and exp(x) to float16 first: log1p(0.0012235) 0.000976, expm1(1e-7) 0)"),
        (name == "clip_by_norm", name == "clip_by_norm" and documented_clip_by_norm(case, why)),
        (name == "unfold", name == "unfold" and documented_unfold(case, why)),
        (name in ("roll", "Roll") and "Roll unregistered" in why,
         "roll has a CPU kernel (MindSpore 2.10's CPU build: RuntimeError 'The kernel Roll "
         "unregistered')"),
        (name in ("Mod", "fmod", "FloorMod", "floor_mod", "remainder", "FloorDiv", "floor_div")
         and all(a.dtype.kind in "iub" for a in arrays) and "largest difference" in why,
         "integer division and remainder by zero give 0 (MindSpore: undefined values)"),
        (name == "Mod" and not gradient and zero_by_zero(args) and "NaN" in why,
         "Mod of a float 0 by 0 is NaN, as fmod's (MindSpore 2.10's Mod primitive: 0, its fmod "
         "NaN)"),
        (name in ("ReduceProd", "prod") and gradient and args[1] == (),
         "ReduceProd over every axis (axis=()) has the product's gradient (MindSpore's is "
         "ones)"),
        (name in ("xlogy", "Xlogy") and "NaN at other places" in why,
         "xlogy is 0 where x is 0 and y is not NaN, as documented (MindSpore's CPU kernel: "
         "NaN where log(y) is not finite)"),
        (name == "slice" and gradient and theirs_only and -1 in list(args[2]),
         "slice with a size of -1 has a gradient (MindSpore: RuntimeError in SliceGrad)"),
        (gradient and theirs_only and empty and name in (
            "sort", "Sort", "L2Normalize", "CumProd", "cumprod", "TopK", "topk"),
         "the gradient of an op on an empty tensor is an empty tensor (MindSpore: errors in "
         "the gradients of sort, L2Normalize, CumProd and TopK)"),
        (name in ("any", "all", "ReduceAny", "ReduceAll") and "largest difference" in why and
         (empty or arrays[0].dtype.kind != "b"),
         "any/all of an empty axis are False/True and of numbers test for non-zero (MindSpore's "
         "CPU kernel: any over an empty axis, or of int and float tensors, gives wrong values: "
         "any([[-0.5, 0.5, 0], [-0., 0., 0.]], 0) is [True, False, False])"),
        (not gradient and empty and "raises" not in why and name in (
            "LpNorm", "norm", "prod", "ReduceProd", "max", "min", "count_nonzero",
            "logsumexp", "var", "std"),
         "a reduction over an empty axis gives its identity, in the type of the non-empty "
         "case (MindSpore's LpNorm, logsumexp and count_nonzero give arbitrary values, prod "
         "of int32 int32, var with ddof 1 of nothing 0)"),
        (gradient and empty and "largest difference" in why,
         "gradients through an empty tensor are zeros (MindSpore's where, lerp and Sub give "
         "others to a 0-d input beside an empty one)"),
        (name in ("pow", "Pow") and "largest difference" in why and all(
            a.dtype.kind in "biu" for a in arrays),
         "an integer 0 to a negative power gives the integer type's largest value "
         "(MindSpore: its smallest)"),
        (theirs_only and "Failed calling" in why and any(isinstance(a, (int, float))
                                                         for a in args),
         "ops take a Python number beside a tensor wherever one of them does (MindSpore's "
         "less(0, x), Equal()(2, x), Xlogy()(x, 2): TypeError)"),
        (name in ("CumProd", "cumprod") and "step 1:" in why and "NaN at other places" in why,
         "cumprod's gradient where the input holds zeros (MindSpore's: NaN at other places)"),
        (name == "strided_slice" and gradient and theirs_only and "StridedSliceGrad" in why,
         "strided_slice with shrink_axis_mask has a gradient (MindSpore 2.10's CPU kernel: "
         "RuntimeError 'For StridedSliceGrad, 0 input memory out of bounds')"),
        (name in ("clamp", "clip") and gradient and " here, float" in why,
         "gradients have the type of the tensor they are of (MindSpore's clamp gives every "
         "gradient the result's type: float64 for a float32 input beside a float64 bound)"),
        (name in ("DivNoNan", "div_no_nan") and "largest difference" in why and
         tiny_divisor(args),
         "DivNoNan divides by every non-zero y (MindSpore 2.10's float32 and float64 kernels "
         "give 0 where |y| is at most the type's epsilon: DivNoNan(1, 1e-7) 0, 1e7 here)"),
        (name == "einsum" and theirs_only,
         "einsum runs on the CPU (MindSpore 2.10's CPU build: RuntimeError)"),
        ("largest difference inf" in why and any(np.signbit(a[a == 0]).any() for a in arrays),
         "division by a negative zero gives -inf as IEEE 754 (MindSpore's CPU kernels of "
         "addcdiv and of log's gradient divide as by +0)"),
        (name in ("acosh", "Acosh") and why.startswith("torch backend: step 1:") and
         "NaN at other places" in why,
         "acosh's gradient on torch tensors below -1 (outside its domain) is torch's "
         "1 / sqrt(x^2 - 1) (MindSpore's and the numpy backend's: NaN)"),
        (theirs_only and empty and not gradient and name in (
            "cumsum", "CumSum", "clip_by_value", "clamp", "clip", "maximum", "Maximum",
            "minimum", "Minimum"),
         "ops take empty tensors (MindSpore's CPU kernels of CumSum and Maximum: RuntimeError)"),
        (name in ("atan2", "Atan2") and why.startswith("torch backend: step 1:") and
         "NaN at other places" in why,
         "atan2's gradient at (0, 0) is NaN on the numpy backend, as MindSpore's, and 0 on "
         "torch tensors (torch's autograd)"),
        (why.startswith("torch backend: step 1:") and "does not require grad" in why,
         "the torch backend's grad of an output that does not depend on the input raises "
         "(training.ops.autodiff; MindSpore and the numpy backend give zeros)"),
        (name == "tensor_scatter_update" and "raises RuntimeError here only" in why,
         "tensor_scatter_update refuses indices out of range (MindSpore 2.10's CPU kernel "
         "takes them without an error)"),
        (name == "L2Normalize" and gradient and "largest difference" in why,
         "L2Normalize's gradient is its forward's: over an axis of size 1 it is 0 where x^2 > "
         "epsilon, where the sum of squares is below epsilon 1/sqrt(epsilon) (MindSpore's: "
         "other values, 1/epsilon)"),
        (name == "LpNorm" and why.startswith("torch backend: step 1:") and
         "NaN at other places" in why,
         "LpNorm's gradient at a zero vector whose epsilon underflows: NaN on the numpy "
         "backend, as MindSpore's, 0 on torch tensors (torch's autograd)"),
        (name == "var" and gradient and "NaN at other places" in why,
         "var's gradient where the values are equal is 0 (MindSpore's: NaN)"),
        (name in ("std", "var") and gradient and arrays[0].ndim == 0 and "() here" in why,
         "the gradient of std/var of a 0-d input is 0-d (MindSpore's has shape (1,))"),
        (name == "Mod" and gradient and "largest difference" in why,
         "Mod's gradient with respect to y is -trunc(x / y), as ops.fmod's (MindSpore's "
         "primitive Mod gives -floor(x / y))"),
        (name in ("topk", "TopK") and "element 1: largest difference" in why and any(
            len(np.unique(a)) < a.size for a in arrays),
         "topk takes tied values in index order (MindSpore's CPU kernel may take another)"),
        (name == "lerp" and gradient and " here, float" in why,
         "lerp's gradients have their inputs' types (MindSpore's: float32 for float16 inputs, "
         "float64 beside a float64 weight)"),
        (name == "masked_fill" and theirs_only and "MaskedFill" in why,
         "masked_fill takes float16 and float64 tensors (MindSpore's CPU kernel: TypeError)"),
        (name == "norm" and ("NoneType in MindSpore" in why or kwargs.get("dim") is None and
                             args[1] is not None and arrays[0].ndim > 2),
         "norm of an input of more than 2 dimensions with ord and without dim is a ValueError, "
         "as documented, and of a 0-d input with ord a number (MindSpore returns None)"),
        (name == "full" and isinstance(args[1], float) and kwargs.get("dtype") is None,
         "ops.full of a float fill_value without dtype is float32 (MindSpore 2.10: int64, the "
         "value truncated)"),
        (name in ("max", "min") and args[1:2] in ((None,), ()) and "largest difference" in why,
         "ops.max/min with axis=None give the flat index of the extreme (MindSpore 2.10: 0)"),
        (name == "fmod" and not gradient and "largest difference" in why and any(
            a.dtype.kind == "f" for a in arrays),
         "ops.fmod is exact, as the primitive Mod (MindSpore 2.10's ops.fmod computes x - "
         "trunc(x / y) * y in the input's type: of float16 fmod(2, 1.19e-7) and fmod(65504, "
         "2.5) are -inf, fmod(2, 1e-4) 0; here 0, 1.5 and 6.8e-5)"),
        (name in ("tanh", "Tanh") and "largest difference" in why and float(
            why.split("largest difference ")[1].split()[0]) < 1e-4,
         "tanh is exact, as documented (MindSpore 2.10's CPU tanh differs by up to 2e-5 "
         "near 1: tanh(2.5) 0.98661447, 0.98661429 here)"),
        (name == "CumProd" and gradient and init[0] and exclusive_over_one(args),
         "the gradient of an exclusive CumProd over an axis of size 1 (a constant 1) is 0 "
         "(MindSpore 2.10: the gradient itself, as without exclusive)"),
    ]
    return next((word for applies, word in rules if applies), None)


def describe(case, limit=300):
    form, name, init, args, kwargs = case
    shown = ", ".join([described(a) for a in args] + [f"{k}={described(v)}" for k, v in
                                                      kwargs.items()])
    text = f"ops.{name}({', '.join(map(described, init))})({shown})" if form == "primitive" \
        else f"ops.{name}({shown})"
    return text[:limit]


def described(value):
    if is_tensor(value):
        return f"Tensor {value[1].dtype}{value[1].shape}"
    if isinstance(value, tuple) and len(value) == 2 and value[0] == DTYPE:
        return value[1]
    if isinstance(value, list) and value and is_tensor(value[0]):
        return "[" + ", ".join(map(described, value)) + "]"
    return repr(value)


def main():
    args = differential_reference.command_line(__doc__.split("\n\n")[0], 300)
    if args.emit:                       # the reference interpreter's part
        differential_reference.emit_outcomes(outcomes(args.emit[0], args.seed, args.cases,
                                                      args.start), args.emit[1],
                                             CASE_TIMEOUT_S)
        return 0
    reference = differential_reference.reference_outcomes(__file__, args, args.cases, lambda path: [
        "--seed", str(args.seed), "--cases", str(args.cases), "--emit", args.reference, path])
    ours = list(outcomes("training", args.seed, args.cases))
    try:
        on_torch = Library("training", torch=True)
        on_torch = [run_case(on_torch, case) for case in cases(args.seed, args.cases)]
    except ImportError:         # no torch here: the numpy backend only
        on_torch = [None] * args.cases
    finally:
        importlib.import_module("training").set_backend(None)
    return differential_reference.print_report(
        args, cases(args.seed, args.cases), list(zip(ours, on_torch)), reference, classify,
        describe)


if __name__ == "__main__":
    sys.exit(main())
