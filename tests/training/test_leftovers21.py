"""Small behaviours measured in MindSpore 2.10, on both backends where a tensor is involved."""
import numpy as np
import pytest

import training as ms
from training import nn, ops
from tests.training.both_backends import as_input, backend, values  # noqa: F401

X = np.arange(6, dtype=np.float32).reshape(2, 3)


def log_softmax_calls(axis):
    return [lambda x: nn.LogSoftmax(axis)(x), lambda x: ops.log_softmax(x, axis),
            lambda x: ops.LogSoftmax(axis)(x)]


# MindSpore 2.10: "Failed calling LogSoftmax with LogSoftmax(axis=Tuple<int>)": a TypeError for
# any tuple, even of one axis (Softmax takes tuples), raised when called, not when built
@pytest.mark.parametrize("axis", [(1,), (0, 1), (), [1], 1.0, True, None])
def test_log_softmax_axis_must_be_an_int(backend, axis):
    for call in log_softmax_calls(axis):
        with pytest.raises(TypeError):
            call(as_input(backend, X))


def test_log_softmax_axis_out_of_range_is_a_value_error(backend):
    for call in log_softmax_calls(2):
        with pytest.raises(ValueError, match=r"\[-2,2\)"):
            call(as_input(backend, X))


def test_log_softmax_int_axis(backend):
    expected = X - np.log(np.exp(X).sum(axis=0, keepdims=True))
    for call in log_softmax_calls(0) + log_softmax_calls(-2):
        np.testing.assert_allclose(values(call(as_input(backend, X))), expected, rtol=1e-6)
    assert ms.ops.LogSoftmax((1,)).axis == (1,)


def _optimizers(params, schedule):
    """(name, optimizer, MindSpore 2.10's dynamic_weight_decay)."""
    def groups(**first):
        return [dict(params=[params[0]], **first), dict(params=[params[1]])]
    return [
        ("no decay", nn.Momentum(params, 0.1, 0.9), False),
        ("float decay", nn.Momentum(params, 0.1, 0.9, weight_decay=0.01), False),
        ("int decay", nn.SGD(params, 0.1, weight_decay=0), False),
        ("schedule", nn.Momentum(params, 0.1, 0.9, weight_decay=schedule), True),
        ("schedule, AdamWeightDecay", nn.AdamWeightDecay(params, 0.1, weight_decay=schedule),
         True),
        ("FTRL", nn.FTRL(params, weight_decay=0.1), False),
        ("groups", nn.Momentum(groups(), 0.1, 0.9), False),
        ("groups, float decay", nn.Momentum(groups(weight_decay=0.01), 0.1, 0.9), False),
        ("groups, a schedule in one", nn.Momentum(groups(weight_decay=schedule), 0.1, 0.9), True),
        ("groups all fixed, schedule given", nn.Momentum(
            [dict(params=[params[0]], weight_decay=0.1), dict(params=[params[1]], weight_decay=0.0)],
            0.1, 0.9, weight_decay=schedule), True),
        ("groups, a learning rate schedule", nn.Momentum(groups(lr=schedule), 0.1, 0.9), False),
        ("LARS of a schedule", nn.LARS(nn.Momentum(params, 0.1, 0.9, weight_decay=schedule)), True),
        ("LARS", nn.LARS(nn.Momentum(params, 0.1, 0.9, weight_decay=0.1)), False),
    ]


def test_dynamic_weight_decay():
    params = nn.Dense(3, 2).trainable_params()
    for name, optimizer, expected in _optimizers(params, nn.ExponentialDecayLR(0.1, 0.9, 4)):
        assert optimizer.dynamic_weight_decay is expected, name


# MindSpore 2.10's result types of (tensor of `kind`, 0-d float tensor of `scalar`), both orders
# (fmod: (tensor, 0-d) first, then (0-d, tensor)): a 0-d float gives its type to a bool or
# integer tensor (as add does), but does not widen a float tensor in mul, div and fmod(x, 0-d)
TYPES = [
    ("bool", "float64", "float64", "float64", ("float64", "float64")),
    ("int32", "float64", "float64", "float64", ("float64", "float64")),
    ("int64", "float16", "float16", "float16", ("float16", "float16")),
    ("uint8", "float32", "float32", "float32", ("float32", "float32")),
    ("float16", "float64", "float64", "float16", ("float16", "float64")),
    ("float16", "float32", "float32", "float16", ("float16", "float32")),
    ("float32", "float64", "float64", "float32", ("float32", "float64")),
    ("float32", "float16", "float32", "float32", ("float32", "float32")),
]


@pytest.mark.parametrize("kind, scalar, additive, multiplicative, fmod_types", TYPES)
def test_result_type_beside_a_0d_float_tensor(backend, kind, scalar, additive, multiplicative,
                                              fmod_types):
    tensor = as_input(backend, np.array([1, 0, 1] if kind == "bool" else [3, 4, 5], kind))
    zero_d = as_input(backend, np.array(2.5, scalar))

    def dtype(out):
        return str(values(out).dtype)
    for function, expected in ((ops.add, additive), (ops.sub, additive),
                               (ops.mul, multiplicative), (ops.div, multiplicative)):
        assert dtype(function(tensor, zero_d)) == dtype(function(zero_d, tensor)) == expected
    assert (dtype(ops.fmod(tensor, zero_d)), dtype(ops.fmod(zero_d, tensor))) == fmod_types


def test_values_beside_a_0d_float64_tensor(backend):
    tensor = as_input(backend, np.array([3, 4, 5], np.int32))
    zero_d = as_input(backend, np.array(2.5, np.float64))
    np.testing.assert_array_equal(values(ops.mul(tensor, zero_d)), [7.5, 10.0, 12.5])
    np.testing.assert_array_equal(values(ops.div(tensor, zero_d)), [1.2, 1.6, 2.0])
    np.testing.assert_array_equal(values(ops.fmod(tensor, zero_d)), [0.5, 1.5, 0.0])
