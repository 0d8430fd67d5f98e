"""The training package's deterministic parts against MindSpore 2.10, on random arguments.

Each case is one of: a metric of ``training.train`` (Accuracy, Precision, Recall, F1, Fbeta,
TopKCategoricalAccuracy, Top1/Top5, MAE, MSE, Loss, Dice, ConfusionMatrix, ROC, Perplexity,
CosineSimilarity: every one MindSpore 2.10's ``mindspore.train`` has too) made with random
arguments and driven through a random sequence of clear, update (random numpy arrays of
float32/float64/int types, or Tensors; ties, zeros, rows that do not match) and eval; a
learning-rate function of ``nn`` (``piecewise_constant_lr`` ... ``warmup_lr``) on random
arguments, some wrong; a LearningRateSchedule cell (ExponentialDecayLR ... WarmUpLR) at random
global steps; a loss (CrossEntropyLoss, SoftmaxCrossEntropyWithLogits, L1Loss, MSELoss) on random
inputs and options, then its gradient with respect to the logits; a layer of ``nn`` (every one
``training.nn`` has: convolutions, normalizations in training or eval mode, pooling, Embedding,
Pad, activations, ...) with every argument drawn, forward, gradients and parameters after; an
optimizer (every one MindSpore's nn has but Adasum and THOR: SGD, Momentum, Adam,
AdamWeightDecay, RMSProp, Adagrad, AdaMax, Adadelta, Lamb, LARS around another, Rprop, ASGD, FTRL,
ProximalAdagrad, LazyAdam, AdamOffload, AdaFactor) stepped 2-5 times on given gradients, every
parameter and state by name after each step (training_nn_cases.py draws and runs those two). The cases are made here once and run in this interpreter and in MindSpore's
(its own venv: ``--mindspore-python``); here losses, layers and optimizers run twice, on the
numpy backend and on torch tensors. Each outcome is compared with MindSpore's: both raise (the
exception types are counted apart), or both give the same structure (numbers, arrays, Tensors
of the same dtype, lists of as many, dicts of the same names) with the same shapes and values
(floats within 1e-5 of the largest magnitude, NaN where the other has NaN); where the numpy
backend's difference is documented the torch backend must give the numpy backend's outcome.
Differences the README documents as deviations (MindSpore wrong) are counted apart.

    .venv/bin/python tools/training_vs_mindspore.py [--seed 1] [--cases 300] [--only KIND]
        [--case-timeout 60] [--mindspore-python /work/msvenv/bin/python] [--show-documented]
        [--show-error-types] [--case N]

Prints each undocumented difference and a count per outcome; exits 1 if there is any
undocumented difference. The MindSpore interpreter runs this file alone (numpy only: it never
imports this package), case by case and synchronously (a failed op's error stays with its
case); a case that kills it or runs past --case-timeout seconds is tried once more in a new
process, then counted as "MindSpore crashed" (tools/differential_reference.py).
"""
import importlib
import importlib.util
import os
import pickle
import random
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its sibling, in both
import differential_reference  # noqa: E402
from training_rnn_cases import described_rnn, documented_rnn, rnn_case, run_rnn  # noqa: E402
from training_attention_cases import (ATTENTION_RTOL, attention_case,  # noqa: E402
                                      described_attention, documented_attention,
                                      run_attention)
from training_layer_cases import (AVG_POOL_CEIL, MORE_LAYERS,  # noqa: E402
                                   avg_pool_ceil_refused, documented_layer)
from training_image_cases import (described_image, documented_image,  # noqa: E402
                                  image_case, run_image)
from training_loss_cases import (case_tolerance, documented_loss, loss_case,  # noqa: E402
                                 run_loss)
from training_nn_cases import (documented_optimizer, is_tensor, layer_case,  # noqa: E402
                               optimizer_case, run_layer, run_optimizer, tensor)
METRICS = ["Accuracy", "Precision", "Recall", "F1", "Fbeta", "TopKCategoricalAccuracy",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "MAE", "MSE", "Loss", "Dice",
           "ConfusionMatrix", "ROC", "Perplexity", "CosineSimilarity"]
LR_FUNCTIONS = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
                "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]
# a MindSpore case running longer is a hang (seed 601's layer cases once hung it for good)
CASE_TIMEOUT_S = 60
LR_SCHEDULES = ["ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
                "PolynomialDecayLR", "WarmUpLR"]


class Draw:
    """Random numbers and arrays of one case."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.rng = np.random.default_rng(seed)

    def floats(self, shape, dtype=None):
        dtype = dtype or self.r.choice([np.float32, np.float32, np.float64])
        kind = self.r.random()
        if kind < 0.2:          # ties and zeros
            return self.rng.integers(0, 3, shape).astype(dtype)
        return (self.rng.standard_normal(shape) * self.r.choice([1.0, 3.0])).astype(dtype)

    def labels(self, n, classes, dtype=None):
        dtype = dtype or self.r.choice([np.int32, np.int64, np.int32, np.float32])
        return self.rng.integers(0, classes, n).astype(dtype)

    def maybe_tensor(self, array):
        return tensor(array) if self.r.random() < 0.5 else array


def classification_inputs(d, n, classes):
    """(y_pred, y) of a classification update: scores and class indices or one-hot rows;
    sometimes with a row count that does not match."""
    y_pred = d.floats((n, classes))
    y = d.labels(n + (d.r.random() < 0.1), classes)
    if d.r.random() < 0.3:
        y = np.eye(classes, dtype=d.r.choice([np.float32, np.int32]))[y.astype(np.int64)]
    return d.maybe_tensor(y_pred), d.maybe_tensor(y)


def multilabel_inputs(d, n, classes):
    y_pred = d.rng.integers(0, 2, (n, classes)).astype(d.r.choice([np.float32, np.int32]))
    y = d.rng.integers(0, 2, (n, classes)).astype(d.r.choice([np.float32, np.int32]))
    return d.maybe_tensor(y_pred), d.maybe_tensor(y)


def metric_case(d):
    """(name, kwargs, steps): steps of ("clear",), ("update", inputs), ("eval", kwargs)."""
    name = d.r.choice(METRICS)
    n, classes = d.r.choice([1, 2, 4, 7]), d.r.choice([2, 3, 5, 6])
    kwargs, eval_kwargs = {}, {}
    if name in ("Accuracy", "Precision", "Recall"):
        kwargs["eval_type"] = d.r.choice(["classification", "classification", "multilabel"])
        make = (lambda: multilabel_inputs(d, n, classes)) if kwargs["eval_type"] == \
            "multilabel" else (lambda: classification_inputs(d, n, classes))
        if name != "Accuracy":
            eval_kwargs["average"] = d.r.choice([False, True])
    elif name in ("F1", "Fbeta"):
        if name == "Fbeta":
            kwargs["beta"] = d.r.choice([0.5, 1.0, 2.0])
        eval_kwargs["average"] = d.r.choice([False, True])
        make = lambda: classification_inputs(d, n, classes)     # noqa: E731
    elif name.startswith("Top"):
        if name == "TopKCategoricalAccuracy":
            kwargs["k"] = d.r.choice([1, 2, 3, 5])
        make = lambda: classification_inputs(d, n, classes)     # noqa: E731
    elif name in ("MAE", "MSE", "Dice"):
        shape = d.r.choice([(n,), (n, classes), (n, 2, 3)])
        if name == "Dice":
            kwargs["smooth"] = d.r.choice([1e-5, 0.1, 1.0])
        make = lambda: (d.maybe_tensor(d.floats(shape)),        # noqa: E731
                        d.maybe_tensor(d.floats(shape if d.r.random() < 0.9 else (n + 1,))))
    elif name == "Loss":
        make = lambda: (d.maybe_tensor(d.floats(d.r.choice([(), (), (1,), (2,)]))),)  # noqa
    elif name == "ConfusionMatrix":
        kwargs.update(num_classes=classes, normalize=d.r.choice(
            ["no_norm", "target", "prediction", "all"]), threshold=d.r.choice([0.5, 0.3]))
        make = lambda: (d.maybe_tensor(d.floats((n, classes)) if d.r.random() < 0.7  # noqa
                                       else d.labels(n, classes)),
                        d.maybe_tensor(d.labels(n, classes)))
    elif name == "ROC":
        kwargs["pos_label"] = d.r.choice([0, 1])
        make = lambda: (d.maybe_tensor(d.rng.random(n).astype(np.float32)),  # noqa: E731
                        d.maybe_tensor(d.labels(n, 2, np.int32)))
    elif name == "Perplexity":
        kwargs["ignore_label"] = d.r.choice([None, None, 0, 1])
        make = lambda: (d.maybe_tensor(softmax(d.floats((n, classes)))),  # noqa: E731
                        d.maybe_tensor(d.labels(n, classes)))
    else:   # CosineSimilarity
        kwargs.update(similarity=d.r.choice(["cosine", "dot"]),
                      reduction=d.r.choice(["none", "sum", "mean"]),
                      zero_diagonal=d.r.choice([True, False]))
        make = lambda: (d.floats((n, classes)),)        # noqa: E731
    if kwargs and d.r.random() < 0.15:      # one argument of a wrong type or value
        key = d.r.choice(sorted(kwargs))
        kwargs[key] = d.r.choice(WRONG_ARGUMENTS[key])
    if eval_kwargs and d.r.random() < 0.1:
        eval_kwargs["average"] = d.r.choice([1, "yes"])
    steps = [("clear",)] if d.r.random() < 0.7 else []
    for _ in range(d.r.choice([0, 1, 1, 2, 3])):
        steps.append(("update", make()))
    steps.append(("eval", eval_kwargs))
    return ("metric", name, (), kwargs, steps)


WRONG_ARGUMENTS = {
    "eval_type": ["x", 1, "Classification"], "beta": [-1.0, 0.0, "2", 1], "k": [0, -1, 1.5, True],
    "smooth": [0, 0.0, -1.0, 1], "num_classes": [1.5, -1, 1], "normalize": ["row", None],
    "threshold": ["a", 1], "pos_label": [1.5, -1, 2], "ignore_label": [1.5, "x", -1],
    "similarity": ["l2", 1], "reduction": ["avg", None], "zero_diagonal": [1, "yes"]}


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(x.dtype)


def lr_function_case(d):
    name = d.r.choice(LR_FUNCTIONS)
    c = d.r.choice
    total, per_epoch, epochs = c([1, 5, 12, 25, 0]), c([1, 2, 3, 0]), c([1, 2, 4, 0])
    rate = c([0.1, 0.05, 1.0, 0.0, -0.1, 1, float("inf")])
    if name == "piecewise_constant_lr":
        size = c([1, 2, 3])
        milestones = sorted(d.r.choice(range(1, 12)) for _ in range(size))   # repeats too
        if d.r.random() < 0.15:
            milestones = milestones[::-1]
        args = (milestones, [c([0.1, 0.05, 0.01, 0.2]) for _ in range(size + (d.r.random() < 0.1))])
    elif name in ("exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr"):
        args = (rate, c([0.9, 0.5, 1.0, 0.0, -0.5]), total, per_epoch, epochs,
                c([False, True, 1]))
    elif name == "cosine_decay_lr":
        args = (c([0.0, 0.01, 0.2]), c([0.1, 0.05, 0.01]), total, per_epoch, epochs)
    elif name == "polynomial_decay_lr":
        args = (rate, c([0.01, 0.0, 0.001, 0]), total, per_epoch, epochs,
                c([0.5, 1.0, 2.0, -1.0, 2]), c([False, True, 0]))
    else:
        args = (rate, total, per_epoch, epochs)
    return ("lr_function", name, args, {}, None)


def lr_schedule_case(d):
    name = d.r.choice(LR_SCHEDULES)
    c = d.r.choice
    steps = c([1, 3, 4, 10, 0])
    rate = c([0.1, 0.05, 1.0, 0.0, -0.1, 1, float("nan")])
    if name in ("ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR"):
        args = (rate, c([0.9, 0.5, 0.0, 1.5]), steps, c([False, True, 1]))
    elif name == "CosineDecayLR":
        args = (c([0.0, 0.01, 0.2, 0]), c([0.1, 0.05]), steps)
    elif name == "PolynomialDecayLR":
        args = (rate, c([0.01, 0.0]), steps, c([0.5, 1.0, 2.0, 1]), c([False, True]))
    else:
        args = (rate, steps)
    global_steps = [tensor(np.array(d.r.randint(0, 25), c([np.int32, np.int32, np.int64])))
                    for _ in range(d.r.randint(1, 4))]
    return ("lr_schedule", name, args, {}, global_steps)


def cases(seed, count, only=None):
    """`count` cases; with `only` ("rnn", "layer", ...) of that kind alone."""
    r = random.Random(seed)
    makers = [metric_case] * 5 + [lr_function_case] * 2 + [lr_schedule_case] * 2 + \
        [loss_case] * 2 + [layer_case] * 4 + [optimizer_case] * 3 + [rnn_case] * 2 + \
        [attention_case] * 2 + [image_case] * 2
    makers = [m for m in makers if m.__name__ == f"{only}_case"] if only else makers
    return [r.choice(makers)(Draw(r.randrange(1 << 30))) for _ in range(count)]


BOTH_BACKENDS = ("layer", "optimizer", "loss", "loss_function", "rnn",
                 "attention", "image")     # run here on numpy Tensors and torch tensors


class Library:
    """The modules of ``mindspore`` or of this package the cases call. This package runs its
    cells on the numpy backend, or with ``torch`` on the torch backend, the inputs of layers,
    losses and optimizers then torch tensors."""

    def __init__(self, name, torch=False):
        root = importlib.import_module(name)
        if hasattr(root, "set_backend"):        # this package (else torch when installed)
            root.set_backend("torch" if torch else "numpy")
        else:   # MindSpore: a failed op's error must not come back at a later op, or case
            root.set_context(pynative_synchronize=True)
        self.Tensor, self.Parameter = root.Tensor, root.Parameter
        self.value_and_grad = root.value_and_grad
        self.nn = importlib.import_module(f"{name}.nn")
        self.ops = importlib.import_module(f"{name}.ops")
        self.metrics = importlib.import_module(f"{name}.train")
        self.torch = importlib.import_module("torch") if torch else None

    def input(self, array):
        """A layer's, loss's or gradient's input: a Tensor, or a torch tensor."""
        return self.torch.tensor(array) if self.torch else self.Tensor(array)

    def resolve(self, value):
        if is_tensor(value):
            return self.Tensor(value[1])
        if isinstance(value, (tuple, list)):
            return type(value)(self.resolve(item) for item in value)
        if isinstance(value, dict):
            return {k: self.resolve(v) for k, v in value.items()}
        return value


def plain(value):
    """A value given back as ("Tensor" | "array" | "number" | "list" | "dict", ...), arrays
    copied (a Parameter's array changes at the next step)."""
    if hasattr(value, "asnumpy"):
        return ("Tensor", np.array(value.asnumpy()))
    if hasattr(value, "detach"):        # a torch tensor: the torch backend's Tensor
        return ("Tensor", value.detach().cpu().numpy().copy())
    if isinstance(value, np.ndarray):
        return ("array", value.copy())
    if isinstance(value, (list, tuple)):
        return ("list", [plain(item) for item in value])
    if isinstance(value, (int, float, np.number, np.bool_)):
        return ("number", np.asarray(value, np.float64))
    return (type(value).__name__, np.asarray(0))


def error(exc):
    """("error", type, the message's first line that says something: MindSpore's kernel errors
    open with a line of dashes and a '- Kernel select failed:' heading)."""
    lines = [line.strip() for line in str(exc).split("[ERROR] ", 1)[-1].split("\n")]
    message = next((line for line in lines if line.strip("- ") and not line.startswith("- ")),
                   "")
    return ("error", type(exc).__name__, message[:200])


def run_metric(lib, name, kwargs, steps):
    """The outcome of each step (up to the first that raises)."""
    made = []
    try:
        metric = getattr(lib.metrics, name)(**kwargs)
    except Exception as exc:         # an outcome to compare, like a value
        return [error(exc)]
    for step in steps:
        try:
            if step[0] == "clear":
                metric.clear()
                made.append(("ok", ("number", np.asarray(0.0))))
            elif step[0] == "update":
                metric.update(*lib.resolve(step[1]))
                made.append(("ok", ("number", np.asarray(0.0))))
            else:
                made.append(("ok", plain(metric.eval(**step[1]))))
        except Exception as exc:
            made.append(error(exc))
            break
    return made


def run_case(lib, case):
    kind, name, args, kwargs, payload = case
    if kind == "metric":
        return run_metric(lib, name, kwargs, payload)
    if kind == "rnn":
        return run_rnn(lib, case, plain, error)
    if kind == "attention":
        return run_attention(lib, case, plain, error)
    if kind == "image":
        return run_image(lib, case, plain, error)
    if kind in ("layer", "optimizer"):
        return (run_layer if kind == "layer" else run_optimizer)(lib, case, plain, error)
    if kind in ("loss", "loss_function"):
        return run_loss(lib, case, plain, error, raw)
    try:
        if kind == "lr_function":
            return [("ok", plain(getattr(lib.nn, name)(*args)))]
        cell = getattr(lib.nn, name)(*args, **lib.resolve(kwargs))
        made = []       # an lr_schedule: its value at each global step
        for step in payload:
            try:
                made.append(("ok", plain(cell(lib.resolve(step)))))
            except Exception as exc:
                made.append(error(exc))
        return made
    except Exception as exc:
        return [error(exc)]


def outcomes(library, cases_made, torch=False):
    """Each case's outcome list, one at a time (the reference interpreter pickles each as it
    is done); with ``torch`` only the BOTH_BACKENDS cases' (None for the others)."""
    warnings.simplefilter("ignore")
    lib = Library(library, torch)
    for case in cases_made:
        yield run_case(lib, case) if not torch or case[0] in BOTH_BACKENDS else None


def difference(ours, theirs, rtol=1e-5):
    """Why two outcome lists (one per step) differ, or None."""
    if len(ours) != len(theirs):
        failed, which = (ours, "here") if len(ours) < len(theirs) else (theirs, "in MindSpore")
        return f"raises {failed[-1][1]} {which} only: {failed[-1][2][:120]}"
    for index, (mine, reference) in enumerate(zip(ours, theirs)):
        why = step_difference(mine, reference, rtol)
        if why:
            return f"step {index}: {why}" if len(ours) > 1 else why
    return None


def step_difference(ours, theirs, rtol):
    if ours[0] == "error" and theirs[0] == "error":
        return None
    if ours[0] != theirs[0]:
        failed, which = (ours, "here") if ours[0] == "error" else (theirs, "in MindSpore")
        return f"raises {failed[1]} {which} only: {failed[2][:120]}"
    return value_difference(ours[1], theirs[1], rtol)


def value_difference(ours, theirs, rtol):
    (kind, a), (reference_kind, b) = ours, theirs
    if kind != reference_kind:
        return f"{kind} here, {reference_kind} in MindSpore"
    if kind == "list":
        if len(a) != len(b):
            return f"list of {len(a)} here, list of {len(b)} in MindSpore"
        for index, (x, y) in enumerate(zip(a, b)):
            why = value_difference(x, y, rtol)
            if why:
                return f"element {index}: {why}"
        return None
    if kind == "dict":
        for name in sorted(set(a) & set(b)):
            why = value_difference(a[name], b[name], rtol)
            if why:
                return f"{name}: {why}"
        only = [(sorted(set(x) - set(y)), where) for x, y, where in
                ((a, b, "here"), (b, a, "in MindSpore")) if set(x) - set(y)]
        return "; ".join(f"names only {where}: {', '.join(names)}" for names, where in only) \
            or None
    if a.shape != b.shape or kind == "Tensor" and a.dtype != b.dtype:
        return f"{a.dtype}{a.shape} here, {b.dtype}{b.shape} in MindSpore"
    x, y = a.astype(np.float64), b.astype(np.float64)
    if not np.array_equal(np.isnan(x), np.isnan(y)):
        return f"NaN at other places: {x.ravel()[:6]} here, {y.ravel()[:6]} in MindSpore"
    x, y = np.nan_to_num(x, nan=0.0), np.nan_to_num(y, nan=0.0)
    if x.size == 0 or np.array_equal(x, y):
        return None
    largest = float(np.abs(x - y).max())
    # two float16 ulps: sums of float16 products accumulate in another order
    tolerance = 2e-3 if a.dtype == np.float16 else rtol
    allowed = tolerance * max(1.0, float(np.abs(y[np.isfinite(y)]).max(initial=0.0)))
    return None if largest <= allowed else \
        f"largest difference {largest:g} ({x.ravel()[:4]} here, {y.ravel()[:4]} in MindSpore)"


def documented(case, why):
    """The README's word for a difference it lists as a deviation, or None."""
    kind, name, args, kwargs, payload = case
    if kind == "layer" and name in MORE_LAYERS:
        return documented_layer(case, why)
    if kind.startswith("loss"):
        return documented_loss(case, why, raw)
    if kind == "rnn":
        return documented_rnn(case, why)
    if kind == "attention":
        return documented_attention(case, why)
    if kind == "image":
        return documented_image(case, why)
    if kind == "optimizer" and documented_optimizer(case, why):
        return documented_optimizer(case, why)
    updates = [raw(step[1]) for step in payload if step[0] == "update"] \
        if kind == "metric" else []
    ours_only = "raises" in why and "here only" in why      # (at any step)
    theirs_only = "raises" in why and "in MindSpore only" in why
    classification = name in ("Precision", "Recall", "F1", "Fbeta") and \
        kwargs.get("eval_type", "classification") == "classification"
    rules = [
        (name == "NaturalExpDecayLR" and "largest difference" in why,
         "NaturalExpDecayLR uses p = step / decay_steps (MindSpore's class uses p = step)"),
        (name == "Dice" and "largest difference" in why,
         "Dice is the mean coefficient over updates (MindSpore divides by the samples)"),
        (name == "ROC" and len(updates) > 1,
         "ROC accumulates its updates (MindSpore keeps the last batch)"),
        (theirs_only and any(np.ndim(x) == 0 and not isinstance(x, np.ndarray)
                             for inputs in updates for x in inputs),
         "update also takes numbers (MindSpore: TypeError)"),
        (name.startswith("Top") and theirs_only and "broadcast" in why,
         "top-k with k above the number of classes counts every sample (MindSpore: numpy's "
         "broadcast ValueError)"),
        (classification and theirs_only and "IndexError" in why and
         any(y.dtype.kind == "f" and y.ndim == 1 for _, y in updates),
         "Precision/Recall/F1 take float class indices, as Accuracy does (MindSpore: "
         "IndexError)"),
        (ours_only and any(len(y_pred) == 1 != len(y) for y_pred, y, *_ in updates),
         "y_pred and y with other numbers of rows are refused (MindSpore broadcasts one "
         "prediction row)"),
        (name.startswith("Top") and "largest difference" in why and any(
            has_ties(y_pred) for y_pred, *_ in updates),
         "top-k ties go to the first class, as documented (MindSpore's unstable argsort picks "
         "another)"),
        (name in ("Precision", "Recall") and kwargs.get("eval_type") == "multilabel" and
         "NaN at other places" in why and "nan] in MindSpore" in why,
         "multilabel eval(average=True) is the mean of the per-sample scores (MindSpore: NaN "
         "for a float32 sample without positives)"),
        (ours_only and isinstance(kwargs.get("k"), bool),
         "a bool k is refused (MindSpore takes True as 1)"),
        (name == "Momentum" and kwargs.get("use_nesterov") is True and "largest difference" in
         why, "Momentum(use_nesterov=True) applies the Nesterov update, as documented "
         "(MindSpore's CPU kernel gives plain momentum)"),
        (name == "Adagrad" and kwargs.get("update_slots") is False and "largest difference" in
         why, "Adagrad(update_slots=False) keeps its accumulators, as documented (MindSpore's "
         "CPU kernel updates them)"),
        ((name == "Tanh" or kind == "layer" and kwargs.get("activation") == "tanh") and
         "largest difference" in why,
         "tanh is exact (MindSpore's is off by up to 1e-4)"),
        (name == "Softmax" and isinstance(kwargs.get("axis"), tuple) and theirs_only,
         "Softmax takes a tuple axis, as documented (MindSpore's CPU kernel: RuntimeError)"),
        (kind == "layer" and avg_pool_ceil_refused(name, kwargs, why), AVG_POOL_CEIL),
        (name == "AvgPool2d" and kwargs.get("divisor_override") and
         kwargs.get("count_include_pad") is False and "step 1: x: largest difference" in why,
         "AvgPool2d(count_include_pad=False, divisor_override=d) has its forward's gradient "
         "(MindSpore's is not: 2.0 where the output is x / 2)"),
        (name == "FTRL" and kwargs.get("l1", 0.0) > 0 and "largest difference" in why,
         "FTRL(l1 > 0) shrinks by sign(linear) * l1, as documented (MindSpore's CPU kernel takes "
         "+l1 for every nonzero linear, the wrong sign for a negative one)"),
        (name in ("Lamb", "LARS") and theirs_only,
         "Lamb and LARS run on the CPU (MindSpore 2.10 has no CPU kernel for Lamb or "
         "LARSUpdate, and its LARS cannot wrap AdamWeightDecay)"),
        (name.startswith("Conv") and ours_only and "dilated kernel" in why,
         "a dilated kernel larger than the padded input is a ValueError, as MindSpore's for an "
         "undilated one (MindSpore gives an empty output)"),
    ]
    return next((word for applies, word in rules if applies), None)


def has_ties(y_pred):
    rows = np.asarray(y_pred).reshape(len(y_pred), -1)
    return any(len(np.unique(row)) < len(row) for row in rows)


def raw(value):
    """An input as made here (the array inside a Tensor's marker)."""
    if is_tensor(value):
        return value[1]
    return type(value)(raw(item) for item in value) if isinstance(value, (tuple, list)) \
        else value


def described(case):
    kind, name, args, kwargs, payload = case
    if kind == "rnn":
        return described_rnn(case)
    if kind == "attention":
        return described_attention(case)
    if kind == "image":
        return described_image(case)
    if kind == "metric":
        steps = [step[0] if step[0] != "update" else "update(" + ", ".join(
            map(described_input, step[1])) + ")" for step in payload]
        return f"{name}({kwargs}) {' '.join(steps)}"
    if kind in ("lr_function", "lr_schedule"):
        return f"{name}{args}" + (f" at {[int(s[1]) for s in payload]}" if payload else "")
    if kind == "optimizer":
        params, groups, grads = payload
        return f"{name} {kwargs} on {[(key, value.shape) for key, value in params]}" + \
            (f" in groups {groups}" if groups else "") + f", {len(grads)} steps"
    inputs = payload if kind.startswith("loss") else payload[1:2]
    mode = " in training mode" if kind == "layer" and payload[0] else ""
    return f"{name}{args} {kwargs}{mode} on {', '.join(map(described_input, inputs))}"


def described_input(value):
    if is_tensor(value):
        return "Tensor " + described_input(value[1])
    return f"{value.dtype}{value.shape}" if isinstance(value, np.ndarray) else repr(value)


def classify(case, ours, theirs):
    """(kind, item, why) or (None, None, None) of a case; ``ours`` is (numpy backend, torch
    backend or None)."""
    if theirs and theirs[0][0] == "crash":
        return "MindSpore crashed", "crash", theirs[0][1][2]
    mine, torch_made = ours
    rtol = ATTENTION_RTOL if case[0] == "attention" else case_tolerance(case)
    why = difference(mine, theirs, rtol)
    word = why and documented(case, why)
    if torch_made is not None and (why is None or word):
        # the torch backend against MindSpore, or where the numpy backend's difference is
        # documented, against the numpy backend (the backends never differ on purpose)
        torch_why = difference(torch_made, theirs if why is None else mine, rtol)
        if torch_why:
            why = f"torch backend: {torch_why}" if why is None else \
                f"torch backend against the numpy backend ('in MindSpore'): {torch_why}"
            word = documented(case, why) if why.startswith("torch backend: ") else None
    if why:
        return ("documented" if word else "different", "outcome",
                why + (f" [documented: {word}]" if word else ""))
    other = [(m, t) for m, t in zip(mine, theirs) if m[0] == t[0] == "error" and m[1] != t[1]]
    if other:
        return "error type", "outcome", f"{other[0][0][1]} here, {other[0][1][1]} in " \
            f"MindSpore: {other[0][1][2][:100]}"
    return None, None, None


def own_arguments(parser):
    parser.add_argument("--only", choices=["metric", "lr_function", "lr_schedule", "loss",
                                           "layer", "optimizer", "rnn", "attention", "image"],
                        help="draw only cases of this kind")
    parser.add_argument("--case-timeout", type=float, default=CASE_TIMEOUT_S, metavar="SECONDS",
                        help="a MindSpore case running longer is a hang: counted as a crash, "
                        "the run going on from the next case in a new process (default "
                        f"{CASE_TIMEOUT_S:g})")


def emitted_outcomes(library, cases_path, start):
    """The reference interpreter's outcomes, from case ``start`` of those pickled."""
    with open(cases_path, "rb") as f:
        made = pickle.load(f)
    return outcomes(library, made[start:])


def main():
    args = differential_reference.command_line(
        __doc__.split("\n\n")[0], 300, emit=("LIBRARY", "CASES", "OUTCOMES"), more=own_arguments)
    if args.emit:                       # the reference interpreter's part
        differential_reference.emit_outcomes(emitted_outcomes(*args.emit[:2], args.start),
                                             args.emit[2], args.case_timeout)
        return 0
    made = cases(args.seed, args.cases, args.only)
    with tempfile.TemporaryDirectory() as tmp:
        cases_path = os.path.join(tmp, "cases.pkl")
        with open(cases_path, "wb") as f:
            pickle.dump(made, f)
        # case by case: a case that crashes or hangs MindSpore is counted, the run goes on
        reference = differential_reference.reference_outcomes(
            __file__, args, len(made), lambda path: [
                "--case-timeout", str(args.case_timeout), "--emit", args.reference, cases_path,
                path])
    ours = list(outcomes("training", made))
    on_torch = list(outcomes("training", made, torch=True)) if importlib.util.find_spec(
        "torch") else [None] * len(made)
    return differential_reference.print_report(
        args, made, list(zip(ours, on_torch)), reference, classify,
        lambda case, full=None: described(case))


if __name__ == "__main__":
    sys.exit(main())
