"""Sequence loss cells of `mindspore.nn`: CTCLoss."""
from training.nn.loss.base import LossBase
from training.nn.loss.classification import check_int
from training.ops import losses


class CTCLoss(LossBase):
    """The connectionist temporal classification loss of log-probabilities (T, N, C) against
    padded targets (N, S) (training.ops.losses.ctc_loss without its log_alpha)."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction)
        check_int(self.cls_name, "blank", blank)
        if blank < 0:
            raise ValueError(f"For '{self.cls_name}', 'blank' must be non-negative, but got "
                             f"{blank}.")
        self.check_bool("zero_infinity", zero_infinity)
        self.blank, self.zero_infinity = blank, zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        self.check_tensors(log_probs=log_probs, targets=targets, input_lengths=input_lengths,
                           target_lengths=target_lengths)
        return losses.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                               self.reduction, self.zero_infinity)[0]
