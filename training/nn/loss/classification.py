"""Classification loss cells of `mindspore.nn`: SoftmaxCrossEntropyWithLogits, CrossEntropyLoss,
NLLLoss, KLDivLoss, FocalLoss, MultiMarginLoss, MultilabelMarginLoss."""
import numpy as np

from training.backends.dispatch import is_torch, torch_kernels
from training.backends.numpy import functional as F
from training.nn.loss.base import LossBase
from training.ops import losses
from training.ops.loss_math import math_of
from training.tensor import Tensor, as_array


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
        if self.sparse and np.dtype(str(labels.dtype).replace("torch.", "")).kind not in "iu":
            raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', sparse labels must be int32 "
                            f"or int64 class indices, but got {labels.dtype}")
        if is_torch(logits):
            kernels = torch_kernels()
            return kernels.softmax_cross_entropy(logits, kernels.as_torch(labels, logits),
                                                 self.sparse, self.reduction)
        return F.softmax_cross_entropy(logits, labels, self.sparse, self.reduction)


class CrossEntropyLoss(LossBase):
    """Cross entropy of log_softmax(logits) (N, C) against class indices (N,) or class
    probabilities (N, C), with per-class `weight`, `ignore_index` and `label_smoothing`
    (MindSpore 2.x / torch semantics: the mean divides by the summed weights of the counted
    samples)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if not isinstance(label_smoothing, float):
            raise TypeError(f"For 'CrossEntropyLoss', the type of 'label_smoothing' should be "
                            f"float, but got {type(label_smoothing).__name__}")
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', 'label_smoothing' must be in [0, 1], but "
                             f"got {label_smoothing}")
        if not isinstance(ignore_index, int) or isinstance(ignore_index, bool):
            raise TypeError(f"For 'CrossEntropyLoss', the type of 'ignore_index' should be int, "
                            f"but got {type(ignore_index).__name__}")
        self.weight = weight
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing

    def construct(self, logits, labels):
        self.check_tensors(logits=logits, labels=labels)
        self.check_cross_entropy_inputs(logits, labels)
        return losses.cross_entropy(logits, labels, self.weight, self.ignore_index,
                                    self.reduction, self.label_smoothing)

    def check_cross_entropy_inputs(self, logits, labels):
        """MindSpore's: float16/float32 logits; probabilities of the logits' shape and a float
        dtype, or int32 class indices of its shape without axis 1 (int64 too: torch's label
        dtype, which MindSpore refuses)."""
        def dtype_check(name, value, allowed):
            dtype = str(value.dtype).replace("torch.", "")
            if dtype not in allowed:
                raise TypeError(f"For '{self.cls_name}', the type of '{name}' should be in "
                                f"{list(allowed)}, but got {dtype}.")
        dtype_check("logits", logits, ("float16", "float32"))
        shape, label_shape = tuple(logits.shape), tuple(labels.shape)
        if labels.ndim == logits.ndim:
            dtype_check("labels", labels, ("float16", "float32"))
            expected = shape
        elif labels.ndim == logits.ndim - 1:
            dtype_check("labels", labels, ("int32", "int64"))
            expected = shape[:1] + shape[2:] if logits.ndim != 1 else label_shape
        else:
            raise ValueError(f"For '{self.cls_name}', the rank of 'logits' and 'labels' should "
                             f"be equal (probabilities) or one less for 'labels' (class "
                             f"indices), but got {logits.ndim} and {labels.ndim}.")
        if label_shape != expected:
            raise ValueError(f"For '{self.cls_name}', the shape of 'labels' should be "
                             f"{expected} for 'logits' of shape {shape}, but got {label_shape}.")


class NLLLoss(LossBase):
    """-weight[t] logits[n, t] of log-probabilities; the mean divides by the summed weights."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        check_int(self.cls_name, "ignore_index", ignore_index)
        self.weight = check_class_weight(self.cls_name, weight)
        self.ignore_index = ignore_index

    def construct(self, logits, labels):
        return losses.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class KLDivLoss(LossBase):
    """labels (log labels - logits); reduction 'batchmean' too (the sum over the first
    dimension's size)."""

    def __init__(self, reduction="mean"):
        super().__init__("mean")
        losses.check_reduction(reduction, self.cls_name, losses.REDUCTIONS + ("batchmean",))
        self.reduction = reduction

    def construct(self, logits, labels):
        return losses.kl_div(logits, labels, self.reduction)


class MultiMarginLoss(LossBase):
    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__(reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' should be 'float', but "
                            f"got type '{type(margin).__name__}'.")
        self.p, self.margin, self.weight = p, margin, weight

    def construct(self, x, target, weight=None):
        self.check_tensors(x=x, target=target)
        weight = self.weight if self.weight is not None else weight
        return losses.multi_margin(x, target, self.p, self.margin, weight, self.reduction)


class MultilabelMarginLoss(LossBase):
    def construct(self, x, target):
        return losses.multilabel_margin_loss(x, target, self.reduction)


class FocalLoss(LossBase):
    """-(1 - p)^gamma log p of softmax over axis 1 of logits (N, C[, H[, W]]) against class
    indices (N, 1, ...) or one-hot/probability labels (N, C, ...), averaged over the spatial
    positions (indices) or the classes (one-hot), then reduced; `weight` per class."""

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction)
        if not isinstance(gamma, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'gamma' must be float, but got "
                            f"{type(gamma).__name__}.")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For '{self.cls_name}', the type of 'weight' must be a Tensor, "
                            f"but got {type(weight).__name__}.")
        if weight is not None and weight.ndim != 1:
            raise ValueError(f"For '{self.cls_name}', the dimension of 'weight' must be 1, but "
                             f"got {weight.ndim}.")
        self.weight, self.gamma = weight, gamma

    def construct(self, logits, labels):
        self.check_tensors(logits=logits, labels=labels)
        self.check_focal_inputs(logits, labels)
        m = math_of(logits)
        n, classes = logits.shape[:2]
        flat = logits.reshape((n, classes, -1))
        targets = losses.as_numpy(m, labels).reshape((n, labels.shape[1], -1))
        log_prob = m.log_softmax(flat, 1)
        by_index = labels.shape[1] == 1
        class_weight = None if self.weight is None else as_array(self.weight).reshape(
            (1, classes, 1))
        if by_index:
            hot = np.arange(classes)[None, :, None] == targets.astype(np.int64)
            log_prob = (log_prob * m.const(hot)).sum(axis=1)
            if class_weight is not None:
                class_weight = (class_weight * hot).sum(axis=1)
        focal = (-log_prob.exp() + 1.0) ** self.gamma
        if class_weight is not None:    # of the weight's dtype: a float32 one promotes float16
            log_prob = log_prob * m.const(class_weight, class_weight.dtype)
        if by_index:
            return self.get_loss((-focal * log_prob).mean(axis=1))
        # float labels of their own dtype (float32 ones promote float16 logits), others the
        # logits'
        label_dtype = targets.dtype if targets.dtype.kind == "f" else None
        return self.get_loss((-focal * m.const(targets, label_dtype) * log_prob).mean(axis=-1))

    def check_focal_inputs(self, logits, labels):
        for name, ndim in (("logits", logits.ndim), ("labels", labels.ndim)):
            if not 2 <= ndim <= 4:
                raise ValueError(f"For '{self.cls_name}', the dimensions of '{name}' must be in "
                                 f"[2, 4], but got dimension of '{name}' {ndim}.")
        if logits.ndim != labels.ndim:
            raise ValueError(f"For '{self.cls_name}', the dimensions of 'logits' and 'labels' "
                             f"must be equal, but got {logits.ndim} and {labels.ndim}.")
        if logits.shape[1] == 1:
            raise ValueError(f"For '{self.cls_name}', the 'logits'.shape[1] cannot be one.")
        if labels.shape[1] not in (1, logits.shape[1]):
            raise ValueError(f"For '{self.cls_name}', the 'labels'.shape[1] must be one or "
                             f"equal to 'logits'.shape[1]: {logits.shape[1]}, but got "
                             f"{labels.shape[1]}.")
        dtype = str(labels.dtype).replace("torch.", "")
        if dtype not in ("int32", "int64", "float16", "float32"):
            raise TypeError(f"For '{self.cls_name}', the dtype of 'labels' must be int32, "
                            f"int64, float16 or float32, but got {dtype}.")


def check_int(prim, name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{prim}', the type of '{name}' should be int, but got "
                        f"{type(value).__name__}")


def check_class_weight(prim, weight):
    """A per-class weight: None, or a float16/float32 Tensor (TypeError otherwise)."""
    if weight is None:
        return None
    if not isinstance(weight, Tensor):
        raise TypeError(f"For '{prim}', the type of 'weight' must be a Tensor, but got "
                        f"{type(weight).__name__}.")
    if weight.dtype not in (np.float16, np.float32):
        raise TypeError(f"For '{prim}', the dtype of 'weight' must be float16 or float32, but "
                        f"got {weight.dtype}.")
    return weight
