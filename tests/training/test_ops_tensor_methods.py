"""MindSpore's Tensor methods that apply an ops function to the tensor, on numpy-backend
Tensors (torch tensors have their own): values as measured in MindSpore 2.10 on
[[1, 2], [3, 4]] (float32)."""
import numpy as np
import pytest

import training
from training import Tensor, ops

X = np.array([[1., 2.], [3., 4.]], np.float32)


@pytest.mark.parametrize("call, expected", [
    (lambda x: x.cumsum(), [1, 3, 6, 10]),
    (lambda x: x.cumsum(1), [[1, 3], [3, 7]]),
    (lambda x: x.std(), 1.118034),
    (lambda x: x.var(0, ddof=1), [2, 2]),
    (lambda x: x.logsumexp(1), [2.3132613, 4.313261]),
    (lambda x: ops.var(x, 1, 1, True), [[0.5], [0.5]]),
    (lambda x: x.where(x > 2, 0.0), [[0, 0], [3, 4]]),
    (lambda x: x.clip(1.5, 3.0), [[1.5, 2], [3, 3]]),
    (lambda x: x.prod(1), [2, 12]),
    (lambda x: x.permute(1, 0), [[1, 3], [2, 4]]),
    (lambda x: x.swapaxes(0, 1), [[1, 3], [2, 4]]),
    (lambda x: x.repeat_interleave(2, 0), [[1, 2], [1, 2], [3, 4], [3, 4]]),
    (lambda x: x.tile((2,)), [[1, 2, 1, 2], [3, 4, 3, 4]]),
])
def test_methods_as_measured(call, expected):
    np.testing.assert_allclose(call(Tensor(X)).asnumpy(), expected, rtol=1e-6)


@pytest.fixture(autouse=True)
def numpy_backend():
    """(ops.grad of Tensors follows the backend: on torch the methods would be torch's.)"""
    training.set_backend("numpy")
    yield
    training.set_backend(None)


def test_types_sizes_and_gradients():
    x = Tensor(X)
    assert (x.float().dtype, x.long().dtype, x.half().dtype) == (np.float32, np.int64, np.float16)
    assert (x.dim(), x.numel(), x.unsqueeze(0).shape, x.ravel().shape) == (2, 4, (1, 2, 2), (4,))
    grad = ops.grad(lambda t: t.logsumexp(1).sum() + t.sin().sum() + t.std())(x)
    rows = np.exp(X) / np.exp(X).sum(1, keepdims=True)
    centred = (X - X.mean()) / (X.size * X.std())
    np.testing.assert_allclose(grad.asnumpy(), rows + np.cos(X) + centred, rtol=1e-5)
