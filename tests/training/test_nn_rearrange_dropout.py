"""PixelShuffle, PixelUnshuffle, ChannelShuffle, Unflatten, Tril, Triu, Dropout1d/2d/3d and
CellDict on both backends, values and errors measured in MindSpore 2.10."""
import numpy as np
import pytest

import training as ms
from training import nn

from tests.training.both_backends import as_input, backend, values  # noqa: F401

A = np.arange(2 * 4 * 3 * 2, dtype=np.float32).reshape(2, 4, 3, 2)


@pytest.mark.parametrize("layer, array, shape, first", [
    (nn.PixelShuffle(2), A, (2, 1, 6, 4), [0, 6, 1, 7, 12, 18]),
    (nn.PixelShuffle(2), A[0], (1, 6, 4), [0, 6, 1, 7, 12, 18]),
    (nn.PixelUnshuffle(2), np.arange(48, dtype=np.float32).reshape(2, 1, 4, 6), (2, 4, 2, 3),
     [0, 2, 4, 12, 14, 16]),
    (nn.ChannelShuffle(2), np.arange(8, dtype=np.float32).reshape(2, 4), (2, 4),
     [0, 2, 1, 3, 4, 6]),
    (nn.Unflatten(1, (2, -1)), A, (2, 2, 2, 3, 2), [0, 1, 2, 3, 4, 5]),
    (nn.Tril(), A[0, 0], (3, 2), [0, 0, 2, 3, 4, 5]),
    (nn.Triu(), A[0, 0], (3, 2), [0, 1, 0, 3, 0, 0]),
])
def test_values_as_mindspore(backend, layer, array, shape, first):
    out = values(layer(as_input(backend, array)))
    assert out.shape == shape
    np.testing.assert_allclose(out.ravel()[:6], first)


def test_pixel_unshuffle_undoes_pixel_shuffle(backend):
    x = as_input(backend, A)
    np.testing.assert_array_equal(values(nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(x))), A)


def test_tril_diagonal_and_gradient(backend):
    x = as_input(backend, A[0])
    np.testing.assert_allclose(values(nn.Tril()(x, -1)).ravel()[:6], [0, 0, 2, 0, 4, 5])
    _, grad = ms.value_and_grad(lambda v: nn.Triu()(v).sum())(x)
    assert values(grad)[0].tolist() == [[1, 1], [0, 1], [0, 0]]


@pytest.mark.parametrize("make", [nn.Dropout1d, nn.Dropout2d, nn.Dropout3d])
def test_dropout_is_identity_in_evaluation_and_channel_wise_in_training(backend, make):
    layer = make(0.5)
    x = as_input(backend, np.ones((4, 8, 2, 3, 2), np.float32))
    assert values(layer(x)).min() == 1.0
    layer.set_train(True)
    if isinstance(layer, nn.Dropout3d):     # each channel all kept (x 2) or all zero
        per_channel = values(layer(x)).reshape(32, -1)
        assert set(np.unique(per_channel)) <= {0.0, 2.0}
        assert (per_channel.min(axis=1) == per_channel.max(axis=1)).all()
    else:
        with pytest.raises(ValueError):     # MindSpore's ranks: 2-3 (1d), 4 (2d)
            layer(x)
    assert values(nn.Dropout2d(1.0).set_train(True)(x[0])).max() == 0.0
    assert values(nn.Dropout1d(0.0).set_train(True)(x)).min() == 1.0     # (no rank check)


@pytest.mark.parametrize("make, error", [
    (lambda x: nn.Dropout1d(1), TypeError), (lambda x: nn.Dropout2d(1.5), ValueError),
    (lambda x: nn.PixelShuffle(3)(x), ValueError), (lambda x: nn.PixelShuffle(2)(x[0, 0]),
                                                    ValueError),
    (lambda x: nn.PixelUnshuffle(2)(x), ValueError), (lambda x: nn.ChannelShuffle(2.0),
                                                      TypeError),
    (lambda x: nn.ChannelShuffle(0), ValueError), (lambda x: nn.Unflatten(1.0, (2, 2)),
                                                   TypeError),
    (lambda x: nn.Unflatten(1, 4), TypeError), (lambda x: nn.Unflatten(1, (3, 2))(x),
                                                ValueError),
    (lambda x: nn.Tril()(x[0, 0, 0]), ValueError),
    # MindSpore gives the input back unchanged here (README)
    (lambda x: nn.ChannelShuffle(3)(x), ValueError),
])
def test_errors(backend, make, error):
    with pytest.raises(error):
        make(as_input(backend, A))


def test_cell_dict_as_mindspore():
    cells = nn.CellDict({"a": nn.ReLU(), "b": nn.Tanh()})
    cells["c"] = nn.Sigmoid()
    assert type(cells.pop("a")).__name__ == "ReLU"
    cells.update([("z", nn.ReLU())])
    assert list(cells.keys()) == ["b", "c", "z"] and "c" in cells and len(cells) == 3
    assert [name for name, _ in nn.CellDict({"fc": nn.Dense(2, 3)}).parameters_and_names()] \
        == ["fc.weight", "fc.bias"]
    with pytest.raises(TypeError):
        nn.CellDict({"a": 1})
    with pytest.raises(TypeError):
        nn.CellDict({1: nn.ReLU()})
    with pytest.raises(NotImplementedError):
        cells(ms.Tensor(np.ones(2, np.float32)))


def test_roll(backend):
    out = nn.Roll((1, -2), (0, 1))(as_input(backend, np.arange(8, dtype=np.float32).reshape(2, 4)))
    assert values(out).tolist() == [[6, 7, 4, 5], [2, 3, 0, 1]]
    with pytest.raises(ValueError):
        nn.Roll(1, (0, 1))
    with pytest.raises(TypeError):
        nn.Roll(1.0, 0)


def test_get_activation_as_mindspore():
    assert type(nn.get_activation("hardtanh")).__name__ == "Hardtanh"
    assert nn.get_activation(None) is None
    assert type(nn.Dense(2, 3, activation="mish").activation).__name__ == "Mish"
    with pytest.raises(KeyError):
        nn.get_activation("xx")
    with pytest.raises(KeyError):
        nn.Dense(2, 3, activation="xx")
    with pytest.raises(TypeError):
        nn.Dense(2, 3, activation=1)
