"""Every numpy layer's gradients against central finite differences (float64)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from training import nn
from training.nn import initializer
from training.tensor import Tensor, grad_of

pytestmark = pytest.mark.usefixtures("numpy_backend")  # the numpy tape's gradients


def _central_difference(fn, tensor, idx, eps=1e-6):
    """d fn / d tensor[idx] by central finite differences; tensor.data is restored after."""
    old = tensor.data[idx]
    tensor.data[idx] = old + eps
    up = fn()
    tensor.data[idx] = old - eps
    down = fn()
    tensor.data[idx] = old
    return (up - down) / (2 * eps)


def _check(cell, x, samples=30, tol=1e-5):
    x = Tensor(np.asarray(x, np.float64), requires_grad=True)
    for p in cell.get_parameters():
        p.data = p.data.astype(np.float64)
    targets = [p for p in cell.trainable_params()] + [x]
    weights = np.random.default_rng(1).standard_normal(cell(x).shape)

    def objective():
        return float((cell(x).data * weights).sum())

    grads = grad_of((cell(x) * weights).sum(), targets)
    rng = np.random.default_rng(2)
    for tensor, grad in zip(targets, grads):
        for _ in range(min(samples, tensor.size)):
            idx = tuple(rng.integers(0, n) for n in tensor.shape)
            numeric = _central_difference(objective, tensor, idx)
            assert abs(numeric - grad[idx]) <= tol * max(1.0, abs(numeric)), \
                (type(cell).__name__, getattr(tensor, "name", "input"), idx, numeric, grad[idx])


@pytest.fixture(autouse=True)
def _seed():
    initializer.set_seed(0)


R = np.random.default_rng(0)


@pytest.mark.parametrize("cell,shape", [
    (lambda: nn.Dense(5, 3), (4, 5)),
    (lambda: nn.Dense(5, 3, activation="relu"), (4, 5)),
    (lambda: nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True), (2, 3, 7, 6)),
    (lambda: nn.Conv2d(2, 4, 3, stride=2, pad_mode="pad", padding=1, group=2), (2, 2, 7, 6)),
    (lambda: nn.Conv2d(2, 3, 3, pad_mode="valid", dilation=2), (2, 2, 9, 8)),
    (lambda: nn.MaxPool2d(2, 2), (2, 3, 6, 6)),
    (lambda: nn.MaxPool2d(3, 2, pad_mode="same"), (2, 3, 7, 6)),
    (lambda: nn.AvgPool2d(2, 2), (2, 3, 6, 6)),
    (lambda: nn.AvgPool2d(3, 2, pad_mode="same"), (2, 3, 7, 6)),
    (lambda: nn.Flatten(), (3, 4, 2)),
    (lambda: nn.Sigmoid(), (3, 4)),
    (lambda: nn.Tanh(), (3, 4)),
    (lambda: nn.GELU(), (3, 4)),
    (lambda: nn.Softmax(), (3, 4)),
    (lambda: nn.LeakyReLU(0.1), (3, 4)),
    (lambda: nn.SequentialCell(nn.Dense(4, 6), nn.ReLU(), nn.Dense(6, 2)), (3, 4)),
])
def test_layer_gradients_match_finite_differences(cell, shape):
    _check(cell(), R.standard_normal(shape))


@pytest.mark.parametrize("training", [True, False])
def test_batchnorm2d_gradients(training):
    bn = nn.BatchNorm2d(3)
    bn.set_train(training)
    before = bn.moving_mean.data.copy()
    _check(bn, R.standard_normal((4, 3, 3, 3)))
    changed = not np.array_equal(before, bn.moving_mean.data)
    assert changed == training  # moving statistics move only in training


def test_batchnorm1d_gradients_in_training():
    bn = nn.BatchNorm1d(5).set_train(True)
    _check(bn, R.standard_normal((6, 5)))


@pytest.mark.parametrize("sparse,reduction", [(True, "mean"), (True, "sum"), (True, "none"),
                                              (False, "mean")])
def test_softmax_cross_entropy_gradient(sparse, reduction):
    logits = Tensor(R.standard_normal((5, 4)), requires_grad=True)
    labels = np.array([0, 3, 1, 1, 2])
    lab = labels if sparse else np.eye(4)[labels]
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=sparse, reduction=reduction)

    def value():
        return float(np.sum(loss_fn(logits, lab).data))
    (grad,) = grad_of(loss_fn(logits, lab).sum(), [logits])
    for idx in [(0, 0), (1, 3), (4, 2)]:
        assert abs(_central_difference(value, logits, idx) - grad[idx]) < 1e-6


def test_softmax_cross_entropy_value_matches_definition():
    logits = R.standard_normal((3, 5))
    labels = np.array([4, 0, 2])
    got = nn.SoftmaxCrossEntropyWithLogits(sparse=True)(Tensor(logits), labels).asnumpy()
    log_soft = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    np.testing.assert_allclose(got, -log_soft[np.arange(3), labels], rtol=1e-6)


def test_mse_loss_value_and_gradient():
    pred = Tensor(np.array([[1.0, 2.0], [3.0, 5.0]]), requires_grad=True)
    target = np.array([[1.0, 1.0], [1.0, 1.0]])
    loss = nn.MSELoss()(pred, target)
    assert loss.item() == pytest.approx((0 + 1 + 4 + 16) / 4)
    (grad,) = grad_of(loss, [pred])
    np.testing.assert_allclose(grad, 2 * (pred.data - target) / 4)


@settings(deadline=None, max_examples=15)
@given(h=st.integers(5, 9), w=st.integers(5, 9), k=st.integers(1, 3), s=st.integers(1, 2),
       mode=st.sampled_from(["same", "valid"]))
def test_conv_gradients_for_any_geometry(h, w, k, s, mode):
    _check(nn.Conv2d(2, 3, k, stride=s, pad_mode=mode, has_bias=True),
           np.random.default_rng(h * w).standard_normal((2, 2, h, w)), samples=8)


def test_conv_output_shape_same_and_valid():
    x = Tensor(np.zeros((1, 1, 7, 7), np.float32))
    assert nn.Conv2d(1, 2, 3, stride=2)(x).shape == (1, 2, 4, 4)
    assert nn.Conv2d(1, 2, 3, stride=2, pad_mode="valid")(x).shape == (1, 2, 3, 3)


@pytest.mark.parametrize("pad_mode,shape", [("valid", (1, 1, 4, 4)), ("same", (1, 1, 5, 5))])
def test_maxpool_ties_send_the_gradient_to_one_element(pad_mode, shape):
    x = Tensor(np.zeros(shape), requires_grad=True)   # every window is a tie
    pool = nn.MaxPool2d(2, 2, pad_mode=pad_mode)
    (gx,) = grad_of(pool(x).sum(), [x])
    assert gx.sum() == pool(x).size
    assert gx[0, 0, 0, 0] == 1 and gx[0, 0, 0, 1] == 0 and gx[0, 0, 1, 0] == 0
