"""Every `ops` primitive gives the same values on torch tensors as on numpy-backend Tensors,
and its gradient reaches torch's autograd where it has one."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import training as ms  # noqa: E402
from training import Tensor, ops  # noqa: E402
from training.ops import operations as P  # noqa: E402

RNG = np.random.default_rng(0)
A = RNG.standard_normal((2, 3, 4)).astype(np.float32)
B = RNG.standard_normal((2, 3, 4)).astype(np.float32)
M = RNG.standard_normal((3, 4)).astype(np.float32)
N = RNG.standard_normal((5, 4)).astype(np.float32)
IDX = np.array([2, 0], np.int32)

# (name, primitive call taking the converted arrays, the arrays)
CASES = [
    ("Cast", lambda a: P.Cast()(a, ms.float16), [A]),
    ("Reshape", lambda a: P.Reshape()(a, (6, 4)), [A]),
    ("Flatten", lambda a: P.Flatten()(a), [A]),
    ("Transpose", lambda a: P.Transpose()(a, (2, 0, 1)), [A]),
    ("ExpandDims", lambda a: P.ExpandDims()(a, 1), [A]),
    ("Squeeze", lambda a: P.Squeeze(1)(P.ExpandDims()(a, 1)), [A]),
    ("Tile", lambda a: P.Tile()(a, (1, 2, 1)), [A]),
    ("Concat", lambda a, b: P.Concat(1)((a, b)), [A, B]),
    ("Stack", lambda a, b: P.Stack(-1)((a, b)), [A, B]),
    ("Split", lambda a: P.Split(2, 2)(a)[1], [A]),
    ("Gather", lambda a, i: P.Gather()(a, i, 2), [A, IDX]),
    ("OneHot", lambda i: P.OneHot()(i, 4, Tensor(np.float32(1)), Tensor(np.float32(0))), [IDX]),
    ("MatMul", lambda m, n: P.MatMul(transpose_b=True)(m, n), [M, N]),
    ("BatchMatMul", lambda a, b: P.BatchMatMul(transpose_b=True)(a, b), [A, B]),
    ("ReduceSum", lambda a: P.ReduceSum(keep_dims=True)(a, (0, 2)), [A]),
    ("ReduceMean", lambda a: P.ReduceMean()(a, 1), [A]),
    ("ReduceMax", lambda a: P.ReduceMax()(a, 2), [A]),
    ("ReduceMin", lambda a: P.ReduceMin()(a), [A]),
    ("Argmax", lambda a: P.Argmax()(a), [A]),
    ("Softmax", lambda a: P.Softmax(1)(a), [A]),
    ("LogSoftmax", lambda a: P.LogSoftmax()(a), [A]),
    ("Sigmoid", lambda a: P.Sigmoid()(a), [A]),
    ("ReLU", lambda a: P.ReLU()(a), [A]),
    ("Tanh", lambda a: P.Tanh()(a), [A]),
    ("Exp", lambda a: P.Exp()(a), [A]),
    ("Log", lambda a: P.Log()(P.Abs()(a) + 0.5), [A]),
    ("Sqrt", lambda a: P.Sqrt()(P.Square()(a) + 1.0), [A]),
    ("Neg", lambda a: P.Neg()(a), [A]),
    ("ZerosLike", lambda a: P.ZerosLike()(a), [A]),
    ("OnesLike", lambda a: P.OnesLike()(a), [A]),
    ("StopGradient", lambda a: P.StopGradient()(a), [A]),
    ("Add", lambda a, b: P.Add()(a, b), [A, B]),
    ("Sub", lambda a, b: P.Sub()(a, b), [A, B]),
    ("Mul", lambda a, b: P.Mul()(a, b), [A, B]),
    ("RealDiv", lambda a, b: P.RealDiv()(a, P.Abs()(b) + 1.0), [A, B]),
    ("Pow", lambda a: P.Pow()(P.Abs()(a), 1.5), [A]),
    ("Maximum", lambda a, b: P.Maximum()(a, b), [A, B]),
    ("Minimum", lambda a, b: P.Minimum()(a, b), [A, B]),
    ("Equal", lambda a, b: P.Equal()(a, a * (b > 0)), [A, B]),
    ("Greater", lambda a, b: P.Greater()(a, b), [A, B]),
    ("Less", lambda a, b: P.Less()(a, b), [A, B]),
    ("Select", lambda a, b: P.Select()(P.Greater()(a, b), a, b), [A, B]),
    ("Depend", lambda a, b: P.Depend()(a, b), [A, B]),
]


def _numpy(value):
    if isinstance(value, torch.Tensor):
        return value.detach().float().numpy() if value.dtype == torch.float16 else \
            value.detach().numpy()
    return np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)


@pytest.mark.parametrize("name,call,arrays", CASES, ids=[c[0] for c in CASES])
def test_primitive_on_torch_matches_numpy(name, call, arrays):
    expected = call(*[Tensor(a) for a in arrays])
    inputs = [torch.from_numpy(a.copy()) for a in arrays]
    got = call(*inputs)
    assert isinstance(got, torch.Tensor), f"{name} left torch: {type(got).__name__}"
    np.testing.assert_allclose(_numpy(got).astype(np.float64),
                               _numpy(expected).astype(np.float64), rtol=1e-5, atol=1e-6)


def test_gradients_flow_through_primitives():
    x = torch.from_numpy(A.copy()).requires_grad_(True)
    y = P.ReduceSum()(P.Mul()(P.Tile()(P.Softmax()(x), (1, 1, 2)), 3.0))
    (grad,) = torch.autograd.grad(y, [x])
    np.testing.assert_allclose(grad.numpy(), np.zeros_like(A), atol=1e-5)  # softmax rows sum to 1
    z = P.ReduceSum()(P.Square()(P.Gather()(x, torch.from_numpy(IDX), 2)))
    (grad,) = torch.autograd.grad(z, [x])
    expected = np.zeros_like(A)
    expected[..., IDX] = 2 * A[..., IDX]
    np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-6)
    assert ops.Shape()(x) == (2, 3, 4)
