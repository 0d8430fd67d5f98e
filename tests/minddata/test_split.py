import pytest

import minddata as ds
from .engine_helpers import numbers, values


def test_fractions_remainder_to_first():
    parts = numbers(10).split([0.33, 0.33, 0.34], randomize=False)
    assert [p.get_dataset_size() for p in parts] == [4, 3, 3]
    assert values(parts[0]) == [0, 1, 2, 3] and values(parts[2]) == [7, 8, 9]


def test_random_split_covers_all_rows_once():
    ds.config.set_seed(0)
    parts = numbers(20).split([5, 15])
    got = sorted(values(parts[0]) + values(parts[1]))
    assert got == list(range(20)) and len(values(parts[0])) == 5


def test_split_of_pipeline_without_randomize():
    parts = numbers(6).map(lambda x: x * 2, "x").split([2, 4], randomize=False)
    assert values(parts[1]) == [4, 6, 8, 10]
    with pytest.raises(RuntimeError):
        numbers(6).map(lambda x: x, "x").split([2, 4])


def test_split_validation():
    with pytest.raises(RuntimeError):
        numbers(5).split([2, 2])
    with pytest.raises(ValueError):
        numbers(5).split([0.5, 0.6])
    with pytest.raises(ValueError, match="sizes should be list of int or list of float"):
        numbers(5).split([2, 0.5])      # measured in MindSpore 2.10: ValueError
