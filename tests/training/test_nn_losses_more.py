"""The loss cells added to training.nn (BCELoss ... FocalLoss, DiceLoss) and the loss functions
and primitives of training.ops, on the numpy and torch backends: values and gradients with
respect to the first input, measured in MindSpore 2.10 on the same inputs (6 decimals)."""
import numpy as np
import pytest

import training as ms
from training import nn, ops

from tests.training.both_backends import as_input, backend, values  # noqa: F401  (a fixture)
X = np.array([[0.2, -1.0, 0.5], [1.5, 0.0, -0.3]], np.float32)
Y = np.array([[0.0, 1.0, 0.3], [1.0, 0.5, 0.0]], np.float32)
P = np.array([[0.2, 0.9, 0.5], [0.7, 0.1, 0.4]], np.float32)
SIGNS = np.array([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]], np.float32)
IDX = np.array([2, 0], np.int32)
W3 = ms.Tensor(np.array([0.5, 1.0, 2.0], np.float32))
W23 = ms.Tensor(np.array([[0.5, 1.0, 2.0], [1.5, 0.25, 1.0]], np.float32))
ONEHOT = np.eye(3, dtype=np.float32)[IDX]

# (cell, first input, other inputs, the loss, its gradient): MindSpore 2.10's numbers
MEASURED = [
    (lambda: nn.BCELoss(), P, [Y], 0.515521,
     [[0.208333, -0.185185, 0.133333], [-0.238095, -0.740741, 0.277778]]),
    (lambda: nn.BCELoss(weight=W23, reduction="sum"), P, [Y], 2.950058,
     [[0.625, -1.111111, 1.6], [-2.142857, -1.111111, 1.666667]]),
    (lambda: nn.BCEWithLogitsLoss(), X, [Y], 0.730732,
     [[0.091639, -0.121843, 0.053743], [-0.030404, 0.0, 0.070926]]),
    (lambda: nn.BCEWithLogitsLoss(weight=W3, pos_weight=W3, reduction="none"), X, [Y],
     [[0.399069, 1.313262, 1.9326], [0.050353, 0.693147, 1.108711]],
     [[0.274917, -0.731058, 0.418394], [-0.045606, 0.0, 0.851115]]),
    (lambda: nn.SmoothL1Loss(), X, [Y], [[0.02, 1.5, 0.02], [0.125, 0.125, 0.045]],
     [[0.2, -1.0, 0.2], [0.5, -0.5, -0.3]]),
    (lambda: nn.SmoothL1Loss(beta=0.5, reduction="mean"), X, [Y], 0.403333,
     [[0.066667, -0.166667, 0.066667], [0.166667, -0.166667, -0.1]]),
    (lambda: nn.HuberLoss(delta=0.5), X, [Y], 0.201667,
     [[0.033333, -0.083333, 0.033333], [0.083333, -0.083333, -0.05]]),
    (lambda: nn.MAELoss(reduction="sum"), X, [Y], 3.7, [[1.0, -1.0, 1.0], [1.0, -1.0, -1.0]]),
    (lambda: nn.RMSELoss(), X, [Y], 0.882232,
     [[0.037783, -0.37783, 0.037783], [0.094457, -0.094457, -0.056674]]),
    (lambda: nn.KLDivLoss(reduction="batchmean"), X, [Y], -0.678883,
     [[0.0, -0.5, -0.15], [-0.5, -0.25, 0.0]]),
    (lambda: nn.NLLLoss(), X, [IDX], -1.0, [[0.0, 0.0, -0.5], [-0.5, 0.0, 0.0]]),
    (lambda: nn.NLLLoss(weight=W3, ignore_index=0), X, [IDX], -0.5,
     [[0.0, 0.0, -1.0], [0.0, 0.0, 0.0]]),
    (lambda: nn.HingeEmbeddingLoss(margin=0.5), X, [SIGNS], 0.4,
     [[0.166667, -0.166667, 0.166667], [0.0, -0.166667, 0.166667]]),
    (lambda: nn.MarginRankingLoss(margin=0.5), X, [Y, SIGNS], 0.4,
     [[-0.166667, 0.0, -0.166667], [0.166667, 0.166667, -0.166667]]),
    (lambda: nn.CosineEmbeddingLoss(margin=0.2, reduction="none"), X,
     [Y, np.array([1, -1], np.int32)], [1.716821, 0.677058],
     [[-0.111135, -0.287644, -0.530833], [0.022489, 0.292353, 0.112443]]),
    (lambda: nn.MultiMarginLoss(p=2, margin=1.5), X, [IDX.astype(np.int64)], 0.24,
     [[0.4, 0.0, -0.4], [0.0, 0.0, 0.0]]),
    (lambda: nn.MultiLabelSoftMarginLoss(weight=W3), X, [(Y > 0.2).astype(np.float32)],
     0.760508, [[0.045819, -0.121843, -0.125847], [-0.015202, -0.083333, 0.141852]]),
    (lambda: nn.PoissonNLLLoss(), X, [np.abs(Y) * 2], 1.360085,
     [[0.203567, -0.27202, 0.174787], [0.413615, 0.0, 0.12347]]),
    (lambda: nn.PoissonNLLLoss(log_input=False, full=True), np.abs(X) + 0.1, [np.abs(Y) * 2],
     1.147011, [[0.166667, -0.136364, 0.0], [-0.041667, -1.5, 0.166667]]),
    (lambda: nn.GaussianNLLLoss(full=True), X, [Y, np.array([0.5, 2.0], np.float32)],
     1.623522, [[0.066667, -0.666667, 0.066667], [0.041667, -0.041667, -0.025]]),
    (lambda: nn.FocalLoss(gamma=1.5), X, [IDX.reshape(2, 1)], 0.140327,
     [[0.13297, 0.04005, -0.17302], [-0.046931, 0.026959, 0.019972]]),
    (lambda: nn.FocalLoss(weight=W3, reduction="sum"), X, [ONEHOT], 0.338044,
     [[0.436257, 0.131398, -0.567653], [-0.029448, 0.016916, 0.012532]]),
    (lambda: nn.DiceLoss(smooth=0.5), X, [Y], 0.799073,
     [[0.012422, -0.371229, -0.06168], [-0.215953, -0.154559, -0.018633]]),
    (lambda: nn.MultiClassDiceLoss(activation="sigmoid"), X, [ONEHOT], 0.458875,
     [[0.038198, 0.0, -0.050537], [-0.016228, 0.0, 0.035092]]),
    (lambda: nn.CrossEntropyLoss(label_smoothing=0.2), X, [IDX], 0.671565,
     [[0.155271, 0.023473, -0.178744], [-0.073214, 0.04702, 0.026194]]),
]


@pytest.mark.parametrize("index", range(len(MEASURED)))
def test_loss_values_and_gradients_as_mindspore(backend, index):
    make, first, others, loss, gradient = MEASURED[index]
    cell = make()
    x, rest = as_input(backend, first), [as_input(backend, value) for value in others]
    value, grad = ms.value_and_grad(lambda z: cell(z, *rest).sum())(x)
    np.testing.assert_allclose(values(cell(x, *rest)), loss, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values(grad), gradient, rtol=1e-5, atol=1e-5)
    assert values(cell(x, *rest)).dtype == np.float32


def test_functions_and_primitives_give_the_cells_losses(backend):
    x, y, idx = as_input(backend, X), as_input(backend, Y), as_input(backend, IDX)
    np.testing.assert_allclose(values(ops.binary_cross_entropy_with_logits(x, y)), 0.730732,
                               rtol=1e-5)
    np.testing.assert_allclose(values(ops.BCEWithLogitsLoss("mean")(x, y)), 0.730732, rtol=1e-5)
    np.testing.assert_allclose(values(ops.smooth_l1_loss(x, y, 1, "sum")), 1.835, rtol=1e-5)
    np.testing.assert_allclose(values(ops.nll_loss(x, idx)), -1.0, rtol=1e-5)
    loss, total = ops.NLLLoss()(x, idx, W3)
    # MindSpore 2.10: -0.7 (the weighted mean) and 2.5 (the weights of the counted samples)
    np.testing.assert_allclose([values(loss), values(total)], [-0.7, 2.5], rtol=1e-5)
    # MindSpore 2.10: P.SigmoidCrossEntropyWithLogits is the unreduced BCEWithLogitsLoss
    np.testing.assert_allclose(values(ops.SigmoidCrossEntropyWithLogits()(x, y)),
                               values(ops.binary_cross_entropy_with_logits(x, y, reduction="none")))
    sparse = ops.SparseSoftmaxCrossEntropyWithLogits()(x, idx)
    np.testing.assert_allclose(values(sparse), values(ops.cross_entropy(x, idx)), rtol=1e-6)


@pytest.mark.parametrize("make, error", [
    (lambda: nn.CosineEmbeddingLoss(margin=2.0), ValueError),
    (lambda: nn.CosineEmbeddingLoss(margin=1), TypeError),
    (lambda: nn.MultiMarginLoss(margin=1), TypeError),
    (lambda: nn.FocalLoss(gamma=2), TypeError),
    (lambda: nn.DiceLoss(smooth=0.0), ValueError),
    (lambda: nn.SmoothL1Loss(beta="1"), TypeError),
    (lambda: nn.NLLLoss(ignore_index=1.5), TypeError),
    (lambda: nn.KLDivLoss(reduction="avg"), ValueError),
    (lambda: nn.CrossEntropyLoss(label_smoothing=0), TypeError),
])
def test_wrong_arguments_raise_mindspores_errors(make, error):
    with pytest.raises(error):
        make()


def test_wrong_inputs_raise_mindspores_errors(backend):
    x = as_input(backend, X)
    with pytest.raises(RuntimeError, match="between 0 and 1"):      # MindSpore's words
        nn.BCELoss()(x, as_input(backend, Y))
    with pytest.raises(TypeError, match="int64"):       # MindSpore wants int64 targets here
        nn.MultiMarginLoss()(x, as_input(backend, IDX))
    with pytest.raises(ValueError):
        nn.BCEWithLogitsLoss()(x, as_input(backend, Y[:1]))
    with pytest.raises(ValueError, match="enum"):
        ops.binary_cross_entropy_with_logits(x, as_input(backend, Y), reduction="avg")


def test_every_label_ignored_is_nan_with_a_zero_gradient(backend):
    # MindSpore 2.10: NLLLoss(ignore_index=0) on labels [0]: nan, gradient [[0, 0]]
    x = as_input(backend, np.array([[-1.0, -2.0]], np.float32))
    labels = as_input(backend, np.array([0], np.int32))
    value, grad = ms.value_and_grad(lambda z: nn.NLLLoss(ignore_index=0)(z, labels))(x)
    assert np.isnan(values(value))
    np.testing.assert_array_equal(values(grad), [[0.0, 0.0]])


def test_documented_deviations_of_mindspore():
    # a weight of another shape is broadcast, as documented (MindSpore's CPU kernel reads past
    # its end); a one-element loss reduced is the loss (MindSpore's kernel doubles it: 2.407946)
    p, y = ms.Tensor(np.array([0.3], np.float32)), ms.Tensor(np.array([1.0], np.float32))
    np.testing.assert_allclose(values(ops.binary_cross_entropy(p, y)), 1.203973, rtol=1e-5)
    # kernels MindSpore 2.10 lacks on the CPU (RuntimeError there) run here, as torch's
    x = ms.Tensor(X)
    np.testing.assert_allclose(values(nn.SoftMarginLoss()(x, ms.Tensor(SIGNS))),
                               np.log1p(np.exp(-X * SIGNS)).mean(), rtol=1e-6)
    assert values(ops.triplet_margin_loss(x, x, x)).item() == pytest.approx(1.0)


def test_ctc_loss_as_mindspore(backend):
    """MindSpore 2.10's nn.CTCLoss on these log-probabilities: per-sample losses, the mean of
    the losses over their target lengths, and the gradient of sample 1 (zero past its input
    length)."""
    scores = (np.sin(np.arange(40) * 0.7).reshape(5, 2, 4) * 2).astype(np.float32)
    log_probs = as_input(backend, scores - np.log(np.exp(scores).sum(-1, keepdims=True)))
    targets, lengths, target_lengths = (as_input(backend, np.array(value, np.int32)) for value in
                                        ([[1, 2, 2], [3, 1, 0]], [5, 4], [3, 2]))
    unreduced = nn.CTCLoss(reduction="none")(log_probs, targets, lengths, target_lengths)
    np.testing.assert_allclose(values(unreduced), [7.762528, 3.469725], rtol=1e-5)
    mean = nn.CTCLoss()
    value, grad = ms.value_and_grad(lambda z: mean(z, targets, lengths, target_lengths))(
        log_probs)
    np.testing.assert_allclose(values(value), 2.161186, rtol=1e-5)
    np.testing.assert_allclose(values(grad)[:, 1], [
        [0.076927, 0.044827, 0.015819, -0.137572], [0.007569, 0.027589, 0.014885, -0.050042],
        [0.032444, -0.021129, 0.030603, -0.041918], [0.004517, -0.101585, 0.072812, 0.024256],
        [0.0, 0.0, 0.0, 0.0]], atol=1e-6)
    with pytest.raises(RuntimeError, match="not smaller than"):     # MindSpore's kernel's words
        mean(log_probs, targets, as_input(backend, np.array([2, 4], np.int32)), target_lengths)


def test_smooth_l1_beta_is_checked_at_the_call(backend):
    # MindSpore 2.10 makes SmoothL1Loss(beta=0.0) and refuses it when called (RuntimeError)
    loss = nn.SmoothL1Loss(beta=0.0)
    with pytest.raises(RuntimeError, match="beta"):
        loss(as_input(backend, X), as_input(backend, Y))
