"""A saved state says what it belongs to and is checked before use (minddata/state_check.py):
another rank's state, the state of the same pipeline with shuffling switched, fields out of range
and text where numbers belong are refused with a ValueError naming the field, what was expected
and what the state has; a state of the right pipeline resumes exactly (native or general nodes,
any worker count, an older state without a signature, reshard_state's output)."""
import copy
import json
import types

import numpy as np
import pytest

import minddata as ds
from minddata.state_check import pipeline_signature

from .engine_helpers import numbers
from .native_batch_helpers import (assert_same_batches, collect, jpeg_bytes, plan_of, train_ops,
                                   write_mindrecord)


def saved(dataset, items=3, num_epochs=1):
    """The JSON round trip of a state taken after ``items`` items."""
    ds.config.set_seed(7)
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    for _ in range(items):
        next(it)
    state = json.loads(json.dumps(it.get_state()))
    it.close()
    return state


def run(dataset, state=None, num_epochs=1):
    """Every item of a run (resumed from ``state``) as lists."""
    ds.config.set_seed(7)
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True, state=state)
    try:
        return [[np.asarray(a).tolist() for a in r] for _ in range(num_epochs) for r in it]
    finally:
        it.close()


def changed(state, path, value):
    """A copy of ``state`` with the field at ``path`` (keys and list indices) set to value."""
    state = copy.deepcopy(state)
    node = state
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return state


def unsigned(state):
    """The state as minddata saved it before states recorded their pipeline."""
    state = dict(state)
    del state["pipeline"]
    return state


# -- another rank's state -------------------------------------------------------------------------
def test_another_ranks_state_is_refused_naming_both_shards():
    state = saved(numbers(10, num_shards=2, shard_id=0))
    with pytest.raises(ValueError, match=r"saved by shard 0 of 2 .*reads shard 1 of 2"):
        numbers(10, num_shards=2, shard_id=1).create_tuple_iterator(state=state)


def test_another_ranks_state_is_refused_for_a_distributed_sampler():
    make = lambda k: numbers(10, sampler=ds.DistributedSampler(2, k))  # noqa: E731
    with pytest.raises(ValueError, match=r"shard 1 of 2 .*reads shard 0 of 2"):
        run(make(0), saved(make(1)))


def test_another_ranks_state_is_refused_after_auto_shard():
    make = lambda k: ds.auto_shard(numbers(10, shuffle=True).batch(2), 2, k)  # noqa: E731
    with pytest.raises(ValueError, match=r"shard 0 of 2 .*reads shard 1 of 2"):
        run(make(1), saved(make(0), items=1))


def test_an_unsigned_state_of_another_rank_is_refused_by_its_source():
    state = unsigned(saved(numbers(10, num_shards=2, shard_id=0).map(lambda x: x, "x")))
    with pytest.raises(ValueError, match=r"NumpySlicesDataset's state was saved by shard 0 of 2"
                                         r".*this source reads shard 1 of 2"):
        run(numbers(10, num_shards=2, shard_id=1).map(lambda x: x, "x"), state)


# -- the same pipeline, another configuration ----------------------------------------------------
@pytest.mark.parametrize("shuffle", [True, False])
def test_a_state_with_shuffling_switched_is_refused(shuffle):
    state = saved(numbers(10, shuffle=shuffle).batch(2))
    saved_level, level = ("GLOBAL", "FALSE") if shuffle else ("FALSE", "GLOBAL")
    with pytest.raises(ValueError, match=f"shuffle='{level}' in this dataset, but the state was "
                                         f"saved with shuffle='{saved_level}'"):
        numbers(10, shuffle=not shuffle).batch(2).create_tuple_iterator(state=state)


@pytest.mark.parametrize("make_saved, make_other, field", [
    (lambda: numbers(10, sampler=ds.RandomSampler()),
     lambda: numbers(10, sampler=ds.SequentialSampler()), "sampler"),
    (lambda: numbers(10, num_samples=8), lambda: numbers(10, num_samples=6), "num_samples"),
    (lambda: numbers(10).batch(2), lambda: numbers(10).batch(3), "batch_size"),
    (lambda: numbers(10).batch(3), lambda: numbers(10).batch(3, drop_remainder=True),
     "drop_remainder"),
    (lambda: numbers(10).repeat(2), lambda: numbers(10).repeat(3), "count"),
    (lambda: numbers(10).shuffle(4), lambda: numbers(10).shuffle(5), "buffer_size"),
    (lambda: numbers(10).take(6), lambda: numbers(10).take(7), "count"),
])
def test_a_state_of_the_pipeline_built_otherwise_is_refused_naming_the_field(
        make_saved, make_other, field):
    state = saved(make_saved(), items=2)
    with pytest.raises(ValueError, match=f"state does not fit this pipeline: .* has {field}="):
        make_other().create_tuple_iterator(state=state)


def test_a_state_of_other_nodes_names_both_pipelines():
    state = saved(numbers(10).batch(2))
    with pytest.raises(ValueError, match=r"\['Batch', 'Source'\], this dataset's nodes are "
                                         r"\['Batch', 'Map', 'Source'\]"):
        numbers(10).map(lambda x: x, "x").batch(2).create_tuple_iterator(state=state)


# -- fields out of range or of the wrong type ----------------------------------------------------
@pytest.mark.parametrize("path, value, message", [
    (("epoch",), -1, "state has epoch=-1, expected an int >= 0"),
    (("epoch",), "1", "state has epoch='1', expected an int >= 0"),
    (("epoch",), 1.0, "state has epoch=1.0, expected an int >= 0"),
    (("seed",), "5489", r"state has seed='5489', expected an int in \[0, 4294967295\]"),
    (("seed",), -1, "state has seed=-1"),
    (("root",), "x", "state has root='x', expected a dict"),
    (("pipeline",), "Batch", "'pipeline' must be the list of node signatures"),
])
def test_top_level_fields_are_checked_when_the_iterator_is_created(path, value, message):
    state = changed(saved(numbers(10).batch(3)), path, value)
    with pytest.raises(ValueError, match=message):
        numbers(10).batch(3).create_tuple_iterator(state=state)


@pytest.mark.parametrize("make, path, value, message", [
    (lambda: numbers(10), ("root", "pos"), -3, "NumpySlicesDataset's state has pos=-3"),
    (lambda: numbers(10), ("root", "pos"), "3", "NumpySlicesDataset's state has pos='3'"),
    (lambda: numbers(10), ("root", "epoch"), "0", "NumpySlicesDataset's state has epoch='0'"),
    (lambda: numbers(10), ("root", "shard"), "0/1", r"saved by shard '0/1'"),
    (lambda: numbers(10), ("root", "world"), {"num_shards": 2, "consumed": [1], "from": None},
     r"world.consumed=\[1\], expected a list of 2 ints >= -1"),
    (lambda: numbers(10), ("root", "world"), {"num_shards": "2", "consumed": [1, 1]},
     "world.num_shards='2', expected an int >= 1"),
    (lambda: numbers(10).batch(3), ("root", "batch_num"), -1,
     "Batch's state has batch_num=-1"),
    (lambda: numbers(10).batch(3), ("root", "done"), "no", "Batch's state has done='no', "
                                                            "expected a bool"),
    (lambda: numbers(10).batch(3), ("root", "child", "pos"), "3", "state has pos='3'"),
    (lambda: numbers(10).map(lambda x: x, "x"), ("root", "index"), -2,
     "Map's state has index=-2"),
    (lambda: numbers(10).repeat(2), ("root", "rep"), 3,
     r"Repeat's state has rep=3, expected an int in \[0, 2\]"),
    (lambda: numbers(10).repeat(2), ("root", "rows"), "1", "Repeat's state has rows='1'"),
    (lambda: numbers(10).take(5), ("root", "taken"), 6,
     r"taken=6, expected an int in \[0, 5\]"),
    (lambda: numbers(10).skip(2), ("root", "skipped"), 1, "skipped=1, expected a bool"),
    (lambda: numbers(10).shuffle(4), ("root", "returned"), -2,
     "Shuffle's state has returned=-2"),
    (lambda: numbers(4) + numbers(4), ("root", "current"), 3,
     r"current=3, expected an int in \[0, 2\]"),
    (lambda: ds.zip((numbers(5).project(["x"]), numbers(5).project(["y"]))),
     ("root", "children"), [], "children=\\[\\], expected a list of 2 node states"),
    (lambda: numbers(10).filter(lambda x: True, ["x"]), ("root", "child"), None,
     "Filter's state has child=None"),
])
def test_node_fields_are_checked_by_the_node_that_owns_them(make, path, value, message):
    state = changed(saved(make()), path, value)
    with pytest.raises(ValueError, match=message) as info:
        run(make(), state)
    assert "concatenate" not in str(info.value)


# -- the good path --------------------------------------------------------------------------------
def test_a_state_records_its_pipeline_and_stays_small():
    pipe = numbers(100, shuffle=True, num_shards=2, shard_id=1).shuffle(10).batch(4).repeat(2)
    state = saved(pipe)
    assert state["pipeline"] == pipeline_signature(pipe)
    assert state["pipeline"][0] == {"node": "Repeat", "count": 2}
    assert state["pipeline"][-1]["shard"] == [2, 1]
    assert state["pipeline"][-1]["shuffle"] == "GLOBAL"
    assert len(json.dumps(state)) < 1000


@pytest.mark.parametrize("items", [0, 1, 4, 7])
def test_the_right_pipeline_resumes_exactly_whatever_its_workers(items):
    make = lambda workers: (numbers(23, shuffle=True, num_parallel_workers=workers)  # noqa: E731
                            .map(lambda x: x + 1, "x", num_parallel_workers=workers)
                            .batch(3, num_parallel_workers=workers).repeat(2))
    full = run(make(1), num_epochs=2)
    assert run(make(3), saved(make(1), items, num_epochs=2), num_epochs=2) == full[items:]


def test_a_state_saved_before_states_had_a_signature_still_resumes():
    pipe = numbers(17, shuffle=True, num_shards=2, shard_id=1).batch(2)
    assert run(pipe, unsigned(saved(pipe, 2))) == run(pipe)[2:]


def test_a_shipped_chain_signs_as_the_chain_it_stands_for():
    from minddata.service.remote_stage import split_for_service
    pipe = numbers(12, shuffle=True, num_shards=2, shard_id=0).map(lambda x: x, "x").batch(3)
    served = split_for_service(pipe.repeat(2), types.SimpleNamespace(finish_on_trainer=False))
    assert type(served.children[0]).__name__ == "RemoteStageDataset"
    assert pipeline_signature(served) == pipeline_signature(pipe.repeat(2))


# -- reshard_state -------------------------------------------------------------------------------
def _rank(num_shards, shard_id, shuffle=True):
    return numbers(20, shuffle=shuffle, num_shards=num_shards, shard_id=shard_id).batch(2)


def test_reshard_state_stamps_the_new_ranks_pipeline_and_the_new_rank_accepts_it():
    states = [saved(_rank(2, k), items=2 + k) for k in range(2)]
    delivered = sum(len(np.asarray(item[1]).reshape(-1)) for k in range(2)
                    for item in run(_rank(2, k))[:2 + k])
    rest = 0
    for r in range(3):
        state = ds.reshard_state(_rank(3, r), states)
        assert state["pipeline"] == pipeline_signature(_rank(3, r))
        rest += sum(len(item[1]) for item in run(_rank(3, r), state))
        if r:
            with pytest.raises(ValueError, match=f"shard {r} of 3"):
                _rank(3, 0).create_tuple_iterator(state=state)
    assert delivered + rest == 20


def test_reshard_state_refuses_the_states_of_the_pipeline_with_shuffling_switched():
    states = [saved(_rank(2, k, shuffle=False)) for k in range(2)]
    with pytest.raises(ValueError, match=r"states\[0\] does not fit this pipeline: .*"
                                         r"shuffle='GLOBAL' in this dataset, but the state was "
                                         r"saved with shuffle='FALSE'"):
        ds.reshard_state(_rank(3, 0), states)


def test_reshard_state_refuses_an_old_rank_state_with_text_for_a_number():
    states = [saved(_rank(2, k)) for k in range(2)]
    states[1] = changed(states[1], ("epoch",), "0")
    with pytest.raises(ValueError, match=r"states\[1\] has epoch='0'"):
        ds.reshard_state(_rank(3, 0), states)


# -- native batches -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mr_path(tmp_path_factory):
    images = [jpeg_bytes(i) for i in range(14)]
    return write_mindrecord(str(tmp_path_factory.mktemp("mr") / "refusals.mindrecord"), images)


def _mind(path, num_shards=2, shard_id=0):
    d = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True,
                       num_shards=num_shards, shard_id=shard_id)
    return d.map(train_ops(), input_columns=["image"], num_parallel_workers=2).batch(2)


def test_a_native_state_resumes_on_general_nodes_and_back(mr_path):
    assert plan_of(_mind(mr_path)).nodes[-1].startswith("NativeBatch")
    ds.config.set_seed(7)
    full = collect(_mind(mr_path))
    for native in (True, False):
        previous = ds.config.get_native_batches()
        ds.config.set_native_batches(native)
        try:
            state = saved(_mind(mr_path), items=2)
        finally:
            ds.config.set_native_batches(previous)
        ds.config.set_seed(7)
        assert_same_batches(collect(_mind(mr_path), native=not native, state=state), full[2:])


def test_the_native_batch_node_refuses_another_ranks_state_and_bad_fields(mr_path):
    state = unsigned(saved(_mind(mr_path, shard_id=1), items=1))
    with pytest.raises(ValueError, match=r"state was saved by shard 1 of 2 .*reads shard 0 of 2"):
        collect(_mind(mr_path, shard_id=0), state=state)
    bad = changed(saved(_mind(mr_path), items=1), ("root", "child", "index"), -4)
    with pytest.raises(ValueError, match=r"state has index=-4, expected an int >= 0"):
        collect(_mind(mr_path), state=bad)
