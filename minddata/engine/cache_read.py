"""The cache-read node of a cached map stage (``map(..., cache=DatasetCache)``).

An epoch that finds the stage complete is served from the store, read ahead in runs of
consecutive rows by a StageRangeReader (stage_reader.py), and the child (the cache-write node,
cache_write.py, over the map and everything below it) is not started: nothing below the cache
runs. Any other epoch pulls the child's rows, which the cache-write node stores.

A row missing from a complete stage (its spill area was deleted, or it was unreadable) is
computed again: the child starts and goes on from that row (``skip_input``), and gives the rest
of the pass. Past row 0 that is possible only when the pipeline below gives the same rows in the
same order every epoch (``replayable``); from row 0 it is a new pass, like the fill of an
incomplete stage.

The state says whether the epoch reads the store, and the position in the pass; a state saved
while reading the store resumes at the same row even if the stage is no longer complete then
(its child computes the rest of the pass).
"""
import collections

from .node import IterNode
from .stage_reader import StageRangeReader


class CacheReadIter(IterNode):
    name = "CacheRead"

    def __init__(self, ctx, child, store, workers, rows_per_read, replayable):
        """``child``: the cache-write node; ``store``: the stage (owned and closed by the
        child); ``workers``: reader threads (0: read inline); ``rows_per_read``: rows per read
        task; ``replayable``: whether the pipeline below gives the same rows in the same order
        every epoch."""
        self._reader = None     # before anything can fail: close() must work
        super().__init__(ctx, [child], num_workers=max(1, workers))
        self.store = store
        self.replayable = replayable
        self.from_store = False
        self.index = 0          # rows of the pass returned this epoch
        self._rows = collections.deque()    # rows read, not yet returned
        self._rows_per_read = rows_per_read
        self._reader = StageRangeReader(store, workers, "cache-read")

    # protocol ----------------------------------------------------------------------------
    def start(self, epoch):
        self.epoch = epoch
        self.index = 0
        if not self._read_store_from(0):
            self.children[0].start(epoch)

    def get_state(self):
        return {"epoch": self.epoch, "from_store": self.from_store, "index": self.index,
                "child": None if self.from_store else self.children[0].get_state()}

    def reset(self, state):
        self.epoch = state["epoch"]
        self.index = state["index"]
        if state["from_store"] and self._read_store_from(self.index):
            return
        self._stop_reading()
        if state["child"] is None:
            # The rows before ``index`` came from a store that is no longer complete: compute
            # the pass again from row ``index`` on.
            self._compute_from(self.index)
        else:
            self.children[0].reset(state["child"])

    def _read_store_from(self, index):
        """Read the store from row ``index`` on if the stage is complete; returns whether."""
        self._rows.clear()
        limit = self.store.num_rows()
        self.from_store = limit is not None
        if self.from_store:
            self._reader.restart(index, limit, *self._read_shape())
        else:
            self._reader.clear()
        return self.from_store

    def _read_shape(self):
        """(rows per read, stacked): rows one by one."""
        return self._rows_per_read, False

    # rows --------------------------------------------------------------------------------
    def _next(self):
        if self.from_store and not self._rows:
            got = self._reader.take()
            if got is None:
                return None
            self._rows.extend(got[1])
        return self._next_row()

    def _next_row(self):
        """The next row of the pass: the next one read from the store while reads are pending
        (``_rows``), else one computed by the child (from here on, when the row read is
        missing)."""
        if self._rows:
            row = self._rows.popleft()
            if row is not None:
                self.index += 1
                return row
            self._compute_from(self.index)
        row = self.pull(self.children[0])
        if row is not None:
            self.index += 1
        return row

    def _compute_from(self, index):
        """Row ``index`` of the complete stage is missing: the child computes the rest of the
        pass from there."""
        self._stop_reading()
        if index and not self.replayable:
            sid = self.store.session_id
            raise RuntimeError(
                f"DatasetCache session {sid}: row {index} of a complete cached stage is missing "
                "(its spill directory was removed, or the session changed while it was read), "
                "and the pipeline below the cached map is random (e.g. shuffled), so the row "
                "cannot be recomputed in the cached order. Destroy the session "
                f"(dataset-cache -d {sid}) and run again.")
        child = self.children[0]
        child.start(self.epoch)
        child.skip_input(index)

    def _stop_reading(self):
        self._reader.clear()
        self._rows.clear()
        self.from_store = False

    def _close_self(self):
        if self._reader is not None:
            self._reader.close()
