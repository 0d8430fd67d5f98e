"""Regression loss cells of `mindspore.nn`: MSELoss, L1Loss, MAELoss, RMSELoss, SmoothL1Loss,
HuberLoss, PoissonNLLLoss, GaussianNLLLoss."""
from training.backends.dispatch import is_torch, torch_kernels
from training.nn.loss.base import LossBase
from training.ops import losses
from training.tensor import Tensor


class MSELoss(LossBase):
    def construct(self, logits, labels):
        self.check_broadcast(logits, labels)
        if is_torch(logits):
            diff = logits - torch_kernels().as_torch(labels, logits).to(logits.dtype)
            return self.get_loss(diff * diff)
        labels = labels if isinstance(labels, Tensor) else Tensor(labels)
        diff = logits - labels.astype(logits.dtype) if labels.dtype != logits.dtype else \
            logits - labels
        return self.get_loss(diff * diff)


class L1Loss(LossBase):
    def construct(self, logits, labels):
        self.check_broadcast(logits, labels)
        if is_torch(logits):
            return self.get_loss((logits - torch_kernels().as_torch(labels, logits)
                                  .to(logits.dtype)).abs())
        labels = labels if isinstance(labels, Tensor) else Tensor(labels)
        return self.get_loss((logits - labels.astype(logits.dtype)).abs())


class MAELoss(L1Loss):
    """|logits - label|, reduced (MindSpore's MAELoss: L1Loss that takes Tensors only)."""

    def construct(self, logits, label):
        self.check_tensors(logits=logits, labels=label)
        return super().construct(logits, label)


class RMSELoss(LossBase):
    """sqrt(mean((logits - label)^2))."""

    def __init__(self):
        super().__init__()
        self.mse = MSELoss()

    def construct(self, logits, label):
        for value in (logits, label):
            if str(value.dtype).replace("torch.", "") in ("uint8", "uint16", "uint32", "uint64"):
                raise TypeError(f"For 'RMSELoss', the parameters data type must not be "
                                f"unsigned, but got {value.dtype}")
        return self.mse(logits, label).sqrt()


class SmoothL1Loss(LossBase):
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta; MindSpore's default reduction is
    'none'."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta, _ = losses.smooth_l1_loss_arguments(beta, reduction)

    def construct(self, logits, labels):
        return losses.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits, labels):
        return losses.huber_loss(logits, labels, self.reduction, self.delta)


class PoissonNLLLoss(LossBase):
    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input, target):  # noqa: A002  (MindSpore's argument names)
        self.check_tensors(input=input, target=target)
        return losses.poisson_nll_loss(input, target, self.log_input, self.full, self.eps,
                                       self.reduction)


class GaussianNLLLoss(LossBase):
    def __init__(self, *, full=False, eps=1e-06, reduction="mean"):
        super().__init__(reduction)
        self.full, self.eps = full, eps

    def construct(self, logits, labels, var):
        return losses.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)
