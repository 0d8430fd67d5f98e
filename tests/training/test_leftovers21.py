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
