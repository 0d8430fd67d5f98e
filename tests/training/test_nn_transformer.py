"""nn.MultiheadAttention and the Transformer layers as MindSpore 2.10's: parameter names, shapes
and order (checkpoints interchange), initial values, masks (bool True masks, float added),
outputs, attention weights and input gradients on both backends (values measured in MindSpore
2.10 with the parameters set by `_fill`), and argument errors as MindSpore raises them."""
import numpy as np
import pytest

from training import Tensor, nn, ops
from training.ops import grad

from tests.training.both_backends import as_input, backend, values  # noqa: F401 (a fixture)

X = (np.cos(np.arange(24) * 0.3) * 1.5).reshape(3, 2, 4).astype(np.float32)
KV = np.sin(np.arange(16) * 0.45).reshape(2, 2, 4).astype(np.float32)
PADDING = np.array([[0.0, -2.0], [0.0, 0.0]], np.float32)
ATTN_MASK = np.array([[0.0, -1.0], [0.5, 0.0], [0.0, 0.0]], np.float32)


def _fill(cell):
    """The values the MindSpore figures were measured with, set by parameter name."""
    for name, p in cell.parameters_and_names():
        size = int(np.prod(p.shape))
        p.set_data(Tensor((np.sin(np.arange(size) * 0.7 + len(name)) * 0.5).reshape(p.shape)
                          .astype(np.float32)))
    cell.set_train(False)
    return cell


def _input(array, backend):
    return as_input(backend, array)


_numpy = values


def _shapes(cell):
    return [(name, tuple(p.shape)) for name, p in cell.parameters_and_names()]


def test_parameter_names_shapes_and_order_as_mindspore():
    assert _shapes(nn.MultiheadAttention(8, 2)) == [
        ("in_proj_weight", (24, 8)), ("in_proj_bias", (24,)), ("out_proj.weight", (8, 8)),
        ("out_proj.bias", (8,))]
    assert _shapes(nn.MultiheadAttention(8, 2, kdim=4, vdim=6, add_bias_kv=True)) == [
        ("q_proj_weight", (8, 8)), ("k_proj_weight", (8, 4)), ("v_proj_weight", (8, 6)),
        ("in_proj_bias", (24,)), ("bias_k", (1, 1, 8)), ("bias_v", (1, 1, 8)),
        ("out_proj.weight", (8, 8)), ("out_proj.bias", (8,))]
    assert _shapes(nn.MultiheadAttention(8, 2, has_bias=False)) == [
        ("in_proj_weight", (24, 8)), ("out_proj.weight", (8, 8))]
    layer = [name for name, _ in _shapes(nn.TransformerDecoderLayer(8, 2, 16))]
    assert layer == [f"{a}.{p}" for a in ("self_attn", "multihead_attn") for p in (
        "in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias")] + [
        "dense1.weight", "dense1.bias", "dense2.weight", "dense2.bias", "norm1.gamma",
        "norm1.beta", "norm2.gamma", "norm2.beta", "norm3.gamma", "norm3.beta"]
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2, nn.LayerNorm((8,)))
    names = [name for name, _ in _shapes(encoder)]
    assert len(names) == 26 and names[12] == "layers.1.self_attn.in_proj_weight" and \
        names[-2:] == ["norm.gamma", "norm.beta"]
    transformer = _shapes(nn.Transformer(8, 2, 1, 1, 16))
    assert len(transformer) == 34 and transformer[12] == ("encoder.norm.gamma", (8,)) and \
        transformer[14] == ("decoder.layers.0.self_attn.in_proj_weight", (24, 8))


def test_initial_values_follow_mindspore():
    attention = nn.MultiheadAttention(8, 2)
    assert not attention.in_proj_bias.asnumpy().any()       # zeros
    bound = np.sqrt(6 / (8 + 24))                           # XavierUniform of (24, 8)
    assert np.abs(attention.in_proj_weight.asnumpy()).max() <= bound
    # every layer of a stack starts as a copy of one new layer (MindSpore deep-copies it)
    params = dict(nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2)
                  .parameters_and_names())
    assert np.array_equal(params["layers.0.dense1.weight"].asnumpy(),
                          params["layers.1.dense1.weight"].asnumpy())
    dense = dict(nn.Transformer(8, 2, 1, 1, 16).parameters_and_names())["encoder.layers.0." \
                                                                       "dense1.weight"]
    assert np.abs(dense.asnumpy()).max() <= np.sqrt(6 / (16 + 8))   # redrawn XavierUniform


def test_attention_outputs_weights_and_gradients_as_mindspore(backend):
    cell = _fill(nn.MultiheadAttention(4, 2, add_bias_kv=True))
    out, weights = cell(_input(X, backend), _input(KV, backend), _input(KV, backend),
                        key_padding_mask=_input(PADDING, backend),
                        attn_mask=_input(ATTN_MASK, backend))
    np.testing.assert_allclose(_numpy(out)[:, 0], [
        [-0.257028, 0.940931, 0.030418, 0.650187], [-0.18514, 0.818561, 0.18913, 0.473473],
        [-0.242744, 0.894543, 0.103549, 0.558764]], atol=2e-6)
    np.testing.assert_allclose(_numpy(weights)[0], [
        [0.867, 0.001247, 0.131753], [0.074291, 0.277661, 0.648048],
        [0.610622, 0.027742, 0.361636]], atol=2e-6)
    out_weights = _input(np.cos(np.arange(24)).reshape(3, 2, 4).astype(np.float32), backend)

    def weighted(q, k):
        result = cell(q, k, k, key_padding_mask=_input(PADDING, backend),
                      attn_mask=_input(ATTN_MASK, backend))
        return (result[0] * out_weights).sum()
    if backend == "numpy":
        grad_q, grad_k = grad(weighted, (0, 1))(Tensor(X), Tensor(KV))
    else:
        import torch
        q, k = (torch.tensor(a, requires_grad=True) for a in (X, KV))
        grad_q, grad_k = torch.autograd.grad(weighted(q, k), (q, k))
    np.testing.assert_allclose(_numpy(grad_q)[2], [[0.017935, 0.024363, 0.019332, 0.005209],
                                                   [-0.005997, -0.000495, 0.00524, 0.00851]],
                               atol=2e-6)
    np.testing.assert_allclose(_numpy(grad_k)[1], [[0.006372, -0.018296, -0.034359, -0.034263],
                                                   [-0.04756, -0.014577, 0.025262, 0.05322]],
                               atol=2e-6)


def test_bool_masks_mask_whatever_the_other_mask(backend):
    """A bool padding mask masks its keys next to a float attention mask too (MindSpore 2.10
    adds it as 1.0: a documented deviation)."""
    cell = _fill(nn.MultiheadAttention(4, 2, add_bias_kv=True))
    x, kv = _input(X, backend), _input(KV, backend)
    padding = _input(np.array([[False, True], [False, False]]), backend)
    weights = _numpy(cell(x, kv, kv, key_padding_mask=padding,
                          attn_mask=_input(ATTN_MASK, backend))[1])
    assert not weights[0, :, 1].any() and weights[1, :, 1].all()
    np.testing.assert_allclose(weights.sum(-1), 1.0, rtol=1e-6)


def test_attention_call_options(backend):
    cell = nn.MultiheadAttention(4, 2)
    x = _input(X, backend)
    assert len(cell(x, x, x, need_weights=False)) == 1     # MindSpore's 1-tuple
    assert tuple(cell(x, x, x, average_attn_weights=False)[1].shape) == (2, 2, 3, 3)
    out, weights = cell(x[:, 0], x[:, 0], x[:, 0])           # unbatched
    assert tuple(out.shape) == (3, 4) and tuple(weights.shape) == (3, 3)
    first = nn.MultiheadAttention(4, 2, batch_first=True)
    assert tuple(first(x, x, x)[0].shape) == (3, 2, 4)


def test_layers_as_mindspore(backend):
    encoder = _fill(nn.TransformerEncoderLayer(4, 2, 3, dropout=0.0, activation="gelu",
                                               norm_first=True, batch_first=True))
    out = encoder(_input(X, backend),
                  src_mask=_input(np.array([[False, True], [False, False]]), backend))
    np.testing.assert_allclose(_numpy(out)[1], [[-2.378038, -1.97277, -2.04703, -1.139435],
                                                [-2.713082, -1.600109, -1.39757, 0.119689]],
                               atol=1e-5)
    transformer = _fill(nn.Transformer(4, 2, 1, 1, 3, dropout=0.0))
    out = transformer(_input(X, backend), _input(KV, backend))
    np.testing.assert_allclose(_numpy(out)[1], [[-0.822627, -0.454161, -0.024237, -0.644948],
                                                [-0.844827, -0.459914, -0.055807, -0.652366]],
                               atol=1e-5)


def test_errors_as_mindspore():
    with pytest.raises(ValueError):
        nn.MultiheadAttention(8, 3)
    with pytest.raises(ZeroDivisionError):
        nn.MultiheadAttention(8, 0)
    for activation in ("tanh", nn.ReLU(), nn.Tanh(), 3, len):
        with pytest.raises(ValueError):
            nn.TransformerEncoderLayer(4, 2, 8, activation=activation)
    assert nn.TransformerEncoderLayer(4, 2, 8, activation=ops.gelu).activation is ops.gelu
    with pytest.raises(ValueError):
        nn.TransformerEncoderLayer(4, 2, 8, dropout=1.0)
    cell, x = nn.MultiheadAttention(4, 2), Tensor(X)
    with pytest.raises(ValueError):
        cell(x, x, x, key_padding_mask=Tensor(np.zeros((2, 3), np.int32)))
    with pytest.raises(ValueError):
        cell(x, x, x, attn_mask=Tensor(np.zeros((3, 2), np.float32)))
    with pytest.raises(TypeError):              # MindSpore's MatMul refuses float64 with float32
        cell(Tensor(X.astype(np.float64)), x, x)
    with pytest.raises(AssertionError):
        nn.TransformerEncoderLayer(4, 2, 8)(x, src_key_padding_mask=Tensor(np.zeros((2, 3),
                                                                                     np.int32)))
    with pytest.raises(RuntimeError):           # MindSpore's MatMul error (one packed weight)
        cell(x, Tensor(KV[..., :3]), Tensor(KV[..., :3]))
    with pytest.raises(ValueError):             # its weight-shape check (separate weights)
        nn.MultiheadAttention(4, 2, kdim=3, vdim=3)(x, x, x)
