"""A complete cached map stage is read up to its row count: no probe past the end (no extra
miss per epoch), and a row missing from it is computed again, or raises when it cannot be."""
import numpy as np
import pytest

import minddata as ds
from minddata.cache import generate_session

from . import cache_test_helpers as helpers
from .cache_test_helpers import delete_cached_row, epochs

cache_root = helpers.cache_root     # fixture: a private cache root for each test
pytestmark = pytest.mark.usefixtures("cache_root")


def _counted_square(calls):
    def square(x):
        calls.append(int(x))
        return x * x
    return square


_SOURCES = {}


def _pipeline(cache, calls, shuffle=False):
    # One source object per shuffle mode: a NumpySlicesDataset's cache key names its arrays'
    # identity, so pipelines share a cached stage only when they share the source object.
    if shuffle not in _SOURCES:
        _SOURCES[shuffle] = ds.NumpySlicesDataset({"x": np.arange(30, dtype=np.int64)},
                                                  shuffle=shuffle)
    return _SOURCES[shuffle].map(_counted_square(calls), input_columns=["x"], cache=cache)


def test_later_epochs_add_hits_and_no_misses():
    cache = ds.DatasetCache(generate_session())
    epochs(_pipeline(cache, []), 1)
    misses = cache.get_stat().misses
    epochs(_pipeline(cache, []), 3)
    stat = cache.get_stat()
    assert stat.misses == misses
    assert stat.hits == 90


def test_a_missing_row_is_computed_again():
    sid = generate_session()
    cache = ds.DatasetCache(sid)
    epochs(_pipeline(cache, []), 1)
    delete_cached_row(sid, _pipeline(cache, []), 7)
    calls = []
    rows = epochs(_pipeline(cache, calls), 1)[0]
    assert [int(r[0]) for r in rows] == [i * i for i in range(30)]
    assert calls[0] == 7                   # nothing before the missing row was recomputed


def test_a_missing_row_is_stored_again():
    sid = generate_session()
    cache = ds.DatasetCache(sid)
    epochs(_pipeline(cache, []), 1)
    delete_cached_row(sid, _pipeline(cache, []), 12)
    epochs(_pipeline(cache, []), 1)
    calls = []
    rows = epochs(_pipeline(cache, calls), 1)[0]
    assert calls == [] and [int(r[0]) for r in rows] == [i * i for i in range(30)]


def test_a_missing_row_in_a_batched_epoch_is_computed_again():
    sid = generate_session()
    cache = ds.DatasetCache(sid)
    epochs(_pipeline(cache, []).batch(4), 1)
    delete_cached_row(sid, _pipeline(cache, []), 9)
    batches = epochs(_pipeline(cache, []).batch(4), 1)[0]
    assert [b[0].tolist() for b in batches] == [[i * i for i in range(k, min(k + 4, 30))]
                                                for k in range(0, 30, 4)]


def test_a_missing_row_below_a_shuffle_raises():
    sid = generate_session()
    cache = ds.DatasetCache(sid)
    epochs(_pipeline(cache, [], shuffle=True), 1)
    delete_cached_row(sid, _pipeline(cache, [], shuffle=True), 3)
    with pytest.raises(RuntimeError, match=f"row 3 of a complete cached stage is missing.*-d {sid}"):
        epochs(_pipeline(cache, [], shuffle=True), 1)


def test_resuming_from_a_store_that_lost_its_rows_continues_at_the_same_row():
    sid = generate_session()
    cache = ds.DatasetCache(sid)
    data = _pipeline(cache, [])
    epochs(data, 1)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    for k, _ in enumerate(it):
        if k == 9:
            break
    state = it.get_state()
    it.close()
    ds.cache.destroy_session(sid)
    ds.cache.create_session(sid)            # the same session, now empty
    rest = epochs(data, 1, state=state)[0]
    assert [int(r[0]) for r in rest] == [i * i for i in range(10, 30)]


def test_a_missing_first_row_below_a_shuffle_starts_a_new_pass():
    sid = generate_session()
    cache = ds.DatasetCache(sid)
    epochs(_pipeline(cache, [], shuffle=True), 1)
    delete_cached_row(sid, _pipeline(cache, [], shuffle=True), 0)
    calls = []
    rows = epochs(_pipeline(cache, calls, shuffle=True), 1)[0]
    assert sorted(int(r[0]) for r in rows) == [i * i for i in range(30)] and len(calls) == 30
