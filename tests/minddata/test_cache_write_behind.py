"""Rows are committed by a write-behind thread: they stay readable while in flight, failures
surface in the caller, and closing the store stops the thread."""
import threading

import numpy as np
import pytest

from minddata.cache import DatasetCache, generate_session, stage_store
from minddata.cache.write_behind import WriteBehind


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))
    monkeypatch.setattr(stage_store, "BATCH_ROWS", 4)
    s = DatasetCache(generate_session()).open_stage("k", ["x"])
    yield s
    s.close()


def _threads():
    return [t for t in threading.enumerate() if t.name == "minddata-cache-write-behind"]


def test_every_row_is_readable_right_after_put(store):
    for i in range(40):
        store.put(i, (np.full(1000, i, np.int32),))
        assert all(int(store.get(j)[0][0]) == j for j in range(max(0, i - 6), i + 1))


def test_failures_of_the_writer_surface_in_the_caller(store, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("disk on fire")
    monkeypatch.setattr(store, "_write_batch", broken)
    with pytest.raises(OSError, match="disk on fire"):
        for i in range(12):
            store.put(i, (np.zeros(3),))
        store.flush()


def test_close_commits_and_stops_the_thread(store):
    for i in range(10):
        store.put(i, (np.zeros(3),))
    assert len(_threads()) == 1
    store.close()
    assert _threads() == []
    again = DatasetCache(store.session_id).open_stage("k", ["x"])
    try:
        assert all(again.get(i) is not None for i in range(10))
    finally:
        again.close()


def test_submit_blocks_beyond_the_queue_bound():
    release = threading.Event()
    written = []

    def slow(batch):
        release.wait(30)
        written.append(batch)
    writer = WriteBehind(slow, max_batches=1)
    writer.submit({"a": 1})
    done = threading.Event()
    t = threading.Thread(target=lambda: (writer.submit({"b": 2}), done.set()))
    t.start()
    assert not done.wait(0.2)        # the second batch waits for room
    assert writer.lookup("a") == 1
    release.set()
    assert done.wait(30)
    writer.close()
    t.join()
    assert written == [{"a": 1}, {"b": 2}]
