"""What MindSpore accepts as sampler=: user objects that are not ds.Sampler subclasses,
the number of rows of replacement samplers, and the sampling-argument errors of
GeneratorDataset / NumpySlicesDataset."""
import logging

import numpy as np
import pytest

import minddata as ds
from .engine_helpers import numbers, values


class ModelZooDistributedSampler:
    """Like the model zoo's YOLO sampler: not a ds.Sampler, a new permutation per __iter__."""

    def __init__(self, dataset_size, num_replicas=2, rank=0):
        self.dataset_size = dataset_size
        self.num_replicas, self.rank = num_replicas, rank
        self.epoch = 0
        self.num_samples = -(-dataset_size // num_replicas)
        self.calls = 0

    def __iter__(self):
        self.calls += 1
        order = np.random.RandomState(self.epoch).permutation(self.dataset_size).tolist()
        self.epoch += 1
        order += order[:self.num_samples * self.num_replicas - len(order)]
        return iter(order[self.rank::self.num_replicas])

    def __len__(self):
        return self.num_samples


def test_iterable_object_as_sampler_is_iterated_once_per_epoch():
    sampler = ModelZooDistributedSampler(8)
    d = numbers(8, sampler=sampler)
    # building the dataset iterates it once more, as MindSpore's argument check does
    calls_after_build = sampler.calls
    assert calls_after_build == 2
    assert d.get_dataset_size() == 4 and sampler.calls == calls_after_build   # __len__
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    first = [int(r[0]) for r in it]
    second = [int(r[0]) for r in it]
    # each iterator reads its own copy of the sampler, as in MindSpore 2.10 (measured: a
    # second iterator gives the same rows): the object given stays as it was built
    assert sampler.calls == calls_after_build
    again = d.create_tuple_iterator(num_epochs=1, output_numpy=True)
    assert [int(r[0]) for r in again] == first
    order = np.random.RandomState(2).permutation(8).tolist()
    assert first == order[0::2]
    assert second == np.random.RandomState(3).permutation(8).tolist()[0::2]


def test_getitem_len_object_and_plain_iterable():
    class Indexable:
        def __getitem__(self, i):
            if i >= 3:
                raise IndexError(i)
            return [5, 4, 3][i]

        def __len__(self):
            return 3

    assert values(numbers(6, sampler=Indexable())) == [5, 4, 3]

    class NoLen:
        def __iter__(self):
            return iter([0, 2, 4, 1])

    d = numbers(6, sampler=NoLen())
    assert d.get_dataset_size() == 4 and values(d) == [0, 2, 4, 1]


def test_iter_sampler_with_num_samples_and_file_sources(tmp_path):
    d = numbers(6, sampler=ds.IterSampler([5, 1, 3, 0]), )
    assert values(d) == [5, 1, 3, 0]
    d = ds.GeneratorDataset([(np.array(i),) for i in range(6)], ["a"],
                            sampler=iter_of([5, 4, 3, 2]), num_samples=2)
    assert values(d) == [5, 4]
    (tmp_path / "cls").mkdir()
    for k in range(3):
        (tmp_path / "cls" / f"{k}.bin").write_bytes(bytes([k]))
    folder = ds.ImageFolderDataset(str(tmp_path), sampler=iter_of([2, 0]))
    assert [r[0].tolist() for r in folder.create_tuple_iterator(output_numpy=True)] == [[2], [0]]


class iter_of:  # noqa: N801  (a tiny iterable object, not a list)
    def __init__(self, ids):
        self.ids = ids

    def __iter__(self):
        return iter(self.ids)


def test_user_sampler_subclass_reset_and_count():
    calls = []

    class Reverse(ds.Sampler):
        def __iter__(self):
            calls.append("iter")
            return iter(range(self.dataset_size - 1, -1, -1))

        def reset(self):
            calls.append("reset")

    d = numbers(4, sampler=Reverse())
    assert d.get_dataset_size() == 4
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it] == [3, 2, 1, 0]
    assert [int(r[0]) for r in it] == [3, 2, 1, 0]
    assert calls.count("reset") == 1          # before the second epoch


def test_num_samples_is_capped_at_the_rows_as_mindspore_does():
    # Measured on MindSpore 2.10: num_samples beyond the dataset gives one row per row, with
    # replacement too (SamplerRT caps num_samples at the number of rows).
    d = numbers(10, sampler=ds.RandomSampler(replacement=True, num_samples=25))
    assert d.get_dataset_size() == 10 and len(values(d)) == 10
    d = numbers(6, sampler=ds.WeightedRandomSampler([1, 2, 3, 4, 5, 6], 30))
    got = values(d)
    assert d.get_dataset_size() == 6 and len(got) == 6 and set(got) <= set(range(6))
    d = numbers(10, sampler=ds.RandomSampler(replacement=True, num_samples=4))
    assert d.get_dataset_size() == 4 and len(values(d)) == 4
    # weights for fewer rows than the dataset: ids among those rows, num_rows of them
    got = values(numbers(10, sampler=ds.WeightedRandomSampler([1, 1, 1])))
    assert len(got) == 10 and set(got) <= {0, 1, 2}
    with pytest.raises(RuntimeError, match="size of sample weights"):
        values(numbers(2, sampler=ds.WeightedRandomSampler([1, 1, 1])))


@pytest.mark.parametrize("kw, message", [
    (dict(num_shards=2), "passed in together"),
    (dict(shard_id=0), "passed in together"),
    (dict(num_shards=2, shard_id=2), "less than num_shards"),
    (dict(num_shards=0, shard_id=0), "num_shards is not within"),
    (dict(sampler=ds.SequentialSampler(), shuffle=True), "Conflicting arguments"),
    (dict(sampler=ds.SequentialSampler(), num_shards=2, shard_id=0), "Conflicting arguments"),
    (dict(sampler=ds.SequentialSampler(), num_samples=3), "Conflicting arguments"),
])
def test_user_source_sampling_errors_are_value_errors(kw, message):
    with pytest.raises(ValueError, match=message):
        ds.NumpySlicesDataset(np.arange(4), **kw)
    with pytest.raises(ValueError, match=message):
        ds.GeneratorDataset([(np.array(1),)] * 4, ["a"], **kw)


def test_sampler_arguments_that_are_not_samplers():
    with pytest.raises(TypeError, match="num_shards"):
        ds.NumpySlicesDataset(np.arange(4), num_shards="2", shard_id=0)
    with pytest.raises(TypeError, match="iterable"):
        ds.GeneratorDataset([(np.array(1),)] * 4, ["a"], sampler=object())
    bad = ds.NumpySlicesDataset(np.arange(4), sampler=iter_of(["x"]))
    with pytest.raises(TypeError, match="int row ids"):
        values(bad)


def test_plain_sampler_overrides_shuffle_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="minddata"):
        d = ds.NumpySlicesDataset(np.arange(6), sampler=[1, 2], shuffle=True)
    assert values(d) == [1, 2]
    assert "ignored" in caplog.text
