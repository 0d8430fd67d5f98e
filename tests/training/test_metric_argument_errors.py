"""Metric arguments of the wrong type raise MindSpore 2.10's TypeError, values out of range its
ValueError (measured against MindSpore 2.10), with its words."""
import numpy as np
import pytest

import training.metrics as M


@pytest.mark.parametrize("make, error, words", [
    (lambda: M.Accuracy("x"), TypeError, "'eval_type' must be in"),
    (lambda: M.Precision("x"), TypeError, "'eval_type' must be in"),
    (lambda: M.Recall(eval_type=3), TypeError, "'eval_type' must be in"),
    (lambda: M.Fbeta("a"), TypeError, "'beta' must be a number"),
    (lambda: M.Fbeta(0), ValueError, "'beta' must be greater than 0"),
    (lambda: M.TopKCategoricalAccuracy("a"), TypeError, "type of the argument 'k' should be int"),
    (lambda: M.TopKCategoricalAccuracy(1.5), TypeError, "type of the argument 'k' should be int"),
    (lambda: M.TopKCategoricalAccuracy(0), ValueError, "'k' must be at least 1"),
    (lambda: M.Dice(smooth=1), TypeError, "'smooth' must be float"),
    (lambda: M.Dice(smooth=0.0), ValueError, "'smooth' must be float and must > 0"),
])
def test_argument_errors(make, error, words):
    with pytest.raises(error, match=words):
        make()


def test_an_input_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match="input data type must be tensor, list or numpy.ndarray"):
        M.Loss().update("a")
    # numbers stay accepted (a backend may hand the loss over as a float)
    loss = M.Loss()
    loss.update(2.0)
    assert loss.eval() == 2.0
    acc = M.Accuracy()
    acc.update(np.array([[0.1, 0.9]]), np.array([1]))
    assert acc.eval() == 1.0
