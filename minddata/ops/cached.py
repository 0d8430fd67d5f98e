"""map(..., cache=DatasetCache): the map's output rows are stored by position in the first
full pass; once the store is complete, later epochs (and other pipelines with the same
upstream description) read the store and skip everything below the map.

Rows are keyed by their position in the pass, so a cached stage replays the first pass's row
order: a shuffle below a cached map is not redone in later epochs (shuffle after the cache
instead), as with MindSpore's cache placed after a map.

Reading a complete stage is the whole cost of a cached epoch, so it is done in bulk: worker
threads read runs of consecutive rows ahead of the consumer, one LMDB transaction per run,
with the copies out of the memory map releasing the GIL. A batch stage right above asks for
whole batches (``batch_source``/``next_batch``): each batch is then copied once, straight
from the store into the batch arrays, instead of once into a row and again into the batch.
"""
import collections
import time

import numpy as np

from .. import config
from ..engine.node import IterNode
from ..engine.recycler import BufferRecycler
from ..engine.executor import make_executor
from .map import MapIter

_ROWS_PER_READ = 32      # rows per read task when the consumer takes rows one by one,
                         # unless DatasetCache(prefetch_size=...) says otherwise
_perf = time.perf_counter


class _RangeReader:
    """Reads a complete stage in order, ahead of the consumer: each task reads ``step``
    consecutive rows (stacked into batch arrays when ``stack``); results come back in order.
    Without workers (debug mode) each read runs when its result is asked for."""

    def __init__(self, store, workers, name):
        self.store = store
        self.pool = make_executor(workers, self._read, name)
        self.depth = 2 * workers if workers > 1 else 1
        self.next = self.limit = 0
        self.step = _ROWS_PER_READ
        self.stack = False
        self.recycler = BufferRecycler()

    def restart(self, pos, limit, step, stack):
        self.clear()
        self.next, self.limit, self.step, self.stack = pos, limit, step, stack

    def take(self):
        """(row count, rows or stacked columns) of the oldest read, or None once every row
        up to the limit was handed out."""
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


class CachedMapIter(IterNode):
    name = "Map(cached)"

    def __init__(self, ds, ctx):
        self._reader = None
        self.store = ds.cache.open_stage(ds._describe(), list(ds.columns))
        try:
            inner = MapIter(ds, ctx)
        except BaseException:
            self.store.close()
            raise
        super().__init__(ctx, [inner], num_workers=inner.workers)
        self.ds = ds
        self.from_store = False
        self.index = 0           # rows returned this epoch (= the key of the next row)
        self.limit = 0           # rows of the complete stage
        self.full_pass = True
        self._rows = collections.deque()    # rows read ahead, in row mode
        self._stacking = False              # a batch stage takes whole batches
        # Reading is copying: two threads keep a consumer fed; more would only hold more
        # batches in memory.
        workers = 0 if ctx.debug else min(4, max(2, ds.num_parallel_workers or
                                                 config.get_num_parallel_workers()))
        self._reader = _RangeReader(self.store, workers, "cache-read")
        self._row_step = getattr(ds.cache, "prefetch_size", None) or _ROWS_PER_READ

    # protocol ----------------------------------------------------------------------------
    def start(self, epoch):
        self.epoch = epoch
        self.index = 0
        self.full_pass = True
        if not self._read_store_from(0):
            self.children[0].start(epoch)

    def _read_store_from(self, index):
        """Read the store from row ``index`` on if the stage is complete; returns whether."""
        self._rows.clear()
        self._stacking = False
        limit = self.store.num_rows()
        self.from_store = limit is not None
        if self.from_store:
            self.limit = limit
            self._reader.restart(index, limit, self._row_step, False)
        else:
            self._reader.clear()
        return self.from_store

    def get_state(self):
        return {"epoch": self.epoch, "from_store": self.from_store, "index": self.index,
                "full": self.full_pass,
                "child": None if self.from_store else self.children[0].get_state()}

    def reset(self, state):
        self.epoch = state["epoch"]
        self.index = state["index"]
        self.full_pass = state["full"]
        if state["from_store"] and self._read_store_from(self.index):
            return
        self.from_store = False
        if state["child"] is None:
            # The rows before ``index`` came from a store that is no longer complete: compute
            # the pass again from row ``index`` on.
            self._compute_from(self.index)
        else:
            self.children[0].reset(state["child"])

    # rows --------------------------------------------------------------------------------
    def _next(self):
        if not self.from_store:
            return self._next_computed()
        if not self._rows:
            got = self._reader.take()
            if got is None:
                return None
            self._rows.extend(got[1])
        row = self._rows.popleft()
        if row is None:
            self._compute_from(self.index)
            return self._next_computed()
        self.index += 1
        return row

    def _next_computed(self):
        row = self.pull(self.children[0])
        if row is None:
            if self.full_pass and not self.store.is_complete():
                self.store.mark_complete(self.index)
            return None
        self.store.put(self.index, row)
        self.index += 1
        return row

    def _compute_from(self, index):
        """A row of the complete stage is missing (its spill area was deleted, or it was
        unreadable): compute the rest of the pass from row ``index`` with the pipeline below.
        Past row 0, possible only when that pipeline gives the same rows in the same order
        every epoch (from row 0 it is a new pass, like the fill of an incomplete stage)."""
        self._reader.clear()
        self._rows.clear()
        self.from_store = self._stacking = False
        if index and self.ds.children[0]._is_random():
            sid = self.store.session_id
            raise RuntimeError(
                f"DatasetCache session {sid}: row {index} of a complete cached stage is missing "
                "(its spill directory was removed, or the session changed while it was read), "
                "and the pipeline below the cached map is random (e.g. shuffled), so the row "
                "cannot be recomputed in the cached order. Destroy the session "
                f"(dataset-cache -d {sid}) and run again.")
        inner = self.children[0]
        inner.start(self.epoch)
        inner.skip_input(index)

    # whole batches, for a batch stage right above ------------------------------------------
    def batch_source(self, batch_size):
        """Called by a batch stage after start()/reset(): when this epoch reads the store,
        serve batches of ``batch_size`` rows stacked straight out of it. Returns whether."""
        if not self.from_store or self._rows or self.ctx.debug:
            return False
        self._stacking = True
        self._reader.restart(self.index, self.limit, batch_size, True)
        return True

    def next_batch(self):
        """(n, batch): a tuple of stacked columns, or a list of n rows when their shapes
        differ or a missing row was recomputed (the caller stacks them); (0, None) at the end
        of the epoch; None once this epoch no longer reads the store (the caller pulls
        rows)."""
        if not self.from_store or not self._stacking:
            return None
        t0 = _perf()
        got = self._reader.take()
        if got is None:
            return 0, None
        n, batch = got
        if isinstance(batch, list):
            rows = []
            for row in batch:
                if row is None:     # compute this one and the rest of the batch
                    self._compute_from(self.index)
                    while len(rows) < n:
                        row = self._next_computed()
                        if row is None:
                            break
                        rows.append(row)
                    break
                rows.append(row)
                self.index += 1
            n, batch = len(rows), rows
        else:
            self.index += n
        self.stats.rows_out += n
        self.stats.busy_s += _perf() - t0
        return n, batch

    def _close_self(self):
        try:
            if self._reader is not None:
                self._reader.close()
        finally:
            self.store.close()
