"""The memory cap: rows beyond it spill to disk (spilling=True) or are not cached, with one
warning (spilling=False); a cache that stopped growing is never taken for complete."""
import os
import shutil
import warnings

import numpy as np
import pytest

from minddata.cache import DatasetCache, destroy_session, generate_session
from minddata.cache import root as roots

ROW_BYTES = 64 * 1024
N = 40


@pytest.fixture
def cache_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))
    return tmp_path


def _row(i):
    return (np.full(ROW_BYTES, i % 256, dtype=np.uint8), np.array(i, dtype=np.int64))


def _fill(store, n=N):
    for i in range(n):
        store.put(i, _row(i))
    return store.mark_complete(n)


def test_without_spilling_the_cache_stops_growing_and_warns_once(cache_dirs):
    cache = DatasetCache(generate_session(), size=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with cache.open_stage("k", ["data", "label"]) as store:
            assert _fill(store) is False
            assert not store.is_complete()
        with cache.open_stage("k", ["data", "label"]) as store:
            _fill(store)
    full = [w for w in caught if issubclass(w.category, RuntimeWarning)
            and "stops growing" in str(w.message)]
    assert len(full) == 1 and "spilling=True" in str(full[0].message)
    stat = cache.get_stat()
    assert 0 < stat.rows_in_memory < N and stat.rows_spilled == 0
    assert stat.bytes_in_memory <= 1 << 20
    assert stat.rows_not_cached >= N - stat.rows_in_memory


def test_capped_rows_still_hit_and_the_rest_miss(cache_dirs):
    cache = DatasetCache(generate_session(), size=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with cache.open_stage("k", ["data", "label"]) as store:
            _fill(store)
            rows = [store.get(i) for i in range(N)]
    cached = [r for r in rows if r is not None]
    assert 0 < len(cached) < N
    assert all(r[0][0] == r[1] % 256 for r in cached)


def test_with_spilling_every_row_is_kept_and_memory_stays_under_the_cap(cache_dirs):
    cache = DatasetCache(generate_session(), size=1, spilling=True)
    with cache.open_stage("k", ["data", "label"]) as store:
        assert _fill(store) is True
        assert store.is_complete()
    with cache.open_stage("k", ["data", "label"]) as store:
        assert store.is_complete()
        for i in range(N):
            row = store.get(i)
            assert row[1] == i and row[0][-1] == i % 256
    stat = cache.get_stat()
    assert stat.rows == N and stat.rows_spilled > 0 and stat.hits == N
    assert stat.bytes_in_memory <= 1 << 20 and stat.bytes_spilled > 0
    assert os.path.exists(cache_dirs / "spill" / f"session-{cache.session_id}" / "data.mdb")


def test_lost_spill_area_makes_the_stage_incomplete(cache_dirs):
    cache = DatasetCache(generate_session(), size=1, spilling=True)
    with cache.open_stage("k", ["data", "label"]) as store:
        _fill(store)
    shutil.rmtree(cache_dirs / "spill" / f"session-{cache.session_id}")
    with cache.open_stage("k", ["data", "label"]) as store:
        assert not store.is_complete()


def test_destroy_removes_memory_and_spilled_rows(cache_dirs):
    cache = DatasetCache(generate_session(), size=1, spilling=True)
    with cache.open_stage("k", ["data", "label"]) as store:
        _fill(store)
    assert destroy_session(cache.session_id)
    assert not (cache_dirs / "root" / "sessions" / str(cache.session_id)).exists()
    assert not (cache_dirs / "spill" / f"session-{cache.session_id}").exists()
    with pytest.raises(RuntimeError, match="not found"):
        cache.open_stage("k", ["data", "label"])


def test_host_memory_cap_sends_rows_to_the_spill_area(cache_dirs):
    roots.save_config({"memory_cap_ratio": 1e-12})
    cache = DatasetCache(generate_session(), spilling=True)
    with cache.open_stage("k", ["data", "label"]) as store:
        assert _fill(store, 10)
        assert store.get(9)[1] == 9
    stat = cache.get_stat()
    assert stat.rows_spilled == 10 and stat.rows_in_memory == 0


def test_a_full_memory_file_system_sends_the_batch_to_the_spill_area(cache_dirs, monkeypatch):
    import lmdb
    from minddata.cache.stage_store import StageStore
    real = StageStore._write_batch

    def full_then_real(self, batch, local, memory_ok):
        if memory_ok:
            raise lmdb.Error("mdb_txn_commit: No space left on device")
        return real(self, batch, local, memory_ok)
    monkeypatch.setattr(StageStore, "_write_batch", full_then_real)
    cache = DatasetCache(generate_session(), spilling=True)
    with cache.open_stage("k", ["data", "label"]) as store:
        assert _fill(store, 5)
        assert store.get(4)[1] == 4
    assert cache.get_stat().rows_spilled == 5


def test_nowhere_to_write_stops_growing_without_failing_the_pipeline(cache_dirs, monkeypatch):
    import lmdb
    from minddata.cache.stage_store import StageStore

    def always_full(self, batch, local, memory_ok):
        raise lmdb.Error("No space left on device")
    monkeypatch.setattr(StageStore, "_write_batch", always_full)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with DatasetCache(generate_session()).open_stage("k", ["data", "label"]) as store:
            assert _fill(store, 5) is False
            assert not store.is_complete()
    assert any("stops growing" in str(w.message) for w in caught)


def test_other_storage_errors_are_raised(cache_dirs, monkeypatch):
    import lmdb
    from minddata.cache.stage_store import StageStore

    def corrupted(self, batch, local, memory_ok):
        raise lmdb.CorruptedError("MDB_CORRUPTED")
    monkeypatch.setattr(StageStore, "_write_batch", corrupted)
    store = DatasetCache(generate_session()).open_stage("k", ["data", "label"])
    store.put(0, _row(0))
    with pytest.raises(lmdb.CorruptedError):
        store.flush()
    store.close()
