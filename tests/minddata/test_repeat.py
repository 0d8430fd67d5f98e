"""repeat: finite and infinite, sizes, counts."""
import itertools

import pytest

import minddata as ds
from .engine_helpers import numbers, values


def test_repeat_count():
    assert values(numbers(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert numbers(3).repeat(2).get_dataset_size() == 6
    # measured in MindSpore 2.10: the outermost repeat's count, not the product
    assert numbers(3).repeat(2).repeat(3).get_repeat_count() == 3


def test_infinite_repeat():
    it = numbers(3).repeat().create_tuple_iterator(num_epochs=1)
    got = [int(r[0]) for r in itertools.islice(it, 8)]
    it.close()
    assert got == [0, 1, 2, 0, 1, 2, 0, 1]
    assert numbers(3).repeat().get_repeat_count() == -1


def test_repeat_of_empty_infinite_ends():
    assert values(numbers(3).skip(3).repeat()) == []


def test_shuffled_source_reshuffles_each_pass():
    ds.config.set_seed(4)
    out = values(numbers(10, shuffle=True).repeat(2))
    assert out[:10] != out[10:] and sorted(out[:10]) == sorted(out[10:]) == list(range(10))


def test_validation():
    with pytest.raises(ValueError):
        numbers(3).repeat(0)
    with pytest.raises(ValueError):
        numbers(3).repeat(-2)
    with pytest.raises(TypeError):
        numbers(3).repeat(1.5)
