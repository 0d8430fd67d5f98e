"""Loss scaling as MindSpore 2.10's (values and types measured there): the managers' and
update cells' scale after each step, the scalers', their argument checks, and
TrainOneStepWithLossScaleCell's steps (MindSpore 2.10's cell fails on the CPU, in both modes,
with "Unsupported op [NPUGetFloatStatusV2] on CPU": its steps are compared with MindSpore's
TrainOneStepCell, the step whose gradients overflow skipped)."""
import numpy as np
import pytest

import training as ms
from training import amp, nn

from tests.training.both_backends import as_input, backend, values  # noqa: F401 (fixture)

OVERFLOWS = [False, False, False, True, False, False, True, True, False, False, False, False,
             False]
# MindSpore's DynamicLossScaleManager(16, 2, 3).get_loss_scale() after each of OVERFLOWS: an
# int until an overflow halves it
SCALES = [16, 16, 32, 16.0, 16.0, 16.0, 8.0, 4.0, 4.0, 4.0, 8.0, 8.0, 8.0]


def test_dynamic_manager_and_update_cell_scales():
    manager, seen = amp.DynamicLossScaleManager(16, 2, 3), []
    for overflow in OVERFLOWS:
        manager.update_loss_scale(overflow)
        seen.append(manager.get_loss_scale())
    assert seen == SCALES and [type(v) for v in seen] == [type(v) for v in SCALES]
    floor = amp.DynamicLossScaleManager(2, 4, 3)
    for overflow, expected in zip([True, True, False, False, False], [1, 1, 1, 1, 4]):
        floor.update_loss_scale(overflow)
        assert floor.get_loss_scale() == expected and type(floor.get_loss_scale()) is int
    cell = nn.DynamicLossScaleUpdateCell(16, 2, 3)
    scale = ms.Parameter(ms.Tensor(np.array(16, np.float32)), name="s")
    for overflow, expected in zip(OVERFLOWS, SCALES):
        cell(scale, ms.Tensor(np.array(overflow)))
        assert float(scale.asnumpy()) == expected


def test_managers_keep_the_scale_as_given():
    assert type(amp.FixedLossScaleManager(4).get_loss_scale()) is int
    assert amp.FixedLossScaleManager().get_loss_scale() == 128.0
    assert type(amp.DynamicLossScaleManager().get_loss_scale()) is int
    assert type(nn.FixedLossScaleUpdateCell(16).get_loss_scale()) is int
    assert type(nn.DynamicLossScaleUpdateCell(16, 2, 3).get_loss_scale()) is int
    assert amp.FixedLossScaleManager(2, False).get_update_cell() is None
    assert isinstance(amp.FixedLossScaleManager(2, True).get_update_cell(),
                      nn.FixedLossScaleUpdateCell)
    assert isinstance(amp.DynamicLossScaleManager().get_update_cell(),
                      nn.DynamicLossScaleUpdateCell)


def test_dynamic_scaler_adjusts_as_mindspore():
    scaler, seen = amp.DynamicLossScaler(1024, 2, 2), []
    for finite in [True, True, False, True, True, True, False, False]:
        scaler.adjust(ms.Tensor(np.array(finite)))
        seen.append(float(scaler.scale_value.asnumpy()))
    assert seen == [1024.0, 2048.0, 1024.0, 1024.0, 2048.0, 2048.0, 1024.0, 512.0]
    x = ms.Tensor(np.array([1., 2.], np.float16))
    assert scaler.scale(x).dtype == np.float16
    np.testing.assert_array_equal(scaler.scale(x).asnumpy(), [512., 1024.])
    np.testing.assert_array_equal(scaler.unscale(x).asnumpy(), np.array([1., 2.], np.float16) /
                                  512)
    assert amp.StaticLossScaler(8).adjust(ms.Tensor(np.array(False))) is False


@pytest.mark.parametrize("make, error", [
    (lambda: amp.DynamicLossScaleManager(2, 2, 2.0), TypeError),
    (lambda: amp.DynamicLossScaleManager(2, 2, True), TypeError),
    (lambda: amp.DynamicLossScaleManager(2, 2, 0), ValueError),
    (lambda: amp.DynamicLossScaleManager(0.5), ValueError),
    (lambda: amp.DynamicLossScaleManager("2"), TypeError),
    (lambda: amp.FixedLossScaleManager(0.5), ValueError),
    (lambda: amp.StaticLossScaler(0.5), ValueError),
    (lambda: amp.StaticLossScaler(True), TypeError),
    (lambda: amp.DynamicLossScaler(0.5, 2, 2), ValueError),
    (lambda: amp.DynamicLossScaler(1024, 2, 0), ValueError),
    (lambda: amp.DynamicLossScaler(1024, 2, 1.5), TypeError),
    (lambda: amp.DynamicLossScaler(1024, 2, True), TypeError),
])
def test_argument_checks_as_mindspore(make, error):
    with pytest.raises(error):
        make()


def test_edges_mindspore_takes():
    amp.DynamicLossScaleManager(1)
    amp.FixedLossScaleManager(1)
    amp.StaticLossScaler(1)
    amp.FixedLossScaleManager(2, "x")       # drop_overflow_update is not checked


STEPS = [[[1., 2., 3.], [-1., 0.5, 2.]], [[1e38, 2., 3.], [-1., 0.5, 2.]],
         [[0.5, -2., 1.], [3., 0.5, -2.]], [[0.5, -2., 1.], [3., 0.5, -2.]]]
# MindSpore's TrainOneStepCell on STEPS without the second (it overflows): losses, the first
# weights after each step, the first Momentum moments
LOSSES = [0.560875, None, 2.0488846, 0.15869091]
WEIGHTS = [[0.065, -0.19625, 0.3425], None, [0.259081, -0.123872, 0.210262],
           [0.516658, -0.023479, 0.022261]]
MOMENTS = [[0.35, -0.0375], None, [-1.940813, -0.723781], [-2.575766, -1.003928]]


@pytest.mark.parametrize("sense, scales", [
    ("fixed", [1024.] * 4), ("dynamic", [4096., 4096., 2048., 2048.])])
def test_train_one_step_with_loss_scale_skips_overflowing_steps(backend, sense, scales):
    dense = nn.Dense(3, 2)
    dense.weight.set_data(ms.Tensor(np.array([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], np.float32)))
    dense.bias.set_data(ms.Tensor(np.array([0.01, -0.02], np.float32)))
    optimizer = nn.Momentum(dense.trainable_params(), 0.1, 0.9)
    scale_sense = ms.Tensor(np.array(1024., np.float32)) if sense == "fixed" else \
        nn.DynamicLossScaleUpdateCell(2. ** 12, 2, 2)
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(dense, nn.MSELoss()), optimizer,
                                            scale_sense=scale_sense)
    step.set_train()
    y = as_input(backend, np.array([[0.5, -0.5], [1., 0.]], np.float32))
    for x, loss, weights, moments, scale in zip(STEPS, LOSSES, WEIGHTS, MOMENTS, scales):
        got, overflow, used = step(as_input(backend, np.array(x, np.float32)), y)
        assert bool(values(overflow)) is (loss is None)
        assert float(values(used)) == scale
        if loss is not None:
            np.testing.assert_allclose(float(values(got)), loss, rtol=1e-6)
            np.testing.assert_allclose(dense.weight.asnumpy().ravel()[:3], weights, atol=2e-6)
            np.testing.assert_allclose(optimizer.moments[0].asnumpy().ravel()[:2], moments,
                                       atol=2e-6)
