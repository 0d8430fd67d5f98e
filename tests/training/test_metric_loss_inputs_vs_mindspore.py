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


X2 = np.array([[0.1, 0.9], [0.8, 0.2]], np.float32)
Y2 = np.array([1, 0], np.int32)


@pytest.mark.parametrize("name", ["Precision", "Recall", "F1"])
def test_average_must_be_a_bool(name):
    # MindSpore 2.10: eval(average=1) is a TypeError ("the type of 'average' should be 'bool'");
    # before any update, Precision/Recall raise RuntimeError first, F1 the TypeError
    metric = getattr(train, name)()
    with pytest.raises(TypeError if name == "F1" else RuntimeError):
        metric.eval(average="yes")
    metric.update(X2, Y2)
    with pytest.raises(TypeError, match="average"):
        metric.eval(average=1)


def test_confusion_matrix_argument_types():
    # MindSpore 2.10: TypeError for threshold=1 (an int) and for num_classes=1.5
    with pytest.raises(TypeError, match="threshold"):
        train.ConfusionMatrix(2, threshold=1)
    with pytest.raises(TypeError, match="num_classes"):
        train.ConfusionMatrix(1.5)


@pytest.mark.parametrize("kwargs,error", [
    # MindSpore 2.10: a value that is not a str is a TypeError, an unknown str a ValueError,
    # similarity checked before reduction
    ({"similarity": 1}, TypeError), ({"reduction": None}, TypeError),
    ({"similarity": "l2", "reduction": None}, ValueError), ({"reduction": "avg"}, ValueError),
])
def test_cosine_similarity_argument_errors(kwargs, error):
    with pytest.raises(error):
        train.CosineSimilarity(**kwargs)


@pytest.mark.parametrize("loss", [nn.L1Loss, nn.MSELoss])
def test_shapes_that_do_not_broadcast_are_a_value_error(loss):
    # MindSpore 2.10: ValueError for (3, 5) against (5, 1); (3, 1) against (1, 2) gives (3, 2)
    with pytest.raises(ValueError, match="broadcast"):
        loss()(T.Tensor(np.ones((3, 5), np.float32)), T.Tensor(np.ones((5, 1), np.float32)))
    out = loss(reduction="none")(T.Tensor(np.ones((3, 1), np.float32)),
                                 T.Tensor(np.zeros((1, 2), np.float32)))
    assert tuple(out.shape) == (3, 2)


@pytest.mark.parametrize("sparse", [1, "yes"])
def test_sparse_must_be_a_bool(sparse):
    # MindSpore 2.10: TypeError ("the 'sparse' must be a bool")
    with pytest.raises(TypeError, match="sparse"):
        nn.SoftmaxCrossEntropyWithLogits(sparse=sparse)


@pytest.mark.parametrize("ignore_index", [None, 1.5, True])
def test_ignore_index_must_be_an_int(ignore_index):
    # MindSpore 2.10: TypeError ("the type of 'ignore_index' should be 'int'") for each
    with pytest.raises(TypeError, match="ignore_index"):
        nn.CrossEntropyLoss(ignore_index=ignore_index)
