"""training.mint's type rules and dim checks on both backends, as measured in MindSpore 2.10
(its CPU build): the types its kernels refuse, the types its results keep, the ValueError of a
dim out of range."""
import numpy as np
import pytest

import training
from tests.training.both_backends import as_input, backend, values  # noqa: F401
from training import mint
from training.mint.nn import functional as F

B = np.array([[True, False, True], [False, False, True]])
X = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)


def kind(t):
    return str(t.dtype).replace("torch.", "")


REFUSED = [     # (function, input type, MindSpore 2.10's exception), each measured
    (lambda x: mint.cummax(x, 1), np.bool_, TypeError),
    (lambda x: mint.amax(x, -1), np.bool_, TypeError),
    (lambda x: mint.amin(x, -1), np.bool_, TypeError),
    (lambda x: mint.max(x, 1), np.bool_, TypeError),
    (lambda x: mint.min(x), np.bool_, RuntimeError),
    (lambda x: mint.mean(x), np.bool_, RuntimeError),
    (lambda x: mint.topk(x, 1), np.bool_, TypeError),
    (lambda x: mint.matmul(x, mint.t(x)), np.bool_, TypeError),
    (lambda x: mint.round(x), np.uint8, RuntimeError),
    (lambda x: mint.sign(x), np.uint8, TypeError),
    (F.hardswish, np.bool_, TypeError),
    (F.hardswish, np.uint8, TypeError),
    (F.hardsigmoid, np.bool_, TypeError),
    (lambda x: F.prelu(x, x[0]), np.float64, TypeError),
    (F.mish, np.float64, TypeError),
    (F.selu, np.float64, TypeError),
    (F.logsigmoid, np.float64, TypeError),
    (F.leaky_relu, np.int32, TypeError),
    (lambda x: mint.std(x), np.float64, TypeError),
    (lambda x: mint.var(x), np.float64, TypeError),
    (lambda x: mint.logsumexp(x, 1), np.float64, TypeError),
    (lambda x: mint.logaddexp(x, x), np.float64, TypeError),
    (lambda x: F.binary_cross_entropy_with_logits(x, x), np.float64, TypeError),
    (lambda x: F.binary_cross_entropy(x, x), np.float64, TypeError),
]


@pytest.mark.parametrize("function, dtype, error", REFUSED)
def test_types_mindspore_refuses(backend, function, dtype, error):  # noqa: F811
    with pytest.raises(error, match="Bool|UInt8|Float64|Int32|bool"):
        function(as_input(backend, X.astype(dtype)))


def test_loss_argument_types(backend):  # noqa: F811
    x = as_input(backend, X)
    labels = np.array([0, 2])
    with pytest.raises(TypeError, match="Int32"):           # an integer input
        F.nll_loss(as_input(backend, X.astype(np.int32)), as_input(backend, labels))
    with pytest.raises(TypeError, match="target"):          # int8 labels
        F.nll_loss(x, as_input(backend, labels.astype(np.int8)))
    assert kind(F.nll_loss(x, as_input(backend, labels.astype(np.int16)))) == "float32"
    with pytest.raises(TypeError, match="same type"):       # float16 input, float32 target
        F.binary_cross_entropy(as_input(backend, X.astype(np.float16) / 8), x / 8)
    with pytest.raises(TypeError, match="weight"):          # float64 weight
        F.prelu(x, as_input(backend, np.array([0.25])))


def test_types_mindspore_keeps(backend):  # noqa: F811
    b, c = as_input(backend, B), as_input(backend, ~B)
    i = as_input(backend, np.array([[1, 2, 3], [0, -5, 6]], np.int32))
    # MindSpore 2.10: bool - bool is xor (alpha too); isclose of bools is equality
    assert values(mint.sub(b, c, alpha=2)).tolist() == [[True] * 3] * 2
    assert values(mint.isclose(b, c)).tolist() == [[False] * 3] * 2
    assert kind(mint.trunc(i)) == "int32" and values(mint.trunc(i)).tolist() == values(i).tolist()
    assert kind(mint.trunc(b)) == "bool"
    assert kind(mint.nansum(i)) == "int32" and values(mint.nansum(i)) == 7
    assert kind(mint.nansum(b)) == "int64" and values(mint.nansum(b)) == 3
    assert kind(mint.sum(i, dtype=training.int32)) == "int32"
    assert kind(mint.any(as_input(backend, np.array([0, 3], np.uint8)))) == "uint8"
    np.testing.assert_allclose(values(mint.xlogy(b, 2))[0], [0.6931472, 0, 0.6931472],
                               rtol=1e-6)
    assert kind(mint.xlogy(b, 2)) == "float32"
    # integer hardswish and hardsigmoid truncate (MindSpore: [0 0 0 0 0 0 0 1 3 4 5])
    ramp = as_input(backend, np.arange(-5, 6).astype(np.int32))
    assert values(F.hardswish(ramp)).tolist() == [0, 0, 0, 0, 0, 0, 0, 1, 3, 4, 5]
    assert values(F.hardsigmoid(ramp)).tolist() == [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]
    assert kind(F.hardswish(ramp)) == "int32"
    assert values(F.relu(b)).tolist() == B.tolist()


@pytest.mark.parametrize("call", [
    lambda x: mint.sum(x, 2), lambda x: mint.chunk(x, 2, 2), lambda x: mint.flip(x, (2,)),
    lambda x: mint.cat([x, x], 2), lambda x: mint.unsqueeze(x, 3), lambda x: mint.max(x, 2),
    lambda x: mint.softmax(x, 2), lambda x: mint.roll(x, 1, 2)])
def test_dim_out_of_range_is_a_value_error(backend, call):  # noqa: F811
    with pytest.raises(ValueError, match="out of range"):
        call(as_input(backend, X))
    with pytest.raises(ValueError, match="out of range"):   # checked before the type
        mint.max(as_input(backend, B), 2)
    with pytest.raises(ValueError, match="out of range"):   # a 0-d input takes 0 and -1 only
        mint.min(as_input(backend, np.float32(1.0)), 1)


def test_arithmetic_types_as_mindspore(backend):  # noqa: F811
    b, i = as_input(backend, B[0]), as_input(backend, np.array([1, 2, 3], np.int32))
    # MindSpore 2.10: bool (3,) * float64 () float64, * float16 () float16; int32 / float64
    assert kind(mint.mul(b, as_input(backend, np.array(2.0)))) == "float64"
    assert kind(mint.mul(b, as_input(backend, np.array(2.0, np.float16)))) == "float16"
    assert kind(mint.div(i, as_input(backend, np.array(2.0)))) == "float64"
    assert kind(mint.fmod(i, as_input(backend, np.array(2.0)))) == "float64"
    with pytest.raises(TypeError, match="other"):       # float32 with float64: LogAddExp
        mint.logaddexp(as_input(backend, X), as_input(backend, np.array(2.0)))
    assert kind(mint.add(i, 2, alpha=2)) == "int32" and values(mint.add(i, 2, alpha=2)).tolist() \
        == [5, 6, 7]
    with pytest.raises(TypeError, match="floating alpha"):
        mint.sub(i, 2, alpha=0.5)
    assert kind(mint.add(i, 2.5, alpha=0.5)) == "float32"


def test_layer_types_as_mindspore(backend):  # noqa: F811
    x = as_input(backend, np.ones((1, 2, 3, 4), np.int64))
    with pytest.raises(TypeError):                  # MindSpore 2.10: UpsampleNearest2D
        mint.nn.Upsample(scale_factor=2.0)(x)
    with pytest.raises(TypeError):                  # AdaptiveMaxPool2D
        mint.nn.AdaptiveMaxPool2d(2)(x)
    assert values(mint.nn.functional.interpolate(as_input(backend, np.ones(
        (1, 2, 3, 4), np.uint8)), scale_factor=2.0)).shape == (1, 2, 6, 8)
    with pytest.raises(TypeError, match="types must be the same"):
        F.group_norm(as_input(backend, np.ones((2, 4, 3))), 2, as_input(
            backend, np.ones(4, np.float32)))
    with pytest.raises(ValueError, match="channel"):    # shapes before types (MindSpore's)
        F.group_norm(as_input(backend, np.ones((2, 3, 3), np.float16)), 1, as_input(
            backend, np.ones(4, np.float32)))
    three = as_input(backend, np.ones((2, 4, 3), np.float32))      # eval: any rank
    assert values(mint.nn.Dropout2d(0.3)(three)).tolist() == values(three).tolist()
    assert values(mint.nn.Upsample(None, 3.0)(as_input(backend, X[None, None]))).shape == (
        1, 1, 6, 9)
