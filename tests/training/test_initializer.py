"""training.common.initializer against MindSpore's documented distributions."""
import math

import numpy as np
import pytest

import training as ms
from training import nn
from training.common.initializer import (Constant, HeNormal, HeUniform, Normal, One, Orthogonal,
                                         TruncatedNormal, Uniform, XavierNormal, XavierUniform,
                                         Zero, initializer)

SHAPE = (256, 128, 3, 3)  # fan_in = 1152, fan_out = 2304


@pytest.fixture(autouse=True)
def _seed():
    ms.set_seed(7)


def test_normal_uses_sigma_and_mean():
    x = initializer(Normal(sigma=0.02, mean=0.5), (400, 400)).asnumpy()
    assert x.dtype == np.float32
    assert abs(x.std() - 0.02) < 5e-4 and abs(x.mean() - 0.5) < 5e-4
    assert abs(initializer("normal", (400, 400)).asnumpy().std() - 0.01) < 3e-4  # alias: sigma 0.01


def test_truncated_normal_stays_within_absolute_a_b():
    x = initializer(TruncatedNormal(sigma=1.0, a=-2.0, b=2.0), (300, 300)).asnumpy()
    assert x.min() >= -2.0 and x.max() <= 2.0
    assert abs(x.std() - 0.8796) < 2e-2  # std of N(0,1) truncated to [-2, 2]
    y = initializer(TruncatedNormal(sigma=0.1, mean=1.0, a=0.9, b=1.2), (300, 300)).asnumpy()
    assert y.min() >= 0.9 and y.max() <= 1.2 and y.min() < 0.901  # bounds are not sigma multiples


def test_he_uniform_bounds_follow_mode_and_nonlinearity():
    fan_in, fan_out = 128 * 9, 256 * 9
    x = initializer(HeUniform(), SHAPE).asnumpy()
    bound = math.sqrt(6.0 / fan_in)  # gain sqrt(2) for leaky_relu with slope 0
    assert x.max() <= bound and x.min() >= -bound and x.max() > 0.98 * bound
    y = initializer(HeUniform(mode="fan_out", nonlinearity="relu"), SHAPE).asnumpy()
    assert abs(y).max() <= math.sqrt(6.0 / fan_out) < bound
    z = initializer(HeUniform(negative_slope=math.sqrt(5)), SHAPE).asnumpy()
    assert abs(z).max() <= 1 / math.sqrt(fan_in)  # MindSpore's default layer init
    with pytest.raises(ValueError, match="mode"):
        initializer(HeUniform(mode="fan_avg"), SHAPE)
    with pytest.raises(ValueError, match="nonlinearity"):
        HeNormal(nonlinearity="swish")


def test_he_normal_and_xavier_statistics():
    fan_in, fan_out = 128 * 9, 256 * 9
    assert abs(initializer(HeNormal(), SHAPE).asnumpy().std() - math.sqrt(2 / fan_in)) < 1e-3
    assert abs(initializer(HeNormal(nonlinearity="tanh"), SHAPE).asnumpy().std()
               - 5 / 3 / math.sqrt(fan_in)) < 1e-3
    bound = math.sqrt(6 / (fan_in + fan_out))
    x = initializer(XavierUniform(gain=2), SHAPE).asnumpy()
    assert abs(x).max() <= 2 * bound and abs(x).max() > 1.9 * bound
    assert abs(initializer(XavierNormal(), SHAPE).asnumpy().std()
               - math.sqrt(2 / (fan_in + fan_out))) < 1e-3
    with pytest.raises(ValueError, match="fewer than 2"):
        initializer(XavierUniform(), (5,))


def test_constants_uniform_orthogonal_and_dtype():
    assert (initializer(Zero(), (2, 3)).asnumpy() == 0).all()
    assert (initializer(One(), (2, 3), ms.float16).asnumpy() == 1).all()
    assert initializer(One(), (2, 3), ms.float16).dtype == np.float16
    assert (initializer(Constant(3), [4]).asnumpy() == 3).all()
    assert (initializer(2.5, (2,)).asnumpy() == 2.5).all()
    u = initializer(Uniform(scale=0.5), (100, 100)).asnumpy()
    assert abs(u).max() <= 0.5 and abs(u).max() > 0.49
    q = initializer(Orthogonal(), (8, 8)).asnumpy()
    np.testing.assert_allclose(q @ q.T, np.eye(8), atol=1e-5)


def test_initializer_errors_and_tensor_input():
    with pytest.raises(ValueError, match="Unknown initializer"):
        initializer("gaussian", (2, 2))
    with pytest.raises(ValueError, match="shape"):
        initializer(Normal(), (2, 0))
    with pytest.raises(TypeError, match="init"):
        initializer(object(), (2, 2))
    t = ms.Tensor(np.ones((2, 2)))
    assert initializer(t, (2, 2)).init_data().shape == (2, 2)
    with pytest.raises(ValueError, match="shape"):
        initializer(t, (3, 2))
    assert (ms.Tensor(shape=(2, 3), dtype=ms.float32, init=One()).asnumpy() == 1).all()


def test_seed_makes_draws_reproducible():
    ms.set_seed(3)
    a = initializer(Normal(), (5, 5)).asnumpy()
    ms.set_seed(3)
    np.testing.assert_array_equal(a, initializer(Normal(), (5, 5)).asnumpy())
    assert ms.get_seed() == 3


def test_layers_accept_initializer_objects():
    dense = nn.Dense(64, 32, weight_init=Normal(0.02), bias_init=Zero())
    assert abs(dense.weight.asnumpy().std() - 0.02) < 3e-3
    assert (dense.bias.asnumpy() == 0).all()
    conv = nn.Conv2d(3, 8, 3, weight_init=TruncatedNormal(0.02, a=-0.04, b=0.04))
    assert abs(conv.weight.asnumpy()).max() <= 0.04
