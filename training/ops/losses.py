"""`mindspore.ops` loss functions (ops.binary_cross_entropy_with_logits, ops.nll_loss, ...) with
MindSpore 2.10's signatures, reductions, weights, checks and gradients, on numpy-backend Tensors
and torch tensors alike (each formula is written once on training.ops.loss_math)."""
import math

import numpy as np

from training.backends.dispatch import is_torch
from training.ops.loss_math import math_of
from training.tensor import Tensor, as_array

REDUCTIONS = ("mean", "sum", "none")
BCE_EPSILON = 1e-12     # MindSpore's BinaryCrossEntropy clamps log() and x(1 - x) there


# --- checks and reductions --------------------------------------------------------------------
def check_reduction(reduction, prim, allowed=REDUCTIONS):
    if reduction not in allowed:
        raise ValueError(f"For '{prim}', the 'reduction' must be in {list(allowed)}, but got "
                         f"{reduction!r}.")


def reduction_enum(reduction, prim):
    """A reduction given to a MindSpore primitive: converted to its enum, so of any case;
    another string is a ValueError."""
    if not isinstance(reduction, str) or reduction.lower() not in REDUCTIONS:
        raise ValueError(f"Failed to convert the value {reduction!r} of input 'reduction' of "
                         f"'{prim}' to enum.")
    return reduction.lower()


def check_tensor(name, value, prim):
    if not (isinstance(value, Tensor) or is_torch(value)):
        raise TypeError(f"For '{prim}', the '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}.")


def check_same_shape(prim, first, second, names=("logits", "labels")):
    if tuple(first.shape) != tuple(second.shape):
        raise ValueError(f"For '{prim}', the shape of '{names[0]}' {tuple(first.shape)} must be "
                         f"the same as the shape of '{names[1]}' {tuple(second.shape)}.")


def check_float(prim, **tensors):
    for name, value in tensors.items():
        if np.dtype(str(value.dtype).replace("torch.", "")).kind != "f":
            raise TypeError(f"For '{prim}', the dtype of '{name}' must be float16, float32 or "
                            f"float64, but got {value.dtype}.")


def reduce(loss, reduction):
    if reduction == "none":
        return loss
    return math_of(loss).reduced(loss, "mean" if reduction == "mean" else "sum")


def _weighted(m, loss, weight):
    return loss if weight is None else loss * m.const(weight)


# --- regression -------------------------------------------------------------------------------
def l1_loss(input, target, reduction="mean"):  # noqa: A002  (MindSpore's argument names)
    check_reduction(reduction, "l1_loss")
    m = math_of(input)
    return reduce((input - m.const(target)).abs(), reduction)


def mse_loss(input, target, reduction="mean"):  # noqa: A002
    check_reduction(reduction, "mse_loss")
    m = math_of(input)
    diff = input - m.const(target)
    return reduce(diff * diff, reduction)


def _check_positive_float(prim, name, value):
    if not isinstance(value, float):
        raise TypeError(f"For '{prim}', the type of '{name}' must be float, but got "
                        f"{type(value).__name__}.")
    if not value > 0:
        raise ValueError(f"For '{prim}', the '{name}' must be greater than 0, but got {value}.")


def smooth_l1_loss_arguments(beta, reduction):
    """(beta, reduction) as MindSpore's SmoothL1Loss primitive takes them when it is made (the
    cell's __init__): a bool or int beta as a float, any case of the reduction. Its value is
    checked at the call."""
    if not isinstance(beta, (bool, int, float)):
        raise TypeError(f"For 'SmoothL1Loss', the type of 'beta' should be one of '[bool, int, "
                        f"float]', but got {type(beta)}.")
    return float(beta), reduction_enum(reduction, "SmoothL1Loss")


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):  # noqa: A002
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target)."""
    beta, reduction = smooth_l1_loss_arguments(beta, reduction)
    if beta <= 0:
        raise RuntimeError(f"For 'SmoothL1Loss', the values for beta should greater than 0, but "
                           f"got {beta:g}.")
    check_same_shape("SmoothL1Loss", input, target, ("prediction", "target"))
    m = math_of(input)
    diff = input - m.const(target)
    small = as_numpy(m, diff.abs()) < beta
    return reduce(m.where(small, diff * diff * (0.5 / beta), diff.abs() - 0.5 * beta), reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):  # noqa: A002
    """0.5 d^2 where |d| <= delta, else delta (|d| - 0.5 delta); target broadcasts."""
    check_reduction(reduction, "huber_loss")
    _check_positive_float("huber_loss", "delta", float(delta) if isinstance(delta, int) and
                          not isinstance(delta, bool) else delta)
    m = math_of(input)
    diff = input - m.const(target)
    small = as_numpy(m, diff.abs()) <= delta
    return reduce(m.where(small, diff * diff * 0.5, (diff.abs() - 0.5 * delta) * delta),
                  reduction)


def gaussian_nll_loss(x, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 (log(max(var, eps)) + (x - target)^2 / max(var, eps)) [+ 0.5 log(2 pi)]; a var of
    x's shape without its last dimension applies along that axis, any other broadcasts."""
    check_reduction(reduction, "gaussian_nll_loss")
    if not isinstance(full, bool):
        raise TypeError(f"For 'gaussian_nll_loss', 'full' must be a bool, but got "
                        f"{type(full).__name__}.")
    if not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For 'gaussian_nll_loss', 'eps' must be a positive float, but got "
                         f"{eps!r}.")
    if tuple(var.shape) == tuple(x.shape)[:-1]:     # one value per row: along the last axis
        var = var.reshape(tuple(var.shape) + (1,))
    elif not _broadcasts(x, var):
        raise ValueError(f"For 'gaussian_nll_loss', 'var' of shape {tuple(var.shape)} must be "
                         f"of the shape of 'x' {tuple(x.shape)} without its last dimension, or "
                         f"broadcast to it.")
    m = math_of(x)
    var = m.const(np.maximum(as_numpy(m, var), eps))     # MindSpore clamps a copy: no gradient
    diff = x - m.const(target)
    loss = (var.log() + diff * diff / var) * 0.5
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return reduce(loss, reduction)


def _broadcasts(*values):
    try:
        np.broadcast_shapes(*(tuple(value.shape) for value in values))
        return True
    except ValueError:
        return False


def as_numpy(m, value):
    """A value's numbers as a numpy array (masks are made on the host)."""
    value = m.values(value)
    return value.cpu().numpy() if is_torch(value) else np.asarray(value)


# --- binary and multi-label -------------------------------------------------------------------
def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """-weight (y log x + (1 - y) log(1 - x)) of probabilities x in [0, 1] (log clamped at
    log(1e-12), the gradient weight (x - y) / max(x (1 - x), 1e-12), as MindSpore's kernel)."""
    reduction = reduction_enum(reduction, "BinaryCrossEntropy")
    check_same_shape("BinaryCrossEntropy", logits, labels)
    m = math_of(logits)
    x = m.values(logits)
    numbers = as_numpy(m, logits)
    if numbers.size and not ((numbers >= 0) & (numbers <= 1)).all():
        bad = numbers[~((numbers >= 0) & (numbers <= 1))].ravel()[0]
        raise RuntimeError(f"For 'BinaryCrossEntropy', the value of 'input_x' must be between "
                           f"0 and 1, but got value: {bad:g}")
    xp, y = m.xp, m.values(m.const(labels))
    value = -(y * xp.log(xp.clip(x, BCE_EPSILON, None)) +
              (1 - y) * xp.log(xp.clip(1 - x, BCE_EPSILON, None)))
    derivative = (x - y) / xp.clip(x * (1 - x), BCE_EPSILON, None)
    return reduce(_weighted(m, m.with_derivative(logits, value, derivative), weight), reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,  # noqa: A002
                                     reduction="mean"):
    """weight (pos_weight y softplus(-x) + (1 - y) softplus(x)); weight and pos_weight
    broadcast (None: ones)."""
    reduction = reduction_enum(reduction, "BCEWithLogitsLoss")
    check_tensor("input", input, "binary_cross_entropy_with_logits")
    check_tensor("target", target, "binary_cross_entropy_with_logits")
    check_same_shape("BCEWithLogitsLoss", input, target, ("input", "target"))
    m = math_of(input)
    y = m.const(target)
    positive = m.softplus(-input) * y
    if pos_weight is not None:
        positive = positive * m.const(pos_weight)
    return reduce(_weighted(m, positive + m.softplus(input) * (-y + 1.0), weight), reduction)


def sigmoid_cross_entropy_with_logits(logits, label):
    """The unreduced binary_cross_entropy_with_logits (P.SigmoidCrossEntropyWithLogits)."""
    return binary_cross_entropy_with_logits(logits, label, reduction="none")


def soft_margin_loss(input, target, reduction="mean"):  # noqa: A002
    """log(1 + exp(-target x))."""
    check_reduction(reduction, "SoftMarginLoss")
    check_same_shape("SoftMarginLoss", input, target, ("input", "target"))
    m = math_of(input)
    return reduce(m.softplus(-input * m.const(target)), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):  # noqa: A002
    """Per sample, the class mean of weight (y softplus(-x) + (1 - y) softplus(x)). As
    MindSpore 2.10's: the terms broadcast, and the sum runs over axis input.ndim - 1 of their
    shape (not the last where the target has more axes: input (1, 2) and target (1, 2, 2) give
    (1, 2) unreduced), divided by the input's class count."""
    check_reduction(reduction, "MultilabelSoftMarginLoss")
    m = math_of(input)
    y = m.const(target)
    loss = _weighted(m, m.softplus(-input) * y + m.softplus(input) * (-y + 1.0), weight)
    return reduce(loss.sum(axis=input.ndim - 1) / float(input.shape[-1]), reduction)


# --- class indices ----------------------------------------------------------------------------
def class_targets(prim, inputs, target, ignore_index):
    """(one-hot of inputs' shape along axis 1, counted mask of target's shape, safe indices)."""
    lab = np.asarray(as_array(target.detach().cpu().numpy() if is_torch(target) else target))
    shape = tuple(inputs.shape)
    if lab.dtype.kind not in "iu":
        raise TypeError(f"For '{prim}', the dtype of 'target' must be int32 or int64, but got "
                        f"{lab.dtype}.")
    expected = shape[:1] + shape[2:] if len(shape) > 1 else ()
    if len(shape) < 1 or lab.shape != expected:
        raise ValueError(f"For '{prim}', the shape of 'target' must be {expected} for 'input' "
                         f"of shape {shape}, but got {lab.shape}.")
    classes = shape[1] if len(shape) > 1 else shape[0]
    counted = lab != ignore_index
    index = np.where(counted, lab, 0)
    if counted.any() and (index.min() < 0 or index.max() >= classes):
        raise ValueError(f"For '{prim}', the class indices in 'target' must be in [0, "
                         f"{classes}) or ignore_index, but got values in [{lab.min()}, "
                         f"{lab.max()}].")
    hot = np.moveaxis(np.arange(classes) == index[..., None], -1, 1) if len(shape) > 1 else \
        np.arange(classes) == index
    return hot, counted, index


def check_ignore_index(ignore_index):
    if not isinstance(ignore_index, int) or isinstance(ignore_index, bool):
        raise TypeError(f"For 'cross_entropy_loss', the type of 'ignore_index' must be 'int', "
                        f"but got '{type(ignore_index).__name__}'.")


def check_label_smoothing(label_smoothing):
    if not isinstance(label_smoothing, float) or label_smoothing < 0:
        raise ValueError(f"For 'cross_entropy_loss', the 'label_smoothing' must be float and "
                         f"must >= 0, but got {label_smoothing!r}.")


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean",
             label_smoothing=0.0):
    """-weight[t] inputs[n, t] (inputs are log-probabilities (N, C, ...)); the mean divides by
    the summed weights of the counted samples; label smoothing as cross_entropy's."""
    check_reduction(reduction, "nll_loss")
    m = math_of(inputs)
    hot, counted, index = class_targets("nll_loss", inputs, target, ignore_index)
    classes = hot.shape[1] if hot.ndim > 1 else hot.shape[0]
    class_weight = np.ones(classes) if weight is None else as_numpy(m, m.const(weight))
    sample_weight = class_weight[index] * counted
    axis = 1 if hot.ndim > 1 else 0
    picked = -(inputs * m.const(hot)).sum(axis=axis) * m.const(sample_weight)
    spread = np.expand_dims(counted, axis) * class_weight.reshape(
        (1, classes) + (1,) * (hot.ndim - 2) if hot.ndim > 1 else (classes,))
    smooth = -(inputs * m.const(spread)).sum(axis=axis)
    if reduction == "mean":
        total = float(sample_weight.sum())
        # nothing counted: 0 / 0, NaN, whose gradient stays 0 (as MindSpore's)
        picked, smooth = (picked.sum() * (1.0 / total), smooth.sum() * (1.0 / total)) if total \
            else (picked.sum() + math.nan, smooth.sum() + math.nan)
    elif reduction == "sum":
        picked, smooth = picked.sum(), smooth.sum()
    if not label_smoothing:
        return picked
    return picked * (1 - label_smoothing) + smooth * (label_smoothing / classes)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
                  label_smoothing=0.0):
    """nll_loss of log_softmax(input, 1) for class indices; for class probabilities (target of
    input's shape) -sum(weight target log_softmax) per sample, the mean over samples."""
    check_reduction(reduction, "cross_entropy")
    check_ignore_index(ignore_index)
    check_label_smoothing(label_smoothing)
    m = math_of(input)
    log_prob = m.log_softmax(input, 1 if input.ndim > 1 else 0)
    if tuple(target.shape) != tuple(input.shape):
        return nll_loss(log_prob, target, weight, ignore_index, reduction, label_smoothing)
    classes = input.shape[1] if input.ndim > 1 else input.shape[0]
    probabilities = m.const(target)
    if label_smoothing:
        probabilities = probabilities * (1 - label_smoothing) + label_smoothing / classes
    if weight is not None:
        probabilities = probabilities * m.const(as_numpy(m, m.const(weight)).reshape(
            (classes,) + (1,) * (input.ndim - 2)))
    return reduce(-(log_prob * probabilities).sum(axis=1 if input.ndim > 1 else 0), reduction)


def kl_div(logits, labels, reduction="mean"):
    """labels (log labels - logits), 0 where labels are 0; 'batchmean' divides the sum by the
    first dimension."""
    check_reduction(reduction, "kl_div", REDUCTIONS + ("batchmean",))
    check_same_shape("kl_div", logits, labels)
    m = math_of(logits)
    y = as_numpy(m, m.const(labels))
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = np.where(y > 0, y * np.log(np.where(y > 0, y, 1)), 0 * y)
    loss = m.const(entropy) - m.const(y) * logits
    if reduction == "batchmean":
        if logits.ndim == 0:
            raise RuntimeError("For 'kl_div', 'batchmean' needs a 'logits' of at least one "
                               "dimension.")
        return m.reduced(loss, "sum") * (1.0 / logits.shape[0])
    return reduce(loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1, weight=None,  # noqa: A002
                      reduction="mean"):
    """Per sample, sum over the other classes i of weight[t] max(0, margin - x[t] + x[i])^p,
    divided by the number of classes."""
    check_reduction(reduction, "MultiMarginLoss")
    if not isinstance(margin, int) or isinstance(margin, bool):
        raise TypeError(f"For 'multi_margin_loss', the type of 'margin' must be int, but got "
                        f"{type(margin)}.")
    return multi_margin(input, target, p, margin, weight, reduction)


def multi_margin(input, target, p, margin, weight, reduction):  # noqa: A002
    """multi_margin_loss without its check of an int margin (the cell and the primitive want
    a float one)."""
    if p not in (1, 2) or isinstance(p, bool):
        raise ValueError(f"For 'MultiMarginLoss', 'p' must be 1 or 2, but got {p!r}.")
    if input.ndim != 2:
        raise ValueError(f"For 'MultiMarginLoss', 'x' must be 2-D, but got shape "
                         f"{tuple(input.shape)}.")
    if str(target.dtype).replace("torch.", "") != "int64":
        raise TypeError(f"For 'MultiMarginLoss', the dtype of 'target' must be int64, but got "
                        f"{target.dtype}.")
    m = math_of(input)
    hot, _, index = class_targets("MultiMarginLoss", input, target, None)
    picked = (input * m.const(hot)).sum(axis=1, keepdims=True)
    hinge = m.clamp_min((input - picked) + float(margin), 0.0, tie_gradient=0.0)
    if p == 2:
        hinge = hinge * hinge
    per_sample = (hinge * m.const(~hot)).sum(axis=1) * (1.0 / input.shape[1])
    if weight is not None:
        per_sample = per_sample * m.const(as_numpy(m, m.const(weight))[index])
    return reduce(per_sample, reduction)


# --- pairs and triplets -----------------------------------------------------------------------
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """max(0, -target (input1 - input2) + margin)."""
    check_reduction(reduction, "margin_ranking_loss")
    if not isinstance(margin, float):
        raise TypeError(f"For 'margin_ranking_loss', the type of 'margin' must be float, but "
                        f"got {type(margin).__name__}.")
    m = math_of(input1)
    return reduce(m.clamp_min(-(input1 - input2) * m.const(target) + margin, 0.0), reduction)


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """inputs where targets is 1, max(0, margin - inputs) where it is -1, else 0 (a tie
    splits the gradient, as MindSpore's Maximum)."""
    check_reduction(reduction, "hinge_embedding_loss")
    if not isinstance(margin, (float, int)) or isinstance(margin, bool):
        raise TypeError(f"For 'hinge_embedding_loss', the type of 'margin' must be float, but "
                        f"got {type(margin).__name__}.")
    m = math_of(inputs)
    y = as_numpy(m, m.const(targets))
    hinge = m.clamp_min(-inputs + float(margin), 0.0, tie_gradient=0.5)
    # a target neither 1 nor -1 counts 0 (MindSpore's; torch would count both terms)
    return reduce(m.where(y == -1, hinge, 0.0) + m.where(y == 1, inputs, 0.0), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1, along
    axis 1 (the inputs broadcast; the cell wants one shape)."""
    check_reduction(reduction, "cosine_embedding_loss")
    if not -1.0 <= margin <= 1.0:
        raise ValueError(f"For ops.cosine_embedding_loss, the value of 'margin' should be in "
                         f"[-1, 1], but got {margin}.")
    m = math_of(input1)
    second = m.const(input2) if not (is_torch(input2) or isinstance(input2, Tensor)) else input2
    cosine = (input1 * second).sum(axis=1) / (
        (input1 * input1).sum(axis=1).sqrt() * (second * second).sum(axis=1).sqrt())
    y = as_numpy(m, m.const(target))
    return reduce(m.where(y == 1, -cosine + 1.0, 0.0) +
                  m.where(y == -1, m.clamp_min(cosine - margin, 0.0, tie_gradient=0.5), 0.0),
                  reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
                        reduction="mean"):
    """max(d(a, p) - d(a, n) + margin, 0) with d the p-norm of (a - b + eps) along the last
    axis; `swap` takes min(d(a, n), d(p, n))."""
    check_reduction(reduction, "triplet_margin_loss")
    m = math_of(anchor)

    def distance(a, b):
        diff = (a - b + eps).abs()
        return (diff ** p).sum(axis=-1) ** (1.0 / p)
    to_positive, to_negative = distance(anchor, positive), distance(anchor, negative)
    if swap:
        other = distance(positive, negative)
        to_negative = m.where(as_numpy(m, other) < as_numpy(m, to_negative), other, to_negative)
    return reduce(m.clamp_min(to_positive - to_negative + margin, 0.0), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-8,  # noqa: A002
                     reduction="mean"):
    """exp(x) - y x (log_input), else x - y log(x + eps); `full` adds Stirling's term
    y log y - y + 0.5 log(2 pi y) where y > 1."""
    check_reduction(reduction, "PoissonNLLLoss")
    m = math_of(input)
    y = m.const(target)
    loss = input.exp() - y * input if log_input else input - y * (input + eps).log()
    if full:
        t = np.maximum(as_numpy(m, y), eps)
        with np.errstate(divide="ignore", invalid="ignore"):
            stirling = (t + 0.5) * np.log(t) - t + 0.5 * math.log(2 * math.pi)
        loss = loss + m.const(np.where(t > 1, stirling, 0.0))
    return reduce(loss, reduction)


def multilabel_margin_loss(input, target, reduction="mean"):  # noqa: A002
    """Per sample, sum over its target classes j (target's leading non-negative entries) and
    the other classes i of max(0, 1 - (x[j] - x[i])), divided by the number of classes."""
    check_reduction(reduction, "MultilabelMarginLoss")
    if input.ndim not in (1, 2) or tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"For 'MultilabelMarginLoss', 'x' must be 1-D or 2-D and 'target' of "
                         f"its shape, but got {tuple(input.shape)} and {tuple(target.shape)}.")
    m = math_of(input)
    rows = input if input.ndim == 2 else input.reshape((1, -1))
    labels = as_numpy(m, m.tensor(target)).reshape(rows.shape)
    if labels.dtype.kind not in "iu":
        raise TypeError(f"For 'MultilabelMarginLoss', the dtype of 'target' must be int32, but "
                        f"got {labels.dtype}.")
    classes = rows.shape[1]
    pairs = np.zeros((rows.shape[0], classes, classes))     # [n, j, i]: j a target, i not
    for n, row in enumerate(labels):
        ends = np.flatnonzero(row < 0)
        chosen = row[:ends[0] if ends.size else classes]
        if chosen.size and chosen.max() >= classes:
            raise ValueError(f"For 'MultilabelMarginLoss', target classes must be in [0, "
                             f"{classes}), but got {chosen.max()}.")
        others = np.ones(classes, bool)
        others[chosen] = False
        pairs[n, np.unique(chosen)[:, None], np.flatnonzero(others)[None, :]] = 1
    margins = (rows.reshape((rows.shape[0], 1, classes)) - rows.reshape(rows.shape + (1,))) + 1.0
    hinge = m.clamp_min(margins, 0.0, tie_gradient=0.0) * m.const(pairs)
    per_sample = hinge.sum(axis=(1, 2)) * (1.0 / classes)
    return reduce(per_sample if input.ndim == 2 else per_sample.reshape(()), reduction)


# --- connectionist temporal classification ----------------------------------------------------
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """(loss, log_alpha) of log-probabilities (T, N, C) against padded targets (N, S): the
    negative log-likelihood of every alignment (the alpha-beta recursion), 'mean' dividing each
    by its target length first. The gradient is torch's and MindSpore's: that of the logits
    whose log_softmax log_probs are (exp(log_probs) - the alignments' posterior)."""
    check_reduction(reduction, "ctc_loss")
    if not isinstance(zero_infinity, bool):
        raise TypeError(f"For 'ctc_loss', the type of 'zero_infinity' should be 'bool', but got "
                        f"type '{type(zero_infinity).__name__}'.")
    lengths, target_lens = (np.asarray(as_numpy(math_of(log_probs), value), np.int64)
                            for value in (input_lengths, target_lengths))
    labels = np.asarray(as_numpy(math_of(log_probs), targets), np.int64)
    if log_probs.ndim != 3 or labels.ndim != 2 or labels.shape[0] != log_probs.shape[1]:
        raise ValueError(f"For 'ctc_loss', 'log_probs' must be (T, N, C) and 'targets' (N, S), "
                         f"but got {tuple(log_probs.shape)} and {labels.shape}.")
    short = np.flatnonzero(lengths < target_lens)
    if short.size:
        n = short[0]
        raise RuntimeError(f"For 'CTCLossV2', the input_lengths[{n}] = {lengths[n]} should be "
                           f"non-negative and not smaller than tar_len_p[{n}] = "
                           f"{target_lens[n]}")
    m = math_of(log_probs)
    lp = as_numpy(m, log_probs).astype(np.float64)
    nll, grad, log_alpha = ctc_forward_backward(lp, labels, lengths, target_lens, blank)
    if zero_infinity:
        infinite = np.isinf(nll)
        nll, grad = np.where(infinite, 0.0, nll), np.where(infinite[None, :, None], 0.0, grad)
    if is_torch(log_probs):
        loss = m.torch.nn.functional.ctc_loss(
            log_probs, m.tensor(labels), m.tensor(lengths), m.tensor(target_lens), blank,
            "none", zero_infinity)
    else:
        loss = Tensor.from_op(nll.astype(log_probs.dtype), (log_probs,),
                              lambda g: ((g[None, :, None] * grad).astype(lp.dtype),))
    if reduction == "mean":
        loss = (loss * m.const(1.0 / np.maximum(target_lens, 1))).mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss, m.const(log_alpha.transpose(1, 0, 2))


def ctc_forward_backward(lp, labels, lengths, target_lens, blank):
    """Per sample: the negative log-likelihood, its gradient (T, N, C) as ctc_loss's docstring
    says, and log alpha (T, N, 2S + 1; -inf past the sample's input length)."""
    steps, batch, classes = lp.shape
    width = 2 * labels.shape[1] + 1
    nll, grad = np.zeros(batch), np.zeros_like(lp)
    log_alpha = np.full((steps, batch, width), -np.inf)
    for n in range(batch):
        length, size = int(lengths[n]), int(target_lens[n])
        extended = np.full(2 * size + 1, blank)
        extended[1::2] = labels[n, :size]
        # a step may skip the blank between two different labels
        skip = np.zeros(len(extended), bool)
        skip[2:] = (extended[2:] != blank) & (extended[2:] != extended[:-2])
        emit = lp[:length, n][:, extended]
        alpha = np.full((length, len(extended)), -np.inf)
        beta = np.full_like(alpha, -np.inf)
        alpha[0, :2] = emit[0, :2]
        for t in range(1, length):
            alpha[t] = _ctc_step(alpha[t - 1], skip) + emit[t]
        nll[n] = -np.logaddexp.reduce(alpha[-1, -2:])
        beta[-1, -2:] = emit[-1, -2:]
        for t in range(length - 2, -1, -1):
            beta[t] = _ctc_step(beta[t + 1][::-1], np.roll(skip, -2)[::-1])[::-1] + emit[t]
        if not length:      # (no target either: input_lengths >= target_lengths)
            continue
        log_alpha[:length, n, :len(extended)] = alpha
        posterior = np.full((length, classes), -np.inf)
        for s, label in enumerate(extended):
            posterior[:, label] = np.logaddexp(posterior[:, label], alpha[:, s] + beta[:, s])
        with np.errstate(invalid="ignore", over="ignore"):
            grad[:length, n] = np.exp(lp[:length, n]) - np.exp(posterior + nll[n] - lp[:length, n])
    return nll, grad, log_alpha


def _ctc_step(previous, skip):
    """One step of the recursion: from the same state, the one before, and (where `skip`) two
    before."""
    out = previous.copy()
    out[1:] = np.logaddexp(out[1:], previous[:-1])
    out[2:] = np.where(skip[2:], np.logaddexp(out[2:], previous[:-2]), out[2:])
    return out
