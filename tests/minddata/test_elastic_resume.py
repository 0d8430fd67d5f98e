"""Elastic exact resume (minddata.reshard_state): states saved by N ranks continue on M ranks;
over all ranks, the rows delivered before and after the change are the epoch's rows exactly,
and the epochs after it are those of a fresh run with M ranks."""
import collections
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import minddata as ds
from .engine_helpers import RandomAdd, check_resume, numbers


def row_ids(item):
    """Source row ids in a row or batch (column y = 10 * row id)."""
    return (np.asarray(item[1]).reshape(-1) // 10).tolist()


def as_lists(item):
    return [np.asarray(a).tolist() for a in item]


def sharded(n, shuffle=True, batch=0, repeat=1, random_map=False, sampler=False):
    """Factory (num_shards, shard_id) -> the pipeline of that rank."""
    def make(num_shards, shard_id):
        if sampler:
            d = numbers(n, sampler=ds.DistributedSampler(num_shards, shard_id, shuffle=shuffle))
        else:
            d = numbers(n, shuffle=shuffle, num_shards=num_shards, shard_id=shard_id)
        if random_map:
            d = d.map(RandomAdd(), "x", num_parallel_workers=2)
        if batch:
            d = d.batch(batch)
        if repeat > 1:
            d = d.repeat(repeat)
        return d
    return make


def epoch_items(dataset, num_epochs, state=None):
    """Every epoch of a run as a list of items (rows or batches) as lists."""
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True, state=state)
    try:
        return [[as_lists(r) for r in it] for _ in range(num_epochs)]
    finally:
        it.close()


def save_states(make, old, stops, num_epochs=2):
    """Run each old rank for stops[k] items (-1: its whole first epoch, end included); returns
    (states, row ids delivered in epoch 0 over all ranks)."""
    ds.config.set_seed(77)
    states, delivered = [], []
    for k in range(old):
        it = make(old, k).create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
        if stops[k] < 0:
            for item in it:
                delivered.extend(row_ids(item))
        else:
            for _ in range(stops[k]):
                delivered.extend(row_ids(next(it)))
        states.append(json.loads(json.dumps(it.get_state())))
        it.close()
    return states, delivered


def stop_pass(stops, per_pass, repeat):
    """The pass of a repeat the old ranks stopped in (-1: a rank finished the epoch)."""
    passes = [repeat - 1 if s < 0 else (s - 1) // p if s > 0 and p else 0
              for s, p in zip(stops, per_pass)]
    return max(passes)


def check_elastic(make, old, new, stops, num_epochs=2, repeat=1):
    """The property of the rule, for one change of world size: over all ranks, the rows
    delivered before and after are the old world's rows of the pass the ranks stopped in
    (and of the passes before it), then the new world's rows of the later passes; the epochs
    after the resumed one are a fresh run's."""
    states, before = save_states(make, old, stops, num_epochs)
    fresh_old = [epoch_items(make(old, k), 1)[0] for k in range(old)]
    per_pass = [len(items) // repeat for items in fresh_old]
    # Saved at the epoch's very start by every rank: the whole epoch is the new world's.
    passes_done = 0 if not any(stops) else stop_pass(stops, per_pass, repeat) + 1
    expected = [i for items, p in zip(fresh_old, per_pass) for item in items[:passes_done * p]
                for i in row_ids(item)]
    after = []
    for r in range(new):
        dataset = make(new, r)
        state = ds.reshard_state(dataset, states)
        got = epoch_items(dataset, num_epochs, state=json.loads(json.dumps(state)))
        after.extend(i for item in got[0] for i in row_ids(item))
        fresh = epoch_items(make(new, r), num_epochs)
        assert got[1:] == fresh[1:], f"rank {r}: epochs after the resumed one differ"
        later = fresh[0][passes_done * (len(fresh[0]) // repeat):]
        expected.extend(i for item in later for i in row_ids(item))
    assert collections.Counter(before + after) == collections.Counter(expected)
    return states


@pytest.mark.parametrize("old,new,stops", [
    (2, 3, (3, 5)), (3, 2, (2, 0, 4)), (4, 1, (1, 2, 3, 0)), (2, 2, (1, 4)),
    (1, 3, (6,)), (3, 4, (-1, 1, -1))])
def test_shrinking_and_growing_with_shuffle(old, new, stops):
    check_elastic(sharded(23), old, new, stops)


@pytest.mark.parametrize("old,new", [(2, 3), (3, 2), (4, 1)])
def test_with_batches_a_random_map_and_repeat(old, new):
    make = sharded(29, batch=2, repeat=2, random_map=True)
    check_elastic(make, old, new, stops=(1, 3, 2, 4)[:old], repeat=2)


@pytest.mark.parametrize("old,new", [(2, 3), (3, 2), (4, 1)])
def test_with_a_distributed_sampler(old, new):
    check_elastic(sharded(17, sampler=True, batch=3), old, new, stops=(2, 1, 0, 2)[:old])


def test_repeat_stops_in_the_second_pass():
    make = sharded(10, repeat=3)
    check_elastic(make, 2, 3, stops=(7, 8), repeat=3)    # 5 rows per pass and rank


def check_resharded_twice(make, stops, steps, last_world):
    """2 ranks stop after `stops` rows; 3 ranks resume from their states and rank r reads
    steps[r] more rows; `last_world` ranks resume from those and finish the epoch: every row
    of the two epochs exactly once."""
    states, before = save_states(make, 2, stops)
    mid = []
    for r in range(3):
        dataset = make(3, r)
        it = dataset.create_tuple_iterator(num_epochs=2, output_numpy=True,
                                           state=ds.reshard_state(dataset, states))
        for _ in range(steps[r]):
            before.extend(row_ids(next(it)))
        mid.append(json.loads(json.dumps(it.get_state())))
        it.close()
    after = []
    for r in range(last_world):
        dataset = make(last_world, r)
        after.extend(i for item in epoch_items(dataset, 1, ds.reshard_state(dataset, mid))[0]
                     for i in row_ids(item))
    expected = [i for k in range(2) for item in epoch_items(make(2, k), 1)[0]
                for i in row_ids(item)]
    assert collections.Counter(before + after) == collections.Counter(expected)


def test_a_resumed_epoch_can_be_resharded_again():
    check_resharded_twice(sharded(31), (4, 6), (2, 3, 4), 2)


def test_all_ranks_at_an_epoch_boundary_start_the_next_epoch_fresh():
    make = sharded(8)
    states, _ = save_states(make, 2, (-1, -1))
    state = ds.reshard_state(make(3, 1), states)
    assert state["epoch"] == 1 and state["root"] is None
    check_elastic(make, 2, 3, stops=(0, 0))


def test_a_resharded_run_resumes_exactly_under_the_state_harness():
    make = sharded(26, batch=2, random_map=True)
    states, _ = save_states(make, 3, (2, 1, 3))
    dataset = make(2, 1)
    check_resume(dataset, num_epochs=2, stops=(0, 1, 3, 6),
                 start_state=ds.reshard_state(dataset, states))


def test_states_out_of_shard_order_are_refused():
    make = sharded(12)
    states, _ = save_states(make, 2, (1, 2))
    with pytest.raises(ValueError, match="shard order"):
        ds.reshard_state(make(3, 0), states[::-1])


def test_pipelines_whose_state_hides_positions_are_refused():
    make = sharded(12)
    states, _ = save_states(make, 2, (1, 2))
    with pytest.raises(ValueError, match="ShuffleDataset"):
        ds.reshard_state(numbers(12, num_shards=3, shard_id=0).shuffle(4), states)


def test_bad_arguments():
    make = sharded(12)
    states, _ = save_states(make, 2, (1, 2))
    with pytest.raises(TypeError, match="states"):
        ds.reshard_state(make(2, 0), states[0])
    with pytest.raises(TypeError, match="dataset"):
        ds.reshard_state("data", states)
    other = dict(states[1], seed=states[1]["seed"] + 1)
    with pytest.raises(ValueError, match="seeds"):
        ds.reshard_state(make(2, 0), [states[0], other])
    with pytest.raises(ValueError, match="get_state"):
        ds.reshard_state(make(2, 0), [states[0], {"epoch": 0}])


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(0, 25), old=st.integers(1, 4), new=st.integers(1, 4),
       shuffle=st.booleans(), batch=st.integers(0, 3), repeat=st.integers(1, 2),
       sampler=st.booleans(), fractions=st.lists(st.floats(0, 1), min_size=4, max_size=4))
def test_model_every_row_once_over_old_and_new_ranks(n, old, new, shuffle, batch, repeat,
                                                     sampler, fractions):
    make = sharded(n, shuffle=shuffle, batch=batch, repeat=repeat, sampler=sampler)
    # Every old rank stops at the same pass of the repeat (checkpoints are taken together).
    per_pass = [len(epoch_items(make(old, k), 1)[0]) // repeat for k in range(old)]
    stops = [int(f * per_pass[k]) for k, f in zip(range(old), fractions)]
    states = check_elastic(make, old, new, stops, repeat=repeat)
    dataset = make(new, new - 1)
    check_resume(dataset, num_epochs=2, stops=(1, 3), start_state=ds.reshard_state(dataset, states))


def test_a_native_batch_pipeline_reshards(tmp_path):
    """MindDataset + native ops + batch runs as one native batch node: it keeps the shard
    and the resumed world in its state like the source does."""
    from .native_batch_helpers import jpeg_bytes, train_ops, write_mindrecord
    path = write_mindrecord(str(tmp_path / "imgs.mindrecord"),
                            [jpeg_bytes(i, 24, 24) for i in range(21)])

    def make(num_shards, shard_id):
        d = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True,
                           num_shards=num_shards, shard_id=shard_id)
        return d.map(train_ops(16), ["image"], num_parallel_workers=1).batch(2)

    assert "NativeBatch" in str(make(2, 0).plan())
    labels = lambda item: np.asarray(item[1]).reshape(-1).tolist()  # noqa: E731
    ds.config.set_seed(5)
    states, before = [], []
    for k, stop in ((0, 2), (1, 3)):
        it = make(2, k).create_tuple_iterator(num_epochs=1, output_numpy=True)
        for _ in range(stop):
            before += labels(next(it))
        states.append(it.get_state())
        it.close()
    after = []
    for r in range(3):
        it = make(3, r).create_tuple_iterator(num_epochs=1, output_numpy=True,
                                              state=ds.reshard_state(make(3, r), states))
        after += [v for item in it for v in labels(item)]
        it.close()
    whole = []
    for k in range(2):
        it = make(2, k).create_tuple_iterator(num_epochs=1, output_numpy=True)
        whole += [v for item in it for v in labels(item)]
        it.close()
    assert collections.Counter(before + after) == collections.Counter(whole)
