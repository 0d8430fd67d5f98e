"""``training.mint`` (= ``mindspore.mint``) against MindSpore 2.10, on random arguments.

Each case (tools/mint_cases.py) calls one mindspore.mint or mint.nn.functional function
(element-wise math and comparisons, reductions with dim/keepdim/dtype, joining, splitting,
reshaping and indexing, products, activations and losses) on random arguments, valid or not;
then, where the result is a float tensor, takes the gradient of sum(result * fixed weights)
with respect to every float tensor argument. It runs in MindSpore's interpreter
(``--mindspore-python``; PyNative synchronous) and here twice, on numpy-backend Tensors and
on torch tensors, with tools/ops_vs_mindspore.py's case runner and comparison (through
tools/module_vs_mindspore.py, shared with tools/numpy_vs_mindspore.py). Differences the README
documents as deviations are counted apart; the mint kernels MindSpore 2.10's CPU build lacks
('The kernel ... unregistered') are counted as documented.

    .venv/bin/python tools/mint_vs_mindspore.py [--seed 1] [--cases 300]
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
import ops_vs_mindspore                                              # noqa: E402
from mint_cases import cases                                         # noqa: E402
from training_nn_cases import is_tensor, run_layer                   # noqa: E402
from training_vs_mindspore import error, plain                       # noqa: E402

CASE_TIMEOUT_S = 30


Library = module_vs_mindspore.library_class("mint", ("nn.functional", "linalg"))


class Layers:
    """training_nn_cases.run_layer's library for mint.nn's layers with Parameters: built
    with the case's arguments, its Parameters set by name, inputs Tensors or torch tensors."""

    def __init__(self, lib):
        self.nn, self.torch = lib.ops.module.nn, lib.torch
        self.Tensor, self.value_and_grad = lib.root.Tensor, lib.root.value_and_grad
        self.resolve = lib.resolve

    def input(self, array):
        return self.torch.tensor(array) if self.torch else self.Tensor(array)


def run_case(lib, case):
    if case[0] == "layer":
        return run_layer(Layers(lib), case, plain, error)
    return ops_vs_mindspore.run_case(lib, case)


outcomes = module_vs_mindspore.outcomes_function(Library, cases, run_case)


def classify(case, ours, theirs):
    return module_vs_mindspore.classify(case, ours, theirs, documented)


def documented(case, why):
    """The README's word for a difference it lists as a deviation, or None."""
    form, name, init, args, kwargs = case
    theirs_only = "raises" in why and "in MindSpore only" in why
    if form == "layer":         # ("layer", name, args, kwargs, (train, input, salt))
        args, kwargs = (kwargs[1],), args
    arrays = [value[1] for value in args if is_tensor(value)]
    empty = any(a.size == 0 for a in arrays)
    rules = [
        (theirs_only and any(word in why for word in (
            "unregistered", "Create kernelmod", "Not implement", "Unsupported op",
            "only supports Ascend")),
         "mint functions whose kernels MindSpore 2.10's CPU build lacks are computed "
         "(MindSpore: RuntimeError 'The kernel ... unregistered'; Ascend's documented "
         "results, torch's)"),
        (name.startswith("nn.") and name.endswith(("_loss", "cross_entropy", "with_logits",
                                                    "Loss")) and
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
        (name == "select" and "step 1:" in why and theirs_only and "InplaceCopy" in why,
         "select has a gradient (MindSpore 2.10's fails in its own kernel: RuntimeError "
         "'For 'InplaceCopy, an unexpected kernel has been launched')"),
        (" here, float" in why and any(isinstance(a, (bool, int, float)) for a in args) or
         name.endswith("smooth_l1_loss") and " here, float" in why,
         "a Python number, or a float64 target beside a float32 input, keeps training.ops' "
         "type (MindSpore 2.10: xlogy of float16 and True float32, smooth_l1_loss float64)"),
        (name in ("remainder", "fmod") and arrays and all(a.dtype.kind in "biu" for a in arrays)
         and "largest difference" in why,
         "integer remainder and fmod by zero give 0 (MindSpore 2.10: other values, the "
         "dividend on its CPU)"),
        ("largest difference inf" in why and any(np.signbit(a[a == 0]).any() for a in arrays),
         "division by a negative zero gives -inf as IEEE 754 (MindSpore's gradient of fmod "
         "divides as by +0)"),
        (name in ("tanh", "nn.functional.tanh", "nn.Tanh") and "largest difference" in why
         and float(
            why.split("largest difference ")[1].split()[0]) < 1e-4,
         "tanh is numpy's (MindSpore 2.10's CPU tanh differs by up to 2e-5 near 1)"),
        (name in ("any", "all") and "largest difference" in why and
         arrays[0].dtype.kind != "b",
         "any/all of integer and float tensors test for non-zero (MindSpore 2.10's CPU kernel "
         "gives wrong values: any over dim 0 of int64 [[[1, 1], [0, 2]], [[-2, -2], [3, 3]], "
         "[[-2, 0], [2, -1]]] is [[1, 0], [0, 0]])"),
        (name in ("div", "divide", "true_divide") and "step 1:" in why and
         "NaN at other places" in why,
         "div's gradient where input and other are both 0 is NaN, torch's (MindSpore 2.10: "
         "inf)"),
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
    if case[0] == "layer":
        _, name, args, kwargs, (train, x, salt) = case
        return f"mint.nn.{name}(*{args!r}, **{kwargs!r})(Tensor {x[1].dtype}{x[1].shape}), " \
            f"train={train}"[:limit]
    form, name, init, args, kwargs = case
    prefix = f"mint.{name}{init!r}" if form == "primitive" else f"mint.{name}"
    return module_vs_mindspore.describe((form, "", init, args, kwargs), prefix, limit)


def main():
    return differential_reference.run_tool(__doc__.split("\n\n")[0], 300, __file__, cases,
                                           outcomes, classify, describe, CASE_TIMEOUT_S)


if __name__ == "__main__":
    sys.exit(main())
