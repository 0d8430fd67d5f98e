"""LearningRateScheduler, History, OnRequestExit; ROC, Perplexity, CosineSimilarity and
multilabel Precision/Recall, against MindSpore's documented examples and definitions."""
import os
import signal

import numpy as np
import pytest

import minddata as ds
from training import Model, nn
from training.callbacks import Callback, History, LearningRateScheduler, OnRequestExit
from training.checkpoint import load_checkpoint
from training.metrics import ROC, CosineSimilarity, Perplexity, Precision, Recall


def _dataset(n=32, batch=8):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int32)
    return ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(batch)


def _model(metrics=None):
    net = nn.Dense(4, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                 metrics=metrics), opt


def test_learning_rate_scheduler_sets_the_rate_each_step():
    model, opt = _model()
    seen = []

    class Record(Callback):
        def on_train_step_begin(self, run_context):
            seen.append(opt.get_lr())
    schedule = LearningRateScheduler(lambda lr, step: lr * 0.5 if step % 2 == 0 else lr)
    model.train(1, _dataset(), callbacks=[Record(), schedule])
    assert seen == pytest.approx([0.1, 0.1, 0.05, 0.05])
    with pytest.raises(TypeError, match="callable"):
        LearningRateScheduler(0.1)


def test_history_records_loss_and_eval_metrics():
    model, _ = _model(metrics={"accuracy"})
    history = History()
    model.fit(3, _dataset(), _dataset(), callbacks=[history])
    assert history.epoch == [1, 2, 3]
    assert len(history.history["net_output"]) == 3
    assert len(history.history["accuracy"]) == 3


def test_on_request_exit_saves_and_stops(tmp_path):
    model, _ = _model()
    steps = []

    class SendSignal(Callback):
        def on_train_step_end(self, run_context):
            steps.append(run_context.original_args().cur_step_num)
            if len(steps) == 2:
                os.kill(os.getpid(), signal.SIGUSR1)
    exit_cb = OnRequestExit(file_name="net", directory=str(tmp_path), sig=signal.SIGUSR1)
    previous = signal.getsignal(signal.SIGUSR1)
    model.train(5, _dataset(), callbacks=[SendSignal(), exit_cb])
    assert steps == [1, 2]
    assert "weight" in load_checkpoint(str(tmp_path / "net.ckpt"))
    assert signal.getsignal(signal.SIGUSR1) == previous  # handler restored
    with pytest.raises(ValueError, match="MindIR"):
        OnRequestExit(save_mindir=True)


def test_roc_doc_examples():
    metric = ROC(pos_label=2)
    metric.update(np.array([3, 1, 4, 2]), np.array([0, 1, 2, 3]))
    fpr, tpr, thresholds = metric.eval()
    np.testing.assert_allclose(fpr, [0, 0, 1 / 3, 2 / 3, 1])
    np.testing.assert_allclose(tpr, [0, 1, 1, 1, 1])
    np.testing.assert_array_equal(thresholds, [5, 4, 3, 2, 1])
    multi = ROC(class_num=4)
    multi.update(np.array([[0.28, 0.55, 0.15, 0.05], [0.10, 0.20, 0.05, 0.05],
                           [0.20, 0.05, 0.15, 0.05], [0.05, 0.05, 0.05, 0.75]]),
                 np.array([0, 1, 2, 3]))
    fpr, tpr, thresholds = multi.eval()
    np.testing.assert_allclose(fpr[0], [0, 0, 1 / 3, 2 / 3, 1])
    np.testing.assert_allclose(tpr[1], [0, 0, 1, 1])
    np.testing.assert_allclose(thresholds[3], [1.75, 0.75, 0.05])
    with pytest.raises(ValueError, match="pos_label"):
        ROC(class_num=2, pos_label=1).update(np.ones((2, 2)), np.array([0, 1]))


def test_perplexity_doc_example():
    metric = Perplexity(ignore_label=None)
    metric.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    assert metric.eval() == pytest.approx(2.231443166940565)
    ignoring = Perplexity(ignore_label=0)
    ignoring.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    assert ignoring.eval() == pytest.approx(1 / np.sqrt(0.5 * 0.6))
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        Perplexity().eval()


def test_cosine_similarity_doc_example():
    metric = CosineSimilarity()
    metric.update(np.array([[1, 3, 4, 7], [2, 4, 2, 5], [3, 1, 5, 8]]))
    np.testing.assert_allclose(metric.eval(), [[0, 0.94025615, 0.95162452],
                                               [0.94025615, 0, 0.86146098],
                                               [0.95162452, 0.86146098, 0]], rtol=1e-6)
    summed = CosineSimilarity(reduction="sum")
    summed.update(np.array([[1, 3, 4, 7], [2, 4, 2, 5], [3, 1, 5, 8]]))
    np.testing.assert_allclose(summed.eval()[0], 0.94025615 + 0.95162452, rtol=1e-6)


def test_multilabel_precision_and_recall_score_each_sample():
    """MindSpore's multilabel definition: one score per sample (row), kept across updates."""
    y_pred = np.array([[0, 1, 1, 0], [1, 0, 0, 0], [1, 1, 1, 1]])
    y = np.array([[0, 1, 0, 0], [1, 0, 0, 1], [0, 0, 1, 1]])
    precision, recall = Precision("multilabel"), Recall("multilabel")
    precision.update(y_pred, y)
    recall.update(y_pred, y)
    np.testing.assert_allclose(precision.eval(), [0.5, 1.0, 0.5])
    np.testing.assert_allclose(recall.eval(), [1.0, 0.5, 1.0])
    assert precision.eval(average=True) == pytest.approx(2 / 3)
    precision.update(y_pred[:1], y[:1])
    assert precision.eval().shape == (4,)
    classification = Precision()
    classification.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    np.testing.assert_allclose(classification.eval(), [0.5, 1.0])  # MindSpore's doc example
