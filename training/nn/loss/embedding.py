"""Pair and triplet loss cells of `mindspore.nn`: MarginRankingLoss, CosineEmbeddingLoss,
HingeEmbeddingLoss, TripletMarginLoss."""
from training.nn.loss.base import LossBase
from training.ops import losses


class MarginRankingLoss(LossBase):
    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return losses.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class CosineEmbeddingLoss(LossBase):
    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' must be float, but "
                            f"got {type(margin).__name__}.")
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'margin' must be in [-1.0, 1.0], but "
                             f"got {margin}.")
        self.margin = margin

    def construct(self, logits_x1, logits_x2, labels):
        self.check_tensors(logits_x1=logits_x1, logits_x2=logits_x2, labels=labels)
        losses.check_same_shape(self.cls_name, logits_x1, logits_x2,
                                ("logits_x1", "logits_x2"))
        return losses.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin,
                                            self.reduction)


class HingeEmbeddingLoss(LossBase):
    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, logits, labels):
        return losses.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class TripletMarginLoss(LossBase):
    """max(d(x, positive) - d(x, negative) + margin, 0); a `margin` given to the cell other than
    1.0 wins over construct's, as in MindSpore."""

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean", margin=1.0):
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin

    def construct(self, x, positive, negative, margin=1.0):
        margin = self.margin if self.margin != 1.0 else margin
        return losses.triplet_margin_loss(x, positive, negative, margin, self.p, self.eps,
                                          self.swap, self.reduction)
