"""Package fixes found by running the corpus scripts (tests/scripts/), each with the values
MindSpore 2.10 gave (measured on its CPU build, 2026-11-29)."""
import numpy as np
import pytest

import training
from training import nn


@pytest.fixture(params=["numpy", "torch"])
def backend(request):
    training.set_backend(request.param)
    yield request.param
    training.set_backend(None)


def _params():
    net = nn.SequentialCell(nn.Dense(4, 2), nn.BatchNorm1d(2))
    return net.trainable_params()       # weight, bias, gamma, beta


def test_optimizer_shows_weight_decay_and_decay_flags_as_mindspore(backend):
    """MindSpore: Momentum(params, 0.1, 0.9, weight_decay=1e-4, loss_scale=2.0).weight_decay is
    Tensor(0.0002) and decay_flags (True, True, False, False); we had the float 1e-4 and no
    decay_flags (an AttributeError in a script printing them)."""
    params = _params()
    opt = nn.Momentum(params, 0.1, 0.9, weight_decay=1e-4, loss_scale=2.0)
    assert isinstance(opt.weight_decay, training.Tensor)
    assert opt.weight_decay.asnumpy().dtype == np.float32
    assert float(opt.weight_decay.asnumpy()) == pytest.approx(2e-4)
    assert opt.decay_flags == (True, True, False, False)
    assert list(opt.trainable_params()) == []        # no new Parameter in the optimizer


def test_group_weight_decay_is_one_per_parameter(backend):
    """MindSpore: groups give a tuple of per-parameter decays scaled by loss_scale
    ([0.04, 0.04, 0.0004, 0.0004] for 0.01 / the default 1e-4 and loss_scale 4), flags marking
    decays above 0 ((True,) * 4; (False, False, True, True) for 0.0 and a schedule Cell)."""
    params = _params()
    opt = nn.Momentum([{"params": params[:2], "weight_decay": 0.01}, {"params": params[2:]}],
                      0.1, 0.9, weight_decay=1e-4, loss_scale=4.0)
    assert [float(w.asnumpy()) for w in opt.weight_decay] == pytest.approx(
        [0.04, 0.04, 4e-4, 4e-4])
    assert opt.decay_flags == (True, True, True, True)
    schedule = nn.CosineDecayLR(0.0, 1e-3, 10)
    opt = nn.Momentum([{"params": params[:2], "weight_decay": 0.0},
                       {"params": params[2:], "weight_decay": schedule}], 0.1, 0.9)
    assert opt.decay_flags == (False, False, True, True)
    assert opt.weight_decay[2] is schedule and float(opt.weight_decay[0].asnumpy()) == 0.0


def test_ftrl_keeps_its_weight_decay_a_float(backend):
    """MindSpore: FTRL(params, weight_decay=1e-4).weight_decay is the float 1e-4, flags all True."""
    opt = nn.FTRL(_params(), weight_decay=1e-4)
    assert opt.weight_decay == 1e-4 and opt.decay_flags == (True,) * 4
