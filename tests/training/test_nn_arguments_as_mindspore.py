"""Optimizer, convolution and loss behaviours that tools/training_vs_mindspore.py found unlike
MindSpore 2.10's, on both backends. Every expected value was measured in MindSpore 2.10 (CPU)."""
import numpy as np
import pytest

import training as ms
from training import Parameter, Tensor, nn

torch = pytest.importorskip("torch")

GRADIENTS = [np.array([0.5, -1.5, 2.0], np.float32), np.array([-0.25, 0.75, 1.0], np.float32),
             np.array([1.0, 1.0, -3.0], np.float32)]


def _on_both_backends(run):
    """``run(as_input)`` with numpy-backend Tensors, then with torch tensors."""
    ms.set_backend("numpy")
    try:
        yield run(Tensor)
    finally:
        ms.set_backend(None)
    yield run(torch.tensor)


def _as_numpy(value):
    return value.asnumpy() if hasattr(value, "asnumpy") else value.detach().numpy()


@pytest.mark.parametrize("make, expected", [
    # beta2=0.999: MindSpore takes 1 - beta2 in float32 (0.00100004673), and so do we now
    (lambda p: nn.Adam(p, learning_rate=0.1, beta2=0.999),
     [0.8075557351112366, -1.8884259462356567, 0.31498000025749207]),
    (lambda p: nn.AdamWeightDecay(p, learning_rate=0.1, beta2=0.999, weight_decay=0.1),
     [0.22256281971931458, -1.5931665897369385, -0.1763761043548584])])
def test_adam_steps_as_mindspore(make, expected):
    def run(as_input):
        w = Parameter(Tensor(np.array([1.0, -2.0, 0.5], np.float32)), name="w")
        optimizer = make([w])
        for g in GRADIENTS:
            optimizer((as_input(g),))
        return w.data, optimizer
    for values, optimizer in _on_both_backends(run):
        np.testing.assert_allclose(values, expected, rtol=2e-7)
        if isinstance(optimizer, nn.Adam):    # 0-d, as MindSpore's (checkpoint shapes match)
            assert optimizer.beta1_power.data.shape == ()
            np.testing.assert_allclose(optimizer.beta1_power.data, 0.7289999)


@pytest.mark.parametrize("make, error, words", [
    (lambda p: nn.SGD(p, momentum=0.9, nesterov=1), TypeError, "'nesterov' should be 'bool'"),
    (lambda p: nn.Momentum(p, 0.1, 0.9, use_nesterov=1), TypeError, "'use_nesterov'"),
    (lambda p: nn.Adam(p, use_nesterov=1), TypeError, "'use_nesterov' should be 'bool'"),
    (lambda p: nn.Adagrad(p, update_slots=1), TypeError, "'update_slots' should be 'bool'"),
    (lambda p: nn.RMSProp(p, centered=1), TypeError, "'centered' should be 'bool'"),
    (lambda p: nn.SGD(p, dampening=-0.5), ValueError, "'dampening' must be at least 0.0")])
def test_optimizer_arguments_refused_as_mindspore(make, error, words):
    with pytest.raises(error, match=words):
        make([Parameter(Tensor(np.ones(2, np.float32)), name="w")])


def test_rmsprop_takes_a_decay_above_one_as_mindspore():
    nn.RMSProp([Parameter(Tensor(np.ones(2, np.float32)), name="w")], decay=1.5)


def _transpose(**kwargs):
    layer = nn.Conv2dTranspose(1, 1, kwargs.pop("kernel"), has_bias=True, weight_init="ones",
                               **kwargs)
    layer.bias.set_data(Tensor(np.array([0.5], np.float32)))
    return layer


@pytest.mark.parametrize("kwargs, expected", [
    # a kernel shorter than the stride: the output is still H * stride, its last rows and
    # columns the bias alone
    ({"kernel": 1, "stride": 2, "pad_mode": "valid"},
     [[1.5, 0.5, 2.5, 0.5], [0.5] * 4, [3.5, 0.5, 4.5, 0.5], [0.5] * 4]),
    ({"kernel": 2, "stride": 3, "pad_mode": "same"},
     [[1.5, 1.5, 0.5, 2.5, 2.5, 0.5], [1.5, 1.5, 0.5, 2.5, 2.5, 0.5], [0.5] * 6,
      [3.5, 3.5, 0.5, 4.5, 4.5, 0.5], [3.5, 3.5, 0.5, 4.5, 4.5, 0.5], [0.5] * 6]),
    ({"kernel": 2, "stride": 3, "pad_mode": "valid", "dilation": 2},
     [[1.5, 0.5, 1.5, 2.5, 0.5, 2.5], [0.5] * 6, [1.5, 0.5, 1.5, 2.5, 0.5, 2.5],
      [3.5, 0.5, 3.5, 4.5, 0.5, 4.5], [0.5] * 6, [3.5, 0.5, 3.5, 4.5, 0.5, 4.5]]),
    # output_padding: rows and columns of zeros, no bias (torch's would hold 2.5, 4.5, ...)
    ({"kernel": 2, "stride": 2, "pad_mode": "pad", "padding": 1, "output_padding": 1},
     [[1.5, 2.5, 0.0], [3.5, 4.5, 0.0], [0.0, 0.0, 0.0]])])
def test_conv2d_transpose_output_as_mindspore(kwargs, expected):
    x = np.arange(1, 5, dtype=np.float32).reshape(1, 1, 2, 2)
    for out in _on_both_backends(lambda as_input: _as_numpy(_transpose(**kwargs)(as_input(x)))):
        np.testing.assert_allclose(out[0, 0], expected)


def test_conv2d_transpose_groups_as_mindspore_with_the_same_gradients_on_both_backends():
    layer = nn.Conv2dTranspose(
        4, 2, 1, stride=2, group=2, pad_mode="valid", has_bias=True,
        weight_init=Tensor(np.array([1, 2, -1, 0.5], np.float32).reshape(4, 1, 1, 1)),
        bias_init=Tensor(np.array([0.5, -0.5], np.float32)))
    assert layer.weight.shape == (4, 1, 1, 1)
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2) / 4
    weights = np.cos(np.arange(32)).reshape(1, 2, 4, 4).astype(np.float32)

    def run(as_input):
        out = layer(as_input(x))
        _, (dx, (dw, db)) = ms.value_and_grad(lambda t: (layer(t) * as_input(weights)).sum(), 0,
                                              layer.trainable_params())(as_input(x))
        return [_as_numpy(value) for value in (out, dx, dw, db)]
    (out, *grads), (torch_out, *torch_grads) = _on_both_backends(run)
    np.testing.assert_allclose(out[0, :, 0], [[2.5, 0.5, 3.25, 0.5], [-1.0, -0.5, -1.125, -0.5]])
    np.testing.assert_allclose(out[0, :, 2], [[4.0, 0.5, 4.75, 0.5], [-1.25, -0.5, -1.375, -0.5]])
    np.testing.assert_allclose(out[0, :, 1], np.array([[0.5] * 4, [-0.5] * 4]))
    np.testing.assert_allclose(torch_out, out)
    for numpy_grad, torch_grad in zip(grads, torch_grads):
        np.testing.assert_allclose(numpy_grad, torch_grad, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kwargs, words", [
    ({"pad_mode": "same", "stride": 2, "output_padding": 1}, "pad_mode must be 'pad'"),
    ({"pad_mode": "pad", "output_padding": 1}, r"range of \[0, max\(stride, dilation\)\)")])
def test_conv2d_transpose_output_padding_refused_as_mindspore(kwargs, words):
    # (MindSpore raises these at the first call; here the layer is not even made)
    with pytest.raises(ValueError, match=words):
        nn.Conv2dTranspose(1, 1, 3, **kwargs)


def test_conv1d_weight_init_is_three_dimensional_as_mindspore():
    weight = np.array([[[1, -1], [2, 0.5]]], np.float32)
    layer = nn.Conv1d(2, 1, 2, pad_mode="valid", weight_init=Tensor(weight))
    assert layer.weight.shape == (1, 2, 1, 2)
    x = np.arange(8, dtype=np.float32).reshape(1, 2, 4)
    for out in _on_both_backends(lambda as_input: _as_numpy(layer(as_input(x)))):
        np.testing.assert_allclose(out, [[[9.5, 12.0, 14.5]]])
    with pytest.raises(ValueError, match="must be 3-D"):
        nn.Conv1d(2, 1, 2, weight_init=Tensor(weight[:, :, None]))


def test_a_dilated_kernel_larger_than_the_input_is_a_value_error_on_both_backends():
    """(MindSpore 2.10 gives an empty output here, and its ValueError for an undilated kernel
    larger than the input: README)"""
    layer = nn.Conv1d(1, 1, 3, pad_mode="valid", dilation=2)
    x = np.ones((2, 1, 4), np.float32)
    for as_input in (Tensor, torch.tensor):
        with pytest.raises(ValueError, match="dilated kernel"):
            ms.set_backend("numpy" if as_input is Tensor else None)
            try:
                layer(as_input(x))
            finally:
                ms.set_backend(None)


def test_cross_entropy_with_every_label_ignored_is_nan_with_a_zero_gradient():
    loss = nn.CrossEntropyLoss(ignore_index=1)
    logits = np.array([[0.5, 1.5], [2.0, -1.0]], np.float32)
    labels = np.array([1, 1], np.int32)

    def run(as_input):
        value, grad = ms.value_and_grad(lambda z: loss(z, as_input(labels)))(as_input(logits))
        return float(_as_numpy(value)), _as_numpy(grad)
    for value, grad in _on_both_backends(run):
        assert np.isnan(value)
        np.testing.assert_array_equal(grad, np.zeros((2, 2), np.float32))


def test_softmax_over_a_tuple_of_axes_on_both_backends():
    """As documented (MindSpore 2.10's CPU kernel refuses a tuple: README)."""
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    e = np.exp(x - x.max((0, 1), keepdims=True))
    for out in _on_both_backends(lambda as_input: _as_numpy(nn.Softmax((0, 1))(as_input(x)))):
        np.testing.assert_allclose(out, e / e.sum((0, 1), keepdims=True), rtol=1e-6, atol=1e-7)
