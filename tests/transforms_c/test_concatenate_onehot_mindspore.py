"""Concatenate and OneHot as MindSpore 2.10 (issue 20, row 6 and the OneHot left-over):
Concatenate refuses prepend/append arrays of another rank when built and inputs of another
rank or type when run; OneHot drops dimensions of 1 first (a [3] label is the label 3, a
(n, 1) column is n labels); errors carry MindSpore's words."""
import numpy as np
import pytest

from transforms_c.transforms import Concatenate, OneHot


@pytest.mark.parametrize("kwargs, words", [
    (dict(axis=1), "only 1D concatenation supported"),
    (dict(prepend=np.zeros((2, 2))), "can only prepend 1D arrays"),
    (dict(append=np.zeros((1, 3))), "can only append 1D arrays"),
    (dict(append=np.array(5)), "can only append 1D arrays"),
])
def test_concatenate_refuses_wrong_ranks_when_built(kwargs, words):
    with pytest.raises(ValueError, match=words):
        Concatenate(**kwargs)


def test_concatenate_refuses_wrong_inputs_when_run():
    with pytest.raises(RuntimeError, match="only 1D input supported, got rank of input: 2"):
        Concatenate(0, np.array([1]))(np.array([[1, 2]]))
    with pytest.raises(RuntimeError, match="input datatype does not match the prepend datatype"):
        Concatenate(0, np.array([1.5]))(np.array([1, 2]))
    with pytest.raises(RuntimeError, match="input datatype does not match the append datatype"):
        Concatenate(0, append=np.array([1], np.int64))(np.array([1, 2], np.int32))
    # strings of any width are one type
    out = Concatenate(0, np.array(["a"]))(np.array(["bb", "c"]))
    assert out.tolist() == ["a", "bb", "c"]


@pytest.mark.parametrize("label, shape", [(np.array(1), (3,)), (np.array([1]), (3,)),
                                          (np.array([[1], [2]]), (2, 3)),
                                          (np.array([1, 2]), (2, 3))])
def test_one_hot_drops_dimensions_of_one_first(label, shape):
    out = OneHot(3)(label)
    assert out.shape == shape and out.dtype == label.dtype
    assert np.array_equal(out.reshape(-1, 3).argmax(axis=1), label.reshape(-1))


@pytest.mark.parametrize("label, shape", [(np.array(0), ()), (np.array([0]), ()),
                                          (np.array([0, 0]), (2,)), (np.array([[0], [0]]), (2,))])
@pytest.mark.parametrize("smoothing_rate", [0.0, 0.1])
def test_one_hot_of_one_class_has_no_class_axis(label, shape, smoothing_rate):
    # MindSpore 2.10 drops the output's dimensions of 1 too (found by
    # tools/zoo_pipelines_vs_mindspore.py: OneHot(1) of a label gave (1,) here, () there)
    out = OneHot(1, smoothing_rate)(label)
    assert out.shape == shape and np.all(out == 1)
    # with smoothing, (1 - s) + s / 1 = 1 everywhere (MindSpore 2.10 gave [0.1, 1.0] for
    # two labels: the README's deviation)
    assert out.dtype == (np.float64 if smoothing_rate else label.dtype)


def test_one_hot_smoothing_marks_every_row_and_is_float64():
    out = OneHot(3, smoothing_rate=0.1)(np.array([[1], [2]]))
    assert out.dtype == np.float64 and out.shape == (2, 3)
    hot, cold = 1 - 0.1 + 0.1 / 3, 0.1 / 3
    np.testing.assert_allclose(out, [[cold, hot, cold], [cold, cold, hot]])


def test_one_hot_errors_carry_mindspore_words():
    with pytest.raises(RuntimeError, match="Only support input of int type, but got: float64"):
        OneHot(3)(np.array([1.0]))
    with pytest.raises(RuntimeError, match="Only support scalar or 1D input, got rank: 2"):
        OneHot(3)(np.array([[1, 2], [0, 1]]))
    with pytest.raises(ValueError, match=r"Input smoothing_rate is not within the required "
                                         r"interval of \[0.0, 1.0\]\."):
        OneHot(3, smoothing_rate=1.1)
