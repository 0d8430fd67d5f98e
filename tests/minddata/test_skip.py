import pytest

from .engine_helpers import numbers, values


def test_skip():
    assert values(numbers(5).skip(3)) == [3, 4]
    assert values(numbers(5).skip(0)) == list(range(5))
    assert values(numbers(2).skip(5)) == []
    assert numbers(5).skip(3).get_dataset_size() == 2


def test_skip_validation():
    with pytest.raises(ValueError):
        numbers(2).skip(-1)
