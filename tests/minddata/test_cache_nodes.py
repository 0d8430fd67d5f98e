"""The planner rewrites ``cache=`` into explicit cache nodes (engine/cache_read.py,
cache_write.py, cache_read_batches.py, cache_source_rows.py): the plan shows them, complete
epochs run nothing below them, and their states resume through the state harness."""
import numpy as np
import pytest

import minddata as ds
from minddata.cache import generate_session

from . import cache_test_helpers as helpers
from .cache_test_helpers import delete_cached_row, epochs, same_rows
from .engine_helpers import check_resume, numbers

cache_root = helpers.cache_root     # fixture: a private cache root for each test
pytestmark = pytest.mark.usefixtures("cache_root")


def _cached_map(cache, calls=None, n=20):
    # A CallCounter's count is not part of the map's cache key: every counter shares the stage.
    calls = calls or helpers.CallCounter()
    return numbers(n).map(lambda x: calls() or x * 3, "x", cache=cache)


def _mindrecord(tmp_path, n=30):
    return helpers.write_mindrecord(tmp_path, n)


def _stats(it, name):
    return [s for s in it.stage_stats() if s.name == name]


# -- the plan ------------------------------------------------------------------------------
def test_a_cached_map_is_planned_as_cache_read_over_cache_write():
    plan = _cached_map(ds.DatasetCache(generate_session())).plan()
    assert plan.nodes == ["CacheRead", "CacheWrite", "Map", "NumpySlicesDataset"]
    assert plan.fired("cache") and not plan.fired("cached_batches")


def test_a_plain_batch_over_a_cached_map_becomes_a_whole_batch_cache_read():
    plan = _cached_map(ds.DatasetCache(generate_session())).batch(4).plan()
    assert plan.nodes == ["CacheRead(batches)", "CacheWrite", "Map", "NumpySlicesDataset"]
    assert plan.fired("cached_batches") and plan.fired("cache")


@pytest.mark.parametrize("batch", [lambda d: d.batch(4, pad_info={}),
                                   lambda d: d.batch(lambda info: 3),
                                   lambda d: d.batch(4, per_batch_map=lambda x, info: (x,),
                                                     input_columns=["x"])])
def test_other_batches_batch_the_rows_of_the_cache_read_node(batch):
    plan = batch(_cached_map(ds.DatasetCache(generate_session()))).plan()
    assert plan.nodes[:4] == ["Batch", "CacheRead", "CacheWrite", "Map"]
    assert plan.fired("cache") and not plan.fired("cached_batches")
    why = [r.why for r in plan.rewrites if r.rule == "cached_batches"]
    assert why and "per_batch_map" in why[0]


def test_debug_mode_reads_rows_under_the_batch():
    ds.config.set_debug_mode(True)
    plan = _cached_map(ds.DatasetCache(generate_session())).batch(4).plan()
    assert plan.nodes[:2] == ["Batch", "CacheRead"] and not plan.fired("cached_batches")


def test_a_cached_source_reads_its_rows_through_a_cache_node(tmp_path):
    path = _mindrecord(tmp_path)
    data = ds.MindDataset(path, shuffle=False, cache=ds.DatasetCache(generate_session()))
    plan = data.map(lambda x: x, ["label"]).batch(5).plan()
    assert plan.nodes[-2:] == ["MindDataset", "CacheReadWrite(rows by id)"]
    assert plan.fired("cache") and not plan.fired("native_batch")
    assert "MindDataset" in [r.target for r in plan.rewrites if r.rule == "cache"]


def test_an_uncached_pipeline_has_no_cache_node():
    plan = numbers(8).map(lambda x: x, "x").batch(4).plan()
    assert not plan.fired("cache") and not any("Cache" in n for n in plan.nodes)


# -- what runs -----------------------------------------------------------------------------
def test_a_complete_epoch_runs_nothing_below_the_cache_read_node():
    cache = ds.DatasetCache(generate_session())
    epochs(_cached_map(cache), 1)                                   # fill
    it = _cached_map(cache).create_tuple_iterator(num_epochs=1, output_numpy=True)
    got = [int(r[0]) for r in it]
    assert got == [3 * i for i in range(20)]
    assert _stats(it, "CacheRead")[0].rows_out == 20
    assert [s.rows_out for s in _stats(it, "Map") + _stats(it, "CacheWrite")] == [0, 0]


def test_the_fill_epoch_goes_through_the_cache_write_node():
    cache = ds.DatasetCache(generate_session())
    it = _cached_map(cache).batch(6).create_tuple_iterator(num_epochs=1, output_numpy=True)
    sizes = [len(b[0]) for b in it]
    assert sizes == [6, 6, 6, 2]
    assert _stats(it, "CacheWrite")[0].rows_out == 20 and _stats(it, "Map")[0].rows_out == 20
    assert cache.get_stat().rows == 20


def test_whole_batches_recompute_from_the_missing_row_only():
    sid = generate_session()
    cache = ds.DatasetCache(sid)
    epochs(_cached_map(cache).batch(4), 1)
    delete_cached_row(sid, _cached_map(cache), 9)
    calls = helpers.CallCounter()
    batches = epochs(_cached_map(cache, calls).batch(4), 1)[0]
    assert [b[0].tolist() for b in batches] == [[3 * i for i in range(k, min(k + 4, 20))]
                                                for k in range(0, 20, 4)]
    assert calls.count == 20 - 9          # rows 9.. computed again, nothing before


def test_a_source_cache_serves_a_second_epoch_and_counts_its_rows(tmp_path):
    path = _mindrecord(tmp_path)
    cache = ds.DatasetCache(generate_session())
    data = ds.MindDataset(path, shuffle=False, cache=cache)
    expected = epochs(ds.MindDataset(path, shuffle=False), 1)[0]
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    got = [[tuple(np.array(c) for c in row) for row in it] for _ in range(2)]
    assert same_rows(got[0], expected) and same_rows(got[1], expected)
    assert _stats(it, "CacheReadWrite(rows by id)")[0].rows_out == 60
    stat = cache.get_stat()
    assert (stat.rows, stat.misses, stat.hits) == (30, 30, 30)


# -- states --------------------------------------------------------------------------------
@pytest.mark.parametrize("batch", [None, 3, 4])
def test_states_of_the_cache_nodes_resume_through_the_harness(batch):
    cache = ds.DatasetCache(generate_session())
    data = _cached_map(cache, n=10)
    if batch:
        data = data.batch(batch, drop_remainder=batch == 4)
    stream = check_resume(data, num_epochs=3, stops=(0, 1, 2, 5))
    assert stream.count("END") == 3


def test_a_cached_source_resumes_through_the_harness(tmp_path):
    path = _mindrecord(tmp_path, n=12)
    data = ds.MindDataset(path, shuffle=True, cache=ds.DatasetCache(generate_session()))
    stream = check_resume(data.project(["label"]).batch(5), num_epochs=2, stops=(0, 1, 2))
    assert stream.count("END") == 2


def test_a_whole_batch_state_saved_while_filling_resumes_into_the_cache():
    cache = ds.DatasetCache(generate_session())
    data = _cached_map(cache, n=14).batch(4)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    head = [next(it)[0].tolist() for _ in range(2)]                 # fill, 2 batches
    state = it.get_state()
    it.close()
    resumed = data.create_tuple_iterator(num_epochs=2, output_numpy=True, state=state)
    rest = [b[0].tolist() for b in resumed]                        # rest of the fill
    second = [b[0].tolist() for b in resumed]                      # from the store
    expected = [[3 * i for i in range(k, min(k + 4, 14))] for k in range(0, 14, 4)]
    assert head + rest == expected and second == expected
    assert _stats(resumed, "Map")[0].rows_out == 14 - 8     # the rest of the fill, once
    assert cache.get_stat().rows == 14
