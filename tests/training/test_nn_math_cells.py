"""nn.Norm, nn.OneHot, nn.Range and nn.MatMul on both backends, values measured in MindSpore
2.10."""
import numpy as np
import pytest

import training as ms
from training import nn

from tests.training.both_backends import as_input, backend, values  # noqa: F401

A = np.arange(6, dtype=np.float32).reshape(2, 3) - 2


def test_norm(backend):
    x = as_input(backend, A)
    np.testing.assert_allclose(values(nn.Norm()(x)), 4.3589, atol=1e-4)
    np.testing.assert_allclose(values(nn.Norm(1)(x)), [2.2361, 3.7417], atol=1e-4)
    assert values(nn.Norm((0, 1), True)(x)).shape == (1, 1)
    assert values(nn.Norm()(as_input(backend, np.array([3, 4])))) == np.float32(5.0)
    _, grad = ms.value_and_grad(lambda v: nn.Norm()(v))(x)
    np.testing.assert_allclose(values(grad), A / np.sqrt((A * A).sum()), rtol=1e-5)
    with pytest.raises(TypeError):
        nn.Norm(1.0)


def test_one_hot(backend):
    out = values(nn.OneHot(depth=3)(as_input(backend, np.array([0, 2, -1, 3], np.int32))))
    assert out.tolist() == [[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]]
    out = nn.OneHot(axis=0, depth=3, on_value=5.0, off_value=-1.0)(
        as_input(backend, np.array([[0, 2]], np.int32)))
    assert values(out).shape == (3, 1, 2) and values(out).ravel()[:3].tolist() == [5, -1, -1]
    assert "int32" in str(nn.OneHot(depth=3, dtype=ms.int32)(
        as_input(backend, np.array([0, 2], np.int32))).dtype)
    with pytest.raises(TypeError):
        nn.OneHot(depth=3)(as_input(backend, np.array([0.0, 2.0])))


def test_range_and_matmul(backend):
    assert nn.Range(5)().asnumpy().tolist() == [0, 1, 2, 3, 4]
    assert nn.Range(1, 2.5, 0.5)().asnumpy().dtype == np.float32
    assert nn.Range(5, 1, -2)().asnumpy().tolist() == [5, 3]
    with pytest.raises(ValueError):
        nn.Range(1, 5, 0)
    x = as_input(backend, A)
    out = values(nn.MatMul(True, True)(x, as_input(backend, np.ones((4, 2), np.float32))))
    assert out.shape == (3, 4) and out[0, 0] == -1
    out = nn.MatMul()(as_input(backend, np.ones((2, 2, 3), np.float32)),
                      as_input(backend, np.ones((3, 2), np.float32)))
    assert values(out).shape == (2, 2, 2)
