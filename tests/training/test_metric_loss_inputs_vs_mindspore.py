"""Inputs MindSpore 2.10 takes in ways our metrics and losses got wrong; the expected values were
measured in MindSpore 2.10 (found by tools/training_vs_mindspore.py)."""
import numpy as np
import pytest

import training as T
from training import nn, train


def test_confusion_matrix_takes_integer_predictions_as_class_indices():
    # MindSpore 2.10 thresholds only float predictions of y's shape; integers are classes
    metric = train.ConfusionMatrix(num_classes=3)
    metric.update(np.array([2, 1], np.int64), np.array([0, 1], np.int32))
    np.testing.assert_array_equal(metric.eval(), [[0, 0, 1], [0, 1, 0], [0, 0, 0]])
    metric = train.ConfusionMatrix(num_classes=3)       # float scores: still thresholded
    metric.update(np.array([0.7, 0.2], np.float32), np.array([1, 0], np.int32))
    np.testing.assert_array_equal(metric.eval(), [[1, 0, 0], [0, 1, 0], [0, 0, 0]])


X = np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3]], np.float32)
P = np.array([[0.2, 0.3, 0.5], [0.6, 0.4, 0.0]], np.float32)


@pytest.mark.parametrize("kwargs,expected", [
    # MindSpore 2.10's values: ignore_index has no effect on class probabilities
    ({"ignore_index": 0}, 1.1622232),
    ({"ignore_index": 2}, 1.1622232),
    ({"ignore_index": 0, "reduction": "none"}, [1.4413111, 0.8831353]),
    ({"ignore_index": 1, "label_smoothing": 0.1, "reduction": "sum"}, 2.4057798),
])
def test_cross_entropy_ignore_index_does_not_apply_to_probabilities(kwargs, expected):
    loss = nn.CrossEntropyLoss(**kwargs)(T.Tensor(X), T.Tensor(P))
    np.testing.assert_allclose(np.asarray(loss.asnumpy()), expected, rtol=1e-5)
