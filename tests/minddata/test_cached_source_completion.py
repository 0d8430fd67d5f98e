"""A source's cache is marked complete after any pass that covered every row, whoever put
the rows (this process, another one, or an interrupted earlier run)."""
import numpy as np
import pytest

import minddata as ds
from minddata.cache import generate_session

from . import cache_test_helpers as helpers
from .cache_test_helpers import epochs, same_rows

cache_root = helpers.cache_root     # fixture: a private cache root for each test
pytestmark = pytest.mark.usefixtures("cache_root")


def _mindrecord(tmp_path, n=40):
    return helpers.write_mindrecord(tmp_path, n)


def _stage(cache, data):
    # The store the source stage uses.
    return cache.open_stage(helpers.stage_key(data), data.get_col_names())


def test_a_stage_partly_filled_elsewhere_is_marked_complete_after_a_full_pass(tmp_path):
    path = _mindrecord(tmp_path)
    cache = ds.DatasetCache(generate_session())
    data = ds.MindDataset(path, shuffle=False, cache=cache)
    expected = epochs(ds.MindDataset(path, shuffle=False), 1)[0]
    with _stage(cache, data) as store:          # "another process" stored rows 0..9
        for i in range(10):
            store.put(i, expected[i])
    got = epochs(data, 1)[0]
    assert same_rows(got, expected)
    with _stage(cache, data) as store:
        assert store.is_complete() and store.num_rows() == 40


def test_a_shuffled_full_pass_marks_the_stage_complete(tmp_path):
    path = _mindrecord(tmp_path)
    cache = ds.DatasetCache(generate_session())
    data = ds.MindDataset(path, shuffle=True, cache=cache)
    rows = epochs(data, 1)[0]
    assert sorted(int(r[1]) for r in rows) == list(range(40))
    with _stage(cache, data) as store:
        assert store.is_complete()


def test_a_shard_does_not_mark_the_stage_complete(tmp_path):
    path = _mindrecord(tmp_path)
    cache = ds.DatasetCache(generate_session())
    data = ds.MindDataset(path, shuffle=False, num_shards=2, shard_id=0, cache=cache)
    assert len(epochs(data, 1)[0]) == 20
    with _stage(cache, data) as store:
        assert not store.is_complete()


def test_num_samples_does_not_mark_the_stage_complete(tmp_path):
    path = _mindrecord(tmp_path)
    cache = ds.DatasetCache(generate_session())
    data = ds.MindDataset(path, shuffle=False, num_samples=15, cache=cache)
    assert len(epochs(data, 1)[0]) == 15
    with _stage(cache, data) as store:
        assert not store.is_complete()


def test_a_pass_resumed_mid_epoch_is_not_taken_for_a_full_one(tmp_path):
    path = _mindrecord(tmp_path)
    cache = ds.DatasetCache(generate_session())
    data = ds.MindDataset(path, shuffle=False, num_parallel_workers=1, cache=cache)
    first = epochs(ds.MindDataset(path, shuffle=False), 1)[0]
    state = {"seed": ds.config.get_seed(), "epoch": 0,
             "root": {"epoch": 0, "pos": 30}}
    rest = epochs(data, 1, state=state)[0]
    assert same_rows(rest, first[30:])
    with _stage(cache, data) as store:
        assert not store.is_complete()
    assert np.array_equal(epochs(data, 1)[0][0][1], first[0][1])


def test_a_complete_source_stage_serves_every_row_from_the_cache(tmp_path):
    path = _mindrecord(tmp_path)
    cache = ds.DatasetCache(generate_session())
    data = ds.MindDataset(path, shuffle=True, num_parallel_workers=2, cache=cache)
    first = epochs(data, 1)[0]
    hits = cache.get_stat().hits
    again = epochs(data, 2)
    assert cache.get_stat().hits == hits + 80
    assert all(sorted(int(r[1]) for r in e) == list(range(40)) for e in again)
    by_label = {int(r[1]): r for r in first}
    assert all(same_rows([r], [by_label[int(r[1])]]) for r in again[1])


def test_a_row_missing_from_a_complete_source_stage_is_read_again(tmp_path):
    from .cache_test_helpers import delete_cached_row
    path = _mindrecord(tmp_path)
    sid = generate_session()
    data = ds.MindDataset(path, shuffle=False, cache=ds.DatasetCache(sid))
    expected = epochs(data, 1)[0]
    delete_cached_row(sid, data, 5)
    assert same_rows(epochs(data, 1)[0], expected)
    with _stage(ds.DatasetCache(sid), data) as store:
        assert store.get(5) is not None
