"""Learning-rate functions and schedules check their arguments as MindSpore 2.10 does. Every
value and exception type here was measured in MindSpore 2.10 (found by
tools/training_vs_mindspore.py)."""
import numpy as np
import pytest

import training as T
from training import nn


def test_a_zero_warmup_rate_is_taken():
    # MindSpore 2.10: warmup_lr(0.0, 4, 1, 2) == [0.0] * 4; WarmUpLR(0.0, 4) at step 2 == 0.0
    assert nn.warmup_lr(0.0, 4, 1, 2) == [0.0, 0.0, 0.0, 0.0]
    assert float(nn.WarmUpLR(0.0, 4)(T.Tensor(np.array(2, np.int32))).asnumpy()) == 0.0


def test_a_repeated_milestone_adds_no_step():
    # MindSpore 2.10: piecewise_constant_lr([2, 2, 5], [0.1, 0.2, 0.3]) == [0.1, 0.1, 0.3, 0.3, 0.3]
    assert nn.piecewise_constant_lr([2, 2, 5], [0.1, 0.2, 0.3]) == [0.1, 0.1, 0.3, 0.3, 0.3]


@pytest.mark.parametrize("call", [
    lambda: nn.piecewise_constant_lr([2, 5], [1, 0.3]),
    lambda: nn.exponential_decay_lr(1, 0.9, 4, 1, 1),
    lambda: nn.exponential_decay_lr(0.1, 0.9, 4, 1, 1, 1),
    lambda: nn.polynomial_decay_lr(0.1, 0, 4, 1, 1, 1.0),
    lambda: nn.polynomial_decay_lr(0.1, 0.0, 4, 1, 1, 1.0, 0),
    lambda: nn.cosine_decay_lr(0, 0.1, 4, 1, 1),
    lambda: nn.warmup_lr(1, 4, 1, 2),
    lambda: nn.PolynomialDecayLR(0.1, 0.0, 4, 2),
    lambda: nn.InverseDecayLR(0.1, 0.9, 4, 1),
    lambda: nn.WarmUpLR(1, 4),
])
def test_ints_where_floats_or_bools_are_expected_are_a_type_error(call):
    # MindSpore 2.10 raises TypeError for each (an int rate: "must be float")
    with pytest.raises(TypeError, match="must be"):
        call()


def test_counts_are_checked_before_rates_and_rates_must_be_finite():
    # MindSpore 2.10: ValueError for a zero count even with an int rate (checked first), and
    # ValueError "must be a legal value" for an infinite rate
    with pytest.raises(ValueError, match="step_per_epoch"):
        nn.exponential_decay_lr(1, 0.9, 12, 0, 1)
    with pytest.raises(ValueError, match="decay_steps"):
        nn.ExponentialDecayLR(1, 0.9, 0)
    with pytest.raises(ValueError, match="legal value"):
        nn.inverse_decay_lr(float("inf"), 0.9, 4, 1, 1)
