"""BatchNorm3d, InstanceNorm1d/2d/3d and Conv1dTranspose on both backends: parameter names
and shapes, values measured in MindSpore 2.10 (InstanceNorm: torch's, MindSpore's CPU has no
kernel for it)."""
import numpy as np
import pytest

import training as ms
from training import nn

from tests.training.both_backends import as_input, backend, values  # noqa: F401

VOLUME = np.random.default_rng(0).standard_normal((1, 2, 4, 5, 6)).astype(np.float32)
PLANES = np.random.default_rng(0).standard_normal((2, 4, 5, 6)).astype(np.float32)
ROWS = np.random.default_rng(0).standard_normal((2, 2, 5)).astype(np.float32)
WEIGHT = np.random.default_rng(1).standard_normal((2, 4, 3)).astype(np.float32)


def test_parameter_names_as_mindspore():
    assert [(k, p.shape) for k, p in nn.BatchNorm3d(3).parameters_and_names()] == [
        ("bn2d.moving_mean", (3,)), ("bn2d.moving_variance", (3,)), ("bn2d.gamma", (3,)),
        ("bn2d.beta", (3,))]
    assert [k for k, _ in nn.InstanceNorm2d(3).parameters_and_names()] == [
        "moving_mean", "moving_variance", "gamma", "beta"]
    assert [(k, p.shape) for k, p in nn.Conv1dTranspose(2, 4, 3, has_bias=True)
            .parameters_and_names()] == [("weight", (2, 4, 1, 3)), ("bias", (4,))]


def test_batch_norm3d_as_mindspore(backend):
    layer = nn.BatchNorm3d(2)
    x = as_input(backend, VOLUME)
    np.testing.assert_allclose(values(layer(x)).ravel()[:3], [0.1257, -0.1321, 0.6404],
                               atol=1e-4)
    layer.set_train(True)
    np.testing.assert_allclose(values(layer(x)).ravel()[:3], [0.0466, -0.2234, 0.5856],
                               atol=1e-4)
    with pytest.raises(ValueError):
        layer(as_input(backend, PLANES))


def test_instance_norm_as_torch(backend):
    layer = nn.InstanceNorm2d(4).set_train(True)
    out = values(layer(as_input(backend, PLANES)))
    np.testing.assert_allclose(out[0, 0, 0, :3], [0.3055, -0.0131, 0.9416], atol=1e-4)
    np.testing.assert_allclose(layer.moving_mean.asnumpy(),
                               [-0.0066, 0.0074, 0.0010, -0.0109], atol=1e-4)
    mean = out.mean(axis=(2, 3))
    np.testing.assert_allclose(mean, np.zeros_like(mean), atol=1e-5)


@pytest.mark.parametrize("make, error", [
    (lambda x: nn.InstanceNorm1d(3, momentum=1.5), ValueError),
    (lambda x: nn.InstanceNorm1d(3, eps=0), TypeError),
    (lambda x: nn.InstanceNorm1d(2)(x[0]), ValueError),
    (lambda x: nn.InstanceNorm1d(3)(x), ValueError),
    (lambda x: nn.Conv1dTranspose(2, 4, (3,), 2), TypeError),
    (lambda x: nn.Conv1dTranspose(2, 4, 3, 2, "valid", 1), ValueError),
    (lambda x: nn.Conv1dTranspose(2, 4, 3, weight_init=ms.Tensor(WEIGHT[:, :, None])),
     ValueError),
    (lambda x: nn.Conv1dTranspose(2, 4, 3)(x[0]), ValueError),
])
def test_errors_as_mindspore(backend, make, error):
    with pytest.raises(error):
        make(as_input(backend, ROWS))


@pytest.mark.parametrize("args, kwargs, weight, length, first", [
    ((2, 4, 3, 2), {}, WEIGHT, 10, [-0.2228, 0.0444, -1.1388, -0.321, -1.1485, 0.3719]),
    ((2, 4, 3, 2, "valid"), {}, WEIGHT, 11, [-0.2228, 0.0444, -1.1388, -0.321, -1.1485,
                                             0.3719]),
    ((2, 4, 3, 2, "pad", 1), {}, WEIGHT, 9, [0.0444, -1.1388, -0.321, -1.1485, 0.3719,
                                             0.3095]),
    ((2, 4, 3, 1, "valid"), {"dilation": 2}, WEIGHT, 9, [-0.2228, -1.006, -0.4318, 0.2335,
                                                         0.9859, -0.4715]),
    ((2, 4, 3, 1, "valid"), {"group": 2}, WEIGHT[:, :2], 7, [0.0435, 0.0576, 0.1543, 0.5188,
                                                             0.1127, -0.4055]),
])
def test_conv1d_transpose_as_mindspore(backend, args, kwargs, weight, length, first):
    layer = nn.Conv1dTranspose(*args, weight_init=ms.Tensor(weight), **kwargs)
    out = values(layer(as_input(backend, ROWS)))
    assert out.shape == (2, 4, length)
    np.testing.assert_allclose(out.ravel()[:6], first, atol=1e-4)


CONV3D_WEIGHT = np.random.default_rng(1).standard_normal((3, 2, 2, 3, 2)).astype(np.float32)


@pytest.mark.parametrize("kwargs, shape, first", [
    ({}, (1, 3, 4, 5, 6), [1.5486, -1.3143, -4.6145, -2.7935, 0.0386, 0.314]),
    ({"pad_mode": "valid"}, (1, 3, 3, 3, 5), [-3.3985, 2.2861, 4.5063, 0.721, 0.1089, 7.4298]),
    ({"pad_mode": "pad", "padding": (1, 0, 1, 0, 0, 1)}, (1, 3, 4, 4, 6),
     [-1.2453, -0.4695, -1.8261, -2.8531, -0.9526, 0.4741]),
    ({"stride": 2, "dilation": (1, 1, 2), "pad_mode": "valid"}, (1, 3, 2, 2, 2),
     [1.5689, 2.0796, -0.0192, -6.2736, 2.3477, 1.7304]),
    ({"stride": 2}, (1, 3, 2, 3, 3), [1.5486, -4.6145, 0.0386, 7.4298, 3.6616, 4.9138]),
    ({"has_bias": True, "bias_init": "ones"}, (1, 3, 4, 5, 6), [2.5486, -0.3143, -3.6145]),
])
def test_conv3d_as_mindspore(backend, kwargs, shape, first):
    layer = nn.Conv3d(2, 3, (2, 3, 2), weight_init=ms.Tensor(CONV3D_WEIGHT), **kwargs)
    out = values(layer(as_input(backend, VOLUME)))
    assert out.shape == shape
    np.testing.assert_allclose(out.ravel()[:len(first)], first, atol=1e-3)


def test_conv3d_gradients_are_the_derivative():
    ms.set_backend("numpy")
    try:
        layer = nn.Conv3d(2, 4, (2, 1, 2), stride=(1, 2, 1), pad_mode="pad", padding=1,
                          group=2, has_bias=True)
        x = VOLUME.astype(np.float64)
        _, (gx, (gw, gb)) = ms.value_and_grad(lambda v: (layer(v) ** 2).sum(), 0,
                                              layer.trainable_params())(ms.Tensor(x))
        step = np.zeros_like(x)
        step[0, 1, 2, 3, 4] = 1e-4
        numeric = ((layer(ms.Tensor(x + step)) ** 2).sum().asnumpy()
                   - (layer(ms.Tensor(x - step)) ** 2).sum().asnumpy()) / 2e-4
        assert abs(numeric - gx.asnumpy()[0, 1, 2, 3, 4]) < 1e-3 * max(1, abs(numeric))
        assert gw.shape == (4, 1, 2, 1, 2) and gb.shape == (4,)
    finally:
        ms.set_backend(None)


def test_conv_dense_bn_act_as_mindspore(backend):
    conv = nn.Conv2dBnAct(2, 3, 3, has_bn=True, activation="relu", has_bias=True)
    assert [(k, p.shape) for k, p in conv.parameters_and_names()] == [
        ("conv.weight", (3, 2, 3, 3)), ("conv.bias", (3,)), ("batchnorm.moving_mean", (3,)),
        ("batchnorm.moving_variance", (3,)), ("batchnorm.gamma", (3,)), ("batchnorm.beta", (3,))]
    dense = nn.DenseBnAct(2, 3, has_bn=True, activation="leakyrelu")
    assert [name for name, _ in dense.cells_and_names()] == ["", "dense", "batchnorm",
                                                               "activation"]
    assert values(conv(as_input(backend, PLANES[:, :2]))).min() >= 0     # (relu)
    assert values(dense(as_input(backend, ROWS[:, :, 0]))).shape == (2, 3)
    with pytest.raises(TypeError):
        nn.DenseBnAct(2, 3, has_bn=1)
    with pytest.raises(TypeError):
        nn.Conv2dBnAct(2, 3, 3, activation=1)
