"""training.ops's indexing, shape and creation ops on both backends: values, dtypes and
gradients as measured in MindSpore 2.10 (tests/training/ops_measured.py), and their argument
errors."""
import numpy as np
import pytest

from training import ops

from tests.training.ops_calls import array_calls
from tests.training.test_ops_math import check_measured, make  # noqa: F401  (the fixture)


def test_arrays_as_measured(make):  # noqa: F811
    assert check_measured(array_calls, make) == 34


def values(out):
    return out.asnumpy() if hasattr(out, "asnumpy") else out.detach().numpy()


def test_einsum_and_its_gradient(make):  # noqa: F811
    """(MindSpore 2.10 has no CPU Einsum kernel: numpy's einsum is the reference.)"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    assert np.allclose(values(ops.einsum("ij,jk->ik", make(a), make(b))), a @ b)
    assert np.allclose(values(ops.einsum("ij->", make(a))), a.sum())
    grad_a, grad_b = ops.grad(lambda x, y: ops.einsum("ij,jk", x, y).sum(), (0, 1))(
        make(a), make(b))
    assert np.allclose(values(grad_a), np.ones((2, 4)) @ b.T)
    assert np.allclose(values(grad_b), a.T @ np.ones((2, 4)))


def test_data_movement_gradients_add_back_at_the_source(make):  # noqa: F811
    x = make(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert values(ops.grad(lambda t: ops.broadcast_to(t, (4, 2, 3)).sum())(x)).tolist() == \
        [[4.0] * 3] * 2
    assert values(ops.grad(lambda t: ops.roll(t, 1, 1)[0].sum())(x)).tolist() == \
        [[1.0] * 3, [0.0] * 3]
    assert values(ops.grad(lambda t: ops.masked_select(t, make(np.array([True, False, True])))
                           .sum())(x)).tolist() == [[1, 0, 1], [1, 0, 1]]


@pytest.mark.parametrize("call, error", [
    (lambda T: ops.gather_d(T(np.ones((2, 3), np.float32)), 1, T(np.array([[3]], np.int32))),
     RuntimeError),
    (lambda T: ops.gather_d(T(np.ones((2, 3), np.float32)), 1, T(np.array([[1.0]]))),
     TypeError),
    (lambda T: ops.gather_nd(T(np.ones((2, 3), np.float32)), T(np.array([[2, 0]], np.int32))),
     RuntimeError),
    (lambda T: ops.broadcast_to(T(np.ones((2, 3), np.float32)), (3, 3)), ValueError),
    (lambda T: ops.flip(T(np.ones(3, np.float32)), 0), TypeError),
    (lambda T: ops.tril(T(np.ones(3, np.float32))), ValueError),
    (lambda T: ops.pad(T(np.ones((2, 3), np.float32)), (1, 1, 1, 1), mode="reflect"),
     ValueError),
    (lambda T: ops.pad(T(np.ones((2, 3), np.float32)), (1,)), ValueError),
    (lambda T: ops.narrow(T(np.ones((2, 3), np.float32)), 1, 1, 0), ValueError),
    (lambda T: ops.masked_fill(T(np.ones(3, np.float32)), T(np.ones(3, np.int32)), 0.0),
     TypeError),
    (lambda T: ops.meshgrid(T(np.ones(3, np.float32)), T(np.ones(2, np.float32)),
                            indexing="xyz"), ValueError),
    (lambda T: ops.Slice()(T(np.ones((2, 3), np.float32)), (0, 2), (1, 2)), ValueError),
])
def test_refused_as_mindspore_refuses(make, call, error):  # noqa: F811
    with pytest.raises(error):
        call(make)


def test_sum_and_mean_over_every_axis_keep_dims_on_torch_tensors():
    """ops.sum(x, keepdim=True) / ops.mean(x, keep_dims=True) over every axis keep the rank, as
    MindSpore 2.10's ((2, 3) -> (1, 1), measured); torch's x.sum() dropped keepdim."""
    torch = pytest.importorskip("torch")
    x = torch.ones(2, 3)
    assert tuple(ops.sum(x, keepdim=True).shape) == (1, 1)
    assert tuple(ops.mean(x, keep_dims=True).shape) == (1, 1)
    assert tuple(ops.sum(x).shape) == () and float(ops.mean(x)) == 1.0
