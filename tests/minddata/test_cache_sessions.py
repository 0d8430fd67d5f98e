"""The session registry: generate, list, destroy, and recovery of what interrupted runs left."""
import os

import numpy as np
import pytest

from minddata.cache import (DatasetCache, destroy_session, generate_session, list_sessions,
                            sessions)


@pytest.fixture
def cache_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))
    return tmp_path


def test_generated_ids_are_distinct_uint32_and_listed(cache_dirs):
    ids = {generate_session() for _ in range(5)}
    assert len(ids) == 5 and all(1 <= i < 2**32 for i in ids)
    assert set(list_sessions()) == ids


def test_destroy_removes_the_directory_and_reports_unknown_ids(cache_dirs):
    sid = generate_session()
    with DatasetCache(sid).open_stage("k", ["x"]) as store:
        store.put(0, (np.zeros(3),))
    assert destroy_session(sid) is True
    assert list_sessions() == []
    assert os.listdir(cache_dirs / "root" / "sessions") == []
    assert destroy_session(sid) is False


def test_interrupted_destroy_and_orphan_spill_areas_are_recovered(cache_dirs):
    keep = generate_session()
    trash = cache_dirs / "root" / "sessions" / ".trash-5-123-abcd"
    trash.mkdir()
    (trash / "data.mdb").write_bytes(b"x" * 10)
    orphan = cache_dirs / "spill" / "session-99"
    orphan.mkdir(parents=True)
    kept_spill = cache_dirs / "spill" / f"session-{keep}"
    kept_spill.mkdir()
    sessions.recover_stale()
    assert not trash.exists() and not orphan.exists() and kept_spill.exists()
    assert list_sessions() == [keep]


def test_stats_of_a_session_without_rows_are_zero(cache_dirs):
    stat = DatasetCache(generate_session()).get_stat()
    assert (stat.rows, stat.hits, stat.misses, stat.bytes_in_memory, stat.stages) == (0, 0, 0, 0, 0)


def test_a_session_of_an_older_format_is_started_afresh(cache_dirs):
    from minddata.cache import stage_store
    cache = DatasetCache(generate_session())
    with cache.open_stage("k", ["x"]) as store:
        store.put(0, (np.zeros(3),))
        store.mark_complete(1)
        with store._env.begin(write=True) as txn:
            txn.put(stage_store.VERSION_KEY, b"0")
    with cache.open_stage("k", ["x"]) as store:
        assert not store.is_complete() and store.get(0) is None


def test_an_unreadable_store_is_rebuilt(cache_dirs, caplog):
    sid = generate_session()
    with DatasetCache(sid).open_stage("k", ["x"]) as store:
        store.put(0, (np.zeros(3),))
        store.mark_complete(1)
    (cache_dirs / "root" / "sessions" / str(sid) / "data.mdb").write_bytes(b"garbage" * 1000)
    with DatasetCache(sid).open_stage("k", ["x"]) as store:
        assert not store.is_complete() and store.get(0) is None
        store.put(0, (np.ones(3),))
        assert store.get(0)[0][0] == 1
    assert "rebuilding" in caplog.text
