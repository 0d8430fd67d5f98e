"""Every thread, worker process and shared-memory segment is released on early break,
garbage collection, errors and KeyboardInterrupt."""
import gc
import os
import signal
import threading
import time

import numpy as np
import pytest

import minddata as ds
from .engine_helpers import (live_children, minddata_threads, numbers, shm_entries,
                             wait_until)


class Slow:
    def __init__(self, n=200):
        self.n = n

    def __getitem__(self, i):
        return (np.full((8, 8), i, dtype=np.float32),)

    def __len__(self):
        return self.n


_BEFORE_THREADS = set()


@pytest.fixture(autouse=True)
def _threads_before():
    _BEFORE_THREADS.clear()
    _BEFORE_THREADS.update(minddata_threads())
    yield


def _process_pipeline():
    src = ds.GeneratorDataset(Slow(), ["a"], num_parallel_workers=2, shuffle=False,
                              python_multiprocessing=True)
    return src.map(lambda a: a + 1, "a", num_parallel_workers=2,
                   python_multiprocessing=True).batch(4)


def _clean(before_children, before_shm):
    # Threads of this test's pipeline are gone (pipelines of other tests may still be
    # collected later, so only threads started after the test began count).
    assert wait_until(lambda: not (set(minddata_threads()) - _BEFORE_THREADS)), \
        minddata_threads()
    assert wait_until(lambda: live_children() <= before_children), live_children()
    assert shm_entries() <= before_shm


def test_break_then_close_releases_everything():
    kids, shm = live_children(), shm_entries()
    it = _process_pipeline().create_tuple_iterator(num_epochs=1)
    for i, _ in enumerate(it):
        if i == 2:
            break
    # The planner runs source + map + batch in the map's 2 worker processes (process_batches).
    assert len(live_children() - kids) == 2
    it.close()
    _clean(kids, shm)


def test_garbage_collected_iterator_releases_everything():
    kids, shm = live_children(), shm_entries()
    it = _process_pipeline().create_tuple_iterator(num_epochs=1)
    next(it)
    del it
    gc.collect()
    _clean(kids, shm)


def test_for_loop_break_over_dataset_releases():
    kids, shm = live_children(), shm_entries()
    for i, _ in enumerate(_process_pipeline()):
        if i == 1:
            break
    gc.collect()
    _clean(kids, shm)


def test_error_in_worker_releases_everything():
    kids, shm = live_children(), shm_entries()

    def boom(a):
        if a[0, 0] >= 5:
            raise ValueError("bad row")
        return a

    pipe = ds.GeneratorDataset(Slow(), ["a"], shuffle=False).map(
        boom, "a", num_parallel_workers=2, python_multiprocessing=True)
    with pytest.raises(RuntimeError, match="ValueError: bad row"):
        for _ in pipe.create_tuple_iterator(num_epochs=1):
            pass
    gc.collect()
    _clean(kids, shm)


def test_keyboard_interrupt_while_waiting_releases_everything(ctrl_c_raises):
    """Ctrl-C arrives in the main thread while it waits for the next row."""
    kids, shm = live_children(), shm_entries()

    class VerySlow(Slow):
        def __getitem__(self, i):
            time.sleep(0.05)
            return super().__getitem__(i)

    pipe = ds.GeneratorDataset(VerySlow(), ["a"], shuffle=False, num_parallel_workers=2,
                               python_multiprocessing=True)
    it = pipe.create_tuple_iterator(num_epochs=1)
    next(it)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        for _ in it:
            pass
    timer.join()
    del it      # Ctrl-C may land in the loop body, outside the iterator: drop it then
    gc.collect()
    _clean(kids, shm)


def test_completed_epochs_release_everything():
    kids, shm = live_children(), shm_entries()
    it = _process_pipeline().create_tuple_iterator(num_epochs=2)
    for _ in range(2):
        assert sum(1 for _ in it) == 50
    _clean(kids, shm)


def test_thread_pipeline_closes_threads():
    it = numbers(100).map(lambda x: x, "x", num_parallel_workers=3).create_dict_iterator()
    next(it)
    assert minddata_threads()
    it.close()
    assert wait_until(lambda: not (set(minddata_threads()) - _BEFORE_THREADS))


def test_source_that_cannot_open_fails_cleanly():
    def broken():
        raise FileNotFoundError("data.mindrecord is gone")

    data = ds.SourceDataset(broken, column_names=["x"], num_parallel_workers=2)
    data = data.map(lambda x: x, "x", num_parallel_workers=2)
    with pytest.raises(FileNotFoundError, match="is gone"):
        data.create_tuple_iterator(num_epochs=1)
    assert wait_until(lambda: not (set(minddata_threads()) - _BEFORE_THREADS))
