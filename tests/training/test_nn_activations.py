"""The activation layers (nn.ELU ... nn.Softmax2d) and their ops forms (ops.elu ..., ops.Elu ...)
on both backends: values, gradients and argument errors measured in MindSpore 2.10."""
import numpy as np
import pytest

import training as ms
from training import nn, ops

from tests.training.both_backends import as_input, backend, values  # noqa: F401

X = np.array([[-2.5, -1.0, -0.3, 0.0, 0.2, 0.5, 1.0, 3.0]], np.float32)
WEIGHTS = np.arange(1, 9, dtype=np.float32).reshape(1, 8)

# name: (layer, MindSpore 2.10's output on X, its gradient of sum(output * WEIGHTS))
MEASURED = {
    "ELU": (lambda: nn.ELU(), [-0.917915, -0.632121, -0.259183, 0, 0.2, 0.5, 1, 3],
            [0.082085, 0.735758, 2.222452, 4, 5, 6, 7, 8]),
    "SiLU": (lambda: nn.SiLU(), [-0.189645, -0.268942, -0.127667, 0, 0.109967, 0.31123,
                                 0.731059, 2.857722],
             [-0.099401, 0.144659, 1.05666, 2, 2.996687, 4.439768, 6.493695, 8.704833]),
    "Mish": (lambda: nn.Mish(), [-0.196816, -0.303401, -0.151133, 0, 0.132599, 0.375245,
                                 0.865098, 2.986535],
             [-0.109744, 0.118432, 1.225531, 2.4, 3.623122, 5.318546, 7.343255, 8.168814]),
    "SeLU": (lambda: nn.SeLU(), [-1.613786, -1.111331, -0.455667, 0, 0.21014, 0.52535,
                                 1.050701, 3.152103], None),    # (MindSpore's gradient: README)
    "CELU": (lambda: nn.CELU(2.0), [-1.42699, -0.786939, -0.278584, 0, 0.2, 0.5, 1, 3],
             [0.286505, 1.213061, 2.582124, 4, 5, 6, 7, 8]),
    "Softsign": (lambda: nn.Softsign(), [-0.714286, -0.5, -0.230769, 0, 0.166667, 0.333333,
                                         0.5, 0.75],
                 [0.081633, 0.5, 1.775148, 4, 3.472222, 2.666667, 1.75, 0.5]),
    "LogSigmoid": (lambda: nn.LogSigmoid(), [-2.578889, -1.313261, -0.854354, -0.693147,
                                             -0.598139, -0.474077, -0.313261, -0.048587],
                   [0.924142, 1.462117, 1.723327, 2, 2.25083, 2.265244, 1.882588, 0.379407]),
    "Hardtanh": (lambda: nn.Hardtanh(-0.5, 1.0), [-0.5, -0.5, -0.3, 0, 0.2, 0.5, 1, 1],
                 [0, 0, 3, 4, 5, 6, 3.5, 0]),      # (half a gradient at a bound)
    "HShrink": (lambda: nn.HShrink(0.5), [-2.5, -1, 0, 0, 0, 0, 1, 3], [1, 2, 0, 0, 0, 0, 7, 8]),
    "SoftShrink": (lambda: nn.SoftShrink(0.5), [-2, -0.5, 0, 0, 0, 0, 0.5, 2.5],
                   [1, 2, 0, 0, 0, 0, 7, 8]),
    "Threshold": (lambda: nn.Threshold(0.2, 7.0), [7, 7, 7, 7, 7, 0.5, 1, 3],
                  [0, 0, 0, 0, 0, 6, 7, 8]),
    "Tanhshrink": (lambda: nn.Tanhshrink(), [-1.513386, -0.238406, -0.008687, 0, 0.002625,
                                             0.037883, 0.238406, 2.004944],
                   [0.973408, 1.160051, 0.254589, 0, 0.194785, 1.281314, 4.06018, 7.921086]),
    "FastGelu": (lambda: nn.FastGelu(), [-0.034986, -0.154204, -0.112516, 0, 0.116858,
                                         0.350388, 0.845796, 2.981929],
                 [-0.044719, -0.135559, 0.766123, 2, 3.334847, 5.275332, 7.474458, 8.196386]),
    "HSwish": (lambda: nn.HSwish(), [-0.208333, -0.333333, -0.135, 0, 0.106667, 0.291667,
                                     0.666667, 3], [-0.333333, 0.333333, 1.2, 2, 2.833333, 4,
                                                    5.833334, 12]),   # (x / 3 + 0.5 at 3)
    "HSigmoid": (lambda: nn.HSigmoid(), [0.083333, 0.333333, 0.45, 0.5, 0.533333, 0.583333,
                                         0.666667, 1], [0.166667, 0.333333, 0.5, 0.666667,
                                                        0.833333, 1, 1.166667, 0]),
    "Softmin": (lambda: nn.Softmin(), [0.638042, 0.142366, 0.070697, 0.052374, 0.04288,
                                       0.031766, 0.019267, 0.002608],
                [0.577484, -0.013512, -0.077407, -0.109718, -0.13271, -0.13008, -0.098165,
                 -0.015893]),
    "RReLU": (lambda: nn.RReLU(0.2, 0.2), [-0.5, -0.2, -0.06, 0, 0.2, 0.5, 1, 3],
              [0.2, 0.4, 0.6, 4, 5, 6, 7, 8]),
}


@pytest.mark.parametrize("name", sorted(MEASURED))
def test_activation_values_and_gradients_as_mindspore(backend, name):
    make, output, gradient = MEASURED[name]
    layer = make()
    x = as_input(backend, X)
    np.testing.assert_allclose(values(layer(x))[0], output, rtol=1e-5, atol=1e-5)
    if gradient is not None:
        weights = as_input(backend, WEIGHTS)
        _, grad = ms.value_and_grad(lambda v: (layer(v) * weights).sum())(x)
        np.testing.assert_allclose(values(grad)[0], gradient, rtol=1e-5, atol=1e-5)


def test_selu_gradient_is_the_derivative(backend):
    """MindSpore 2.10's gives scale * (1 + SeLU(x)) below zero (README); this is the derivative
    scale * alpha * exp(x)."""
    x = as_input(backend, X)
    _, grad = ms.value_and_grad(lambda v: nn.SeLU()(v).sum())(x)
    expected = np.where(X >= 0, 1.0507009873554805, 1.0507009873554805 * 1.6732632423543772
                        * np.exp(X))
    np.testing.assert_allclose(values(grad), expected, rtol=1e-5)


def test_glu_halves_and_its_gradient(backend):
    x = as_input(backend, X)
    weights = as_input(backend, WEIGHTS[:, :4])
    out, grad = ms.value_and_grad(lambda v: (nn.GLU()(v) * weights).sum())(x)
    np.testing.assert_allclose(values(nn.GLU()(x))[0], [-1.374585, -0.622459, -0.219318, 0],
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values(grad)[0], [0.549834, 1.244919, 2.193181, 3.810297,
                                                 -0.618791, -0.47001, -0.176947, 0],
                               rtol=1e-5, atol=1e-5)


def test_softmax2d_is_over_the_channels(backend):
    x = as_input(backend, np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2))
    np.testing.assert_allclose(values(nn.Softmax2d()(x))[0, :, 0, 0],
                               [0.00033, 0.01798, 0.98169], atol=1e-5)
    with pytest.raises(ValueError, match="3 or 4 dims"):
        nn.Softmax2d()(as_input(backend, X))


def test_identity_takes_any_arguments(backend):
    x = as_input(backend, X)
    assert values(nn.Identity(3, a=1)(x)).tolist() == X.tolist()


@pytest.mark.parametrize("make, error, words", [
    (lambda x: nn.ELU(0.5)(x), ValueError, "must be 1.0"),
    (lambda x: nn.ELU(1)(x), TypeError, "alpha"),
    (lambda x: nn.CELU(0.0)(x), ValueError, "not equal to 0"),
    (lambda x: nn.CELU(1)(x), TypeError, "alpha"),
    (lambda x: nn.Hardtanh(1.0, 1.0), ValueError, "less than max_val"),
    (lambda x: nn.SoftShrink(-1.0)(x), RuntimeError, "greater or equal to 0"),
    (lambda x: nn.HShrink("a")(x), TypeError, "lambd"),
    (lambda x: nn.Threshold("a", 1)(x), TypeError, "thr"),
    (lambda x: nn.Softmin(1.0)(x), TypeError, "axis"),
    (lambda x: nn.Softmin((0, 1))(x), RuntimeError, "only support int"),
    (lambda x: nn.GLU()(x[:, :7]), ValueError, "divisible by output_num = 2"),
    (lambda x: nn.RReLU(0.5, 0.1), ValueError, "greater than or equal to 'lower'"),
    (lambda x: nn.RReLU("a", 1.0), TypeError, "lower"),
    (lambda x: nn.GELU("tanh"), TypeError, "must be a bool"),
    (lambda x: ops.gelu(x, "x"), ValueError, "'none' or 'tanh'"),
])
def test_argument_errors_as_mindspore(backend, make, error, words):
    with pytest.raises(error, match=words):
        make(as_input(backend, X))


@pytest.mark.parametrize("layer, dtype", [(nn.SoftShrink, np.float64), (nn.HShrink, np.float64),
                                          (nn.FastGelu, np.float64), (nn.Mish, np.int32),
                                          (nn.SiLU, np.int32), (nn.Softmin, np.int32)])
def test_input_dtypes_mindspore_refuses(backend, layer, dtype):
    with pytest.raises(TypeError):
        layer()(as_input(backend, X.astype(dtype)))


def test_ops_forms(backend):
    x = as_input(backend, X)
    np.testing.assert_allclose(values(ops.softplus(x, 2, 1))[0],
                               [0.00336, 0.06346, 0.21874, 0.34657, 0.45651, 0.65663, 1, 3],
                               atol=1e-5)
    np.testing.assert_allclose(values(ops.Softplus()(x))[0][:2], [0.07889, 0.31326], atol=1e-5)
    np.testing.assert_allclose(values(ops.gelu(x))[0][:2], [-0.01552, -0.15866], atol=1e-5)
    np.testing.assert_allclose(values(ops.GeLU()(x))[0][:2], [-0.01508, -0.15881], atol=1e-5)
    np.testing.assert_allclose(values(ops.CeLU(2.0)(x)), values(nn.CELU(2.0)(x)))
    np.testing.assert_allclose(values(ops.HShrink(-1.0)(x)), X)    # every |x| > -1
    assert ops.SoftShrink(-1.0).lambd == -1.0      # (refused at the call, as MindSpore)
    for function, layer in ((ops.elu, nn.ELU()), (ops.silu, nn.SiLU()), (ops.mish, nn.Mish()),
                            (ops.selu, nn.SeLU()), (ops.logsigmoid, nn.LogSigmoid()),
                            (ops.softsign, nn.Softsign()), (ops.fast_gelu, nn.FastGelu()),
                            (ops.hardswish, nn.HSwish()), (ops.hardsigmoid, nn.HSigmoid()),
                            (ops.tanhshrink, nn.Tanhshrink()), (ops.glu, nn.GLU())):
        np.testing.assert_allclose(values(function(x)), values(layer(x)), rtol=1e-6)


def test_rrelu_draws_a_slope_per_element_at_every_call(backend):
    ms.set_seed(3)
    x = as_input(backend, -np.ones((200,), np.float32))
    first, second = values(nn.RReLU()(x)), values(nn.RReLU()(x))
    assert first.min() >= -1 / 3 - 1e-6 and first.max() <= -1 / 8 + 1e-6
    assert len(np.unique(first)) > 100 and not np.array_equal(first, second)


def test_rrelu_of_integers_truncates_the_slope(backend):
    """MindSpore 2.10: RReLU(0.5, 0.5) of int32 [-3, 2, -1] is [0, 2, 0], RReLU(1.5, 1.5)
    [-3, 2, -1]."""
    x = as_input(backend, np.array([[-3, 2, -1]], np.int32))
    assert values(nn.RReLU(0.5, 0.5)(x)).tolist() == [[0, 2, 0]]
    assert values(nn.RReLU(1.5, 1.5)(x)).tolist() == [[-3, 2, -1]]
