"""``training.mint`` (= ``mindspore.mint``) against MindSpore 2.10, on random arguments.

Each case (tools/mint_cases.py) calls one mindspore.mint or mint.nn.functional function
(element-wise math and comparisons, reductions with dim/keepdim/dtype, joining, splitting,
reshaping and indexing, products, activations and losses) on random arguments, valid or not;
then, where the result is a float tensor, takes the gradient of sum(result * fixed weights)
with respect to every float tensor argument. It runs in MindSpore's interpreter
(``--mindspore-python``; PyNative synchronous) and here twice, on numpy-backend Tensors and
on torch tensors, with tools/ops_vs_mindspore.py's case runner and comparison (through
tools/numpy_vs_mindspore.py's Library for a module other than ops). Differences the README
documents as deviations are counted apart; the mint kernels MindSpore 2.10's CPU build lacks
('The kernel ... unregistered') are counted as documented.

    .venv/bin/python tools/mint_vs_mindspore.py [--seed 1] [--cases 300]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import functools
import importlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import numpy_vs_mindspore                                            # noqa: E402
import ops_vs_mindspore                                              # noqa: E402
from mint_cases import cases                                         # noqa: E402
from training_nn_cases import is_tensor                              # noqa: E402

CASE_TIMEOUT_S = 30


class Functions(numpy_vs_mindspore.Functions):
    """mint's functions by dotted name below mint ("nn.functional.relu")."""

    def __getattr__(self, name):
        return functools.reduce(getattr, name.split("."), self.module)


class Library(ops_vs_mindspore.Library):
    """``mindspore.mint`` or ``training.mint``; torch tensors for the arguments with
    ``torch``."""

    def __init__(self, name, torch=False):
        super().__init__(name, torch)
        for sub in ("nn.functional", "linalg"):
            importlib.import_module(f"{name}.mint.{sub}")
        self.ops = Functions(importlib.import_module(f"{name}.mint"), self.ops.grad)


def outcomes(library_name, seed, count, start=0):
    """Each case's outcome in ``library_name``; for "minddata" (differential_reference.run_tool's
    name for this package) the pairs (numpy backend, torch backend) of training.mint."""
    if library_name != "minddata":
        return differential_reference.case_by_case(Library, cases, ops_vs_mindspore.run_case)(
            library_name, seed, count, start)
    ours = list(outcomes("training", seed, count))
    try:
        on_torch = Library("training", torch=True)
        on_torch = [ops_vs_mindspore.run_case(on_torch, case) for case in cases(seed, count)]
    except ImportError:         # no torch here: the numpy backend only
        on_torch = [None] * count
    finally:
        importlib.import_module("training").set_backend(None)
    return list(zip(ours, on_torch))


def classify(case, ours, theirs):
    """numpy_vs_mindspore's classification with this tool's documented()."""
    numpy_vs_mindspore.documented, saved = documented, numpy_vs_mindspore.documented
    try:
        return numpy_vs_mindspore.classify(case, ours, theirs)
    finally:
        numpy_vs_mindspore.documented = saved


def documented(case, why):
    """The README's word for a difference it lists as a deviation, or None."""
    form, name, init, args, kwargs = case
    theirs_only = "raises" in why and "in MindSpore only" in why
    arrays = [value[1] for value in args if is_tensor(value)]
    empty = any(a.size == 0 for a in arrays)
    rules = [
        (theirs_only and ("unregistered" in why or "Create kernelmod" in why or
                          "Not implement" in why or "Unsupported op" in why or "only supports Ascend" in why),
         "mint functions whose kernels MindSpore 2.10's CPU build lacks are computed "
         "(MindSpore: RuntimeError 'The kernel ... unregistered'; Ascend's documented "
         "results, torch's)"),
        (name.startswith("nn.functional.") and name.endswith(("_loss", "cross_entropy",
                                                               "with_logits")) and
         why.startswith(("step 1:", "torch backend: step 1:")) and "element 1:" in why,
         "losses give no gradient to the target (training.ops'; MindSpore 2.10's CPU kernels "
         "differentiate BCEWithLogitsLoss, BinaryCrossEntropy and SmoothL1Loss in the target "
         "too)"),
        (name == "nansum" and "keepdim" in why and theirs_only,
         "nansum takes keepdim, as documented (MindSpore 2.10's CPU path: TypeError "
         "'unexpected keyword argument keepdim')"),
        (name == "t" and "here only" in why,
         "t refuses inputs of more than 2 dimensions, as documented (MindSpore 2.10 swaps the "
         "first two)"),
        (name == "diff" and theirs_only and "float64" in why,
         "diff takes float64 (MindSpore 2.10's CPU: TypeError)"),
        (name in ("max", "min") and theirs_only and any(a.dtype == bool for a in arrays),
         "max/min with a dim take bool tensors (MindSpore 2.10's CPU MaxDim: TypeError)"),
        (" here, float" in why and any(isinstance(a, (bool, int, float)) for a in args) or
         name.endswith("smooth_l1_loss") and " here, float" in why,
         "a Python number, or a float64 target beside a float32 input, keeps training.ops' "
         "type (MindSpore 2.10: xlogy of float16 and True float32, smooth_l1_loss float64)"),
        (name == "cumprod" and "step 1:" in why and "NaN at other places" in why,
         "cumprod's gradient where the input holds zeros (MindSpore's: NaN at other places)"),
        (name == "any" and theirs_only and "missing 1 required" in why,
         "any(input, None) reduces every axis, as documented (MindSpore 2.10: TypeError "
         "'missing 1 required positional argument: dim')"),
        (any(a.dtype == np.float16 for a in arrays) and ("largest difference" in why or
                                                          " here, float32" in why),
         "float16 with a float32 operand: training.ops' types and float32 gradient sums "
         "(MindSpore 2.10: BCEWithLogitsLoss of float16 and float32 is float32, PReLU's "
         "float16 weight gradient rounded on the way)"),
        (empty and ("raises" in why or "largest difference" in why),
         "functions of empty tensors give the reduction's identity or an empty result "
         "(MindSpore 2.10's CPU kernels: errors or other values)"),
    ]
    return next((word for applies, word in rules if applies), None)


def describe(case, limit=300):
    form, name, init, args, kwargs = case
    shown = ", ".join([ops_vs_mindspore.described(a) for a in args] + [
        f"{k}={ops_vs_mindspore.described(v)}" for k, v in kwargs.items()])
    return f"mint.{name}({shown})"[:limit]


def main():
    return differential_reference.run_tool(__doc__.split("\n\n")[0], 300, __file__, cases,
                                           outcomes, classify, describe, CASE_TIMEOUT_S)


if __name__ == "__main__":
    sys.exit(main())
