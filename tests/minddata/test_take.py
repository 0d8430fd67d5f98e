import pytest

from .engine_helpers import numbers, values


def test_take():
    assert values(numbers(5).take(3)) == [0, 1, 2]
    assert values(numbers(5).take(-1)) == list(range(5))
    assert values(numbers(2).take(9)) == [0, 1]
    assert numbers(5).take(3).get_dataset_size() == 3


def test_take_per_epoch_before_repeat():
    assert values(numbers(5).take(2).repeat(2)) == [0, 1, 0, 1]


def test_take_validation():
    with pytest.raises(ValueError):
        numbers(2).take(0)
    with pytest.raises(ValueError):
        numbers(2).take(-3)
    with pytest.raises(TypeError):
        numbers(2).take("1")
