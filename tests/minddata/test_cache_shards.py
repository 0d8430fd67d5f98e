"""Sharded pipelines sharing one cache session (issue 12, row 13): as with MindSpore's one
shared cache, every shard of a cached source uses one stage; its counters add up."""
import multiprocessing as mp

import pytest

import minddata as ds
from minddata.cache import generate_session

from . import cache_test_helpers as helpers

cache_root = helpers.cache_root     # fixture: a private cache root for each test
pytestmark = pytest.mark.usefixtures("cache_root")

ROWS = 40
SHARDS = 4


def _mindrecord(tmp_path, n=ROWS):
    return helpers.write_mindrecord(tmp_path, n)


def _epoch(path, session, shard, shuffle=False):
    data = ds.MindDataset(path, shuffle=shuffle, num_shards=SHARDS, shard_id=shard,
                          cache=ds.DatasetCache(session))
    return sorted(int(r[1]) for r in data.create_tuple_iterator(num_epochs=1,
                                                                output_numpy=True))


@pytest.mark.parametrize("shuffle", [False, True])
def test_four_shards_share_one_stage_and_its_counters_add_up(tmp_path, shuffle):
    path = _mindrecord(tmp_path)
    session = generate_session()
    cache = ds.DatasetCache(session)
    for epoch in range(3):
        seen = [_epoch(path, session, k, shuffle) for k in range(SHARDS)]
        assert sorted(sum(seen, [])) == list(range(ROWS))      # the shards cover every row
        stat = cache.get_stat()
        assert stat.stages == 1 and stat.rows == ROWS
        assert stat.misses == ROWS and stat.hits == epoch * ROWS
    unsharded = ds.MindDataset(path, shuffle=False)
    with cache.open_stage(helpers.stage_key(unsharded), unsharded.get_col_names()) as store:
        assert store.is_complete() and store.num_rows() == ROWS     # completed by the shards


def test_an_unsharded_pipeline_reads_what_the_shards_cached(tmp_path):
    path = _mindrecord(tmp_path)
    session = generate_session()
    for k in range(SHARDS):
        _epoch(path, session, k)
    cache = ds.DatasetCache(session)
    rows = list(ds.MindDataset(path, shuffle=True, cache=cache).create_tuple_iterator(
        num_epochs=1, output_numpy=True))
    assert sorted(int(r[1]) for r in rows) == list(range(ROWS))
    assert cache.get_stat().hits == ROWS and cache.get_stat().misses == ROWS


def _shard_process(path, session, shard, epochs):
    return [_epoch(path, session, shard, shuffle=True) for _ in range(epochs)]


def test_four_shard_processes_at_once(tmp_path):
    path = _mindrecord(tmp_path, 200)
    session = generate_session()
    with mp.get_context("spawn").Pool(SHARDS) as pool:
        results = pool.starmap(_shard_process, [(path, session, k, 2) for k in range(SHARDS)])
    assert sorted(sum((r[0] for r in results), [])) == list(range(200))
    stat = ds.DatasetCache(session).get_stat()
    assert stat.stages == 1 and stat.rows == 200
    assert stat.hits + stat.misses == 2 * 200 and stat.misses >= 200


def test_a_cached_map_above_shards_keeps_one_stage_per_shard(tmp_path):
    # The map's rows are keyed by their position in its shard's pass, so each shard has its
    # own map stage (documented); the counters of all stages add up.
    path = _mindrecord(tmp_path)
    session = generate_session()
    cache = ds.DatasetCache(session)
    for _ in range(2):
        for k in range(SHARDS):
            data = ds.MindDataset(path, shuffle=False, num_shards=SHARDS, shard_id=k)
            data = data.map(lambda x: x * 2, input_columns=["label"], cache=cache)
            labels = [int(r[1]) for r in data.create_tuple_iterator(num_epochs=1,
                                                                    output_numpy=True)]
            assert labels == [2 * i for i in range(k, ROWS, SHARDS)]
    stat = cache.get_stat()
    assert stat.stages == SHARDS and stat.rows == ROWS
    assert stat.misses == ROWS and stat.hits == ROWS
