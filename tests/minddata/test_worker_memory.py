"""Memory of pipelines with worker processes (issue 20 item 8): small rows reserve little shared
memory, rows of varying shapes do not pile up in reused buffers, large rows do not deadlock the
pipe, workers do not copy the parent's objects, and executors do not keep their nodes alive.
Bounds are generous (several times what the fixed code uses, a fraction of what it used
before); no test here goes over a few hundred MB."""
import gc
import os
import signal
import threading
import tracemalloc
import weakref

import numpy as np
import psutil
import pytest

import minddata as ds
from minddata.engine import procs
from minddata.engine.executor import make_executor
from minddata.engine.recycler import BufferRecycler

from .engine_helpers import live_children

MB = 1 << 20


def shared_mapping_bytes(pid=None):
    """Bytes of this process's shared writable mappings (shared memory, whatever its kind)."""
    total = 0
    with open(f"/proc/{pid or os.getpid()}/maps", encoding="ascii", errors="replace") as f:
        for line in f:
            fields = line.split()
            if fields[1].startswith("rw") and fields[1][3] == "s":
                lo, hi = (int(x, 16) for x in fields[0].split("-"))
                total += hi - lo
    return total


def rss():
    return psutil.Process().memory_info().rss


def test_small_rows_reserve_little_shared_memory():
    # max_rowsize=16 (MB per row) with 16 rows per task used to map 4 slots of 256 MB per
    # worker whatever the rows held: 2 GB for two workers of one-number rows.
    before = shared_mapping_bytes()
    data = ds.NumpySlicesDataset(list(range(2000)), shuffle=False)
    data = data.map(lambda x: x + 1, num_parallel_workers=2, python_multiprocessing=True,
                    max_rowsize=16)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    got = []
    try:
        for row in it:
            got.append(int(row[0]))
            if len(got) == 1000:
                reserved = shared_mapping_bytes() - before
    finally:
        it.close()
    assert got == list(range(1, 2001))
    assert reserved < 32 * MB, f"{reserved / MB:.0f} MB of shared memory for one-number rows"


def test_a_slot_grows_to_what_its_rows_need_within_its_cap():
    pool = procs.ProcessPool(1, _Echo(), name="grow", max_rowsize=1, rows_per_task=4)
    try:
        assert pool.shared_bytes() == 0
        pool.submit(0, [(np.zeros(10, np.uint8),)])
        pool.result()
        small = pool.shared_bytes()
        assert 0 < small <= 2 * MB
        pool.submit(1, [(np.full(3 * MB, 7, np.uint8),)])   # fits the cap of 4 rows x 1 MB
        (row,), _ = pool.result()
        assert (row[0] == 7).all() and row[0].size == 6 * MB
        assert pool.shared_bytes() <= small + 2 * 4 * MB
    finally:
        pool.close()


def test_rows_of_many_shapes_do_not_pile_up_in_reused_buffers():
    # Results from 1 MB on are copied into reused buffers; every new shape used to keep its
    # own buffers until the pipeline closed (hundreds of MB here, GBs over an image folder).
    def rows():
        for i in range(300):
            yield (np.full((256 + i, 1024), i % 251, np.uint8),)

    data = ds.GeneratorDataset(rows, ["x"])
    data = data.map(lambda x: np.repeat(x, 4, axis=0), input_columns=["x"],
                    num_parallel_workers=2, python_multiprocessing=True)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    start = peak = None
    try:
        for k, (x,) in enumerate(it):
            assert x.shape == (4 * (256 + k), 1024) and x[0, 0] == k % 251
            if k == 20:
                start = rss()
            elif k > 20:
                peak = max(peak or 0, rss())
    finally:
        it.close()
    assert peak - start < 150 * MB, f"grew by {(peak - start) / MB:.0f} MB"


def test_the_recycler_keeps_a_few_buffers_in_all():
    recycler = BufferRecycler(keep=4)
    for k in range(50):
        out = recycler.empty((MB + k,), np.uint8)
        del out                          # returned for reuse
    assert recycler.spare_bytes() <= 4 * (MB + 50)
    again = recycler.empty((MB + 49,), np.uint8)    # the most recent ones are reused
    assert recycler.spare_bytes() <= 3 * (MB + 50)
    del again


class _Echo:
    """Each input array twice over, with a Python object column that always travels pickled."""

    def __call__(self, meta, rows_in):
        return [(np.concatenate([a[0], a[0]]), {"blob": b"x" * len(a[0])}) for a in rows_in]


def test_rows_larger_than_a_slot_do_not_deadlock_the_pipe():
    # Two tasks in flight, both pickled (larger than the 1 MB slot): the parent's second send
    # used to wait for a worker that was itself waiting to send its first result.
    pool = procs.ProcessPool(1, _Echo(), name="echo", slot_mb=1)
    got = []

    def run():
        for k in range(2):
            pool.submit(k, [(np.full(3 * MB, k, np.uint8),)])
        for _ in range(2):
            got.append(pool.result()[0][0])

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)
    stuck = thread.is_alive()
    if stuck:                            # unblock the send (EPIPE) so that nothing is left
        for pid in pool.pids():
            os.kill(pid, signal.SIGKILL)
        thread.join(10)
    pool.close()
    assert not stuck, "the parent and its worker wait for each other"
    for k, row in enumerate(got):
        assert row[0].size == 6 * MB and (row[0] == k).all()
        assert len(row[1]["blob"]) == 3 * MB
    assert len(got) == 2


def test_workers_do_not_copy_the_parents_objects():
    # A full collection in a worker writes to every object it visits: without the freeze at
    # fork time, each worker copies every page of the parent's objects.
    # The objects' size is traced rather than read from the RSS, which does not grow where
    # they reuse memory earlier tests freed.
    tracemalloc.start()
    try:
        heap = [{"k": i, "v": [i]} for i in range(400_000)]
        heap_bytes = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert heap_bytes > 40 * MB

    def collect(x):
        gc.collect()
        return x

    kids = live_children()
    data = ds.NumpySlicesDataset(list(range(64)), shuffle=False)
    data = data.map(collect, num_parallel_workers=2, python_multiprocessing=True)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    try:
        got = [int(next(it)[0]) for _ in range(40)]
        workers = [psutil.Process(p) for p in live_children() - kids]
        private = [w.memory_full_info().uss for w in workers]
    finally:
        it.close()
    assert got == list(range(40)) and workers
    assert max(private) < heap_bytes / 4, \
        f"workers' own memory {[p // MB for p in private]} MB, the parent's objects " \
        f"{heap_bytes // MB} MB"
    del heap


class _Owner:
    def __init__(self, workers):
        self.ex = make_executor(workers, self.task, "owner")

    def task(self, meta, payload):
        return payload * 2


@pytest.mark.parametrize("workers", [1, 2])
def test_an_executor_does_not_keep_its_owner_alive(workers):
    # A node holds its executor; an executor holding the node's bound method made a cycle:
    # the node (its rows, the dataset, the user's source) waited for the garbage collector.
    gc.disable()
    try:
        owner = _Owner(workers)
        owner.ex.submit(0, 21)
        assert owner.ex.result() == (42, None)
        owner.ex.close()
        ref = weakref.ref(owner)
        del owner
        assert ref() is None
    finally:
        gc.enable()


def _cyclic_garbage():
    """Type names of what only the garbage collector frees now (reference cycles)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        names = sorted({type(o).__qualname__ for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return names


class _BigSource:
    def __init__(self):
        self.arrays = [np.ones(4 * MB, np.uint8) for _ in range(4)]

    def __getitem__(self, i):
        return (self.arrays[i],)

    def __len__(self):
        return len(self.arrays)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_dropped_pipeline_frees_its_source_without_the_garbage_collector(workers):
    # MindSpore's own test: after deleting the iterator, the dataset and the source, the
    # memory is back at once (a source of 2 GB stayed allocated here).
    gc.collect()
    gc.disable()
    try:
        source = _BigSource()
        ref = weakref.ref(source)
        data = ds.GeneratorDataset(source, ["x"], shuffle=False, num_parallel_workers=workers)
        it = data.create_tuple_iterator(num_epochs=-1, output_numpy=True)
        row = next(it)
        del it, row, data, source
        alive = ref() is not None
        garbage = _cyclic_garbage() if alive else []
    finally:
        gc.enable()
    assert not alive, f"the source waits for the garbage collector, held by {garbage}"
