"""training.mint (= mindspore.mint) on both backends; expected values and types measured in
MindSpore 2.10 (its CPU build; where it lacks a kernel, torch's documented result)."""
import numpy as np
import pytest

import training
from tests.training.both_backends import as_input, backend, values  # noqa: F401
from training import mint
from training.mint import nn
from training.mint.nn import functional as F

X = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
I = np.array([[1, -2, 3], [0, 4, -1]], np.int32)


def kind(t):
    return str(t.dtype).replace("torch.", "")


def test_types_and_values_as_mindspore(backend):  # noqa: F811
    x, i = as_input(backend, X), as_input(backend, I)
    assert kind(mint.sum(i)) == "int64" and values(mint.sum(i)) == 5        # MindSpore: Int64 5
    assert values(mint.sum(x, 1, True)).tolist() == [[2.5], [3.5]]
    assert kind(mint.prod(i)) == "int64"
    assert kind(mint.mean(i)) == "int32" and values(mint.mean(i)) == 0      # MindSpore: Int32 0
    values_, indices = mint.max(x, 1)
    assert values(values_).tolist() == [3.0, 4.0] and values(indices).tolist() == [2, 1]
    assert kind(indices) == "int64"
    assert values(mint.add(x, 2, alpha=3)).tolist() == [[7.5, 4.0, 9.0], [6.5, 10.0, 5.0]]
    assert kind(mint.add(i, 2.5)) == "float32"
    assert kind(mint.div(i, i)) == "float32"
    assert values(mint.clamp(i, 0.5)).tolist() == [[1.0, 0.5, 3.0], [0.5, 4.0, 0.5]]
    assert values(mint.cumprod(i, 0)).tolist() == [[1, -2, 3], [0, -8, -3]]
    assert kind(mint.cumprod(i, 0)) == "int64"
    assert values(mint.gather(x, 1, as_input(backend, np.array([[0, 0], [1, 2]])))).tolist() \
        == [[1.5, 1.5], [4.0, -1.0]]
    assert [values(p).shape for p in mint.split(x, [1, 2], 1)] == [(2, 1), (2, 2)]
    assert values(mint.narrow(x, 1, 1, 2)).tolist() == [[-2.0, 3.0], [4.0, -1.0]]
    scattered = mint.scatter(x, 1, as_input(backend, np.array([[0], [2]])), 5.0)
    assert values(scattered).tolist() == [[5.0, -2.0, 3.0], [0.5, 4.0, 5.0]]
    cmax, where = mint.cummax(x, 1)
    assert values(cmax).tolist() == [[1.5, 1.5, 3.0], [0.5, 4.0, 4.0]]
    assert values(where).tolist() == [[0, 0, 2], [0, 1, 1]]
    assert values(mint.diff(x)).tolist() == [[-3.5, 5.0], [3.5, -5.0]]
    assert values(mint.nonzero(i)).tolist() == [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2]]
    np.testing.assert_allclose(values(mint.softmax(x, 1))[0],
                               [0.18142602, 0.00547859, 0.81309533], rtol=1e-5)
    assert mint.allclose(x, x) is True


def test_checks_as_mindspore(backend):  # noqa: F811
    x, i = as_input(backend, X), as_input(backend, I)
    with pytest.raises(ValueError, match="at least one of 'min' or 'max'"):
        mint.clamp(x)
    with pytest.raises(TypeError):
        mint.softmax(i, 1)
    with pytest.raises(TypeError, match="MatMulExt"):
        mint.matmul(x, mint.t(i))
    with pytest.raises(RuntimeError, match="negative integer powers"):
        mint.pow(i, -1)
    with pytest.raises(ValueError, match="keep_dims can only set to false"):
        mint.prod(x, None, True)


def test_torch_style_functions_mindspore_cpu_lacks(backend):  # noqa: F811
    x = as_input(backend, X)
    assert kind(mint.arange(5)) == "int64" and kind(mint.arange(0, 1, 0.5)) == "float32"
    top, where = mint.topk(x, 2)
    assert values(top).tolist() == [[3.0, 1.5], [4.0, 0.5]] and kind(where) == "int64"
    assert values(mint.sort(x, dim=1, descending=True)[0])[0].tolist() == [3.0, 1.5, -2.0]
    assert values(mint.argmax(x, 1)).tolist() == [2, 1]
    np.testing.assert_allclose(values(mint.std(x, 1)), np.std(X, 1, ddof=1), rtol=1e-6)
    assert values(mint.repeat_interleave(x, 2, 1)).shape == (2, 6)
    assert values(mint.tril(x)).tolist() == [[1.5, 0.0, 0.0], [0.5, 4.0, 0.0]]
    assert kind(mint.full((2,), 2)) == "int64"


def test_gradients_flow(backend):  # noqa: F811
    x = as_input(backend, X)
    grad = training.ops.grad(lambda v: mint.sum(mint.gather(v, 1, as_input(
        backend, np.array([[0, 0], [1, 2]])))))(x)
    assert values(grad).tolist() == [[2.0, 0.0, 0.0], [0.0, 1.0, 1.0]]


def test_layers_have_mindspore_parameter_names(backend):  # noqa: F811
    names = lambda cell: [(p.name, tuple(p.shape)) for p in cell.get_parameters()]  # noqa: E731
    assert names(nn.Linear(4, 3)) == [("weight", (3, 4)), ("bias", (3,))]
    assert names(nn.BatchNorm2d(3)) == [("weight", (3,)), ("bias", (3,)), ("running_mean", (3,)),
                                        ("running_var", (3,)), ("num_batches_tracked", ())]
    assert names(nn.ConvTranspose2d(2, 4, 3)) == [("weight", (2, 4, 3, 3)), ("bias", (4,))]
    assert names(nn.PReLU())[0] == ("weight", (1,))
    x = as_input(backend, np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32))
    assert values(nn.Linear(4, 3)(x)).shape == (2, 3)
    out = values(nn.LayerNorm(4)(x))
    np.testing.assert_allclose(out.mean(1), 0, atol=1e-6)
    assert values(nn.Conv2d(2, 4, 3, padding=1)(as_input(backend, np.ones((1, 2, 5, 5),
                                                                          np.float32)))).shape \
        == (1, 4, 5, 5)
    # MindSpore 2.10: BCEWithLogitsLoss of logits x against zeros, SmoothL1Loss, GroupNorm
    logits = as_input(backend, X)
    np.testing.assert_allclose(values(F.binary_cross_entropy_with_logits(logits, logits * 0)),
                               np.mean(np.log1p(np.exp(X))), rtol=1e-5)
    assert values(nn.GroupNorm(2, 4)(as_input(backend, np.ones((2, 4, 3), np.float32)))).shape \
        == (2, 4, 3)


def test_adamw_state_names_and_step():
    w = training.Parameter(training.Tensor(np.array([1.0, -2.0, 3.0], np.float32)), name="w")
    optimizer = mint.optim.AdamW([w], lr=0.1)
    assert [p.name for p in optimizer.get_parameters()] == ["exp_avg.w", "exp_avg_sq.w",
                                                            "state_step"]
    optimizer((training.Tensor(np.array([0.5, -1.0, 0.25], np.float32)),))
    # torch's AdamW: decay lr * 0.01, then lr * sign(g) for a first step
    np.testing.assert_allclose(w.asnumpy(), [0.899, -1.898, 2.897], rtol=1e-6)
    assert [p.name for p in mint.optim.SGD([w], lr=0.1, momentum=0.9).get_parameters()] == [
        "momentum_buf.w", "step_t"]


def test_compat_maps_mindspore_mint():
    from training import compat
    compat.install()
    try:
        import mindspore.mint.nn.functional as functional
        from mindspore import mint as mapped
        assert mapped is mint and functional is F
    finally:
        compat.uninstall()
