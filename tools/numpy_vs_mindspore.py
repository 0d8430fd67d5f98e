"""``training.numpy`` (= ``mindspore.numpy``) against MindSpore 2.10, on random arguments.

Each case (tools/numpy_cases.py) calls one mindspore.numpy function (element-wise math,
comparisons and tests, reductions, creation, shapes, joining and splitting, indexing, products
and norms) on random arguments, valid or not (tensors of float16/32/64, int32/64 and bool;
Python numbers and lists; broadcast and empty shapes; axes and options in and out of range);
then, where the result is a float tensor, takes the gradient of sum(result * fixed weights)
with respect to every float tensor argument. It runs in MindSpore's interpreter
(``--mindspore-python``; PyNative synchronous) and here twice, on numpy-backend Tensors and
on torch tensors, with tools/ops_vs_mindspore.py's case runner and comparison: where it
raises (another exception type counted apart), the structure, dtypes, shapes and values.
Differences the README documents as deviations are counted apart.

    .venv/bin/python tools/numpy_vs_mindspore.py [--seed 1] [--cases 300]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import module_vs_mindspore                                           # noqa: E402
from numpy_cases import cases                                        # noqa: E402
from training_nn_cases import is_tensor                              # noqa: E402

CASE_TIMEOUT_S = 30


Library = module_vs_mindspore.library_class("numpy")
outcomes = module_vs_mindspore.outcomes_function(Library, cases)


def classify(case, ours, theirs):
    return module_vs_mindspore.classify(case, ours, theirs, documented)


def documented(case, why):
    """The README's word for a difference it lists as a deviation, or None."""
    form, name, init, args, kwargs = case
    theirs_only = "raises" in why and "in MindSpore only" in why
    numbers = any(isinstance(a, (bool, int, float)) for a in args)
    lists = any(isinstance(a, list) and not any(is_tensor(v) for v in a) for a in args)
    arrays = [value[1] for value in args if is_tensor(value)]
    empty = any(a.size == 0 for a in arrays)
    gradient = "step 1:" in why
    integers = any(a.dtype.kind in "biu" for a in arrays)
    types_only = " here, " in why and not any(word in why for word in (
        "raises", "largest", "NaN", "list of"))
    rules = [
        (empty and ("raises" in why or "largest difference" in why or "NaN" in why or
                    " here, " in why),
         "functions of empty tensors: reductions over an empty axis raise like numpy's or give "
         "its identity; gradients through them are zeros (MindSpore 2.10: other types, shapes "
         "and values, e.g. count_nonzero over an axis of a (0, 3) tensor is 0-d, ones_like of "
         "an empty int64 tensor int32)"),
        (name in ("flip", "fliplr", "flipud", "rot90") and gradient,
         "flip's and rot90's gradients are the output gradient moved back (MindSpore 2.10's "
         "give zeros to some elements)"),
        (name == "rint" and gradient and theirs_only,
         "rint has a zero gradient (MindSpore 2.10: RuntimeError, no bprop)"),
        (name.startswith("nan") and ("NaN" in why or "largest difference" in why),
         "nan* functions skip NaN (nanmean of bools counts them; an all-NaN slice gives NaN "
         "or the type's extreme, NaN elements get a zero gradient; MindSpore 2.10: nanmean "
         "of [True, True, False, True] is 1, NaN gradients)"),
        (name in ("fmod", "remainder", "mod", "floor_divide", "divmod", "reciprocal") and
         (integers or gradient or "inf" in why) and ("largest difference" in why or "NaN" in why),
         "integer division by zero gives 0 (MindSpore: undefined values); the gradient of "
         "fmod by zero is 1 (MindSpore's: NaN)"),
        (name in ("divide", "true_divide") and " here, float" in why and "float64" in why,
         "divide of float64 tensors stays float64 (MindSpore 2.10 gives float32 for two "
         "float64 tensors or float64 with an integer tensor)"),
        (name in ("maximum", "minimum") and types_only,
         "maximum/minimum promote a Python number or a 0-d tensor like any operand: with an "
         "int32 tensor 1.5 gives float32 (MindSpore 2.10 keeps the larger tensor's type, "
         "truncating the float)"),
        (name == "select" and "float64" in why,
         "select keeps float64 choices float64 (MindSpore 2.10: float32)"),
        (name in ("std", "var") and integers and "largest difference" in why,
         "std and var of integer tensors are numpy's (MindSpore 2.10 gives other values "
         "over tuple axes or with ddof: var of int64 (3, 2, 2) over (0, -1) 2.33 where numpy "
         "gives 2.22)"),
        (name == "logaddexp2" and "largest difference" in why,
         "logaddexp2 with an integer operand is numpy's (MindSpore 2.10 returns the float "
         "operand)"),
        (name == "cbrt" and "NaN" in why,
         "cbrt of bool False is 0 (MindSpore 2.10: NaN)"),
        (name == "norm" and (integers and "int32" in why or "NotImplementedError" in why),
         "norm of an integer tensor is float32, and the matrix 2-norm is provided (MindSpore "
         "2.10: int32 for ord 1 and inf, NotImplementedError for ord 2)"),
        (theirs_only and name in ("logaddexp", "hypot") and integers,
         "logaddexp and hypot take an integer or bool tensor beside a float one (MindSpore "
         "2.10: TypeError)"),
        (name == "pad" and gradient and kwargs.get("mode") == "reflect",
         "pad's gradient in 'reflect' mode adds each reflected element's gradient (MindSpore "
         "2.10: RuntimeError, or other values)"),
        (name in ("cumprod", "sign") and gradient and "NaN at other places" in why,
         "cumprod's gradient where the input holds zeros and sign's zero gradient (MindSpore "
         "2.10: NaN at other places)"),
        (name == "polyval" and gradient and "NaN at other places" in why,
         "polyval's gradient is Horner's rule's (MindSpore 2.10's: NaN for float64)"),
        (name == "copysign" and "largest difference" in why,
         "copysign takes the sign of -0.0 as negative, as numpy's (MindSpore 2.10: "
         "positive)"),
        (name == "vander" and gradient and "NaN at other places" in why,
         "vander's gradient at negative x is finite (MindSpore 2.10's: NaN, from pow)"),
        (name == "full" and isinstance(args[1], list) and kwargs.get("dtype") is not None,
         "full of a list fill_value takes dtype (MindSpore 2.10 ignores it: int32)"),
        (name == "around" and "raises RuntimeError here only" in why,
         "around refuses bool tensors whatever the decimals (MindSpore 2.10 refuses them for "
         "decimals=0 only)"),
        (name in ("hstack", "vstack", "dstack", "column_stack", "concatenate", "append",
                  "stack") and theirs_only and "Concat" in why,
         "joining a bool tensor with others promotes it (MindSpore 2.10's CPU Concat: "
         "RuntimeError)"),
        (name in ("amax", "amin") and "NaN at other places" in why,
         "amax/amin with initial propagate NaN, as numpy's (MindSpore 2.10 skips it)"),
        (any(a.dtype == np.float16 for a in arrays) and "largest difference" in why and
         (name in ("hypot", "pad", "log10", "log2", "logaddexp", "logaddexp2") or gradient),
         "float16 results and gradients computed in float32 then rounded (MindSpore 2.10's "
         "hypot, logaddexp and gradient sums round in float16 on the way, also for a float32 "
         "result; its log10 gradient at 0 is +inf)"),
        (theirs_only and name in ("tensordot", "inner", "kron", "cross", "correlate",
                                  "convolve") and "type" in why,
         "tensordot, inner, kron, cross, convolve and correlate promote tensors of two types "
         "(MindSpore 2.10: TypeError)"),
        (name in ("convolve", "correlate", "polymul") and gradient and "largest" in why,
         "convolve's gradient reaches both inputs (MindSpore 2.10's gives zeros to the one "
         "it casts or to the shorter one)"),
        (name == "interp" and gradient and theirs_only,
         "interp has no gradient, computed on the host (MindSpore 2.10: ValueError from its "
         "ScatterNd gradient)"),
        (name == "ravel_multi_index" and "float32" in why,
         "ravel_multi_index gives int32 indices (MindSpore 2.10: float32)"),
        (name == "corrcoef" and "NaN" in why,
         "corrcoef of a constant variable is NaN, as numpy's (MindSpore 2.10: -1 or 1)"),
        (numbers and types_only and any(a.dtype == np.bool_ for a in arrays),
         "a Python int beside a bool tensor counts as int32 in every function (MindSpore "
         "2.10's maximum keeps bool, divmod gives int64)"),
        (name in ("gcd", "lcm") and "raises TypeError here only" in why,
         "gcd and lcm take integers only, as numpy's (MindSpore 2.10 takes floats too)"),
        (name == "histogram" and "largest difference" in why,
         "histogram counts every element, as numpy's (MindSpore 2.10 loses some of a "
         "float64 input)"),
        (name == "around" and numbers and "int64" in why,
         "around of a Python int is int32, as every Python int (MindSpore 2.10: int64)"),
        (name in ("var", "std") and kwargs.get("ddof") and "NaN" in why,
         "var and std with ddof leaving no degree of freedom are NaN, as numpy's (MindSpore "
         "2.10: inf or -inf)"),
        (name == "tanh" and "largest difference" in why and float(why.split(
            "largest difference ")[1].split()[0]) < 1e-4,
         "tanh is numpy's (MindSpore 2.10's CPU tanh differs by up to 2e-5 near 1)"),
        (name == "arccosh" and gradient and "NaN at other places" in why,
         "arccosh's gradient below -1 (outside its domain) is 1 / sqrt(x^2 - 1), as "
         "training.ops.acosh's (MindSpore 2.10: NaN)"),
        (name == "unique" and "largest difference" in why,
         "unique gives the sorted unique values, as numpy's (MindSpore 2.10: in order of "
         "first appearance)"),
        ("largest difference inf" in why and any(np.signbit(a[a == 0]).any() for a in arrays),
         "division by a negative zero gives -inf as IEEE 754 (MindSpore's log gradient "
         "divides as by +0)"),
        (name == "add" and theirs_only and "Neg" in why,
         "add takes a bool tensor beside a number tensor (MindSpore 2.10's add negates it "
         "and subtracts: TypeError)"),
        (theirs_only and (numbers or lists),
         "functions take Python numbers and lists wherever they take tensors (MindSpore 2.10: "
         "TypeError or AttributeError for some, e.g. multiply(x, 2.5), sin(2), abs(3), "
         "take(x, [0, 2]))"),
    ]
    return next((word for applies, word in rules if applies), None)


def describe(case, limit=300):
    return module_vs_mindspore.describe(case, "mnp.", limit)


def main():
    return differential_reference.run_tool(__doc__.split("\n\n")[0], 300, __file__, cases,
                                           outcomes, classify, describe, CASE_TIMEOUT_S)


if __name__ == "__main__":
    sys.exit(main())
