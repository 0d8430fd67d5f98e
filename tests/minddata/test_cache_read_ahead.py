"""Reading a complete stage in order uses a read-ahead thread; any access order returns the right
rows, and closing the store stops the thread."""
import threading

import numpy as np
import pytest

from minddata.cache import DatasetCache, generate_session
from minddata.cache.read_ahead import ReadAhead

N = 50


@pytest.fixture
def complete_store(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))
    cache = DatasetCache(generate_session(), prefetch_size=4)
    with cache.open_stage("k", ["x"]) as store:
        for i in range(N):
            store.put(i, (np.full(100, i, np.int32),))
        store.mark_complete(N)
    store = cache.open_stage("k", ["x"])
    assert store.is_complete()
    yield store
    store.close()


def _threads():
    return [t for t in threading.enumerate() if t.name == "minddata-cache-read-ahead"]


def test_in_order_reads_over_epochs(complete_store):
    for _ in range(2):
        assert [int(complete_store.get(i)[0][0]) for i in range(N)] == list(range(N))
        assert complete_store.get(N) is None
    assert len(_threads()) == 1


def test_any_order_reads_the_right_rows(complete_store):
    order = list(np.random.default_rng(0).permutation(N)) + [3, 4, 5, 6, 2, 40, 41, 0]
    assert [int(complete_store.get(int(i))[0][0]) for i in order] == [int(i) for i in order]


def test_close_stops_the_thread(complete_store):
    complete_store.get(0)
    complete_store.get(1)
    complete_store.close()
    assert _threads() == []


def test_read_ahead_counts_hits_and_misses_like_direct_reads(complete_store):
    for i in range(N + 1):
        complete_store.get(i)
    complete_store.close()
    stat = DatasetCache(complete_store.session_id).get_stat()
    assert (stat.hits, stat.misses) == (N, N + 1)  # N rows filled without lookups, 1 miss


def test_read_ahead_stays_within_its_depth():
    reads = []
    four_read = threading.Event()

    def lookup(key):
        reads.append(key)
        if key == 4:
            four_read.set()
        return (key,)
    ahead = ReadAhead(lookup, limit=1000, depth=3)
    try:
        ahead.take(0)
        ahead.take(1)     # sequential: the thread reads 2, 3, 4 and then waits
        assert four_read.wait(30)
        assert ahead.take(2) == (True, (2,))
        assert reads[:3] == [2, 3, 4] and max(reads) <= 5
    finally:
        ahead.close()
