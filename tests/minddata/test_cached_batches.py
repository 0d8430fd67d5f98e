"""Batches over a complete cached map are read whole from the cache (copied once, straight
into the batch arrays); they must equal the batches of the same pipeline without a cache."""
import numpy as np
import pytest

import minddata as ds
from minddata.cache import generate_session

from . import cache_test_helpers as helpers
from .cache_test_helpers import epochs, same_rows

cache_root = helpers.cache_root     # fixture: a private cache root for each test
pytestmark = pytest.mark.usefixtures("cache_root")


class _Rows:
    """Random-access source: an image-like float array, an int label and a string."""

    def __init__(self, n, ragged=False):
        self.n, self.ragged = n, ragged
        # What identifies these rows for the cache (a generator's are stated by its author).
        self.cache_identity = f"rows-v1-n={n}-ragged={ragged}"

    def __getitem__(self, i):
        side = 4 + (i % 3 if self.ragged else 0)
        return (np.full((3, side, side), i / 7, np.float32), np.int32(i),
                np.array("r" * (1 + i % 4)))

    def __len__(self):
        return self.n


def _source(n=23, ragged=False):
    return ds.GeneratorDataset(_Rows(n, ragged), ["image", "label", "tag"], shuffle=False)


def _batched(src, cache, size, drop=False, workers=None):
    data = src.map(lambda x: x * 2, input_columns=["image"], cache=cache)
    return data.batch(size, drop_remainder=drop, num_parallel_workers=workers)


@pytest.mark.parametrize("size,drop,workers", [(5, False, None), (5, True, None), (4, False, 2),
                                               (23, False, None), (64, False, None)])
def test_cached_batches_equal_uncached_ones(size, drop, workers):
    src = _source()
    expected = epochs(_batched(src, None, size, drop, workers), 1)[0]
    got = epochs(_batched(src, ds.DatasetCache(generate_session()), size, drop, workers), 3)
    assert len(got[1]) == len(expected) and same_rows(got[1], expected)
    assert same_rows(got[2], expected) and same_rows(got[0], expected)


def test_rows_of_different_shapes_fail_as_without_a_cache():
    src = _source(ragged=True)
    data = _batched(src, ds.DatasetCache(generate_session()), 4)
    with pytest.raises(RuntimeError, match="different shapes"):
        epochs(data, 1)
    ok = src.map(lambda x: x * 2, input_columns=["image"], cache=ds.DatasetCache(
        generate_session())).batch(4, pad_info={"image": ([3, 6, 6], -1.0)})
    padded = epochs(ok, 2)
    assert padded[1][0][0].shape == (4, 3, 6, 6) and same_rows(padded[0], padded[1])


def test_strings_of_different_widths_are_batched_from_the_cache():
    src = _source(8)
    got = epochs(_batched(src, ds.DatasetCache(generate_session()), 8), 2)[1]
    assert got[0][2].tolist() == ["r" * (1 + i % 4) for i in range(8)]


def test_resuming_mid_epoch_gives_the_remaining_cached_batches():
    src = _source()
    data = _batched(src, ds.DatasetCache(generate_session()), 4)
    expected = epochs(data, 2)[1]
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    list(it)                                          # epoch 0 (from the store already)
    for k, _ in enumerate(it):
        if k == 2:
            break
    state = it.get_state()
    it.close()
    resumed = data.create_tuple_iterator(num_epochs=2, output_numpy=True, state=state)
    rest = [tuple(row) for row in resumed]
    assert len(rest) == len(expected) - 3 and same_rows(rest, expected[3:])


def test_a_shuffle_after_the_cached_map_reads_rows():
    src = _source()
    data = src.map(lambda x: x * 2, input_columns=["image"],
                   cache=ds.DatasetCache(generate_session())).shuffle(8).batch(5)
    first, second = epochs(data, 2)
    labels = [sorted(np.concatenate([b[1] for b in e]).tolist()) for e in (first, second)]
    assert labels == [list(range(23))] * 2


def test_debug_mode_reads_the_cache_inline():
    src = _source()
    expected = epochs(_batched(src, None, 5), 1)[0]
    ds.config.set_debug_mode(True)
    got = epochs(_batched(src, ds.DatasetCache(generate_session()), 5), 2)
    assert same_rows(got[1], expected)


def test_every_cached_row_is_a_hit():
    cache = ds.DatasetCache(generate_session())
    epochs(_batched(_source(), cache, 5), 3)
    assert cache.get_stat().hits == 46


def test_breaking_out_of_a_cached_epoch_leaves_no_reader_threads():
    import gc
    import threading
    data = _batched(_source(200), ds.DatasetCache(generate_session()), 4)
    epochs(data, 1)                                   # fill
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    next(it)
    assert any(t.name.startswith("minddata-cache-read") for t in threading.enumerate())
    del it
    gc.collect()
    assert not [t.name for t in threading.enumerate() if t.name.startswith("minddata-cache")]


def test_batches_the_consumer_holds_are_never_overwritten():
    src = _source(40)
    data = _batched(src, ds.DatasetCache(generate_session()), 4)
    expected = epochs(data, 1)[0]                     # fill, copied
    it = data.create_tuple_iterator(num_epochs=3, output_numpy=True)
    held = [list(it) for _ in range(3)]               # every batch array kept, no copy
    views = [b[0][1:] for b in held[0]]               # and views of some
    for epoch in held:
        assert same_rows([tuple(b) for b in epoch], expected)
    assert all(np.array_equal(v, b[0][1:]) for v, b in zip(views, expected))


def test_dropped_batch_arrays_are_reused():
    from minddata.engine.recycler import BufferRecycler
    recycler = BufferRecycler()
    first = recycler.empty((4, 3), np.float32)
    address = first.ctypes.data
    held = recycler.empty((4, 3), np.float32)
    assert held.ctypes.data != address                # still referenced: a new array
    del first
    again = recycler.empty((4, 3), np.float32)
    assert again.ctypes.data == address and held.ctypes.data != address


def test_an_array_whose_slice_is_alive_is_not_reused():
    from minddata.engine.recycler import BufferRecycler
    recycler = BufferRecycler()
    batch = recycler.empty((4, 3), np.float32)
    batch[:] = 7
    address = batch.ctypes.data
    part = batch[1:].reshape(-1)                      # holds the buffer, not the batch
    del batch
    other = recycler.empty((4, 3), np.float32)
    other[:] = 0
    assert other.ctypes.data != address and np.all(part == 7)


def test_a_closed_recycler_keeps_nothing():
    from minddata.engine.recycler import BufferRecycler
    recycler = BufferRecycler()
    batch = recycler.empty((2, 2), np.uint8)
    recycler.clear()
    del batch
    assert recycler.spare_bytes() == 0


@pytest.mark.parametrize("prefetch_size", [None, 1, 7])
def test_rows_read_in_runs_of_prefetch_size_come_out_in_order(prefetch_size):
    src = _source()
    cache = ds.DatasetCache(generate_session(), prefetch_size=prefetch_size)
    data = src.map(lambda x: x * 2, input_columns=["image"], cache=cache)
    first, second = epochs(data, 2)
    assert [int(r[1]) for r in second] == list(range(23)) and same_rows(first, second)


def _spilling_pipeline(cache):
    src = ds.NumpySlicesDataset({"data": np.arange(40 * 16384, dtype=np.float32).reshape(40, -1),
                                 "label": np.arange(40, dtype=np.int64)}, shuffle=False)
    return src, lambda: src.map(lambda x: x + 1, input_columns=["data"], cache=cache)


def test_batches_and_rows_read_spilled_rows(tmp_path):
    cache = ds.DatasetCache(generate_session(), size=1, spilling=True)   # 1 MB: most spill
    src, pipeline = _spilling_pipeline(cache)
    expected = epochs(src.map(lambda x: x + 1, input_columns=["data"]), 1)[0]
    epochs(pipeline(), 1)
    stat = cache.get_stat()
    assert stat.rows_spilled > 20 and stat.rows_in_memory + stat.rows_spilled == 40
    batches = epochs(pipeline().batch(6), 1)[0]
    assert np.array_equal(np.concatenate([b[0] for b in batches]), np.stack([r[0] for r in expected]))
    assert same_rows(epochs(pipeline(), 1)[0], expected)


def test_a_deleted_spill_directory_makes_the_stage_compute_again(tmp_path):
    import shutil
    cache = ds.DatasetCache(generate_session(), size=1, spilling=True)
    src, pipeline = _spilling_pipeline(cache)
    first = epochs(pipeline().batch(8), 1)[0]
    shutil.rmtree(tmp_path / "cache-spill")
    calls = []
    data = src.map(lambda x: calls.append(1) or x + 1, input_columns=["data"], cache=cache)
    assert same_rows(epochs(data.batch(8), 1)[0], first) and len(calls) == 40


def test_an_empty_cached_stage_gives_empty_epochs():
    data = _batched(_source(0), ds.DatasetCache(generate_session()), 4)
    assert epochs(data, 3) == [[], [], []]


def test_a_repeat_above_the_batch_reads_the_cache_each_pass():
    src = _source()
    expected = epochs(_batched(src, None, 5), 1)[0]
    data = _batched(src, ds.DatasetCache(generate_session()), 5).repeat(3)
    got = epochs(data, 1)[0]
    assert same_rows(got, expected * 3)
