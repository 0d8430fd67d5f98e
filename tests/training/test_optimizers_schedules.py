"""AdamWeightDecay, RMSProp, Adagrad and the learning-rate schedules, against MindSpore's
documented formulas (and torch where it computes the same thing)."""
import math

import numpy as np
import pytest

from training import nn
from training.tensor import Parameter

R = np.random.default_rng(0)


def _steps(optimizer_cls, grads, **kwargs):
    p = Parameter(np.array([0.5, -1.0, 2.0], np.float32), name="w")
    opt = optimizer_cls([p], **kwargs)
    for g in grads:
        opt((g,))
    return p.asnumpy(), opt


GRADS = [R.standard_normal(3).astype(np.float32) for _ in range(4)]


def test_adam_weight_decay_formula_and_state_names():
    lr, b1, b2, eps, wd = 0.01, 0.9, 0.999, 1e-6, 0.1
    got, opt = _steps(nn.AdamWeightDecay, GRADS, learning_rate=lr, weight_decay=wd)
    w = np.array([0.5, -1.0, 2.0])
    m = v = np.zeros(3)
    for g in GRADS:
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w = w - lr * (m / (np.sqrt(v) + eps) + wd * w)  # no bias correction, decoupled decay
    np.testing.assert_allclose(got, w, rtol=1e-5)
    names = {name for name, _ in opt.parameters_and_names()}
    assert {"adam_m.w", "adam_v.w"} <= names


@pytest.mark.parametrize("centered", [False, True])
def test_rmsprop_formula(centered):
    lr, decay, momentum, eps = 0.01, 0.9, 0.5, 1e-10
    got, _ = _steps(nn.RMSProp, GRADS, learning_rate=lr, decay=decay, momentum=momentum,
                    centered=centered)
    w = np.array([0.5, -1.0, 2.0])
    ms, mom, mg = np.ones(3), np.zeros(3), np.zeros(3)
    for g in GRADS:
        ms = decay * ms + (1 - decay) * g * g
        mg = decay * mg + (1 - decay) * g
        denominator = ms - mg * mg if centered else ms
        mom = momentum * mom + lr * g / np.sqrt(denominator + eps)
        w = w - mom
    np.testing.assert_allclose(got, w, rtol=1e-5)


def test_adagrad_matches_torch():
    torch = pytest.importorskip("torch")
    got, opt = _steps(nn.Adagrad, GRADS, accum=0.1, learning_rate=0.05)
    tp = torch.nn.Parameter(torch.tensor([0.5, -1.0, 2.0]))
    topt = torch.optim.Adagrad([tp], lr=0.05, initial_accumulator_value=0.1, eps=0.0)
    for g in GRADS:
        tp.grad = torch.from_numpy(g)
        topt.step()
    np.testing.assert_allclose(got, tp.detach().numpy(), rtol=1e-5)
    assert opt.accum[0].name == "accum.w"
    frozen, _ = _steps(nn.Adagrad, GRADS[:1], accum=0.1, learning_rate=0.05, update_slots=False)
    np.testing.assert_allclose(frozen, [0.5, -1.0, 2.0] - 0.05 * GRADS[0] / np.sqrt(0.1),
                               rtol=1e-5)


def test_optimizer_argument_errors():
    p = [Parameter(np.zeros(2, np.float32), name="w")]
    with pytest.raises(ValueError, match="beta1"):
        nn.AdamWeightDecay(p, beta1=1.0)
    with pytest.raises(ValueError, match="decay"):
        nn.RMSProp(p, decay=-0.5)      # (above 1 is taken, as MindSpore 2.10 takes it)
    with pytest.raises(ValueError, match="accum"):
        nn.Adagrad(p, accum=-1)


def test_dynamic_lr_values_follow_the_doc_formulas():
    assert nn.piecewise_constant_lr([2, 5], [0.1, 0.05]) == [0.1, 0.1, 0.05, 0.05, 0.05]
    exp = nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1)
    assert exp == pytest.approx([0.1, 0.1, 0.09, 0.09, 0.081, 0.081])
    stair = nn.exponential_decay_lr(0.1, 0.9, 6, 1, 2, is_stair=True)
    assert stair == pytest.approx([0.1, 0.1, 0.09, 0.09, 0.081, 0.081])
    nat = nn.natural_exp_decay_lr(0.1, 0.9, 4, 1, 2, is_stair=True)
    assert nat == pytest.approx([0.1, 0.1, 0.1 * math.exp(-1.8), 0.1 * math.exp(-1.8)])
    assert nn.inverse_decay_lr(0.1, 0.5, 3, 1, 1) == pytest.approx([0.1, 0.1 / 1.5, 0.1 / 2])
    cos = nn.cosine_decay_lr(0.01, 0.1, 8, 1, 4)
    assert cos[0] == pytest.approx(0.1) and cos[2] == pytest.approx(0.055)
    assert cos[4:] == pytest.approx([0.01] * 4)
    poly = nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 0.5)
    assert poly == pytest.approx([0.1, 0.09 * math.sqrt(0.5) + 0.01] + [0.01] * 4)
    upd = nn.polynomial_decay_lr(0.1, 0.01, 4, 1, 2, 1.0, update_decay_epoch=True)
    assert upd == pytest.approx([0.1, 0.055, 0.01, 0.0325])  # decay 2, 2, 2, 4 epochs
    assert nn.warmup_lr(0.1, 4, 1, 2) == pytest.approx([0.0, 0.05, 0.1, 0.1])
    with pytest.raises(ValueError, match="total_step"):
        nn.warmup_lr(0.1, 0, 1, 2)
    with pytest.raises(TypeError, match="step_per_epoch"):
        nn.exponential_decay_lr(0.1, 0.9, 6, 1.5, 1)
    with pytest.raises(ValueError, match="max_lr"):
        nn.cosine_decay_lr(0.1, 0.1, 4, 1, 1)


def test_learning_rate_schedules_follow_the_doc_formulas():
    def values(schedule, steps):
        return [float(schedule(np.array([s], np.int32)).asnumpy()) for s in steps]
    assert values(nn.ExponentialDecayLR(0.1, 0.9, 4), [0, 2, 4]) == \
        pytest.approx([0.1, 0.1 * 0.9 ** 0.5, 0.09])
    assert values(nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True), [3, 4]) == \
        pytest.approx([0.1, 0.09])
    assert values(nn.NaturalExpDecayLR(0.1, 0.9, 4), [2]) == pytest.approx([0.1 * math.exp(-0.45)])
    assert values(nn.InverseDecayLR(0.1, 0.5, 2), [2]) == pytest.approx([0.1 / 1.5])
    assert values(nn.CosineDecayLR(0.01, 0.1, 4), [0, 2, 8]) == pytest.approx([0.1, 0.055, 0.01])
    assert values(nn.PolynomialDecayLR(0.1, 0.01, 4, 2.0), [2, 9]) == \
        pytest.approx([0.09 * 0.25 + 0.01, 0.01])
    assert values(nn.PolynomialDecayLR(0.1, 0.01, 4, 1.0, update_decay_steps=True), [6]) == \
        pytest.approx([0.09 * 0.25 + 0.01])
    assert values(nn.WarmUpLR(0.1, 4), [0, 2, 10]) == pytest.approx([0.0, 0.05, 0.1])
    with pytest.raises(ValueError, match="decay_steps"):
        nn.CosineDecayLR(0.01, 0.1, 0)


def test_optimizer_follows_a_schedule_and_a_list():
    p = Parameter(np.zeros(1, np.float32), name="w")
    opt = nn.SGD([p], learning_rate=nn.PolynomialDecayLR(0.1, 0.0, 2, 1.0))
    rates = []
    for _ in range(3):
        rates.append(opt.get_lr())
        opt((np.ones(1, np.float32),))
    assert rates == pytest.approx([0.1, 0.05, 0.0])
    opt2 = nn.Momentum([p], learning_rate=nn.cosine_decay_lr(0.0, 0.2, 2, 1, 1), momentum=0.0)
    start = p.asnumpy().copy()
    opt2((np.ones(1, np.float32),))
    np.testing.assert_allclose(p.asnumpy(), start - 0.2)
