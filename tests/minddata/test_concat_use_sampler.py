"""ConcatDataset.use_sampler: a DistributedSampler splits the concatenated rows over shards as
MindSpore 2.10 does (positions measured there, see graph/concat.py), a RandomSampler interleaves
the datasets; both resume exactly."""
import numpy as np
import pytest

import minddata as ds
from tests.minddata.engine_helpers import check_resume


def concat(*sizes):
    parts = [ds.NumpySlicesDataset({"x": np.arange(n) + 100 * (i + 1)}, shuffle=False)
             for i, n in enumerate(sizes)]
    out = parts[0]
    for part in parts[1:]:
        out = out + part
    return out


def rows(dataset):
    return [int(r[0]) for r in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1)]


@pytest.mark.parametrize("sizes,shards,expected", [
    ((5, 3), 2, [[100, 102, 104, 201], [101, 103, 200, 202]]),
    ((5, 3), 4, [[100, 104], [101, 200], [102, 201], [103, 202]]),
    ((7, 1), 4, [[100, 104], [101, 105], [102, 106], [103, 200]]),
    ((3, 2, 4), 2, [[100, 102, 201, 301, 303], [101, 200, 300, 302]]),
    ((3, 2, 4), 4, [[100, 201, 303], [101, 300], [102, 301], [200, 302]]),
])
def test_distributed_sampler_takes_every_nth_row_of_the_concat(sizes, shards, expected):
    got = []
    for k in range(shards):
        data = concat(*sizes)
        data.use_sampler(ds.DistributedSampler(shards, k, shuffle=False))
        assert data.get_dataset_size() == len(expected[k])
        got.append(rows(data))
    assert got == expected


def test_a_padded_dataset_evens_out_the_shards(tmp_path):
    data = ds.NumpySlicesDataset({"x": np.arange(7)}, shuffle=False)
    padded = ds.PaddedDataset([{"x": np.array(-1)}])
    shards = []
    for k in range(4):
        both = data + padded
        both.use_sampler(ds.DistributedSampler(4, k, shuffle=False))
        shards.append(rows(both.repeat(2)))
    assert shards == [[0, 4, 0, 4], [1, 5, 1, 5], [2, 6, 2, 6], [3, -1, 3, -1]]


def test_the_sampler_is_checked_as_mindspore_checks_it():
    data = concat(3, 3)
    with pytest.raises(TypeError, match="must be DistributedSampler or RandomSampler"):
        data.use_sampler(None)
    with pytest.raises(ValueError, match="shuffle of DistributedSampler must be False"):
        data.use_sampler(ds.DistributedSampler(2, 0, shuffle=True))
    with pytest.raises(ValueError, match="num_samples of DistributedSampler"):
        data.use_sampler(ds.DistributedSampler(2, 0, shuffle=False, num_samples=2))
    assert rows(data) == [100, 101, 102, 200, 201, 202]      # unchanged by the refusals


def test_random_sampler_interleaves_keeping_each_order():
    ds.config.set_seed(5)
    data = concat(3, 2, 4)
    data.use_sampler(ds.RandomSampler())
    first = rows(data)
    assert sorted(first) == [100, 101, 102, 200, 201, 300, 301, 302, 303]
    for base in (100, 200, 300):
        mine = [r for r in first if base <= r < base + 100]
        assert mine == sorted(mine)
    ds.config.set_seed(5)
    assert rows(data) == first
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=3)
    epochs = {tuple(int(r[0]) for r in it) for _ in range(3)}
    assert len(epochs) > 1                                  # each epoch its own interleave


@pytest.mark.parametrize("sampler", [ds.DistributedSampler(3, 1, shuffle=False),
                                     ds.RandomSampler()])
def test_resume_mid_epoch(sampler):
    data = concat(5, 4, 6)
    data.use_sampler(sampler)
    check_resume(data, num_epochs=2, stops=(0, 2, 5, 9))


def test_a_source_uses_or_adds_a_sampler_as_mindspore_does():
    # Figures measured in MindSpore 2.10 (NumpySlicesDataset over 0..5).
    data = ds.NumpySlicesDataset({"x": np.arange(6)}, shuffle=False)
    data.use_sampler(ds.SequentialSampler(2, 3))
    assert rows(data) == [2, 3, 4]
    data = ds.NumpySlicesDataset({"x": np.arange(6)}, sampler=ds.SequentialSampler(1, 4))
    data.use_sampler(ds.DistributedSampler(2, 0, shuffle=False))
    assert rows(data) == [0, 2, 4] and data.get_dataset_size() == 3
    data = ds.NumpySlicesDataset({"x": np.arange(6)}, shuffle=False)
    data.add_sampler(ds.DistributedSampler(2, 1, shuffle=False))
    assert rows(data) == [1, 3, 5]
    data = ds.NumpySlicesDataset({"x": np.arange(6)}, sampler=ds.SequentialSampler(1, 4))
    data.add_sampler(ds.DistributedSampler(2, 1, shuffle=False))
    assert rows(data) == [2, 4]
    with pytest.raises(TypeError, match="can not be None"):
        data.use_sampler(None)
    with pytest.raises(TypeError, match="not an instance of a sampler"):
        data.use_sampler(3)



def _stream(start, n):
    def rows():
        for i in range(start, start + n):
            yield (np.array(i),)
    return ds.GeneratorDataset(rows, ["x"])      # no __len__: sizes unknown before reading


def test_random_sampler_over_datasets_of_unknown_size():
    """Measured in MindSpore 2.10: a RandomSampler on a concat of generator functions without
    __len__ is accepted, and rows of both come early. Here each row is drawn among the datasets
    not yet exhausted, from its position's seed: every row once, each dataset in its order."""
    data = _stream(0, 5) + _stream(10, 5)
    data.use_sampler(ds.RandomSampler())
    ds.config.set_seed(1)
    first = rows(data)
    assert sorted(first) == list(range(5)) + list(range(10, 15))
    assert {r // 10 for r in first[:4]} == {0, 1}
    assert [r for r in first if r < 10] == list(range(5))
    ds.config.set_seed(1)
    assert rows(data) == first
    check_resume(data, num_epochs=2, stops=(0, 3, 7, 12))
