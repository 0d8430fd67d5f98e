"""Reads a complete cached stage in order, ahead of its consumer (the cache-read nodes).

Reading a complete stage is the whole cost of a cached epoch, so it is done in bulk: each task
reads ``step`` consecutive rows in one LMDB transaction, on worker threads (the copies out of
the memory map release the GIL); with ``stack``, the rows come back as one array per column,
copied once, straight from the store into batch arrays (recycled once the consumer dropped
them). Results come back in order. Without workers (debug mode) each read runs when its result
is asked for.
"""
from .executor import make_executor
from .recycler import BufferRecycler


class StageRangeReader:
    def __init__(self, store, workers, name):
        self.store = store
        self.pool = make_executor(workers, self._read, name)
        self.depth = 2 * workers if workers > 1 else 1
        self.next = self.limit = 0
        self.step = 1
        self.stack = False
        self.recycler = BufferRecycler()

    def restart(self, pos, limit, step, stack):
        """Read rows ``pos`` .. ``limit - 1``, ``step`` rows per read (stacked with ``stack``)."""
        self.clear()
        self.next, self.limit, self.step, self.stack = pos, limit, step, stack

    def take(self):
        """(row count, list of rows or tuple of stacked columns) of the oldest read, or None
        once every row up to the limit was handed out. A list holds None for a missing row
        (``stack`` gives a list too when rows are missing or their shapes differ)."""
        pool = self.pool
        while len(pool) < self.depth and self.next < self.limit:
            n = min(self.step, self.limit - self.next)
            pool.submit(self.next, n)
            self.next += n
        if not len(pool):
            return None
        return pool.result()[0]

    def _read(self, first, count):
        if self.stack:
            return count, self.store.read_range(first, count, True, self.recycler.empty)
        return count, self.store.read_range(first, count)

    def clear(self):
        self.pool.clear()

    def close(self):
        self.pool.close()
        self.recycler.clear()
