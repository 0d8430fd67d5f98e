"""Batch buffers that are reused once the consumer dropped them (cached batches and native
batches allocate through it)."""
import sys
import threading
import weakref

import numpy as np


class BufferRecycler:
    """Allocates batch arrays, reusing those of batches the consumer has dropped: a fresh
    batch-sized array costs a page fault and the kernel zeroing every page, about as much CPU
    as copying the rows out of the cache. The consumer gets a view of a buffer kept here;
    when that view is freed, the buffer comes back for reuse only if nothing else references
    it (CPython's reference count: a slice, a reshape, a memoryview or a tensor made from the
    batch all hold the buffer), so data the consumer still holds is never overwritten. At most
    ``keep`` buffers per shape wait here; the others are freed at once."""

    _free_refs = None    # references to a buffer nobody else holds, seen in _give_back

    def __init__(self, keep=4):
        self._keep = keep
        self._lock = threading.RLock()
        self._free = {}            # (shape, dtype) -> buffers nobody else references
        self._closed = False

    def empty(self, shape, dtype):
        key = (tuple(shape), np.dtype(dtype).str)
        with self._lock:
            spare = self._free.get(key)
            buf = spare.pop() if spare else None
        if buf is None:
            buf = np.empty(shape, dtype)
        out = buf.view()
        weakref.finalize(out, self._give_back, key, buf).atexit = False
        return out

    def _give_back(self, key, buf):
        # Runs where the consumer's array was freed (any thread).
        refs = sys.getrefcount(buf)
        if BufferRecycler._free_refs is None:     # the calibration below
            BufferRecycler._free_refs = refs
            return
        if refs != BufferRecycler._free_refs:
            return                           # a slice or another view still uses it
        fresh = []     # allocated before locking: a garbage collection it may start can
        with self._lock:   # free another batch and re-enter here (hence also an RLock)
            if self._closed:
                return
            spare = self._free.setdefault(key, fresh)
            if len(spare) < self._keep:
                spare.append(buf)

    def clear(self):
        with self._lock:
            self._closed = True
            self._free.clear()


def _calibrate():
    probe = BufferRecycler(keep=0)
    probe.empty((1,), np.uint8)              # freed at once: _give_back counts the refs
    assert BufferRecycler._free_refs is not None


_calibrate()
