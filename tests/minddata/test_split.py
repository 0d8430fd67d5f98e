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


def test_randomized_split_of_a_pipeline_partitions_a_fixed_order():
    # as MindSpore 2.10 splits a pipeline that is not a plain random-access source (measured:
    # GeneratorDataset over a generator function, split([0.8, 0.2]) gives 51 and 13 rows of
    # 64): every part reads the same shuffled order, the same every epoch
    parts = numbers(10).map(lambda x: x * 2, "x").split([0.6, 0.4])
    assert [p.get_dataset_size() for p in parts] == [6, 4]
    rows = [values(p, num_epochs=1) for p in parts]
    assert sorted(rows[0] + rows[1]) == list(range(0, 20, 2))
    assert rows[0] != sorted(rows[0]) or rows[1] != sorted(rows[1])
    it = parts[0].create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [r[0].tolist() for r in it] == [r[0].tolist() for r in it]


def test_split_validation():
    with pytest.raises(RuntimeError):
        numbers(5).split([2, 2])
    with pytest.raises(ValueError):
        numbers(5).split([0.5, 0.6])
    with pytest.raises(ValueError, match="sizes should be list of int or list of float"):
        numbers(5).split([2, 0.5])      # measured in MindSpore 2.10: ValueError
