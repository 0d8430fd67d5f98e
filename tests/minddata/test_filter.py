import numpy as np
import pytest

from .engine_helpers import numbers, values


def test_filter_keeps_true_rows():
    assert values(numbers(10).filter(lambda x: x % 3 == 0, ["x"])) == [0, 3, 6, 9]


def test_filter_all_columns_by_default_and_size():
    d = numbers(10).filter(lambda x, y: y > 50)
    assert values(d) == [6, 7, 8, 9]
    assert d.get_dataset_size() == 4


def test_filter_array_result_and_errors():
    assert values(numbers(4).filter(lambda x: np.array([x > 1]), ["x"])) == [2, 3]
    with pytest.raises(TypeError):
        numbers(3).filter(5)
    with pytest.raises(ValueError):
        numbers(3).filter(lambda x: True, ["nope"])
    with pytest.raises(RuntimeError, match="Filter.*ValueError: boom"):
        values(numbers(3).filter(lambda x: (_ for _ in ()).throw(ValueError("boom")), ["x"]))
