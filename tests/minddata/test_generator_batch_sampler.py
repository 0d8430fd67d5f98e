"""GeneratorDataset(batch_sampler=..., collate_fn=...) as in MindSpore 2.x."""
import numpy as np
import pytest

import minddata as ds


class Source:
    def __getitem__(self, i):
        return np.array([i, i]), np.array(i * 10)

    def __len__(self):
        return 7


def _rows(d, num_epochs=1):
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=num_epochs)
    return [[a.tolist() for a in r] for r in it]


def test_batches_are_stacked_rows():
    d = ds.GeneratorDataset(Source(), ["a", "b"], batch_sampler=[[0, 1, 2], [3, 4], [5]])
    assert d.get_dataset_size() == 3
    assert _rows(d) == [[[[0, 0], [1, 1], [2, 2]], [0, 10, 20]], [[[3, 3], [4, 4]], [30, 40]],
                        [[[5, 5]], [50]]]


def test_collate_fn_gets_the_columns_as_lists():
    def collate(a, b):
        assert isinstance(a, list) and isinstance(b, list)
        return np.stack(a).sum(axis=0), np.array(len(b))
    d = ds.GeneratorDataset(Source(), ["a", "b"], batch_sampler=[[0, 1], [2, 3, 4]],
                            collate_fn=collate)
    assert _rows(d) == [[[1, 1], 2], [[9, 9], 3]]


def test_batch_sampler_is_iterated_every_epoch():
    class Shifting:
        def __init__(self):
            self.epoch = 0

        def __iter__(self):
            self.epoch += 1
            return iter([[self.epoch]])

        def __len__(self):
            return 1

    d = ds.GeneratorDataset(Source(), ["a", "b"], batch_sampler=Shifting())
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert [[r[1].tolist() for r in it] for _ in range(2)] == [[[10]], [[20]]]


@pytest.mark.parametrize("kw, error", [
    (dict(batch_sampler=[[0]], shuffle=True), ValueError),
    (dict(batch_sampler=[[0]], num_samples=2), ValueError),
    (dict(batch_sampler=[[0]], sampler=[0]), ValueError),
    (dict(batch_sampler=[[0]], num_shards=2, shard_id=0), ValueError),
    (dict(collate_fn=lambda *c: c), ValueError),
    (dict(batch_sampler=3), TypeError),
    (dict(batch_sampler=[[0]], collate_fn=5), TypeError),
])
def test_argument_errors(kw, error):
    with pytest.raises(error):
        ds.GeneratorDataset(Source(), ["a", "b"], **kw)


def test_rows_of_different_shapes_without_collate_fn_fail_clearly():
    class Ragged:
        def __getitem__(self, i):
            return (np.zeros(i + 1),)

        def __len__(self):
            return 3

    d = ds.GeneratorDataset(Ragged(), ["a"], batch_sampler=[[0, 1]])
    with pytest.raises(RuntimeError, match="different shapes"):
        _rows(d)
