"""Optimizer update rules against their formulas (MindSpore's conventions)."""
import numpy as np
import pytest

from training import nn
from training.tensor import Parameter


def _params(value=(1.0, -2.0)):
    return [Parameter(np.array(value, np.float32), name="w")]


def test_sgd_plain_step():
    params = _params()
    opt = nn.SGD(params, learning_rate=0.1)
    opt([np.array([0.5, 1.0], np.float32)])
    np.testing.assert_allclose(params[0].data, [0.95, -2.1], rtol=1e-6)


def test_momentum_accumulates():
    params = _params()
    opt = nn.Momentum(params, learning_rate=0.1, momentum=0.9)
    g = np.array([1.0, 1.0], np.float32)
    opt([g])
    opt([g])
    # accum: 1, then 0.9 * 1 + 1 = 1.9; param -= 0.1 * (1 + 1.9)
    np.testing.assert_allclose(params[0].data, [1.0 - 0.29, -2.0 - 0.29], rtol=1e-6)
    assert opt.moments[0].name == "moments.w"


def test_adam_first_step_is_lr_times_sign():
    params = _params()
    opt = nn.Adam(params, learning_rate=0.01)
    opt([np.array([3.0, -0.5], np.float32)])
    np.testing.assert_allclose(params[0].data, [1.0 - 0.01, -2.0 + 0.01], rtol=1e-4)


@pytest.mark.parametrize("use_amsgrad, expected", [
    (True, [0.6977221, -1.7139481, 0.2211813]),
    (False, [0.6975167, -1.7138251, 0.2211813])])
def test_adam_amsgrad_divides_by_the_largest_second_moment(use_amsgrad, expected):
    """One large gradient then four small ones: AMSGrad keeps dividing by the large second
    moment. Expected values measured in MindSpore 2.10 (the same gradients into nn.Adam,
    lr 0.1); use_amsgrad was once accepted and ignored."""
    params = _params((1.0, -2.0, 0.5))
    opt = nn.Adam(params, learning_rate=0.1, use_amsgrad=use_amsgrad, use_nesterov=use_amsgrad)
    for gradient in [[10.0, -10.0, 3.0]] + [[0.1, 0.2, -0.1]] * 4:
        opt([np.array(gradient, np.float32)])
    np.testing.assert_allclose(params[0].data, expected, atol=1e-5)
    assert [s.name for s in getattr(opt, "vhat", [])] == (["vhat.w"] if use_amsgrad else [])


def test_weight_decay_skips_batchnorm_gamma_beta():
    w = Parameter(np.array([1.0], np.float32), name="fc.weight")
    gamma = Parameter(np.array([1.0], np.float32), name="bn.gamma")
    opt = nn.SGD([w, gamma], learning_rate=1.0, weight_decay=0.5)
    opt([np.zeros(1, np.float32), np.zeros(1, np.float32)])
    assert w.data[0] == pytest.approx(0.5)
    assert gamma.data[0] == pytest.approx(1.0)


def test_dynamic_learning_rate_list_follows_steps():
    params = _params((0.0, 0.0))
    opt = nn.SGD(params, learning_rate=[1.0, 0.5, 0.25])
    g = [np.ones(2, np.float32)]
    for _ in range(3):
        opt(g)
    np.testing.assert_allclose(params[0].data, [-1.75, -1.75])  # 1 + 0.5 + 0.25
    # a step past the list is MindSpore 2.10's RuntimeError (its Gather refuses index 3), not
    # the last rate again
    with pytest.raises(RuntimeError, match="list has 3 values, but step 3"):
        opt(g)
    np.testing.assert_allclose(params[0].data, [-1.75, -1.75])


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="learning rate"):
        nn.SGD(_params(), learning_rate=-1.0)
    with pytest.raises(ValueError, match="parameters must not be empty"):
        nn.Momentum([], 0.1, 0.9)
    with pytest.raises(TypeError, match="Parameter"):
        nn.Adam([np.zeros(2)])
    with pytest.raises(ValueError, match="gradients"):
        nn.SGD(_params())([])
