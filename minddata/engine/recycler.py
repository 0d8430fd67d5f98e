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
    ``keep`` buffers wait here in all, whatever their shapes: the most recently returned ones
    (rows of varying shapes, images of every size, would otherwise each keep buffers until the
    pipeline closes); the others are freed at once."""

    _free_refs = None    # references to a buffer nobody else holds, seen in _give_back

    def __init__(self, keep=4):
        self._keep = keep
        self._lock = threading.RLock()
        self._free = []            # [(shape, dtype), buffer] nobody else references, oldest first
        self._closed = False

    def empty(self, shape, dtype):
        key = (tuple(shape), np.dtype(dtype).str)
        buf = None
        with self._lock:
            for k in range(len(self._free) - 1, -1, -1):
                if self._free[k][0] == key:
                    buf = self._free.pop(k)[1]
                    break
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
        entry = [key, buf]  # allocated before locking: a garbage collection it may start can
        with self._lock:    # free another batch and re-enter here (hence also an RLock)
            if self._closed or self._keep <= 0:
                return
            self._free.append(entry)
            dropped = self._free.pop(0) if len(self._free) > self._keep else None
        del dropped         # freed outside the lock

    def spare_bytes(self):
        """Bytes of the buffers waiting here for reuse."""
        with self._lock:
            return sum(buf.nbytes for _, buf in self._free)

    def clear(self):
        with self._lock:
            self._closed = True
            self._free.clear()


def _calibrate():
    probe = BufferRecycler(keep=0)
    probe.empty((1,), np.uint8)              # freed at once: _give_back counts the refs
    assert BufferRecycler._free_refs is not None


_calibrate()
