"""Metrics: values by MindSpore's definitions, edge inputs, eval() before update()."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from training import metrics as M
from training.tensor import Tensor

Y_PRED = np.array([[0.2, 0.5, 0.3], [0.3, 0.3, 0.4], [0.9, 0.05, 0.05], [0.1, 0.2, 0.7]])
Y = np.array([1, 0, 0, 2])


@pytest.mark.parametrize("metric", [M.Accuracy(), M.Loss(), M.Precision(), M.Recall(), M.F1(),
                                    M.Fbeta(2), M.TopKCategoricalAccuracy(2), M.MAE(), M.MSE(),
                                    M.ConfusionMatrix(3), M.Dice(), M.Top1CategoricalAccuracy()])
def test_eval_before_update_raises_runtime_error(metric):
    with pytest.raises(RuntimeError):
        metric.eval()


def test_accuracy_with_indices_and_one_hot():
    acc = M.Accuracy()
    acc.update(Tensor(Y_PRED), Tensor(Y))
    assert acc.eval() == 0.75
    acc.clear()
    acc.update(Y_PRED, np.eye(3)[Y])
    assert acc.eval() == 0.75


def test_accuracy_multilabel_needs_every_label_right():
    acc = M.Accuracy("multilabel")
    acc.update(np.array([[0, 1, 1], [1, 0, 1]]), np.array([[0, 1, 1], [1, 0, 0]]))
    assert acc.eval() == 0.5


def test_accuracy_accumulates_over_updates():
    acc = M.Accuracy()
    acc.update(Y_PRED[:2], Y[:2])
    acc.update(Y_PRED[2:], Y[2:])
    assert acc.eval() == 0.75


def test_loss_is_mean_of_batch_means():
    loss = M.Loss()
    loss.update(np.float32(1.0))
    loss.update(np.array([2.0, 4.0]))
    assert loss.eval() == pytest.approx(2.0)
    with pytest.raises(ValueError):
        loss.update(np.ones((2, 2)))


def test_precision_recall_per_class_and_average():
    p, r = M.Precision(), M.Recall()
    p.update(Y_PRED, Y)
    r.update(Y_PRED, Y)
    # predictions: [1, 2, 0, 2]; labels [1, 0, 0, 2]
    np.testing.assert_allclose(p.eval(), [1.0, 1.0, 0.5])
    np.testing.assert_allclose(r.eval(), [0.5, 1.0, 1.0])
    assert p.eval(average=True) == pytest.approx(2.5 / 3)


def test_precision_of_a_never_predicted_class_is_zero():
    p = M.Precision()
    p.update(np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([0, 1]))
    np.testing.assert_allclose(p.eval(), [0.5, 0.0])


def test_f1_and_fbeta():
    f1, f2 = M.F1(), M.Fbeta(2)
    f1.update(Y_PRED, Y)
    f2.update(Y_PRED, Y)
    np.testing.assert_allclose(f1.eval(), [2 / 3, 1.0, 2 / 3], rtol=1e-12)
    np.testing.assert_allclose(f2.eval()[0], 5 * 1 * 0.5 / (4 * 1 + 0.5), rtol=1e-12)
    with pytest.raises(ValueError, match="beta"):
        M.Fbeta(0)


def test_top_k():
    top2 = M.TopKCategoricalAccuracy(2)
    top2.update(Y_PRED, Y)
    assert top2.eval() == 1.0
    top1 = M.Top1CategoricalAccuracy()
    top1.update(Y_PRED, Y)
    assert top1.eval() == 0.75
    with pytest.raises(ValueError, match="k"):
        M.TopKCategoricalAccuracy(0)


def test_mae_mse_divide_by_samples_not_elements():
    pred = np.array([[1.0, 2.0], [3.0, 4.0]])
    true = np.array([[0.0, 0.0], [3.0, 6.0]])
    mae, mse = M.MAE(), M.MSE()
    mae.update(pred, true)
    mse.update(pred, true)
    assert mae.eval() == pytest.approx((1 + 2 + 0 + 2) / 2)
    assert mse.eval() == pytest.approx((1 + 4 + 0 + 4) / 2)


def test_confusion_matrix_counts_and_normalizations():
    cm = M.ConfusionMatrix(3)
    cm.update(Y_PRED, Y)
    expected = np.array([[1, 0, 1], [0, 1, 0], [0, 0, 1]], float)
    np.testing.assert_array_equal(cm.eval(), expected)
    cm_t = M.ConfusionMatrix(3, normalize="target")
    cm_t.update(Y_PRED, Y)
    np.testing.assert_allclose(cm_t.eval()[0], [0.5, 0, 0.5])
    binary = M.ConfusionMatrix(2, threshold=0.5)
    binary.update(np.array([0.2, 0.7, 0.6]), np.array([0, 1, 0]))
    np.testing.assert_array_equal(binary.eval(), [[1, 1], [0, 1]])
    with pytest.raises(ValueError, match="normalize"):
        M.ConfusionMatrix(2, normalize="rows")


def test_dice():
    d = M.Dice(smooth=1e-5)
    d.update(np.array([[0.0, 1.0], [1.0, 1.0]]), np.array([[0.0, 1.0], [0.0, 1.0]]))
    assert d.eval() == pytest.approx(2 * 2 / (3 + 2 + 1e-5))


def test_shape_mismatch_raises_value_error():
    with pytest.raises(ValueError):
        M.Accuracy().update(Y_PRED, np.array([0, 1]))
    with pytest.raises(ValueError):
        M.MAE().update(np.ones(3), np.ones(4))
    with pytest.raises(ValueError):
        M.Accuracy().update(Y_PRED)


def test_call_is_clear_update_eval():
    acc = M.Accuracy()
    acc.update(Y_PRED[:1], np.array([0]))
    assert acc(Y_PRED, Y) == 0.75


def test_names_map_to_metrics():
    ms = M.get_metrics({"accuracy", "loss", "top_5_accuracy"})
    assert isinstance(ms["accuracy"], M.Accuracy) and isinstance(ms["top_5_accuracy"],
                                                                 M.Top5CategoricalAccuracy)
    with pytest.raises(KeyError):
        M.get_metrics(["auc"])


@settings(deadline=None, max_examples=30)
@given(n=st.integers(1, 30), classes=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_classification_metrics_match_scikit_learn(n, classes, seed):
    from sklearn import metrics as skm
    rng = np.random.default_rng(seed)
    scores = rng.random((n, classes))
    labels = rng.integers(0, classes, n)
    predicted = scores.argmax(axis=1)
    acc, prec, rec, f1, cm = M.Accuracy(), M.Precision(), M.Recall(), M.F1(), M.ConfusionMatrix(classes)
    for metric in (acc, prec, rec, f1, cm):
        metric.update(scores, labels)
    assert acc.eval() == pytest.approx(skm.accuracy_score(labels, predicted))
    kw = {"labels": list(range(classes)), "average": None, "zero_division": 0}
    np.testing.assert_allclose(prec.eval(), skm.precision_score(labels, predicted, **kw), atol=1e-12)
    np.testing.assert_allclose(rec.eval(), skm.recall_score(labels, predicted, **kw), atol=1e-12)
    np.testing.assert_allclose(f1.eval(), skm.f1_score(labels, predicted, **kw), atol=1e-9)
    np.testing.assert_array_equal(cm.eval(), skm.confusion_matrix(labels, predicted,
                                                                  labels=list(range(classes))))
