"""Tensor arithmetic used in custom `construct` code: values and gradients."""
import subprocess
import sys

import numpy as np
import pytest

from training.tensor import Tensor, grad_of, no_grad

R = np.random.default_rng(0)


def _numeric_grad(fn, arr, eps=1e-6):
    grad = np.zeros_like(arr)
    for idx in np.ndindex(arr.shape):
        old = arr[idx]
        arr[idx] = old + eps
        up = fn()
        arr[idx] = old - eps
        down = fn()
        arr[idx] = old
        grad[idx] = (up - down) / (2 * eps)
    return grad


@pytest.mark.parametrize("expr", [
    lambda a, b: (a + b * 2.0 - a / (b * b + 1.0)).sum(),
    lambda a, b: (a @ b.T).mean(),
    lambda a, b: (a[1:, :2] * b[:2, 2:]).sum(),
    lambda a, b: (a.reshape(6, 2).transpose() @ b.reshape(6, 2)).sum(),
    lambda a, b: ((a - b) ** 2).sum(axis=1).mean(),
    lambda a, b: (a.exp() + (b * b + 1.0).log() - a.abs()).sum(),
    lambda a, b: (-a + 3.0 - b).sum(),
])
def test_arithmetic_gradients(expr):
    a = Tensor(R.standard_normal((3, 4)), requires_grad=True)
    b = Tensor(R.standard_normal((3, 4)), requires_grad=True)
    ga, gb = grad_of(expr(a, b), [a, b])
    np.testing.assert_allclose(ga, _numeric_grad(lambda: float(expr(a, b).data), a.data), atol=1e-6)
    np.testing.assert_allclose(gb, _numeric_grad(lambda: float(expr(a, b).data), b.data), atol=1e-6)


def test_broadcast_gradient_is_summed_back():
    a = Tensor(R.standard_normal((4, 3)), requires_grad=True)
    bias = Tensor(R.standard_normal((3,)), requires_grad=True)
    (gb,) = grad_of((a + bias).sum(), [bias])
    np.testing.assert_allclose(gb, np.full(3, 4.0))


def test_a_tensor_used_twice_accumulates():
    a = Tensor(np.array([2.0]), requires_grad=True)
    (ga,) = grad_of(a * a + a, [a])
    assert ga[0] == pytest.approx(5.0)


def test_no_grad_records_nothing():
    a = Tensor(np.ones(3), requires_grad=True)
    with no_grad():
        out = a * 2.0
    assert out._backward is None


def test_python_floats_become_float32():
    assert Tensor(1.5).dtype == np.float32 and Tensor([1.0, 2.0]).dtype == np.float32
    assert Tensor(np.zeros(2)).dtype == np.float64


def test_importing_training_imports_neither_minddata_nor_torch():
    code = "import sys, training; print('minddata' in sys.modules, 'torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_from_numpy_shares_memory():
    # mindspore.Tensor.from_numpy: a Tensor over the array's memory (MindSpore's suite builds
    # encode_jpeg / encode_png inputs with it); anything else is a TypeError.
    array = np.zeros((2, 3), np.float64)
    tensor = Tensor.from_numpy(array)
    array[0, 0] = 5
    assert tensor.asnumpy()[0, 0] == 5 and tensor.dtype == np.float64 and tensor.shape == (2, 3)
    with pytest.raises(TypeError, match="Expected a NumPy array"):
        Tensor.from_numpy([1, 2])
