"""Segmentation loss cells of `mindspore.nn`: DiceLoss, MultiClassDiceLoss."""
from training.nn.cell import Cell
from training.nn.loss.base import LossBase
from training.ops import functional as F
from training.ops.loss_math import math_of

ACTIVATIONS = {"softmax": F.softmax, "logsoftmax": F.log_softmax, "relu": F.relu,
               "relu6": lambda x: F.minimum(F.relu(x), math_of(x).const(6.0)), "tanh": F.tanh,
               "sigmoid": F.sigmoid}


class DiceLoss(LossBase):
    """1 - 2 sum(logits label) / (sum(logits^2) + sum(label^2) + smooth), over every
    element."""

    def __init__(self, smooth=1e-05):
        super().__init__()
        if not isinstance(smooth, float) or isinstance(smooth, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'smooth' must be float, but got "
                            f"{type(smooth).__name__}.")
        if not smooth > 0:
            raise ValueError(f"For '{self.cls_name}', the 'smooth' must be greater than 0, but "
                             f"got {smooth}.")
        self.smooth = smooth

    def construct(self, logits, label):
        check_dice_inputs(self, logits, label)
        for name, value in (("logits", logits), ("labels", label)):
            if str(value.dtype).replace("torch.", "") == "uint8":
                raise TypeError(f"For '{self.cls_name}', the dtype of '{name}' can not be "
                                f"uint8.")
        m = math_of(logits)
        return m.in_float32(lambda x: self.dice_loss(m, x, label), logits)

    def dice_loss(self, m, logits, label):
        x, y = logits.reshape(-1), m.const(label).reshape(-1)
        intersection = (x * y).sum()
        union = (x * x).sum() + (y * y).sum()
        return -m.divide(intersection * 2, union + self.smooth) + 1


class MultiClassDiceLoss(LossBase):
    """The mean over the classes (axis 1) of DiceLoss(smooth=1e-5) of the activated logits,
    skipping `ignore_indiex` (MindSpore's spelling); a class's loss times weights[i]."""

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        if weights is not None and weights.ndim != 2:
            raise ValueError(f"For '{self.cls_name}', the dimension of 'weights' must be 2, but "
                             f"got {weights.ndim}.")
        if ignore_indiex is not None and (not isinstance(ignore_indiex, int) or
                                          isinstance(ignore_indiex, bool)):
            raise TypeError(f"For '{self.cls_name}', the type of 'ignore_indiex' must be int, "
                            f"but got {type(ignore_indiex).__name__}.")
        if isinstance(activation, str) and activation not in ACTIVATIONS:
            raise ValueError(f"For '{self.cls_name}', the 'activation' must be in "
                             f"{list(ACTIVATIONS)}, but got {activation}.")
        if activation is not None and not isinstance(activation, (str, Cell)):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell, but "
                            f"got {type(activation)}.")
        self.activation = ACTIVATIONS.get(activation, activation)
        self.binary_dice = DiceLoss(smooth=1e-5)
        self.weights, self.ignore_indiex = weights, ignore_indiex

    def construct(self, logits, label):
        check_dice_inputs(self, logits, label)
        for name, value in (("logits", logits), ("labels", label)):
            if value.ndim < 2:
                raise ValueError(f"For '{self.cls_name}', the '{name}' dimension must be "
                                 f"greater than 1, but got {value.ndim}.")
        if self.activation is not None:
            logits = self.activation(logits)
        total = 0
        for i in range(label.shape[1]):
            if i != self.ignore_indiex:
                dice = self.binary_dice(logits[:, i], label[:, i])
                if self.weights is not None:
                    dice = dice * self.weights[i]
                total = total + dice
        return total / label.shape[1]


def check_dice_inputs(cell, logits, label):
    """Tensors of one shape, as MindSpore's dice losses want them."""
    cell.check_tensors(logits=logits, labels=label)
    if tuple(logits.shape) != tuple(label.shape):
        raise ValueError(f"For '{cell.cls_name}', the 'logits_shape' must be equal to "
                         f"'label_shape', but got {tuple(logits.shape)} and "
                         f"{tuple(label.shape)}.")
