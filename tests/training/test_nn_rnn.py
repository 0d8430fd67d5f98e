"""nn.LSTM / GRU / RNN and the LSTMCell / GRUCell / RNNCell steps as MindSpore 2.10's: parameter
names, shapes and order (checkpoints interchange), variable lengths, outputs and input gradients
on both backends (values measured in MindSpore 2.10 with the parameters set by `_fill`), the
numpy backend's gradients against finite differences, argument errors, and a small LSTM that
learns through Model.train on the numpy backend."""
import numpy as np
import pytest

from training import Model, Tensor, nn, set_backend, set_seed
from training.ops import value_and_grad

from tests.training.conftest import make_dataset

torch = pytest.importorskip("torch")

X = np.cos(np.arange(12) * 0.9).reshape(3, 2, 2).astype(np.float32)


@pytest.fixture(params=["numpy", "torch"])
def backend(request):
    set_backend("numpy" if request.param == "numpy" else None)
    yield request.param
    set_backend(None)


def _fill(cell):
    """The values the MindSpore figures were measured with, set by parameter order."""
    for k, (_, p) in enumerate(cell.parameters_and_names()):
        p.set_data(Tensor((np.sin(np.arange(p.size) * 0.7 + k) * 0.6).reshape(p.shape)
                          .astype(np.float32)))
    return cell


def _input(array, backend):
    return Tensor(array) if backend == "numpy" else torch.tensor(array)


def _numpy(value):
    return value.asnumpy() if hasattr(value, "asnumpy") else value.detach().numpy()


def test_parameter_names_shapes_and_order_as_mindspore():
    lstm = nn.LSTM(3, 4, 2, bidirectional=True)
    names = [(name, p.shape) for name, p in lstm.parameters_and_names()]
    expected = []
    for kind, width in (("weight_ih", None), ("weight_hh", 4), ("bias_ih", None),
                        ("bias_hh", None)):
        for suffix in ("_l0", "_l0_reverse", "_l1", "_l1_reverse"):
            shape = (16,) if kind.startswith("bias") else \
                (16, width or (3 if suffix.startswith("_l0") else 8))
            expected.append((kind + suffix, shape))
    assert names == expected
    assert [(n, p.shape) for n, p in nn.GRU(3, 4, has_bias=False).parameters_and_names()] == \
        [("weight_ih_l0", (12, 3)), ("weight_hh_l0", (12, 4))]
    assert [(n, p.shape) for n, p in nn.RNNCell(3, 4).parameters_and_names()] == \
        [("weight_ih", (4, 3)), ("weight_hh", (4, 4)), ("bias_ih", (4,)), ("bias_hh", (4,))]
    for p in lstm.get_parameters():     # U(-1/sqrt(hidden), 1/sqrt(hidden)), float32
        assert p.dtype == np.float32 and np.abs(p.asnumpy()).max() <= 0.5


def test_a_network_prefixes_the_names_as_mindspore():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lstm, self.cell = nn.LSTM(3, 4), nn.GRUCell(3, 4)

        def construct(self, x):
            return x
    assert [name for name, _ in Net().parameters_and_names()] == [
        "lstm.weight_ih_l0", "lstm.weight_hh_l0", "lstm.bias_ih_l0", "lstm.bias_hh_l0",
        "cell.weight_ih", "cell.weight_hh", "cell.bias_ih", "cell.bias_hh"]


# measured in MindSpore 2.10: outputs, final h and the gradient of sum(output) by x
LSTM_OUT = [[[0.07424, 0.14918, 0.17109, 0.05895], [0.07817, -0.01658, -0.01765, -0.12755]],
            [[0.12169, 0.19528, 0.06685, -0.089], [0, 0, 0, 0]],
            [[0.19304, 0.18554, 0.07137, 0.03867], [0, 0, 0, 0]]]
LSTM_H = [[[0.19304, 0.18554], [0.07817, -0.01658]], [[0.17109, 0.05895], [-0.01765, -0.12755]]]
LSTM_GX = [[[0.02237, 0.12935], [0.19252, 0.29249]], [[0.12813, 0.19696], [0, 0]],
           [[0.36531, 0.37921], [0, 0]]]
GRU_OUT = [[[0.27589, 0.14447], [0.17829, 0.10081]], [[0.46768, 0.26351], [0, 0]],
           [[0.59292, 0.32529], [0, 0]]]
GRU_H = [[[0.39416, 0.47855], [0.195, -0.01842]], [[0.59292, 0.32529], [0.17829, 0.10081]]]
GRU_GX = [[[0.0484, 0.29754], [-0.01755, 0.05871]], [[-0.05338, 0.0871], [0, 0]],
          [[-0.00583, 0.05678], [0, 0]]]
RNN_OUT = [[[0.87052, 0.85174], [1.2271, 0]], [[0, 0], [0, 0]], [[0.53611, 0.17209], [0, 0]]]
RNN_H = [[[1.2271, 0], [0, 0], [0.53611, 0.17209]]]
RNN_GX = [[[0.94307, 1.40777], [0, 0.38653]], [[0, 0], [0, 0]], [[0.59127, 0.90446], [0, 0]]]


@pytest.mark.parametrize("name, kwargs, lengths, out, h, gx", [
    ("LSTM", {"bidirectional": True}, [3, 1], LSTM_OUT, LSTM_H, LSTM_GX),
    ("GRU", {"num_layers": 2}, [3, 1], GRU_OUT, GRU_H, GRU_GX),
    ("RNN", {"nonlinearity": "relu", "batch_first": True}, [2, 0, 1], RNN_OUT, RNN_H, RNN_GX)])
def test_variable_lengths_as_mindspore(backend, name, kwargs, lengths, out, h, gx):
    cell = _fill(getattr(nn, name)(2, 2, **kwargs))
    seq_length = _input(np.array(lengths, np.int32), backend)
    x = _input(X, backend)
    output, final = cell(x, None, seq_length)
    final = final[0] if name == "LSTM" else final
    np.testing.assert_allclose(_numpy(output), out, atol=2e-5)
    np.testing.assert_allclose(_numpy(final), h, atol=2e-5)
    _, grad = value_and_grad(lambda v: cell(v, None, seq_length)[0].sum())(x)
    np.testing.assert_allclose(_numpy(grad), gx, atol=2e-5)


@pytest.mark.parametrize("name, expected", [
    ("LSTMCell", [[-0.43367, 0.32391], [-0.32832, -0.15285]]),     # c'
    ("GRUCell", [[-0.35784, 0.36112], [-0.33862, -0.38476]]),
    ("RNNCell", [[0.67803, 0.77864], [0.42213, -0.55011]])])
def test_cells_as_mindspore(backend, name, expected):
    cell = _fill(getattr(nn, name)(2, 2))
    h = _input(np.array([[0.5, -0.5], [0.1, 0.2]], np.float32), backend)
    out = cell(_input(X[0], backend), (h, h) if name == "LSTMCell" else h)
    np.testing.assert_allclose(_numpy(out[1] if name == "LSTMCell" else out), expected,
                               atol=2e-5)


@pytest.mark.parametrize("name", ["LSTM", "GRU", "RNN"])
def test_numpy_gradients_match_finite_differences(numpy_backend, name):
    """Float64 inputs (MindSpore runs its layers in the input's dtype): every gradient of a
    stacked bidirectional layer with lengths, initial states and parameters."""
    rng = np.random.default_rng(1)
    cell = nn.__dict__[name](2, 3, 2, bidirectional=True, batch_first=True)
    for p in cell.get_parameters():
        p.data = p.data.astype(np.float64)
    x = rng.standard_normal((3, 4, 2))
    lengths = Tensor(np.array([4, 0, 2], np.int32))
    weights = rng.standard_normal((3, 4, 6))

    def loss(value):
        return (cell(value, None, lengths)[0] * Tensor(weights)).sum()
    params = cell.trainable_params()
    _, (gx, gw) = value_and_grad(loss, 0, params)(Tensor(x))

    def numeric(array):
        grad = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            kept = array[index]
            values = []
            for step in (1e-6, -1e-6):
                array[index] = kept + step
                values.append(float(loss(Tensor(x)).asnumpy()))
            array[index] = kept
            grad[index] = (values[0] - values[1]) / 2e-6
        return grad
    np.testing.assert_allclose(gx.asnumpy(), numeric(x), atol=1e-6)
    for p, g in zip(params[:2], gw[:2]):
        np.testing.assert_allclose(g.asnumpy(), numeric(p.data), atol=1e-6)


def test_arguments_refused_as_mindspore():
    with pytest.raises(TypeError, match="dropout"):
        nn.LSTM(3, 2, dropout=0)
    with pytest.raises(ValueError, match="dropout"):
        nn.GRU(3, 2, dropout=1.0)
    with pytest.raises(TypeError, match="has_bias"):
        nn.RNN(3, 2, has_bias=1)
    with pytest.raises(TypeError, match="hidden_size"):
        nn.LSTM(3, True)
    with pytest.raises(ValueError, match="num_layers"):
        nn.LSTM(3, 2, 0)
    with pytest.raises(ValueError, match="nonlinearity"):
        nn.RNN(3, 2, nonlinearity="sigmoid")
    with pytest.raises(ValueError, match="old MindSpore"):
        nn.LSTMCell(3, 2, True, np.float32, 1)


def test_inputs_refused_as_mindspore(numpy_backend):
    lstm = nn.LSTM(2, 2, bidirectional=True)
    x = Tensor(X)
    state = Tensor(np.zeros((2, 2, 2), np.float32))
    with pytest.raises(TypeError, match="hx"):
        lstm(x, [state, state])
    with pytest.raises(TypeError, match="hx"):
        lstm(x, (state, Tensor(np.zeros((2, 2, 2), np.float16))))
    with pytest.raises(TypeError, match="seq_length"):
        lstm(x, None, Tensor(np.array([1.0, 2.0], np.float32)))
    with pytest.raises(ValueError, match="batch size"):
        lstm(x, None, Tensor(np.array([1, 2, 3], np.int32)))
    with pytest.raises(RuntimeError, match="seq_lengths"):     # past the end, both directions
        lstm(x, None, Tensor(np.array([4, 2], np.int32)))
    with pytest.raises(ValueError, match="input shape"):
        lstm(Tensor(X[0]))
    # one direction: a length past the end runs to the end, a negative one is 0 (MindSpore)
    gru = nn.GRU(2, 2)
    past = gru(x, None, Tensor(np.array([7, -1], np.int32)))[0].asnumpy()
    np.testing.assert_array_equal(past[:, 0], gru(x)[0].asnumpy()[:, 0])
    assert not past[:, 1].any()


def test_dropout_between_layers_only_in_training(numpy_backend):
    set_seed(3)
    lstm = nn.LSTM(2, 4, 2, dropout=0.5)
    x = Tensor(X)
    evaluated = lstm(x)[0].asnumpy()
    np.testing.assert_array_equal(lstm(x)[0].asnumpy(), evaluated)
    lstm.set_train(True)
    assert not np.allclose(lstm(x)[0].asnumpy(), evaluated)


class _LastStep(nn.Cell):
    """Sign of the running sum: an LSTM over the sequence, a Dense on its last state."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 8, batch_first=True)
        self.fc = nn.Dense(8, 2)

    def construct(self, x):
        _, (h, _) = self.lstm(x)
        return self.fc(h[0])


def test_a_small_lstm_learns_through_model_train(numpy_backend):
    set_seed(0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((128, 6, 1)).astype(np.float32)
    y = (x.sum(axis=(1, 2)) > 0).astype(np.int32)
    net = _LastStep()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Adam(net.trainable_params(), learning_rate=0.02))

    def mean_loss():
        return float(loss(net(Tensor(x)), Tensor(y)).asnumpy())
    before = mean_loss()
    model.train(8, make_dataset([x, y], 16, ["x", "y"]), dataset_sink_mode=False)
    assert mean_loss() < 0.6 * before
