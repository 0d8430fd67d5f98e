"""Processes sharing one session: concurrent writers never corrupt it, and a second process
reads what the first one cached."""
import multiprocessing as mp
import os

import numpy as np
import pytest

from minddata.cache import DatasetCache, generate_session

N = 120
KEY = "source:shared|map:square"


@pytest.fixture
def cache_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))
    return tmp_path


def _row(i):
    return (np.full((32, 32), i, dtype=np.int32) ** 2, np.array(f"row{i}"))


def _fill(session_id, key, order_seed, size=0, spilling=False):
    """One training process's first epoch: compute on miss, put, mark complete."""
    order = np.random.default_rng(order_seed).permutation(N)
    with DatasetCache(session_id, size=size, spilling=spilling).open_stage(key, ["sq", "name"]) \
            as store:
        for i in order:
            if store.get(int(i)) is None:
                store.put(int(i), _row(int(i)))
        store.mark_complete(N)
        return store.is_complete()


def _read_all(session_id, key):
    with DatasetCache(session_id).open_stage(key, ["sq", "name"]) as store:
        if not store.is_complete():
            return None
        return int(sum(int(store.get(i)[0][0, 0]) for i in range(N)))


def _check_all(session_id, key):
    with DatasetCache(session_id).open_stage(key, ["sq", "name"]) as store:
        assert store.is_complete()
        for i in range(N):
            sq, name = store.get(i)
            assert np.array_equal(sq, _row(i)[0]) and str(name) == f"row{i}"


def test_two_processes_filling_one_stage_at_once(cache_dirs):
    sid = generate_session()
    ctx = mp.get_context("spawn")
    with ctx.Pool(2) as pool:
        results = pool.starmap(_fill, [(sid, KEY, 1), (sid, KEY, 2)])
    assert results == [True, True]
    _check_all(sid, KEY)
    stat = DatasetCache(sid).get_stat()
    assert stat.rows == N  # no row stored twice


def test_a_second_process_reads_the_first_ones_rows(cache_dirs):
    sid = generate_session()
    ctx = mp.get_context("spawn")
    with ctx.Pool(1) as pool:
        assert pool.apply(_fill, (sid, KEY, 0))
    with ctx.Pool(1) as pool:
        total = pool.apply(_read_all, (sid, KEY))
    assert total == sum(i * i for i in range(N))
    assert DatasetCache(sid).get_stat().hits >= N


def test_concurrent_writers_of_different_stages_with_spilling(cache_dirs):
    sid = generate_session()
    keys = [f"{KEY}|variant{k}" for k in range(3)]
    ctx = mp.get_context("fork")
    with ctx.Pool(3) as pool:
        assert pool.starmap(_fill, [(sid, k, n, 1, True) for n, k in enumerate(keys)]) == \
            [True] * 3
    for k in keys:
        _check_all(sid, k)
    stat = DatasetCache(sid).get_stat()
    assert stat.rows == 3 * N and stat.rows_spilled > 0 and stat.bytes_in_memory <= 1 << 20


def _child_after_fork(session_id, conn):
    try:
        _check_all(session_id, KEY)
        with DatasetCache(session_id).open_stage(KEY + "|child", ["sq", "name"]) as store:
            store.put(0, _row(0))
        conn.send("ok")
    except BaseException as exc:  # report, do not hang the parent
        conn.send(repr(exc))


def test_a_forked_child_opens_its_own_handles(cache_dirs):
    sid = generate_session()
    assert _fill(sid, KEY, 3)
    parent_store = DatasetCache(sid).open_stage(KEY, ["sq", "name"])  # open across the fork
    try:
        recv, send = mp.get_context("fork").Pipe(duplex=False)
        child = mp.get_context("fork").Process(target=_child_after_fork, args=(sid, send))
        child.start()
        assert recv.recv() == "ok"
        child.join(30)
        assert child.exitcode == 0
        assert parent_store.get(5)[0][0, 0] == 25
    finally:
        parent_store.close()
    with DatasetCache(sid).open_stage(KEY + "|child", ["sq", "name"]) as store:
        assert store.get(0) is not None
    assert os.getpid()  # parent still alive and its handles usable above


def _child_opens(session_id, conn):
    try:
        with DatasetCache(session_id).open_stage(KEY, ["sq", "name"]) as store:
            conn.send(("ok", int(store.get(2)[0][0, 0])))
    except RuntimeError as exc:
        conn.send(("refused", str(exc)))
    except BaseException as exc:
        conn.send(("error", repr(exc)))


def test_fork_during_a_transaction_never_hangs_or_harms_the_parent(cache_dirs):
    import threading
    from minddata.cache import envs
    sid = generate_session()
    assert _fill(sid, KEY, 4)
    store = DatasetCache(sid).open_stage(KEY, ["sq", "name"])
    inside, leave = threading.Event(), threading.Event()

    def hold_a_read_transaction():
        with envs.txn(store._env):
            inside.set()
            leave.wait(60)
    holder = threading.Thread(target=hold_a_read_transaction)
    holder.start()
    try:
        assert inside.wait(30)
        ctx = mp.get_context("fork")
        recv, send = ctx.Pipe(duplex=False)
        child = ctx.Process(target=_child_opens, args=(sid, send))
        child.start()
        assert recv.poll(60)
        status, detail = recv.recv()
        child.join(30)
        assert child.exitcode == 0
        assert status == "refused" and "forked" in detail
    finally:
        leave.set()
        holder.join()
    try:
        assert store.get(7)[0][0, 0] == 49
    finally:
        store.close()
