"""to_torch's state_dict()/load_state_dict(): resuming mid-epoch, directly and through torchdata's
StatefulDataLoader (with and without workers)."""
import itertools
import json

import pytest

torch = pytest.importorskip("torch")

from minddata import config  # noqa: E402
from minddata.pytorch import to_torch  # noqa: E402
from tests.minddata.torch_helpers import ids_of, make_pipeline  # noqa: E402


@pytest.fixture(autouse=True)
def _seed():
    config.set_seed(11)
    yield


def full_epoch(epoch=0):
    adapter = to_torch(make_pipeline)
    adapter.set_epoch(epoch)
    return ids_of(adapter)


@pytest.mark.parametrize("epoch", [0, 1])
def test_resume_mid_epoch_continues_with_the_same_rows(epoch):
    adapter = to_torch(make_pipeline)
    adapter.set_epoch(epoch)
    head = ids_of(itertools.islice(iter(adapter), 5))
    state = json.loads(json.dumps(adapter.state_dict()))
    assert state["epoch"] == epoch and state["num_shards"] == 1 and not state["done"]

    resumed = to_torch(make_pipeline)
    resumed.load_state_dict(state)
    assert resumed.state_dict() == state  # pending until the next pass
    assert head + ids_of(resumed) == full_epoch(epoch)


def test_a_finished_pass_in_the_main_process_resumes_at_the_next_epoch():
    adapter = to_torch(make_pipeline)
    ids_of(adapter)
    state = adapter.state_dict()
    assert (state["epoch"], state["iterator"], state["done"]) == (1, None, False)
    resumed = to_torch(make_pipeline)
    resumed.load_state_dict(state)
    assert ids_of(resumed) == full_epoch(1)


def test_state_between_passes_follows_set_epoch():
    adapter = to_torch(make_pipeline)
    assert adapter.state_dict() == {"epoch": 0, "iterator": None, "done": False,
                                    "num_shards": None, "shard_id": None}
    ids_of(adapter)
    adapter.set_epoch(5)
    state = adapter.state_dict()
    assert (state["epoch"], state["iterator"], state["num_shards"]) == (5, None, 1)


def test_a_state_is_refused_by_another_shard_or_when_malformed():
    adapter = to_torch(make_pipeline, num_shards=2, shard_id=0)
    next(iter(adapter))
    state = adapter.state_dict()
    other = to_torch(make_pipeline, num_shards=2, shard_id=1)
    other.load_state_dict(state)
    with pytest.raises(ValueError, match="saved by shard 0 of 2"):
        iter(other)
    with pytest.raises(ValueError, match="'state_dict' must be a dict"):
        other.load_state_dict({"epoch": 0})


@pytest.mark.parametrize("num_workers", [0, 2])
def test_stateful_dataloader_resumes_mid_epoch(num_workers):
    stateful = pytest.importorskip("torchdata.stateful_dataloader")

    def loader():
        return stateful.StatefulDataLoader(to_torch(make_pipeline), batch_size=None,
                                           num_workers=num_workers)

    first = loader()
    head = ids_of(itertools.islice(iter(first), 5))
    state = first.state_dict()
    del first

    second = loader()
    second.load_state_dict(state)
    rest = ids_of(second)
    if num_workers == 0:
        assert head + rest == full_epoch()
    else:
        expected = ids_of(loader())  # the workers' interleaving of one whole epoch
        assert head + rest == expected
    assert sorted(head + rest) == list(range(48))
