"""One shared harness (engine_helpers.check_resume) run over every iterator node: a new
iterator created from get_state() yields exactly the rows that would have come next,
mid-epoch, across epochs and after repeat, with shuffles and random ops included."""
import json

import numpy as np
import pytest

import minddata as ds
from .engine_helpers import RandomAdd, check_resume, numbers


def _gen():
    for i in range(7):
        yield (np.array(i), np.array([i, i]))


PIPELINES = {
    "source_seq": lambda: numbers(9),
    "source_shuffled": lambda: numbers(9, shuffle=True),
    "source_sharded": lambda: numbers(10, num_shards=3, shard_id=1),
    "source_sampler": lambda: numbers(10, sampler=ds.RandomSampler(num_samples=6)),
    "generator_stream": lambda: ds.GeneratorDataset(_gen, ["a", "b"]),
    "generator_threads": lambda: ds.GeneratorDataset(
        [(np.array(i),) for i in range(11)], ["a"], num_parallel_workers=2,
        python_multiprocessing=False),
    "map_inline": lambda: numbers(9).map(lambda x: x * 2, "x", num_parallel_workers=1),
    "map_threads_random": lambda: numbers(12).map(RandomAdd(), "x", num_parallel_workers=3),
    "map_processes_random": lambda: numbers(10, shuffle=True).map(
        RandomAdd(), "x", num_parallel_workers=2, python_multiprocessing=True),
    "generator_processes": lambda: ds.GeneratorDataset(
        [(np.array(i),) for i in range(9)], ["a"], num_parallel_workers=2,
        python_multiprocessing=True),
    "map_new_columns": lambda: numbers(9).map(lambda x: (x, x + 1), "x", ["p", "q"],
                                              num_parallel_workers=2),
    "batch": lambda: numbers(10).batch(3),
    "batch_drop": lambda: numbers(10).batch(3, drop_remainder=True),
    "batch_per_batch_map": lambda: numbers(10).batch(
        4, per_batch_map=lambda x, y, info: (x, [v + info.get_batch_num() for v in y])),
    "batch_threads": lambda: numbers(11, shuffle=True).batch(2, num_parallel_workers=2),
    "batch_processes": lambda: numbers(11).batch(
        3, num_parallel_workers=2, python_multiprocessing=True,
        per_batch_map=lambda x, y, info: (x, y)),
    "shuffle": lambda: numbers(12).shuffle(4),
    "repeat": lambda: numbers(4).repeat(3),
    "repeat_shuffle": lambda: numbers(5).shuffle(3).repeat(2),
    "shuffled_source_repeat": lambda: numbers(5, shuffle=True).repeat(2),
    "project": lambda: numbers(6).project(["y"]),
    "rename": lambda: numbers(6).rename(["x"], ["z"]),
    "take": lambda: numbers(10).take(6),
    "skip": lambda: numbers(10).skip(4),
    "filter": lambda: numbers(12).filter(lambda x: x % 3 != 0, ["x"]),
    "zip": lambda: numbers(6).zip(numbers(8).rename(["x", "y"], ["u", "v"])),
    "concat": lambda: numbers(4) + numbers(5),
    "bucket_batch": lambda: ds.GeneratorDataset(
        lambda: ((np.arange(i % 5 + 1),) for i in range(12)), ["s"]).bucket_batch_by_length(
        ["s"], [2, 4], [2, 3, 2], pad_info={"s": (None, -1)}),
    "deep": lambda: numbers(20, shuffle=True).map(RandomAdd(), "x", num_parallel_workers=2)
    .filter(lambda x: x % 2 == 0, ["y"]).shuffle(3).batch(2).repeat(2),
}


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_resume_matches_uninterrupted(name):
    check_resume(PIPELINES[name](), num_epochs=2, stops=(0, 1, 2, 5, 9))


def test_resume_in_third_epoch_with_random_ops():
    pipe = numbers(6, shuffle=True).map(RandomAdd(), "x").repeat(2)
    check_resume(pipe, num_epochs=3, stops=(13, 20, 25))


def test_state_is_small_json():
    it = numbers(100, shuffle=True).shuffle(10).batch(4).create_tuple_iterator(num_epochs=1)
    next(it)
    text = json.dumps(it.get_state())
    it.close()
    assert len(text) < 500


def test_state_rejects_garbage():
    with pytest.raises(ValueError):
        numbers(3).create_tuple_iterator(state={"bogus": 1})


@pytest.mark.parametrize("other", ["more_nodes", "fewer_nodes"])
def test_a_state_of_another_pipeline_is_refused_clearly(other):
    saved = ds.NumpySlicesDataset({"x": np.arange(20)}, shuffle=False).batch(4)
    it = saved.create_tuple_iterator(num_epochs=1)
    next(it)
    state = it.get_state()
    target = ds.NumpySlicesDataset({"x": np.arange(20)}, shuffle=False)
    if other == "more_nodes":
        target = target.map(lambda x: x, input_columns=["x"]).shuffle(4).batch(4)
    with pytest.raises(ValueError, match="state does not fit this pipeline"):
        next(target.create_tuple_iterator(num_epochs=1, state=state))
