"""Shuffle.BLOCKS (minddata/graph/block_shuffle.py): blocks of each file in a random order, rows
shuffled within windows; its contiguous shard split; exact and elastic resume; its options."""
import collections
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import minddata as ds
from minddata import seeds
from minddata.graph.block_shuffle import (DEFAULT_BLOCK_ROWS, DEFAULT_WINDOW_BLOCKS,
                                          block_shuffle_order, file_blocks)
from mindrecord import FileWriter

from .engine_helpers import check_resume, numbers
from .test_elastic_resume import check_elastic, check_resharded_twice, epoch_items

#: Rows per file of the test set: uneven, one file smaller than a block, one empty-ish tail.
FILE_ROWS = (37, 50, 3, 70, 41)
N = sum(FILE_ROWS)
BLOCKS = dict(shuffle=ds.Shuffle.BLOCKS, shuffle_block_rows=8, shuffle_window_rows=20)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """MindRecord files of FILE_ROWS rows; row id i has x = i, y = 10 * i (columns x, y)."""
    root = tmp_path_factory.mktemp("blocks")
    paths, start = [], 0
    for k, count in enumerate(FILE_ROWS):
        path = str(root / f"part{k}.mindrecord")
        writer = FileWriter(path, 1)
        writer.add_schema({"x": {"type": "int64"}, "y": {"type": "int64"}}, "rows")
        writer.write_raw_data([{"x": start + i, "y": 10 * (start + i)} for i in range(count)])
        writer.commit()
        paths.append(path)
        start += count
    return paths


def _ranges(file_rows):
    starts = np.concatenate([[0], np.cumsum(file_rows)]).astype(int)
    return [(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]


def _ids(dataset, num_epochs=1):
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    try:
        return [[int(r[0]) for r in it] for _ in range(num_epochs)]
    finally:
        it.close()


def _block_of(ranges, block_rows):
    """Row id -> index of its block (file_blocks' numbering)."""
    starts, stops = file_blocks(ranges, block_rows)
    n = ranges[-1][1] if ranges else 0
    out = np.full(n, -1, dtype=np.int64)
    for b, (a, z) in enumerate(zip(starts, stops)):
        out[a:z] = b
    return out


# -- the order function ------------------------------------------------------------------------
def test_blocks_stay_in_their_file_and_hold_at_least_a_block():
    ranges = _ranges([37, 50, 3, 0, 70, 16])
    starts, stops = file_blocks(ranges, 8)
    for a, z in zip(starts, stops):
        file = [r for r in ranges if r[0] <= a < r[1]][0]
        assert z <= file[1], "a block spans two files"
        assert 8 <= z - a < 16 or (z - a == file[1] - file[0] < 8)
    assert sorted(np.concatenate([np.arange(a, z) for a, z in zip(starts, stops)])) == \
        list(range(ranges[-1][1]))
    # blocks start at the file's multiples of the block size
    assert [int(a) for a in starts[:4]] == [0, 8, 16, 24]    # 37 rows: 8, 8, 8, 13


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(file_rows=st.lists(st.integers(0, 300), min_size=1, max_size=12),
       block=st.integers(1, 40), extra=st.integers(0, 120), seed=st.integers(0, 2 ** 32 - 1))
def test_model_permutation_and_locality(file_rows, block, extra, seed):
    window = block + extra
    ranges = _ranges(file_rows)
    n = sum(file_rows)
    order = block_shuffle_order(ranges, block, window, np.random.default_rng(seed))
    assert order.dtype == np.int64 and sorted(order.tolist()) == list(range(n))
    block_of = _block_of(ranges, block)
    small = {int(block_of[a]) for a, z in ranges if 0 < z - a < block}
    starts, stops = file_blocks(ranges, block)
    sizes = stops - starts
    for i in range(0, n, window):
        touched = set(block_of[order[i:i + window]].tolist())
        # the locality property: a window of the order meets at most window/block + 2 blocks
        # (blocks of files smaller than a block excepted: they hold fewer rows)
        assert len(touched - small) <= window / block + 2
        # and every block but the two it shares with its neighbours lies wholly inside it
        counts = collections.Counter(block_of[order[i:i + window]].tolist())
        partial = [b for b, c in counts.items() if c != sizes[b]]
        assert len(partial) <= 2
    for i in range(max(1, n - window + 1)):        # any run of window rows: two windows
        touched = set(block_of[order[i:i + window]].tolist()) - small
        assert len(touched) <= 2 * window / block + 4


def test_one_block_per_window_keeps_blocks_whole():
    ranges = _ranges([64, 64])
    order = block_shuffle_order(ranges, 16, 16, np.random.default_rng(3))
    for i in range(0, 128, 16):
        rows = sorted(order[i:i + 16].tolist())
        assert rows == list(range(rows[0], rows[0] + 16)) and rows[0] % 16 == 0
    assert order.tolist() != list(range(128))


def test_a_window_of_every_row_is_a_global_shuffle_of_the_blocks_rows():
    order = block_shuffle_order(_ranges([10, 10]), 5, 20, np.random.default_rng(1))
    assert sorted(order.tolist()) == list(range(20))


def test_the_order_is_a_function_of_the_generator():
    ranges = _ranges([100, 200, 50])
    def order(*key):
        return block_shuffle_order(ranges, 16, 64, seeds.rng(*key)).tolist()
    assert order(1, 0, 0) == order(1, 0, 0)
    assert order(1, 0, 0) != order(1, 1, 0)
    assert order(1, 0, 0) != order(2, 0, 0)


def test_empty_sources():
    assert block_shuffle_order([], 4, 8, np.random.default_rng(0)).tolist() == []
    assert block_shuffle_order([(0, 0)], 4, 8, np.random.default_rng(0)).tolist() == []


# -- through MindDataset --------------------------------------------------------------------
def test_same_seed_same_order_and_epochs_differ(files):
    ds.config.set_seed(11)
    first = _ids(ds.MindDataset(files, **BLOCKS), num_epochs=3)
    ds.config.set_seed(11)
    again = _ids(ds.MindDataset(files, **BLOCKS), num_epochs=3)
    assert first == again
    assert all(sorted(e) == list(range(N)) for e in first)
    assert first[0] != first[1] and first[1] != first[2]
    ds.config.set_seed(12)
    assert _ids(ds.MindDataset(files, **BLOCKS)) != first[:1]


def test_rows_come_block_by_block(files):
    """A block's rows are read within the windows its place in the block order covers."""
    ds.config.set_seed(4)
    order = np.array(_ids(ds.MindDataset(files, **BLOCKS))[0])
    block_of = _block_of(_ranges(FILE_ROWS), 8)
    window = BLOCKS["shuffle_window_rows"]
    position = np.argsort(order)
    for b in range(block_of.max() + 1):
        where = position[block_of == b]
        assert where.max() - where.min() < where.size + 2 * window
    assert order.tolist() != sorted(order.tolist())


@pytest.mark.parametrize("num_shards", [2, 3, 4, 7])
def test_shards_are_contiguous_parts_of_the_epoch_order(files, num_shards):
    ds.config.set_seed(21)
    whole = _ids(ds.MindDataset(files, **BLOCKS), num_epochs=2)
    per = -(-N // num_shards)
    for epoch in range(2):
        parts = []
        for k in range(num_shards):
            ds.config.set_seed(21)
            data = ds.MindDataset(files, num_shards=num_shards, shard_id=k, **BLOCKS)
            assert data.get_dataset_size() == per
            parts.append(_ids(data, num_epochs=2)[epoch])
        assert all(len(p) == per for p in parts)
        # rank k reads positions k*per .. (k+1)*per - 1 of the order, wrapping past the end
        assert sum(parts, []) == [whole[epoch][i % N] for i in range(per * num_shards)]
        # disjoint but for the wrap padding, and together every row
        assert collections.Counter(sum(parts, [])) == collections.Counter(
            list(range(N)) + whole[epoch][:per * num_shards - N])


def test_num_samples_cuts_each_shard(files):
    ds.config.set_seed(2)
    whole = _ids(ds.MindDataset(files, num_shards=2, shard_id=1, **BLOCKS))[0]
    ds.config.set_seed(2)
    cut = _ids(ds.MindDataset(files, num_shards=2, shard_id=1, num_samples=10, **BLOCKS))[0]
    assert cut == whole[:10]


def test_defaults(files):
    data = ds.MindDataset(files, shuffle=ds.Shuffle.BLOCKS)
    assert (data.shuffle_block_rows, data.shuffle_window_rows) == \
        (DEFAULT_BLOCK_ROWS, DEFAULT_BLOCK_ROWS * DEFAULT_WINDOW_BLOCKS) == (256, 4096)
    data = ds.MindDataset(files, shuffle=ds.Shuffle.BLOCKS, shuffle_block_rows=1000)
    assert data.shuffle_window_rows == 16000
    data = ds.MindDataset(files, shuffle=ds.Shuffle.BLOCKS, shuffle_window_rows=300)
    assert (data.shuffle_block_rows, data.shuffle_window_rows) == (256, 300)
    assert sorted(_ids(data)[0]) == list(range(N))
    assert ds.MindDataset(files).shuffle_block_rows is None


@pytest.mark.parametrize("kw, error, words", [
    (dict(shuffle_block_rows=0), ValueError, "shuffle_block_rows must be a positive int"),
    (dict(shuffle_window_rows=-3), ValueError, "shuffle_window_rows must be a positive int"),
    (dict(shuffle_block_rows=2 ** 31), ValueError, "shuffle_block_rows"),
    (dict(shuffle_block_rows=8.0), TypeError, "shuffle_block_rows must be of type int"),
    (dict(shuffle_window_rows=True), TypeError, "shuffle_window_rows must be of type int"),
    (dict(shuffle_window_rows="64"), TypeError, "shuffle_window_rows must be of type int"),
    (dict(shuffle_block_rows=16, shuffle_window_rows=8), ValueError,
     r"shuffle_window_rows \(8\) must be at least shuffle_block_rows \(16\)"),
    (dict(shuffle_window_rows=100), ValueError, r"shuffle_block_rows \(256, the default\)"),
])
def test_bad_options(files, kw, error, words):
    with pytest.raises(error, match=words):
        ds.MindDataset(files, shuffle=ds.Shuffle.BLOCKS, **kw)


@pytest.mark.parametrize("kw, words", [
    (dict(), r"shuffle=Shuffle.GLOBAL \(the default\)"),
    (dict(shuffle=True), "shuffle=Shuffle.GLOBAL"),
    (dict(shuffle=False), "shuffle=Shuffle.FALSE"),
    (dict(shuffle=ds.Shuffle.FILES), "shuffle=Shuffle.FILES"),
    (dict(sampler=ds.RandomSampler()), "a sampler"),
])
def test_options_need_blocks(files, kw, words):
    for option in ("shuffle_block_rows", "shuffle_window_rows"):
        with pytest.raises(ValueError, match=f"{option} is only used with "
                                             f"shuffle=Shuffle.BLOCKS, but .*{words}"):
            ds.MindDataset(files, **kw, **{option: 64})


def test_options_are_keyword_only(files):
    with pytest.raises(TypeError):
        ds.MindDataset(files, None, None, ds.Shuffle.BLOCKS, None, None, None, None, None,
                       None, None, 8)


def test_sources_without_blocks_refuse_it():
    # NumpySlicesDataset's shuffle is a bool, as in MindSpore (TypeError for any Shuffle)
    with pytest.raises(TypeError, match="shuffle"):
        numbers(10, shuffle=ds.Shuffle.BLOCKS)


def test_the_mindspore_layout_has_it():
    from minddata.compat_layout.engine import samplers
    assert samplers.Shuffle.BLOCKS is ds.Shuffle.BLOCKS and ds.Shuffle("blocks") is \
        ds.Shuffle.BLOCKS


def test_the_settings_are_part_of_the_cache_description(files):
    a = ds.MindDataset(files, **BLOCKS).describe()
    b = ds.MindDataset(files, shuffle=ds.Shuffle.BLOCKS, shuffle_block_rows=8,
                       shuffle_window_rows=24).describe()
    assert "BLOCKS(block_rows=8, window_rows=20)" in a and a != b


# -- exact resume ---------------------------------------------------------------------------
def test_exact_resume(files):
    check_resume(ds.MindDataset(files, **BLOCKS), num_epochs=2, stops=(0, 1, 7, 20, 150, 201))


def test_exact_resume_of_a_shard_with_batches(files):
    data = ds.MindDataset(files, num_shards=3, shard_id=2, **BLOCKS).batch(4)
    check_resume(data, num_epochs=2, stops=(0, 1, 5, 13, 14))


def test_a_state_of_other_block_settings_is_refused(files):
    it = ds.MindDataset(files, **BLOCKS).create_tuple_iterator(num_epochs=1, output_numpy=True)
    next(it)
    state = json.loads(json.dumps(it.get_state()))
    it.close()
    other = ds.MindDataset(files, shuffle=ds.Shuffle.BLOCKS, shuffle_block_rows=8,
                           shuffle_window_rows=16)
    with pytest.raises(ValueError, match="shuffle_blocks"):
        other.create_tuple_iterator(num_epochs=1, state=state)
    with pytest.raises(ValueError, match="shuffle"):
        ds.MindDataset(files).create_tuple_iterator(num_epochs=1, state=state)


# -- elastic resume -------------------------------------------------------------------------
def _sharded(files, batch=0, repeat=1, **options):
    options = options or BLOCKS

    def make(num_shards, shard_id):
        d = ds.MindDataset(files, num_shards=num_shards, shard_id=shard_id, **options)
        if batch:
            d = d.batch(batch)
        if repeat > 1:
            d = d.repeat(repeat)
        return d
    return make


@pytest.mark.parametrize("old,new,stops", [
    (2, 3, (30, 51)), (3, 2, (20, 0, 40)), (4, 1, (10, 25, 37, 0)), (2, 2, (10, 40)),
    (1, 4, (99,)), (3, 4, (-1, 13, -1)), (3, 5, (0, 0, 0))])
def test_elastic_resume_every_row_once(files, old, new, stops):
    check_elastic(_sharded(files), old, new, stops)


@pytest.mark.parametrize("old,new", [(2, 3), (3, 2), (4, 1)])
def test_elastic_resume_with_batches_and_repeat(files, old, new):
    check_elastic(_sharded(files, batch=3, repeat=2), old, new,
                  stops=(5, 12, 3, 16)[:old], repeat=2)


def test_elastic_resume_twice(files):
    check_resharded_twice(_sharded(files), (30, 60), (5, 8, 11), 4)


@settings(deadline=None, max_examples=12, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(old=st.integers(1, 4), new=st.integers(1, 4), batch=st.integers(0, 3),
       block=st.integers(1, 30), extra=st.integers(0, 60),
       fractions=st.lists(st.floats(0, 1), min_size=4, max_size=4))
def test_model_elastic_resume_every_row_once(files, old, new, batch, block, extra, fractions):
    make = _sharded(files, batch=batch, shuffle=ds.Shuffle.BLOCKS, shuffle_block_rows=block,
                    shuffle_window_rows=block + extra)
    per_pass = [len(epoch_items(make(old, k), 1)[0]) for k in range(old)]
    stops = [int(f * per_pass[k]) for k, f in zip(range(old), fractions)]
    check_elastic(make, old, new, stops)
