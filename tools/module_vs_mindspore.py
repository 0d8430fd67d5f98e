"""What the tools comparing one module of functions with MindSpore's share
(tools/numpy_vs_mindspore.py: training.numpy; tools/mint_vs_mindspore.py: training.mint): the
library whose functions ops_vs_mindspore.run_case calls, each case's outcomes in MindSpore's
interpreter or here on both backends, and the classification of a case's difference with the
tool's own documented() rules. In MindSpore's interpreter this module imports numpy only."""
import importlib

import differential_reference
import ops_vs_mindspore
from training_vs_mindspore import difference


class Functions:
    """The library's module as ops_vs_mindspore.run_case calls it (``lib.ops.<name>``), with
    the library's ``ops.grad`` for the gradients; a dotted name ("nn.functional.relu") is
    looked up below the module."""

    def __init__(self, module, grad):
        self.module, self.grad = module, grad

    def __getattr__(self, name):
        value = self.module
        for part in name.split("."):
            value = getattr(value, part)
        return value


def library_class(module, submodules=()):
    """An ops_vs_mindspore.Library whose functions are ``<library>.<module>`` (e.g. "numpy":
    mindspore.numpy or training.numpy), its `submodules` ("nn.functional") imported."""

    class Library(ops_vs_mindspore.Library):
        """``mindspore.<module>`` or ``training.<module>``; torch tensors for the arguments
        with ``torch``."""

        def __init__(self, name, torch=False):
            super().__init__(name, torch)
            for sub in submodules:
                importlib.import_module(f"{name}.{module}.{sub}")
            self.ops = Functions(importlib.import_module(f"{name}.{module}"), self.ops.grad)
    return Library


def outcomes_function(library, cases, run_case=ops_vs_mindspore.run_case):
    """The tool's outcomes(library_name, seed, count, start): each case's outcome
    (``run_case(library, case)``) in ``library_name``; for "minddata"
    (differential_reference.run_tool's name for this package) the pairs (numpy backend, torch
    backend) of this package's module."""
    def outcomes(library_name, seed, count, start=0):
        if library_name != "minddata":
            return differential_reference.case_by_case(library, cases, run_case)(
                library_name, seed, count, start)
        ours = list(outcomes("training", seed, count))
        try:
            on_torch = library("training", torch=True)
            on_torch = [run_case(on_torch, case) for case in cases(seed, count)]
        except ImportError:         # no torch here: the numpy backend only
            on_torch = [None] * count
        finally:
            importlib.import_module("training").set_backend(None)
        return list(zip(ours, on_torch))
    return outcomes


def classify(case, ours, theirs, documented):
    """(kind, item, why) or (None, None, None); `ours` is (numpy backend, torch backend);
    `documented(case, why)` the tool's README word for a difference, or None."""
    if theirs and theirs[0][0] == "crash":
        return "MindSpore crashed", "crash", theirs[0][1][2]
    for backend, mine in zip(("", "torch backend: "), ours):
        if mine is None:
            continue
        why = difference(mine, theirs) if len(mine) == len(theirs) or "error" in (
            mine[-1][0], theirs[-1][0]) else difference(mine[:1], theirs[:1])
        if why:
            word = documented(case, backend + why)
            return ("documented" if word else "different", "outcome", backend + why +
                    (f" [documented: {word}]" if word else ""))
    return ops_vs_mindspore.error_type(ours[0], theirs)


def describe(case, prefix, limit=300):
    """The call a case makes, `prefix` naming the module ("mnp.", "mint.")."""
    form, name, init, args, kwargs = case
    shown = ", ".join([ops_vs_mindspore.described(a) for a in args] + [
        f"{k}={ops_vs_mindspore.described(v)}" for k, v in kwargs.items()])
    return f"{prefix}{name}({shown})"[:limit]
