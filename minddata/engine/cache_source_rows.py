"""The cache of a source's own rows (``MindDataset(..., cache=DatasetCache)`` and the other file
sources): cache-read and cache-write in one node, keyed by row id.

A source's rows do not depend on its shuffle, sampler or shard, so they are stored by row id:
every sharding and sampling of one source shares one stage, as MindSpore's shared cache does,
and the rows a pass needs are scattered over the stage. So the cache cannot sit above the source
as a pass-through node: it is where the source reads its rows. The planner builds this node as
the source node's (SourceIter's) only child, and the source reads each chunk of its epoch's ids
through it, on its worker threads: ``read_rows(ids, read_missing)`` looks the rows up in the
stage (one transaction per chunk once the stage is complete), reads the misses with
``read_missing`` (the source's own reader) and puts them into the stage. ``end_pass`` after a
pass that started at its first row marks the stage complete once the store holds every row of
the source (stored by this pass, by other shards or processes, or by an interrupted run).

It is started with its source each epoch (the stage may have become complete meanwhile) and is
never pulled row by row; its statistics count the rows it handed out and the time spent reading
the misses (``wait_s``). It owns the store: it closes it.
"""
import threading
import time

import numpy as np

from .node import IterNode

_perf = time.perf_counter


class SourceRowsCacheIter(IterNode):
    name = "CacheReadWrite(rows by id)"

    def __init__(self, ctx, store):
        super().__init__(ctx, ())
        self.store = store
        self._complete = False      # the stage was complete when the epoch started
        self._put_ids = set()       # ids this node stored (put each once)
        self._stats_lock = threading.Lock()   # read_rows runs on the source's worker threads

    def start(self, epoch):
        self.epoch = epoch
        self._complete = self.store.is_complete()

    def read_rows(self, ids, read_missing):
        """The rows of ``ids`` (an int64 array), from the stage where it has them, else from
        ``read_missing(ids)``, which are then stored."""
        t0 = _perf()
        store = self.store
        if self._complete:      # every row committed: one transaction per chunk
            out = store.read_keys(ids.tolist())
        else:
            out = [store.get(int(rid)) for rid in ids]
        missing = [i for i, row in enumerate(out) if row is None]
        waited = 0.0
        if missing:
            t1 = _perf()
            rows = read_missing(ids[missing])
            waited = _perf() - t1
            for i, row in zip(missing, rows):
                out[i] = row
                rid = int(ids[i])
                if rid not in self._put_ids:
                    store.put(rid, row)
                    self._put_ids.add(rid)
        with self._stats_lock:
            stats = self.stats
            stats.rows_out += len(out)
            stats.wait_s += waited
            stats.busy_s += _perf() - t0 - waited
        return out

    def end_pass(self, ids, total):
        """After a pass over ``ids`` that started at its first row, of a source of ``total``
        rows: the rows this process did not put were served by the store (put by another
        process or an interrupted earlier run), so the stage may be complete; mark_complete
        writes the marker only if the store really holds every row."""
        if not total or self.store.is_complete():
            return
        covers_all = (len(ids) >= total and ids.min() >= 0 and ids.max() < total
                      and np.unique(ids).size == total)
        # A shard, a subset or num_samples: this pass did not see every row, but the other
        # shards sharing the stage may have stored the rest (no warning when they did not).
        self.store.mark_complete(total, warn=covers_all)

    def _close_self(self):
        self.store.close()
