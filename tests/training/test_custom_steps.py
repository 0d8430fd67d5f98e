"""Custom training steps as in MindSpore's FAQ: WithLossCell, TrainOneStepCell (sens, several
loss outputs, return_grad) and Model(train_net) driving them."""
import numpy as np
import pytest

from training import Model, nn
from training.nn import TrainOneStepCell, WithLossCell
from training.tensor import Parameter

from tests.training.conftest import EventRecorder, make_dataset, regression_data


class Linear(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(np.zeros((4, 1), np.float32), name="w")

    def construct(self, x):
        return x @ self.w


class TwoLosses(nn.Cell):
    """Returns (mse, l1): several outputs from one network."""

    def __init__(self, net):
        super().__init__(auto_prefix=False)
        self.net = net
        self.mse, self.l1 = nn.MSELoss(), nn.L1Loss()

    def construct(self, x, y):
        out = self.net(x)
        return self.mse(out, y), self.l1(out, y)


def _grad_w(sens):
    x, y = regression_data(8)
    net = Linear()
    opt = nn.SGD(net.trainable_params(), learning_rate=1.0)
    step = TrainOneStepCell(WithLossCell(net, nn.MSELoss()), opt, sens=sens)
    step(x, y)
    return -net.w.data  # w started at 0 and lr is 1: w = -grad


def test_sens_scales_the_gradient():
    np.testing.assert_allclose(_grad_w(4.0), 4.0 * _grad_w(None), rtol=1e-5)


def test_return_grad_gives_named_gradients():
    x, y = regression_data(8)
    net = Linear()
    step = TrainOneStepCell(WithLossCell(net, nn.MSELoss()),
                            nn.SGD(net.trainable_params(), 0.0), return_grad=True)
    loss, grads = step(x, y)
    expected = 2 * x.T @ (x @ np.zeros((4, 1)) - y) / len(y)
    np.testing.assert_allclose(grads["w"], expected, rtol=1e-5)
    assert loss.shape == ()


def test_multi_output_loss_trains_on_the_first_and_reports_all():
    x, y = regression_data(8)
    net = Linear()
    step = TrainOneStepCell(TwoLosses(net), nn.SGD(net.trainable_params(), 0.1))
    out = step(x, y)
    assert isinstance(out, tuple) and len(out) == 2
    mse_only = Linear()
    TrainOneStepCell(WithLossCell(mse_only, nn.MSELoss()),
                     nn.SGD(mse_only.trainable_params(), 0.1))(x, y)
    np.testing.assert_allclose(net.w.data, mse_only.w.data, rtol=1e-6)


def test_multi_output_loss_with_one_sens_per_output():
    x, y = regression_data(8)
    net = Linear()
    step = TrainOneStepCell(TwoLosses(net), nn.SGD(net.trainable_params(), 0.1), sens=(1.0, 1.0))
    step(x, y)
    assert not np.allclose(net.w.data, 0)
    with pytest.raises(ValueError, match="sens"):
        TrainOneStepCell(TwoLosses(Linear()), nn.SGD(Linear().trainable_params(), 0.1),
                         sens=(1.0,))(x, y)


def test_model_drives_a_custom_train_cell():
    x, y = regression_data(40)
    net = Linear()
    train_net = TrainOneStepCell(WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.05))
    rec = EventRecorder()
    model = Model(train_net)
    ds = make_dataset([x, y], 10)
    model.train(20, ds, callbacks=rec)
    final = float(model.train_network(x, y).asnumpy())
    assert final < 0.5
    assert rec.events[-1] == ("end", 20, 80)


def test_model_with_optimizer_and_no_loss_fn_wraps_a_loss_network():
    x, y = regression_data(40)
    net = Linear()
    model = Model(WithLossCell(net, nn.MSELoss()), optimizer=nn.SGD(net.trainable_params(), 0.05))
    model.train(5, make_dataset([x, y], 10))
    assert float(np.abs(net.w.data).sum()) > 0


def test_train_one_step_cell_argument_errors():
    with pytest.raises(TypeError, match="network"):
        TrainOneStepCell(lambda x: x, nn.SGD(Linear().trainable_params(), 0.1))
    with pytest.raises(TypeError, match="optimizer"):
        TrainOneStepCell(Linear(), object())
    with pytest.raises(TypeError, match="backbone"):
        WithLossCell(Linear(), lambda a, b: a)
