"""kill -9 of a process filling the cache, at any point, leaves a session that the next run uses
correctly (rows written before the kill are whole; the stage is not taken for complete) and then
completes; no stale lock state blocks it."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from minddata.cache import DatasetCache, generate_session
from minddata.cache import envs

N = 400
KEY = "source:crash|map:fill"

FILLER = textwrap.dedent("""
    import sys
    import numpy as np
    from minddata.cache import DatasetCache
    from minddata.cache import stage_store
    stage_store.BATCH_ROWS = 8          # many small transactions: the kill lands inside one
    sid, n = int(sys.argv[1]), int(sys.argv[2])
    store = DatasetCache(sid).open_stage({key!r}, ["data", "id"])
    for i in range(n):
        store.put(i, (np.full(4096, i % 251, np.uint8), np.array(i, np.int64)))
        if i == 40:
            print("filling", flush=True)
    store.mark_complete(n)
    store.close()
    print("done", flush=True)
""").format(key=KEY)


@pytest.fixture
def cache_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))
    return tmp_path


def _start_filler(sid, n):
    return subprocess.Popen([sys.executable, "-c", FILLER, str(sid), str(n)],
                            stdout=subprocess.PIPE, text=True, env=os.environ.copy())


def _kill_while_filling(sid, delay):
    proc = _start_filler(sid, 10**6)  # never finishes on its own
    try:
        assert proc.stdout.readline().strip() == "filling"
        time.sleep(delay)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL


def _verify_and_complete(sid):
    """What the next run does: incomplete -> hits are correct, the rest is recomputed."""
    with DatasetCache(sid).open_stage(KEY, ["data", "id"]) as store:
        assert not store.is_complete()
        present = 0
        for i in range(N):
            row = store.get(i)
            if row is None:
                store.put(i, (np.full(4096, i % 251, np.uint8), np.array(i, np.int64)))
            else:
                present += 1
                assert row[1] == i and row[0].shape == (4096,) and (row[0] == i % 251).all()
        assert store.mark_complete(N)
    with DatasetCache(sid).open_stage(KEY, ["data", "id"]) as store:
        assert store.is_complete()
        assert all(store.get(i)[1] == i for i in range(N))
    return present


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2])
def test_kill_9_while_filling_then_a_correct_rerun(cache_dirs, delay):
    sid = generate_session()
    _kill_while_filling(sid, delay)
    assert _verify_and_complete(sid) > 0


def test_repeated_kills_never_corrupt_and_a_full_run_completes(cache_dirs):
    sid = generate_session()
    for delay in (0.01, 0.03, 0.07):
        _kill_while_filling(sid, delay)
    proc = _start_filler(sid, N)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "done" in out
    with DatasetCache(sid).open_stage(KEY, ["data", "id"]) as store:
        assert store.is_complete()
        assert all(store.get(i)[1] == i for i in range(N))


def test_dead_readers_are_cleared_from_the_lock_file(cache_dirs):
    sid = generate_session()
    with DatasetCache(sid).open_stage(KEY, ["data", "id"]) as store:
        store.put(0, (np.zeros(8, np.uint8), np.array(0, np.int64)))
    reader = textwrap.dedent(f"""
        import os, sys
        from minddata.cache import DatasetCache
        store = DatasetCache({sid}).open_stage({KEY!r}, ["data", "id"])
        txn = store._env.begin()        # a read transaction held open, then the process dies
        print("reading", flush=True)
        sys.stdin.read()
    """)
    proc = subprocess.Popen([sys.executable, "-c", reader], stdout=subprocess.PIPE,
                            stdin=subprocess.PIPE, text=True, env=os.environ.copy())
    assert proc.stdout.readline().strip() == "reading"
    proc.kill()
    proc.wait(30)
    proc.stdout.close()
    proc.stdin.close()
    env_dir = cache_dirs / "root" / "sessions" / str(sid)
    env = envs.acquire(str(env_dir))
    try:
        assert env.reader_check() == 0  # acquire() already cleared the dead reader's slot
    finally:
        envs.release(str(env_dir))


def test_nothing_but_the_session_is_left_behind(cache_dirs):
    sid = generate_session()
    _kill_while_filling(sid, 0.02)
    _verify_and_complete(sid)
    session_dir = cache_dirs / "root" / "sessions" / str(sid)
    assert sorted(os.listdir(session_dir)) == ["data.mdb", "lock.mdb"]
    assert sorted(os.listdir(cache_dirs / "root")) == ["sessions"]


def test_a_writer_killed_inside_its_transaction_does_not_block_the_next(cache_dirs):
    sid = generate_session()
    holder = textwrap.dedent(f"""
        import sys
        import numpy as np
        from minddata.cache import DatasetCache, envs
        store = DatasetCache({sid}).open_stage({KEY!r}, ["data", "id"])
        with envs.txn(store._env, write=True) as txn:   # holds LMDB's writer lock
            txn.put(b"r-uncommitted", b"x")
            print("locked", flush=True)
            sys.stdin.read()
    """)
    proc = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE,
                            stdin=subprocess.PIPE, text=True, env=os.environ.copy())
    assert proc.stdout.readline().strip() == "locked"
    proc.kill()
    proc.wait(30)
    proc.stdout.close()
    proc.stdin.close()
    # The next writer, in another process so a hang would show as a timeout, not a stuck suite.
    writer = subprocess.run([sys.executable, "-c", FILLER, str(sid), str(N)], capture_output=True,
                            text=True, timeout=120, env=os.environ.copy())
    assert writer.returncode == 0 and "done" in writer.stdout, writer.stderr
    with DatasetCache(sid).open_stage(KEY, ["data", "id"]) as store:
        assert store.is_complete() and store.get(N - 1)[1] == N - 1
        with envs.txn(store._env) as txn:
            assert txn.get(b"r-uncommitted") is None
