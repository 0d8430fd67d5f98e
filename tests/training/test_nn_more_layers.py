"""training.nn's Conv3dTranspose, EmbeddingLookup, ClipByNorm, TimeDistributed, Unfold and
TripletMarginWithDistanceLoss, and ops.CTCLoss (TensorFlow's form) and
InvertPermutation, against values measured in MindSpore 2.10 (Unfold, which
MindSpore's CPU cannot run, against patches counted by hand), on the numpy and torch
backends."""
import numpy as np
import pytest

import training as ms
from training import nn, ops

from tests.training.both_backends import as_input, backend, values  # noqa: F401  (a fixture)

X = np.arange(-6, 6, dtype=np.float32).reshape(3, 4) / 2


def test_conv3d_transpose_pad_mode_with_output_padding(backend):
    cell = nn.Conv3dTranspose(2, 2, (1, 2, 2), stride=(1, 2, 1), pad_mode="pad",
                              padding=(0, 0, 1, 0, 0, 1), output_padding=(0, 1, 0), has_bias=True)
    assert [(n, p.shape) for n, p in cell.parameters_and_names()] == \
        [("weight", (2, 2, 1, 2, 2)), ("bias", (2,))]
    cell.weight.set_data(ms.Tensor(np.sin(np.arange(16)).reshape(2, 2, 1, 2, 2).astype(
        np.float32)))
    cell.bias.set_data(ms.Tensor(np.array([0.5, -0.5], np.float32)))
    x = as_input(backend, np.arange(12, dtype=np.float32).reshape(1, 2, 1, 2, 3) / 10)
    out = values(cell(x))
    assert out.shape == (1, 2, 1, 4, 3)
    np.testing.assert_allclose(out.ravel()[:8], [0.17358732, -0.38987923, -0.43923855,
                                                 1.3904223, 2.1127062, 2.337001, 0.28317022,
                                                 -0.5379573], atol=1e-6)
    grads = ms.grad(lambda v: cell(v).sum(), None, cell.trainable_params())(x)
    np.testing.assert_allclose(values(grads[0]).ravel()[:6], [1.2, 0.7, 1.5, 0.8, 1.2, 0.7],
                               atol=1e-6)


@pytest.mark.parametrize("kwargs, message", [
    ({"dilation": (2, 1, 1)}, "depth of parameter 'dilation' must be 1"),
    ({"pad_mode": "same", "output_padding": 1}, "'output_padding' must be zero"),
    ({"pad_mode": "pad", "output_padding": 1}, "output_padding_d"),
    ({"padding": (1, 1, 1, 1)}, "'padding size' must be 6"),
    ({"stride": (1, 2)}, "parameter 'stride' must be an int or a tuple")])
def test_conv3d_transpose_checks(kwargs, message):
    with pytest.raises(ValueError, match=message):
        nn.Conv3dTranspose(2, 2, 3, **kwargs)
    with pytest.raises(TypeError, match="has_bias"):
        nn.Conv3dTranspose(2, 2, 3, has_bias=1)


def test_embedding_lookup_cpu_gives_zero_rows_outside_the_table(backend):
    cell = nn.EmbeddingLookup(4, 2, param_init="ones")
    assert cell.embedding_table.shape == (4, 2)
    out = cell(as_input(backend, np.array([[-1, 3], [4, 0]], np.int32)))
    assert values(out).tolist() == [[[0, 0], [1, 1]], [[0, 0], [1, 1]]]
    with pytest.raises(RuntimeError, match="Gather"):
        nn.EmbeddingLookup(4, 2, target="DEVICE", sparse=False)(
            as_input(backend, np.array([5], np.int32)))
    with pytest.raises(TypeError, match="indices"):
        cell(as_input(backend, np.array([1.0], np.float32)))


@pytest.mark.parametrize("kwargs, error", [
    ({"target": "cpu"}, ValueError), ({"sparse": False}, ValueError), ({"sparse": 1}, TypeError),
    ({"max_norm": 1}, TypeError), ({"max_norm": 0.0}, ValueError)])
def test_embedding_lookup_checks(kwargs, error):
    with pytest.raises(error):
        nn.EmbeddingLookup(4, 2, **kwargs)


def test_clip_by_norm(backend):
    out = nn.ClipByNorm()(as_input(backend, X), as_input(backend, np.array(2.0, np.float32)))
    np.testing.assert_allclose(values(out)[0], [-0.99312705, -0.8276059, -0.6620847,
                                                -0.49656352], atol=1e-6)
    half = nn.ClipByNorm()(as_input(backend, X.astype(np.float16)),
                           as_input(backend, np.array(1.0, np.float16)))
    assert values(half).dtype == np.float32
    with pytest.raises(TypeError, match="Float16, Float32"):
        nn.ClipByNorm()(as_input(backend, X.astype(np.float64)),
                        as_input(backend, np.array(1.0, np.float32)))
    with pytest.raises(TypeError):
        nn.ClipByNorm(axis=1.0)


def test_time_distributed(backend):
    flat = nn.TimeDistributed(nn.Flatten(), time_axis=1)(
        as_input(backend, np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2)))
    assert values(flat).shape == (2, 3, 4)
    dense = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    out = nn.TimeDistributed(dense, time_axis=1, reshape_with_axis=0)(
        as_input(backend, np.arange(12, dtype=np.float32).reshape(2, 3, 2)))
    assert values(out).ravel().tolist() == [1, 5, 9, 13, 17, 21]
    with pytest.raises(ValueError, match="at least 3D"):
        nn.TimeDistributed(nn.Flatten(), 1)(as_input(backend, X))
    with pytest.raises(TypeError):
        nn.TimeDistributed(3, 1)


def test_triplet_margin_with_distance_loss(backend):
    x, pos, neg = (as_input(backend, v) for v in (X, X * 0.5, -X))
    assert float(values(nn.TripletMarginWithDistanceLoss()(x, pos, neg))) == 0.0
    out = nn.TripletMarginWithDistanceLoss(swap=True, margin=3.0, reduction="none")(x, pos, neg)
    np.testing.assert_allclose(values(out), [0.0, 1.7752552, 0.0], atol=1e-6)
    with pytest.raises(TypeError):
        nn.TripletMarginWithDistanceLoss(margin=1)


def test_unfold_patches_by_hand(backend):
    """Channel (row * ksize_col + col) * C + c of output (i, j) is input channel c at
    (i * stride + row * rate, j * stride + col * rate)."""
    image = np.arange(2 * 3 * 5 * 5, dtype=np.float32).reshape(2, 3, 5, 5)
    cell = nn.Unfold([1, 2, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1])
    out = values(cell(as_input(backend, image)))
    assert out.shape == (2, 12, 2, 3)
    for row, col, c, i, j in [(0, 0, 0, 0, 0), (1, 1, 2, 1, 2), (0, 1, 1, 1, 0)]:
        assert out[1, (row * 2 + col) * 3 + c, i, j] == image[1, c, i * 2 + row, j + col * 2]
    same = values(nn.Unfold([1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "same")(
        as_input(backend, image)))
    assert same.shape == (2, 12, 3, 3)
    assert same[0, 3 * 3, 2, 2] == 0 and same[0, 0, 2, 2] == image[0, 0, 4, 4]
    grad = ms.grad(lambda v: cell(v).sum())(as_input(backend, image))
    assert values(grad)[0, 0, :, 0].tolist() == [1, 1, 1, 1, 0]     # (row 4: in no patch)
    with pytest.raises(ValueError, match="format of 'ksizes'"):
        nn.Unfold([2, 2], [1, 1, 1, 1], [1, 1, 1, 1])


CTC_LOGITS = np.random.default_rng(0).standard_normal((5, 2, 4)).astype(np.float32)
CTC_INDICES = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], np.int64)
CTC_VALUES = np.array([1, 1, 2, 0, 2], np.int32)


@pytest.mark.parametrize("options, loss, first_frame", [
    ({}, [4.3122387, 5.141557], [0.22597685, -0.61367106, 0.37808728, 0.00960702]),
    ({"preprocess_collapse_repeated": True}, [4.3043823, 5.141557],
     [0.22597685, 0.05109977, 0.37808728, -0.6551638]),
    ({"ctc_merge_repeated": False}, [4.5254493, 5.5182905],
     [0.22597685, -0.21790668, 0.37808728, -0.38615727])])
def test_ctc_loss_primitive(backend, options, loss, first_frame):
    """TensorFlow's form, the last class the blank; MindSpore 2.10's values."""
    x = as_input(backend, CTC_LOGITS)
    rest = [as_input(backend, v) for v in (CTC_INDICES, CTC_VALUES, np.array([5, 4], np.int32))]
    out, grad = ops.CTCLoss(**options)(x, *rest)
    np.testing.assert_allclose(values(out), loss, atol=1e-5)
    np.testing.assert_allclose(values(grad)[0, 0], first_frame, atol=1e-5)
    assert not values(grad)[4, 1].any()     # (past the second sequence's 4 frames)
    scaled = ms.grad(lambda v: (ops.CTCLoss(**options)(v, *rest)[0] * as_input(
        backend, np.array([1.0, 2.0], np.float32))).sum())(x)
    np.testing.assert_allclose(values(scaled)[:, 1], 2 * values(grad)[:, 1], atol=1e-6)


def test_ctc_loss_primitive_checks(backend):
    x = as_input(backend, CTC_LOGITS)
    indices, labels = as_input(backend, CTC_INDICES), as_input(backend, CTC_VALUES)
    with pytest.raises(RuntimeError, match="sequence length: 1 and label length: 3"):
        ops.CTCLoss()(x, indices, labels, as_input(backend, np.array([5, 1], np.int32)))
    with pytest.raises(TypeError, match="ctc_merge_repeated"):
        ops.CTCLoss(ctc_merge_repeated=1)


def test_invert_permutation():
    assert ops.InvertPermutation()((3, 4, 0, 2, 1)) == (2, 4, 3, 0, 1)
    with pytest.raises(ValueError, match="duplicate"):
        ops.InvertPermutation()((1, 1, 0))
    with pytest.raises(TypeError, match="input\\[0\\]"):
        ops.InvertPermutation()((1.0, 0))
