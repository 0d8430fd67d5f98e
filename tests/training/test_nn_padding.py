"""ConstantPad/ZeroPad/ReflectionPad/ReplicationPad 1d-3d on both backends: values and errors
measured in MindSpore 2.10, gradients summed back at each element's source."""
import numpy as np
import pytest

import training as ms
from training import nn

from tests.training.both_backends import as_input, backend, values  # noqa: F401

A = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("layer, shape, first_row", [
    (nn.ConstantPad1d((-1, 2), 0.5), (2, 3, 5), [1, 2, 3, 0.5, 0.5]),
    (nn.ConstantPad1d((1, -2), 0.5), (2, 3, 3), [0.5, 0, 1]),
    (nn.ConstantPad2d((0, 0, -1, 1), 0.5), (2, 3, 4), [4, 5, 6, 7]),
    (nn.ConstantPad3d((1, 0, 0, 1), 0.5), (2, 4, 5), [0.5, 0, 1, 2, 3]),
    (nn.ZeroPad2d(-1), (2, 1, 2), [5, 6]),
    (nn.ReflectionPad1d((1, 2)), (2, 3, 7), [1, 0, 1, 2, 3, 2, 1]),
    (nn.ReflectionPad2d((1, 0, 2, 1)), (2, 6, 5), [9, 8, 9, 10, 11]),
    (nn.ReplicationPad1d((-1, 2)), (2, 3, 5), [1, 2, 3, 3, 3]),
    (nn.ReplicationPad2d((1, -1, 0, 0)), (2, 3, 4), [0, 0, 1, 2]),
])
def test_values_as_mindspore(backend, layer, shape, first_row):
    out = values(layer(as_input(backend, A)))
    assert out.shape == shape
    np.testing.assert_allclose(out[0, 0], first_row)


def test_integer_input_keeps_its_dtype():
    out = nn.ConstantPad1d(1, 0.5)(ms.Tensor(np.ones((2, 3), np.int32)))
    assert out.dtype == np.int32 and out.asnumpy()[0].tolist() == [0, 1, 1, 1, 0]


def test_gradient_goes_back_to_each_source(backend):
    x = as_input(backend, A[0, :1])     # [[0, 1, 2, 3]]
    _, grad = ms.value_and_grad(lambda v: nn.ReflectionPad1d((2, 1))(v).sum())(x)
    assert values(grad).tolist() == [[1, 2, 3, 1]]     # (2 1 | 0 1 2 3 | 2)
    _, grad = ms.value_and_grad(lambda v: nn.ReplicationPad1d((-1, 2))(v).sum())(x)
    assert values(grad).tolist() == [[0, 1, 1, 3]]


@pytest.mark.parametrize("make, error", [
    (lambda x: nn.ConstantPad1d((1, 2, 3), 0.5), ValueError),
    (lambda x: nn.ConstantPad1d(1.0, 0.5), TypeError),
    (lambda x: nn.ConstantPad1d(1, "a"), TypeError),
    (lambda x: nn.ConstantPad2d(1, 0.5)(x[0, 0]), ValueError),
    (lambda x: nn.ReflectionPad1d((-1, 1)), ValueError),
    (lambda x: nn.ReflectionPad1d(4)(x), ValueError),     # not below the axis' size
    (lambda x: nn.ReplicationPad3d(1)(x), ValueError),    # 3 axes: an unbatched 2-D volume
    (lambda x: nn.ReplicationPad2d((2, 2))(x), ValueError),     # one pair needs 3 axes
    (lambda x: nn.ConstantPad2d((-1, -1, 0, -1), 1.0)(x[:, :, :2]), ValueError),    # empty
])
def test_errors_as_mindspore(backend, make, error):
    with pytest.raises(error):
        make(as_input(backend, A))
