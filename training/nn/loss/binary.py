"""Binary and multi-label loss cells of `mindspore.nn`: BCELoss, BCEWithLogitsLoss,
SoftMarginLoss, MultiLabelSoftMarginLoss."""
from training.nn.loss.base import LossBase
from training.ops import losses
from training.tensor import Parameter


class BCELoss(LossBase):
    """Binary cross entropy of probabilities; `weight` rescales each element (broadcast)."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        return losses.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of sigmoid(input); `weight` and `pos_weight` (Tensors, no
    Parameters) broadcast."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__()      # the reduction is checked by the function, at the call
        self.reduction = reduction
        for name, value in (("weight", weight), ("pos_weight", pos_weight)):
            if isinstance(value, Parameter):
                raise TypeError(f"For '{self.cls_name}', the '{name}' can not be a Parameter.")
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, input, target):  # noqa: A002  (MindSpore's argument names)
        self.check_tensors(input=input, target=target)
        return losses.binary_cross_entropy_with_logits(input, target, self.weight,
                                                       self.pos_weight, self.reduction)


class SoftMarginLoss(LossBase):
    def construct(self, logits, labels):
        return losses.soft_margin_loss(logits, labels, self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x, target):
        return losses.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)
