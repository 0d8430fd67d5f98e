"""to_torch on a built Dataset that must read a shard (DataLoader workers, an explicit or
torch.distributed rank): each (rank, worker) reads minddata.auto_shard of it, the split the factory
path uses; what auto_shard refuses is refused with its reason and a pointer to the factory."""
import itertools
import json
import re
import types

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import minddata as ds  # noqa: E402
from minddata import config  # noqa: E402
from minddata.pytorch import to_torch  # noqa: E402
from tests.minddata.torch_helpers import (check_mapped, id_rows, ids_of,  # noqa: E402
                                          make_mapped_pipeline, make_pipeline)
from torch.utils.data import DataLoader  # noqa: E402


@pytest.fixture(autouse=True)
def _seed():
    config.set_seed(5)
    yield


def as_worker(monkeypatch, worker_id, num_workers):
    """Run the adapter's passes as inside DataLoader worker ``worker_id`` of ``num_workers``."""
    import minddata.pytorch.iterable as iterable
    worker = types.SimpleNamespace(id=worker_id, num_workers=num_workers)
    monkeypatch.setattr(iterable, "get_worker_info", lambda: worker)


def load(adapter, num_workers, epoch=0):
    adapter.set_epoch(epoch)
    batches = list(DataLoader(adapter, batch_size=None, num_workers=num_workers))
    check_mapped(batches)
    return ids_of(batches)


def test_dataloader_workers_split_a_built_dataset_as_they_split_a_factory():
    built = load(to_torch(make_mapped_pipeline()), num_workers=2)
    assert sorted(built) == list(range(48))
    assert built == load(to_torch(make_mapped_pipeline), num_workers=2)


def test_set_epoch_reaches_the_workers_of_a_built_dataset():
    adapter = to_torch(make_mapped_pipeline())
    epochs = [load(adapter, num_workers=2, epoch=e) for e in (0, 1)]
    assert all(sorted(ids) == list(range(48)) for ids in epochs)
    assert epochs[0] != epochs[1]
    assert epochs[1] == load(to_torch(make_mapped_pipeline), num_workers=2, epoch=1)


def test_an_explicit_rank_shard_of_a_built_dataset_is_its_source_shard():
    per_rank = [ids_of(to_torch(make_pipeline(), num_shards=2, shard_id=r)) for r in range(2)]
    assert per_rank == [ids_of(to_torch(make_pipeline, num_shards=2, shard_id=r))
                        for r in range(2)]
    assert len(per_rank[0]) == len(per_rank[1]) == 24
    assert sorted(per_rank[0] + per_rank[1]) == list(range(48))


def test_rank_and_worker_split_of_a_built_dataset(monkeypatch):
    # Rank 1 of 2, worker w of 2: shard 2 + w of 4, as the factory path reads it.
    for w in range(2):
        as_worker(monkeypatch, w, 2)
        built = ids_of(to_torch(make_pipeline(), num_shards=2, shard_id=1))
        assert built == ids_of(make_pipeline(4, 2 + w).create_tuple_iterator(
            num_epochs=1, output_numpy=True))
        assert len(built) == 12


def test_the_callers_dataset_is_left_unsharded(monkeypatch):
    data = make_pipeline()
    as_worker(monkeypatch, 1, 2)
    assert len(ids_of(to_torch(data))) == 24
    assert sorted(ids_of(data.create_tuple_iterator(num_epochs=1, output_numpy=True))) == \
        list(range(48))


@pytest.mark.parametrize("epoch", [0, 1])
def test_a_built_dataset_worker_shard_resumes_mid_epoch(monkeypatch, epoch):
    as_worker(monkeypatch, 1, 2)
    adapter = to_torch(make_mapped_pipeline())
    adapter.set_epoch(epoch)
    head = list(itertools.islice(iter(adapter), 2))
    state = json.loads(json.dumps(adapter.state_dict()))
    assert (state["epoch"], state["num_shards"], state["shard_id"]) == (epoch, 2, 1)

    resumed = to_torch(make_mapped_pipeline())
    resumed.load_state_dict(state)
    rest = list(resumed)
    check_mapped(head + rest)
    whole = to_torch(make_mapped_pipeline())
    whole.set_epoch(epoch)
    assert ids_of(head) + ids_of(rest) == ids_of(whole)
    assert len(ids_of(head + rest)) == 24


def test_a_built_dataset_state_is_refused_by_another_worker_shard(monkeypatch):
    as_worker(monkeypatch, 0, 2)
    adapter = to_torch(make_pipeline())
    next(iter(adapter))
    state = adapter.state_dict()
    as_worker(monkeypatch, 1, 2)
    other = to_torch(make_pipeline())
    other.load_state_dict(state)
    with pytest.raises(ValueError, match="saved by shard 0 of 2, but this pass reads shard 1"):
        iter(other)


# -- what auto_shard refuses ---------------------------------------------------------------------
def _slices(**kwargs):
    ids, images = id_rows(12)
    return ds.NumpySlicesDataset((ids, images), column_names=["id", "image"], **kwargs)


def _stream():
    for i in range(12):
        yield (np.array(i),)


REFUSED = {
    "take": (lambda: make_pipeline().take(3), r"Take\(3\) would count rows per shard"),
    "skip": (lambda: _slices().skip(2), r"Skip\(2\) would count rows per shard"),
    "zip": (lambda: ds.zip((_slices(), _slices().rename(["id", "image"], ["a", "b"]))),
            "zip's inputs would no longer be aligned"),
    "sharded": (lambda: _slices(num_shards=2, shard_id=1), "already reads shard 1 of 2"),
    "sampler": (lambda: _slices(sampler=ds.SequentialSampler()),
                "has a sampler; give it a DistributedSampler"),
    "stream": (lambda: ds.GeneratorDataset(_stream, ["id"]), "read as a stream"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_rank_shard_auto_shard_refuses_is_refused_at_once(case):
    make, reason = REFUSED[case]
    with pytest.raises(ValueError) as info:
        to_torch(make(), num_shards=2, shard_id=0)
    message = str(info.value)
    assert "to_torch: this rank must read shard 0 of 2" in message
    assert "cannot be re-sharded" in message
    assert "auto_shard" in message
    assert "make_dataset(num_shards, shard_id)" in message
    assert "num_shards=1, shard_id=0" in message
    assert re.search(reason, message), message


def test_a_worker_shard_auto_shard_refuses_is_refused_with_the_reason(monkeypatch):
    as_worker(monkeypatch, 1, 2)
    adapter = to_torch(make_pipeline().take(3))  # accepted: the worker count is not known yet
    with pytest.raises(ValueError, match=r"DataLoader worker must read shard 1 of 2.*"
                                         r"Take\(3\) would count rows per shard.*"
                                         r"make_dataset\(num_shards, shard_id\).*num_workers=0"):
        iter(adapter)


def test_refused_datasets_still_work_unsharded_and_factories_are_unchanged():
    assert len(ids_of(to_torch(make_pipeline().take(3)))) == 12
    assert len(ids_of(to_torch(make_pipeline().take(3), num_shards=1, shard_id=0))) == 12
    assert len(list(to_torch(_slices(num_shards=2, shard_id=1), num_shards=1,
                             shard_id=0))) == 6
    # A Dataset already sharded as the rank's shard needs no rewrite.
    assert ids_of(to_torch(make_pipeline(2, 1), num_shards=2, shard_id=1)) == \
        ids_of(to_torch(make_pipeline, num_shards=2, shard_id=1))
