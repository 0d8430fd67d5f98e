"""TripletMarginWithDistanceLoss (MindSpore 2.10's): max(d(x, positive) - d(x, negative) +
margin, 0) for any distance function, by default the L2 norm of |x - y| over axis 1 (no eps,
unlike TripletMarginLoss's)."""
from training.nn.loss.base import LossBase
from training.ops import functional as F


def pairwise_distance(x, y):
    difference = F.abs(x - y)
    if difference.ndim == 0:
        raise ValueError(f"For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' "
                         f"of the input must be positive, but got {difference.ndim}")
    return F.lp_norm(difference, 1, 2)


class TripletMarginWithDistanceLoss(LossBase):
    def __init__(self, distance_function=None, swap=False, reduction="mean", margin=1.0):
        super().__init__(reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' should be 'float', "
                            f"but got type '{type(margin).__name__}'.")
        if not isinstance(swap, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'swap' should be 'bool', but "
                            f"got type '{type(swap).__name__}'.")
        self.distance_function = distance_function or pairwise_distance
        self.swap, self.margin = swap, margin

    def construct(self, x, positive, negative):
        self.check_tensors(x=x, positive=positive, negative=negative)
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = F.minimum(d2, self.distance_function(positive, negative))
        return self.get_loss(F.maximum(d1 - d2 + self.margin, 0))
