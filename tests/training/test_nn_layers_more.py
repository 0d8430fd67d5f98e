"""Layers added for model-zoo code, against torch's equivalents (values and gradients)."""
import numpy as np
import pytest

import training as ms
from training import nn
from training.tensor import Tensor

torch = pytest.importorskip("torch")
R = np.random.default_rng(0)
# the numpy backend against torch (a Tensor alone runs on torch where torch is installed)
pytestmark = pytest.mark.usefixtures("numpy_backend")


def _compare(layer, torch_fn, x, params=(), rtol=1e-4, atol=1e-5):
    """Forward values, input gradient and each (layer param, torch param) gradient agree."""
    y = layer(Tensor(x))
    weights = R.standard_normal(y.shape).astype(np.float32)
    loss_fn = lambda t: (layer(t) * Tensor(weights)).sum()  # noqa: E731
    if params:
        _, (gx, gp) = ms.value_and_grad(loss_fn, 0, [p for p, _ in params])(Tensor(x))
    else:
        _, gx = ms.value_and_grad(loss_fn, 0)(Tensor(x))
        gp = ()
    tx = torch.from_numpy(x).requires_grad_(True)
    ty = torch_fn(tx)
    (ty * torch.from_numpy(weights)).sum().backward()
    np.testing.assert_allclose(y.asnumpy(), ty.detach().numpy(), rtol=rtol, atol=atol)
    np.testing.assert_allclose(gx.asnumpy(), tx.grad.numpy(), rtol=rtol, atol=atol)
    for g, (_, tp) in zip(gp, params):
        np.testing.assert_allclose(g.asnumpy(), tp.grad.numpy(), rtol=rtol, atol=atol)


def _tp(array):
    return torch.nn.Parameter(torch.from_numpy(np.array(array.asnumpy())))


@pytest.mark.parametrize("pad_mode, padding, output_padding, torch_padding", [
    ("valid", 0, 0, 0), ("pad", 1, 1, 1), ("same", 0, 0, None)])
def test_conv2d_transpose(pad_mode, padding, output_padding, torch_padding):
    layer = nn.Conv2dTranspose(3, 4, 4, stride=2, pad_mode=pad_mode, padding=padding,
                               output_padding=output_padding, has_bias=True)
    w, b = _tp(layer.weight), _tp(layer.bias)
    x = R.standard_normal((2, 3, 5, 6)).astype(np.float32)
    if torch_padding is None:  # 'same': H * stride, cropping (k - stride) = 2 -> 1 each side
        fn = lambda t: torch.nn.functional.conv_transpose2d(t, w, b, stride=2, padding=1)  # noqa
        assert layer(Tensor(x)).shape == (2, 4, 10, 12)
    else:   # MindSpore's output_padding: rows and columns of zeros (torch's has values there)
        fn = lambda t: torch.nn.functional.pad(torch.nn.functional.conv_transpose2d(  # noqa
            t, w, b, stride=2, padding=torch_padding), (0, output_padding, 0, output_padding))
    _compare(layer, fn, x, [(layer.weight, w), (layer.bias, b)])


def test_conv1d():
    layer = nn.Conv1d(3, 4, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
    assert layer.weight.shape == (4, 3, 1, 3)  # MindSpore's shape
    w, b = _tp(layer.weight), _tp(layer.bias)
    x = R.standard_normal((2, 3, 9)).astype(np.float32)
    _compare(layer, lambda t: torch.nn.functional.conv1d(t, w[:, :, 0], b, stride=2, padding=1), x,
             [(layer.weight, w), (layer.bias, b)])
    assert nn.Conv1d(3, 4, 3)(Tensor(x)).shape == (2, 4, 9)  # 'same'


def test_layer_norm_and_group_norm():
    x = R.standard_normal((2, 4, 3, 5)).astype(np.float32)
    ln = nn.LayerNorm((3, 5), begin_norm_axis=2, begin_params_axis=2)
    ln.gamma.set_data(R.standard_normal((3, 5)).astype(np.float32))
    g, b = _tp(ln.gamma), _tp(ln.beta)
    _compare(ln, lambda t: torch.nn.functional.layer_norm(t, (3, 5), g, b, eps=1e-7), x,
             [(ln.gamma, g), (ln.beta, b)])
    gn = nn.GroupNorm(2, 4)
    gn.gamma.set_data(R.standard_normal(4).astype(np.float32))
    g2, b2 = _tp(gn.gamma), _tp(gn.beta)
    _compare(gn, lambda t: torch.nn.functional.group_norm(t, 2, g2, b2, eps=1e-5), x,
             [(gn.gamma, g2), (gn.beta, b2)])
    with pytest.raises(ValueError, match="divisible"):
        nn.GroupNorm(3, 4)
    with pytest.raises(ValueError, match="LayerNorm"):
        ln(Tensor(np.ones((2, 3, 4), np.float32)))


def test_embedding():
    emb = nn.Embedding(10, 4, padding_idx=0)
    assert emb.embedding_table.shape == (10, 4) and (emb.embedding_table.asnumpy()[0] == 0).all()
    assert abs(nn.Embedding(1000, 50).embedding_table.asnumpy().std() - 0.01) < 1e-3
    ids = np.array([[1, 2, 1], [0, 9, 3]], np.int32)
    table = _tp(emb.embedding_table)
    out, grad = ms.value_and_grad(lambda i: emb(i).sum(), None, emb.embedding_table)(Tensor(ids))
    ref = torch.nn.functional.embedding(torch.from_numpy(ids).long(), table)
    ref.sum().backward()
    np.testing.assert_allclose(out.asnumpy(), ref.sum().item(), rtol=1e-5)
    np.testing.assert_allclose(grad.asnumpy(), table.grad.numpy())
    with pytest.raises(ValueError, match=r"ids must be in \[0, 10\)"):
        emb(Tensor(np.array([10])))


def test_adaptive_avg_pool_and_activations():
    x = R.standard_normal((2, 3, 7, 9)).astype(np.float32) * 4
    _compare(nn.AdaptiveAvgPool2d((3, 4)),
             lambda t: torch.nn.functional.adaptive_avg_pool2d(t, (3, 4)), x)
    _compare(nn.AdaptiveAvgPool2d(1), lambda t: torch.nn.functional.adaptive_avg_pool2d(t, 1), x)
    _compare(nn.ReLU6(), torch.nn.functional.relu6, x)
    _compare(nn.HSwish(), torch.nn.functional.hardswish, x)
    _compare(nn.HSigmoid(), torch.nn.functional.hardsigmoid, x)
    _compare(nn.LogSoftmax(axis=1), lambda t: torch.log_softmax(t, 1), x)
    prelu = nn.PReLU(3, w=0.1)
    assert prelu.w.name == "w"  # MindSpore lists and saves it as <cell>.w
    w = _tp(prelu.w)
    _compare(prelu, lambda t: torch.nn.functional.prelu(t, w), x, [(prelu.w, w)])


@pytest.mark.parametrize("mode, torch_mode", [("CONSTANT", "constant"), ("REFLECT", "reflect")])
def test_pad(mode, torch_mode):
    x = R.standard_normal((2, 3, 4, 5)).astype(np.float32)
    layer = nn.Pad(((0, 0), (0, 0), (1, 2), (2, 1)), mode=mode)
    _compare(layer, lambda t: torch.nn.functional.pad(t, (2, 1, 1, 2), mode=torch_mode), x)
    sym = nn.Pad(((0, 0), (0, 0), (1, 1), (1, 1)), mode="SYMMETRIC")(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(sym[:, :, 0, 1:-1], x[:, :, 0])
    with pytest.raises(ValueError, match="mode"):
        nn.Pad(((1, 1),), mode="EDGE")
