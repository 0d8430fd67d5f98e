"""The stage store the engine uses: hits and misses over epochs, the completion marker, keys."""
import numpy as np
import pytest

from minddata.cache import DatasetCache, create_session, generate_session


@pytest.fixture
def cache_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))
    return tmp_path


def _row(i):
    return (np.full((4, 5, 3), i % 251, dtype=np.uint8), np.array(i, dtype=np.int32))


def _epoch(store, n):
    """What the engine does for one pass: read a row from the cache, else compute and put it."""
    out = []
    for i in range(n):
        row = store.get(i)
        if row is None:
            row = _row(i)
            store.put(i, row)
        out.append(row)
    store.mark_complete(n)
    return out


def test_first_epoch_misses_later_epochs_hit(cache_dirs):
    cache = DatasetCache(generate_session())
    with cache.open_stage("source:a|map:decode", ["image", "label"]) as store:
        assert not store.is_complete()
        first = _epoch(store, 20)
        assert store.is_complete()
        second = _epoch(store, 20)
    stat = cache.get_stat()
    assert (stat.misses, stat.hits, stat.rows) == (20, 20, 20)
    assert stat.num_mem_cached == 20 and stat.num_disk_cached == 0
    assert stat.bytes_in_memory > 20 * 60 and stat.avg_cache_sz > 60
    for a, b in zip(first, second):
        assert np.array_equal(a[0], b[0]) and a[1] == b[1]


def test_rows_filled_without_lookups_count_as_misses(cache_dirs):
    cache = DatasetCache(generate_session())
    with cache.open_stage("k", ["image", "label"]) as store:
        for i in range(7):
            store.put(i, _row(i))
        store.mark_complete(7)
        for i in range(7):
            store.get(i)
    stat = cache.get_stat()
    assert (stat.misses, stat.hits) == (7, 7)


def test_a_later_store_of_the_same_stage_reads_the_rows(cache_dirs):
    cache = DatasetCache(generate_session())
    with cache.open_stage("k", ["image", "label"]) as store:
        _epoch(store, 10)
    with cache.open_stage("k", ["image", "label"]) as again:
        assert again.is_complete()
        row = again.get(7)
        assert row[1] == 7 and row[0].shape == (4, 5, 3) and row[0][0, 0, 0] == 7


def test_rows_are_visible_before_they_are_flushed(cache_dirs):
    with DatasetCache(generate_session()).open_stage("k", ["image", "label"]) as store:
        store.put(3, _row(3))
        assert store.get(3)[1] == 3


def test_without_the_marker_the_stage_is_incomplete(cache_dirs):
    cache = DatasetCache(generate_session())
    with cache.open_stage("k", ["image", "label"]) as store:
        for i in range(10):
            store.put(i, _row(i))
    with cache.open_stage("k", ["image", "label"]) as store:
        assert not store.is_complete()
        assert store.get(4)[1] == 4  # the rows written are still good hits


def test_num_rows_of_a_complete_stage(cache_dirs):
    with DatasetCache(generate_session()).open_stage("k", ["image", "label"]) as store:
        assert store.num_rows() is None
        _epoch(store, 9)
        assert store.num_rows() == 9


def test_marker_needs_every_row_of_the_pass(cache_dirs):
    with DatasetCache(generate_session()).open_stage("k", ["image", "label"]) as store:
        for i in range(5):
            store.put(i, _row(i))
        assert store.mark_complete(8) is False
        assert not store.is_complete()
        for i in range(5, 8):
            store.put(i, _row(i))
        assert store.mark_complete(8) is True
        assert store.is_complete()


def test_a_different_upstream_never_reads_another_stages_rows(cache_dirs):
    cache = DatasetCache(generate_session())
    with cache.open_stage("source:a|map:Resize(256)", ["image", "label"]) as store:
        _epoch(store, 6)
    with cache.open_stage("source:a|map:Resize(224)", ["image", "label"]) as other:
        assert not other.is_complete()
        assert all(other.get(i) is None for i in range(6))
    with cache.open_stage("source:a|map:Resize(256)", ["img", "label"]) as renamed:
        assert renamed.get(0) is None


def test_put_of_an_existing_row_keeps_the_first(cache_dirs):
    with DatasetCache(generate_session()).open_stage("k", ["image", "label"]) as store:
        store.put(1, _row(1))
        store.flush()
        store.put(1, _row(2))
        store.flush()
        assert store.get(1)[1] == 1


def test_unknown_session_is_a_clear_error(cache_dirs):
    with pytest.raises(RuntimeError, match="session 424242 not found.*-g"):
        DatasetCache(424242).open_stage("k", ["a"])


def test_chosen_session_ids_can_be_created(cache_dirs):
    create_session(77)
    with DatasetCache(77).open_stage("k", ["image", "label"]) as store:
        store.put(0, _row(0))
        assert store.get(0) is not None


@pytest.mark.parametrize("key, row, error", [
    (-1, _row(0), ValueError),
    ("3", _row(0), TypeError),
    (0, (np.zeros(2),), ValueError),
    (0, np.zeros(2), ValueError),
])
def test_bad_puts_are_refused(cache_dirs, key, row, error):
    with DatasetCache(generate_session()).open_stage("k", ["image", "label"]) as store:
        with pytest.raises(error):
            store.put(key, row)


def test_bad_stage_arguments_are_refused(cache_dirs):
    cache = DatasetCache(generate_session())
    with pytest.raises(TypeError, match="pipeline_key"):
        cache.open_stage("", ["a"])
    with pytest.raises(TypeError, match="column_names"):
        cache.open_stage("k", "image")


def test_closed_store_refuses_use_and_close_is_idempotent(cache_dirs):
    store = DatasetCache(generate_session()).open_stage("k", ["image", "label"])
    store.close()
    store.close()
    with pytest.raises(RuntimeError, match="closed"):
        store.get(0)


def test_numpy_integer_keys_work(cache_dirs):
    with DatasetCache(generate_session()).open_stage("k", ["image", "label"]) as store:
        store.put(np.int64(5), _row(5))
        assert store.get(np.uint32(5))[1] == 5


def test_stores_release_their_environments(cache_dirs):
    from minddata.cache import envs
    before = envs.open_count()
    cache = DatasetCache(generate_session())
    a = cache.open_stage("k1", ["image", "label"])
    b = cache.open_stage("k2", ["image", "label"])
    assert envs.open_count() == before + 1  # one handle per session, shared by its stores
    a.close()
    b.close()
    assert envs.open_count() == before


def test_a_dropped_unclosed_store_gives_back_its_threads_and_handles(cache_dirs):
    import gc
    import threading
    from minddata.cache import envs
    before = envs.open_count()
    cache = DatasetCache(generate_session())
    store = cache.open_stage("k", ["image", "label"])
    for i in range(300):                  # more than a batch: the write-behind thread runs
        store.put(i, _row(i))
    store.mark_complete(300)
    assert store.is_complete()
    store.get(0)
    store.get(1)                          # in-order reads: the read-ahead thread runs
    names = {t.name for t in threading.enumerate()}
    assert {"minddata-cache-write-behind", "minddata-cache-read-ahead"} <= names
    del store
    gc.collect()
    names = {t.name for t in threading.enumerate()}
    assert not names & {"minddata-cache-write-behind", "minddata-cache-read-ahead"}
    assert envs.open_count() == before
