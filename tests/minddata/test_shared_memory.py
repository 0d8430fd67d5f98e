"""Worker processes move arrays through shared memory slots, pickling only what cannot fit."""
import mmap

import numpy as np

from minddata.engine import procs


def test_arrays_travel_as_descriptors_into_the_slot():
    buf = mmap.mmap(-1, 1 << 20)
    rows = [(np.arange(12, dtype=np.float32).reshape(3, 4), np.array("abc"))]
    desc = procs.pack(rows, buf, 0, 1 << 20)
    assert [e[0] for e in desc[0]] == [0, 0]          # both in shared memory
    out = procs.unpack(desc, buf)
    assert out[0][0].tolist() == rows[0][0].tolist() and str(out[0][1]) == "abc"
    buf[:] = b"\0" * len(buf)                          # copies survive slot reuse
    assert out[0][0][2, 3] == 11


def test_oversize_and_object_arrays_fall_back_to_pickles():
    buf = mmap.mmap(-1, 4096)
    big = np.ones(10000, np.float64)
    obj = np.array([{"a": 1}], dtype=object)
    desc = procs.pack([(big, obj, np.int32(3))], buf, 0, 4096)
    assert [e[0] for e in desc[0]] == [1, 1, 0]
    out = procs.unpack(desc, buf)
    assert out[0][0].sum() == 10000 and out[0][1][0] == {"a": 1} and out[0][2] == 3


def test_without_shared_memory_everything_is_pickled():
    buf = mmap.mmap(-1, 4096)
    desc = procs.pack([(np.zeros(3),)], buf, 0, 4096, use_shm=False)
    assert desc[0][0][0] == 1


def test_arrays_made_in_the_arena_travel_without_a_copy():
    buf = mmap.mmap(-1, 1 << 16)
    base, limit = 4096, 8192
    arena = procs.OutputArena(buf, base, limit, use_shm=True)
    made = arena.empty((4, 100), np.float32)            # 1,600 bytes, in the slot
    made[...] = np.arange(400, dtype=np.float32).reshape(4, 100)
    too_big = arena.empty((2000,), np.float32)           # 8,000 more: ordinary memory
    assert arena.offset_of(made) is not None and arena.offset_of(too_big) is None
    too_big[...] = 7
    other = np.full(3, 5, np.int64)
    desc = procs.pack([(made, too_big, other)], buf, base, limit, arena=arena)
    assert desc[0][0] == (0, made.dtype.str, (4, 100), arena.offset_of(made))
    assert desc[0][1][0] == 1                            # no room left: pickled
    assert desc[0][2][0] == 0 and desc[0][2][3] >= base + arena.used   # after the arena
    out = procs.unpack(desc, buf)
    assert np.array_equal(out[0][0], np.arange(400, dtype=np.float32).reshape(4, 100))
    assert (out[0][1] == 7).all() and out[0][2].tolist() == [5, 5, 5]


def test_an_arena_without_shared_memory_allocates_ordinary_arrays():
    buf = mmap.mmap(-1, 4096)
    arena = procs.OutputArena(buf, 0, 4096, use_shm=False)
    arr = arena.empty((3,), np.uint8)
    assert arena.offset_of(arr) is None and arena.used == 0


class _BigResult:
    name = "big"

    def __call__(self, meta, rows_in):
        return [(np.full((512, 1024), meta, np.float32),)]     # 2 MB


def test_large_results_are_copied_into_reused_buffers():
    pool = procs.ProcessPool(1, _BigResult(), name="big", slot_mb=4)
    try:
        addresses = []
        for k in range(3):
            pool.submit(k, ())
            (row,), _ = pool.result()
            assert (row[0] == k).all()
            addresses.append(row[0].__array_interface__["data"][0])
            del row                  # the consumer drops it: its buffer is reused
        assert addresses[1] == addresses[2]
        pool.submit(9, ())
        (held,), _ = pool.result()
        pool.submit(10, ())
        (other,), _ = pool.result()  # a buffer the consumer still holds is never reused
        assert (held[0] == 9).all() and (other[0] == 10).all()
    finally:
        pool.close()
