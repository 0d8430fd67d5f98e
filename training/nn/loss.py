"""Loss cells (`mindspore.nn.loss`): SoftmaxCrossEntropyWithLogits, CrossEntropyLoss, MSELoss,
L1Loss."""
import numpy as np

from training.backends.dispatch import is_torch, torch_kernels
from training.backends.numpy import functional as F
from training.nn.cell import Cell
from training.tensor import Tensor

REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in REDUCTIONS:
            raise ValueError(f"For '{self.cls_name}', 'reduction' must be one of {REDUCTIONS}, "
                             f"but got {reduction!r}")
        self.reduction = reduction

    def check_broadcast(self, logits, labels):
        """ValueError, as MindSpore 2.10, for shapes that do not broadcast (the torch backend
        would raise RuntimeError)."""
        shapes = tuple(logits.shape), tuple(np.shape(getattr(labels, "data", labels)))
        try:
            np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError(f"For '{self.cls_name}', logits of shape {shapes[0]} and labels of "
                             f"shape {shapes[1]} need to broadcast") from None

    def get_loss(self, x, weights=1.0):
        x = x * weights if not (isinstance(weights, float) and weights == 1.0) else x
        if self.reduction == "mean":
            return x.mean()
        if self.reduction == "sum":
            return x.sum()
        return x


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross entropy of softmax(logits) against labels: class indices when `sparse`, else
    one-hot/probability rows of the logits' shape. MindSpore's default reduction is 'none'."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', the 'sparse' must be a bool, "
                            f"but got {type(sparse).__name__}")
        self.sparse = sparse

    def construct(self, logits, labels):
        self.check_input(logits, logits.ndim == 2, "(N, num_classes)")
        if is_torch(logits):
            kernels = torch_kernels()
            return kernels.softmax_cross_entropy(logits, kernels.as_torch(labels, logits),
                                                 self.sparse, self.reduction)
        return F.softmax_cross_entropy(logits, labels, self.sparse, self.reduction)


class MSELoss(LossBase):
    def construct(self, logits, labels):
        self.check_broadcast(logits, labels)
        if is_torch(logits):
            diff = logits - torch_kernels().as_torch(labels, logits).to(logits.dtype)
            return self.get_loss(diff * diff)
        labels = labels if isinstance(labels, Tensor) else Tensor(labels)
        diff = logits - labels.astype(logits.dtype) if labels.dtype != logits.dtype else logits - labels
        return self.get_loss(diff * diff)


class L1Loss(LossBase):
    def construct(self, logits, labels):
        self.check_broadcast(logits, labels)
        if is_torch(logits):
            return self.get_loss((logits - torch_kernels().as_torch(labels, logits)
                                  .to(logits.dtype)).abs())
        labels = labels if isinstance(labels, Tensor) else Tensor(labels)
        return self.get_loss((logits - labels.astype(logits.dtype)).abs())


class CrossEntropyLoss(LossBase):
    """Cross entropy of log_softmax(logits) (N, C) against class indices (N,) or class
    probabilities (N, C), with per-class `weight`, `ignore_index` and `label_smoothing`
    (MindSpore 2.x / torch semantics: the mean divides by the summed weights of the counted
    samples)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', 'label_smoothing' must be in [0, 1], but "
                             f"got {label_smoothing}")
        if not isinstance(ignore_index, int) or isinstance(ignore_index, bool):
            raise TypeError(f"For 'CrossEntropyLoss', the type of 'ignore_index' should be int, "
                            f"but got {type(ignore_index).__name__}")
        self.weight = None if weight is None else np.asarray(getattr(weight, "data", weight))
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing

    def construct(self, logits, labels):
        self.check_input(logits, logits.ndim == 2, "(N, C)")
        if is_torch(logits):
            return torch_kernels().cross_entropy(logits, labels, self.weight, self.ignore_index,
                                                 self.reduction, self.label_smoothing)
        n, classes = logits.shape
        lab = np.asarray(getattr(labels, "data", labels))
        log_prob = F.log_softmax(logits, axis=1)
        weight = np.ones(classes, log_prob.dtype) if self.weight is None else \
            self.weight.astype(log_prob.dtype)
        if lab.shape == logits.shape:  # class probabilities
            target = lab.astype(log_prob.dtype)
            counted = np.ones(n, log_prob.dtype)
            denominator = float(n)
        else:
            if lab.shape != (n,) or lab.dtype.kind not in "iu":
                raise ValueError(f"For 'CrossEntropyLoss', labels must be {n} integer class "
                                 f"indices or probabilities of shape {logits.shape}, but got "
                                 f"shape {lab.shape} and dtype {lab.dtype}")
            valid = lab != self.ignore_index
            idx = np.where(valid, lab, 0)
            if valid.any() and (idx[valid].min() < 0 or idx[valid].max() >= classes):
                raise ValueError(f"For 'CrossEntropyLoss', class indices must be in [0, {classes})"
                                 f" or ignore_index, but got values in [{lab.min()}, {lab.max()}]")
            target = np.zeros((n, classes), log_prob.dtype)
            target[np.arange(n), idx] = 1
            counted = valid.astype(log_prob.dtype)
            denominator = float((weight[idx] * counted).sum())
        if self.label_smoothing:
            target = target * (1 - self.label_smoothing) + self.label_smoothing / classes
        per_sample = -(log_prob * (target * weight * counted[:, None])).sum(axis=1)
        if self.reduction == "mean":
            if not denominator:     # nothing counted (every label ignored, or zero weights):
                # 0 / 0, NaN as in MindSpore and torch, not a loss of 0 that would look like
                # a perfect fit; its gradient stays 0, as MindSpore's
                return per_sample.sum() + float("nan")
            return per_sample.sum() * (1.0 / denominator)
        return per_sample.sum() if self.reduction == "sum" else per_sample
