"""The loss primitives of `mindspore.ops` (ops.BCEWithLogitsLoss('mean')(x, y, w, pw), ...):
each keeps its construction arguments and calls the function of training.ops.losses. (A module
apart from losses.py, as activation_primitives.py: operations.py imports it, whose Primitive
these extend.)"""
import numpy as np

from training.ops import losses
from training.ops.loss_math import math_of
from training.ops.operations import Primitive

__all__ = ["BCEWithLogitsLoss", "BinaryCrossEntropy", "SigmoidCrossEntropyWithLogits",
           "SmoothL1Loss", "NLLLoss", "KLDivLoss", "SoftmaxCrossEntropyWithLogits",
           "SparseSoftmaxCrossEntropyWithLogits", "SoftMarginLoss", "MultiMarginLoss",
           "MultilabelMarginLoss"]


class _ReducedLoss(Primitive):
    """A loss primitive configured by its reduction (checked when made, as MindSpore)."""
    allowed = losses.REDUCTIONS

    def __init__(self, reduction="mean"):
        super().__init__()
        losses.check_reduction(reduction, self.name, self.allowed)
        self.reduction = reduction


class BCEWithLogitsLoss(_ReducedLoss):
    def __call__(self, input, target, weight=None, posWeight=None):  # noqa: A002,N803
        return losses.binary_cross_entropy_with_logits(input, target, weight, posWeight,
                                                       self.reduction)


class BinaryCrossEntropy(_ReducedLoss):
    def __call__(self, input, target, weight=None):  # noqa: A002
        return losses.binary_cross_entropy(input, target, weight, self.reduction)


class SigmoidCrossEntropyWithLogits(Primitive):
    def __call__(self, logits, label):
        return losses.sigmoid_cross_entropy_with_logits(logits, label)


class SmoothL1Loss(Primitive):
    def __init__(self, beta=1.0, reduction="none"):
        super().__init__()
        self.beta, self.reduction = losses.smooth_l1_loss_arguments(beta, reduction)

    def __call__(self, prediction, target):
        return losses.smooth_l1_loss(prediction, target, self.beta, self.reduction)


class NLLLoss(_ReducedLoss):
    """(loss, total_weight): total_weight sums the weights of the counted samples."""

    def __init__(self, reduction="mean", ignore_index=-100):
        super().__init__(reduction)
        self.ignore_index = ignore_index

    def __call__(self, logits, labels, weight):
        loss = losses.nll_loss(logits, labels, weight, self.ignore_index, self.reduction)
        m = math_of(logits)
        _, counted, index = losses.class_targets("NLLLoss", logits, labels, self.ignore_index)
        total = (losses.as_numpy(m, m.const(weight))[index] * counted).sum()
        return loss, m.const(np.asarray(total))


class KLDivLoss(_ReducedLoss):
    allowed = losses.REDUCTIONS + ("batchmean",)

    def __call__(self, logits, labels):
        return losses.kl_div(logits, labels, self.reduction)


class SoftmaxCrossEntropyWithLogits(Primitive):
    """(per-sample loss, its gradient softmax(logits) - labels) of probability labels."""

    def __call__(self, logits, labels):
        loss = losses.cross_entropy(logits, labels, reduction="none")
        m = math_of(logits)
        return loss, m.softmax(m.const(m.values(logits)), -1) - m.const(labels)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """The mean loss of class indices; with is_grad its gradient instead."""

    def __init__(self, is_grad=False):
        super().__init__()
        self.is_grad = is_grad

    def __call__(self, logits, labels):
        if not self.is_grad:
            return losses.cross_entropy(logits, labels)
        m = math_of(logits)
        hot, _, _ = losses.class_targets("SparseSoftmaxCrossEntropyWithLogits", logits, labels,
                                         None)
        return (m.softmax(m.const(m.values(logits)), -1) - m.const(hot)) * (1.0 / len(hot))


class SoftMarginLoss(_ReducedLoss):
    def __call__(self, input, target):  # noqa: A002
        return losses.soft_margin_loss(input, target, self.reduction)


class MultiMarginLoss(_ReducedLoss):
    def __init__(self, p=1, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        self.p, self.margin = p, margin

    def __call__(self, x, target, weight=None):
        return losses.multi_margin(x, target, self.p, self.margin, weight, self.reduction)


class MultilabelMarginLoss(_ReducedLoss):
    """(loss, is_target): is_target marks each sample's target classes."""

    def __call__(self, x, target):
        loss = losses.multilabel_margin_loss(x, target, self.reduction)
        m = math_of(x)
        labels = losses.as_numpy(m, m.tensor(target))
        rows = labels.reshape((-1, labels.shape[-1]))
        is_target = np.zeros_like(rows)
        for n, row in enumerate(rows):
            ends = np.flatnonzero(row < 0)
            is_target[n, row[:ends[0] if ends.size else len(row)]] = 1
        return loss, m.tensor(is_target.reshape(labels.shape))
