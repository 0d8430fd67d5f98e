"""Samplers: ids per epoch, the measured shard split, chaining, validation."""
import numpy as np
import pytest

import minddata as ds
from .engine_helpers import numbers, values


def test_measured_shard_split_without_shuffle():
    got = [values(numbers(10, num_shards=3, shard_id=k)) for k in range(3)]
    assert got == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    assert numbers(10, num_shards=3, shard_id=1).get_dataset_size() == 4


def test_distributed_sampler_same_split():
    got = [values(numbers(10, sampler=ds.DistributedSampler(3, k, shuffle=False)))
           for k in range(3)]
    assert got == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]


def test_shuffled_shards_are_disjoint_and_cover():
    ds.config.set_seed(3)
    parts = [values(numbers(12, shuffle=True, num_shards=4, shard_id=k)) for k in range(4)]
    flat = sorted(v for p in parts for v in p)
    assert flat == list(range(12)) and parts[0] != [0, 4, 8]


def test_sequential_sampler():
    assert values(numbers(6, sampler=ds.SequentialSampler(2, 3))) == [2, 3, 4]


def test_random_sampler_with_and_without_replacement():
    ds.config.set_seed(1)
    out = values(numbers(8, sampler=ds.RandomSampler()))
    assert sorted(out) == list(range(8))
    out = values(numbers(8, sampler=ds.RandomSampler(replacement=True, num_samples=6)))
    assert len(out) == 6 and set(out) <= set(range(8))


def test_subset_samplers():
    assert values(numbers(6, sampler=ds.SubsetSampler([4, 1, 1]))) == [4, 1, 1]
    out = values(numbers(6, sampler=ds.SubsetRandomSampler([0, 2, 4])))
    assert sorted(out) == [0, 2, 4]
    with pytest.raises(RuntimeError, match=r"Sample ID \(5\) is out of bound"):
        values(numbers(3, sampler=ds.SubsetSampler([5])))


def test_weighted_random_sampler():
    ds.config.set_seed(0)
    out = values(numbers(6, sampler=ds.WeightedRandomSampler([0, 0, 1, 0], num_samples=5)))
    assert out == [2] * 5
    with pytest.raises(ValueError):
        ds.WeightedRandomSampler([0, 0])


def test_pk_sampler_takes_k_per_class(tmp_path):
    for c in range(3):
        (tmp_path / f"c{c}").mkdir()
        for j in range(3):
            (tmp_path / f"c{c}" / f"{j}.jpg").write_bytes(bytes([c, j]))
    d = ds.ImageFolderDataset(str(tmp_path), sampler=ds.PKSampler(2))
    out = [int(r["label"]) for r in d.create_dict_iterator(num_epochs=1, output_numpy=True)]
    assert out == [0, 0, 1, 1, 2, 2]


def test_add_child_chains():
    parent = ds.SequentialSampler(num_samples=2)
    parent.add_child(ds.SubsetSampler([5, 3, 1]))
    assert values(numbers(6, sampler=parent)) == [5, 3]
    with pytest.raises(RuntimeError):
        parent.add_child(ds.SequentialSampler())


def test_num_samples_truncates():
    assert values(numbers(10, num_samples=3)) == [0, 1, 2]
    assert numbers(10, num_samples=3).get_dataset_size() == 3


def test_validation_errors_match_mindspore_types():
    # GeneratorDataset / NumpySlicesDataset raise ValueError here (file sources RuntimeError)
    with pytest.raises(ValueError):
        numbers(4, num_shards=2)                     # shard_id missing
    with pytest.raises(ValueError):
        numbers(4, num_shards=2, shard_id=2)
    with pytest.raises(ValueError):
        ds.NumpySlicesDataset([1, 2], shuffle=True, sampler=ds.SequentialSampler())
    with pytest.raises(ValueError):
        ds.DistributedSampler(2, 5)
    with pytest.raises(TypeError):
        ds.RandomSampler(replacement="no")
    with pytest.raises(ValueError):
        ds.SequentialSampler(num_samples=-1)


def test_list_as_sampler():
    assert values(numbers(5, sampler=[3, 0])) == [3, 0]


def test_user_defined_sampler():
    class EveryOther(ds.Sampler):
        def __iter__(self):
            return iter(range(0, self.dataset_size, 2))

    d = numbers(7, sampler=EveryOther())
    assert values(d) == [0, 2, 4, 6]
    assert d.get_dataset_size() == 4


def test_unseeded_shuffled_shards_still_partition_the_rows():
    # Each rank builds its own pipeline; without set_seed they must agree on the permutation.
    parts = [values(numbers(12, shuffle=True, num_shards=3, shard_id=k)) for k in range(3)]
    assert sorted(v for p in parts for v in p) == list(range(12))
