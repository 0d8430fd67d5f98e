"""Loss scaling and amp levels: managers, scalers, TrainOneStepWithLossScaleCell on the numpy
backend, Model(amp_level=...) on torch (autocast, GradScaler), the numpy backend's refusal."""
import numpy as np
import pytest

import minddata as ds
import training as ms
from training import Model, amp, nn
from training.tensor import Tensor


def _data(n=64, batch=16):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 6)).astype(np.float32)
    y = (x[:, 0] - x[:, 1] > 0).astype(np.int32)
    return ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(batch)


def test_dynamic_manager_schedule():
    m = amp.DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=3)
    scales = []
    for overflow in (False, False, False, True, False, False, False):
        m.update_loss_scale(overflow)
        scales.append(m.get_loss_scale())
    assert scales == [16, 16, 32, 16, 16, 16, 32]
    low = amp.DynamicLossScaleManager(init_loss_scale=1, scale_factor=2, scale_window=10)
    low.update_loss_scale(True)
    assert low.get_loss_scale() == 1.0
    with pytest.raises(ValueError, match="scale_window"):
        amp.DynamicLossScaleManager(scale_window=0)
    assert ms.FixedLossScaleManager is amp.FixedLossScaleManager
    from training.train.loss_scale_manager import DynamicLossScaleManager
    assert DynamicLossScaleManager is amp.DynamicLossScaleManager


def test_scalers_and_all_finite():
    scaler = amp.DynamicLossScaler(scale_value=8.0, scale_factor=2, scale_window=2)
    assert float(scaler.scale(Tensor(np.float32(1.5))).asnumpy()) == 12.0
    assert float(scaler.unscale([Tensor(np.float32(8.0))])[0].asnumpy()) == 1.0
    scaler.adjust(Tensor(np.array(False)))
    assert float(scaler.scale_value.asnumpy()) == 4.0
    scaler.adjust(True)
    scaler.adjust(True)
    assert float(scaler.scale_value.asnumpy()) == 8.0
    assert bool(amp.all_finite([np.ones(2), np.zeros(3)]).asnumpy())
    assert not bool(amp.all_finite([np.array([1.0, np.inf])]).asnumpy())


def test_train_one_step_with_loss_scale_skips_overflowing_steps():
    net = nn.WithLossCell(nn.Dense(6, 2), nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                           reduction="mean"))
    opt = nn.SGD(net.trainable_params(), 0.1)
    update = nn.DynamicLossScaleUpdateCell(2.0 ** 8, 2, 100)
    step = nn.TrainOneStepWithLossScaleCell(net, opt, scale_sense=update)
    x = Tensor(np.ones((4, 6), np.float32))
    y = Tensor(np.zeros(4, np.int32))
    before = net.trainable_params()[0].asnumpy().copy()
    loss, overflow, scale = step(x, y)
    assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 256.0
    after = net.trainable_params()[0].asnumpy().copy()
    assert not np.allclose(before, after)
    # the same step without scaling gives the same update (the scale is divided out)
    net2 = nn.WithLossCell(nn.Dense(6, 2), nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                            reduction="mean"))
    for p2, p in zip(net2.trainable_params(), net.trainable_params()):
        p2.set_data(p.asnumpy())
    huge = nn.TrainOneStepWithLossScaleCell(net2, nn.SGD(net2.trainable_params(), 0.1),
                                            scale_sense=nn.DynamicLossScaleUpdateCell(
                                                np.float32(3e38), 2, 100))
    big = Tensor(np.full((4, 6), 1e10, np.float32))
    wrong = 1 - net2.backbone_network(big).asnumpy().argmax(1).astype(np.int32)  # a large loss
    _, overflow, _ = huge(big, Tensor(wrong))
    assert bool(overflow.asnumpy())
    np.testing.assert_array_equal(net2.trainable_params()[0].asnumpy(), after)  # not updated
    assert huge.scale_sense.asnumpy() == np.float32(1.5e38)


@pytest.mark.usefixtures("numpy_backend")
def test_model_with_loss_scale_manager_on_numpy_backend():
    ms.set_seed(1)
    net = nn.Dense(6, 2)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=64.0),
                  metrics={"accuracy"},
                  loss_scale_manager=amp.FixedLossScaleManager(64.0, drop_overflow_update=False))
    model.train(5, _data())
    assert model.eval(_data())["accuracy"] > 0.8
    dyn = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                nn.Momentum(net.trainable_params(), 0.1, 0.9),
                loss_scale_manager=amp.DynamicLossScaleManager())
    assert isinstance(dyn.train_network, nn.TrainOneStepWithLossScaleCell)
    dyn.train(1, _data())


@pytest.mark.usefixtures("numpy_backend")
def test_numpy_backend_refuses_mixed_precision_and_unknown_kwargs():
    net = nn.Dense(6, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.SGD(net.trainable_params(), 0.1)
    with pytest.raises(ValueError, match="amp_level 'O2' needs the torch backend"):
        Model(net, loss, opt, amp_level="O2")
    with pytest.raises(ValueError, match="amp_level"):
        Model(net, loss, opt, amp_level="O4")
    assert isinstance(Model(net, loss, opt, amp_level="auto").train_network, nn.TrainOneStepCell)
    with pytest.raises(ValueError, match="not recognized"):
        Model(net, loss, opt, loss_scale=2)


@pytest.mark.parametrize("amp_level", ["O1", "O2", "O3"])
def test_torch_amp_levels_train(amp_level):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
    seen = []
    net[0].register_forward_hook(lambda m, i, o: seen.append(o.dtype))
    manager = amp.DynamicLossScaleManager(init_loss_scale=2.0 ** 10, scale_window=2)
    model = Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), 0.2),
                  metrics={"accuracy"}, amp_level=amp_level, loss_scale_manager=manager)
    model.train(8, _data())
    assert seen[0] == torch.bfloat16  # CPU autocast / O3 cast type
    assert manager.get_loss_scale() > 2.0 ** 10  # grown after overflow-free windows
    if amp_level == "O3":
        assert next(net.parameters()).dtype == torch.bfloat16
    else:
        assert next(net.parameters()).dtype == torch.float32
    assert model.eval(_data())["accuracy"] > 0.8


def test_torch_fixed_loss_scale_matches_unscaled_training():
    torch = pytest.importorskip("torch")

    def train(manager):
        torch.manual_seed(0)
        net = torch.nn.Linear(6, 2)
        Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), 0.1),
              loss_scale_manager=manager).train(2, _data())
        return net.weight.detach().clone()
    torch.testing.assert_close(train(amp.FixedLossScaleManager(1024.0)), train(None))
