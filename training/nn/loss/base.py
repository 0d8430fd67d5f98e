"""LossBase (`mindspore.nn.LossBase`): the reduction every loss cell checks and applies."""
import numpy as np

from training.nn.cell import Cell
from training.ops.losses import REDUCTIONS, check_tensor


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

    def check_tensors(self, **named):
        """TypeError, in MindSpore's words, for an input that is no Tensor."""
        for name, value in named.items():
            check_tensor(name, value, self.cls_name)

    def get_loss(self, x, weights=1.0):
        x = x * weights if not (isinstance(weights, float) and weights == 1.0) else x
        if self.reduction == "mean":
            return x.mean()
        if self.reduction == "sum":
            return x.sum()
        return x
