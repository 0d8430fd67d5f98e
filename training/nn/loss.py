"""Loss cells: SoftmaxCrossEntropyWithLogits, MSELoss, L1Loss."""
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
        self.sparse = sparse

    def construct(self, logits, labels):
        self.check_input(logits, logits.ndim == 2, "(N, num_classes)")
        return F.softmax_cross_entropy(logits, labels, self.sparse, self.reduction)


class MSELoss(LossBase):
    def construct(self, logits, labels):
        labels = labels if isinstance(labels, Tensor) else Tensor(labels)
        diff = logits - labels.astype(logits.dtype) if labels.dtype != logits.dtype else logits - labels
        return self.get_loss(diff * diff)


class L1Loss(LossBase):
    def construct(self, logits, labels):
        labels = labels if isinstance(labels, Tensor) else Tensor(labels)
        return self.get_loss((logits - labels.astype(logits.dtype)).abs())
