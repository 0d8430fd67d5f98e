"""The source node: reads the epoch's row ids (the node's sampler and sharding, or the share of
an epoch resumed on another number of ranks) in chunks through an executor."""
import numpy as np

from ... import config
from ...graph.sharding import epoch_ids
from ...state_check import check_source_state
from ..executor import make_executor
from ..node import IterNode
from ..ordered import OrderedStage


def source_state(shard, epoch, pos, world=None):
    """A source's state: ``pos`` rows of ``epoch`` returned, as shard ``shard`` (recorded for
    reshard_state), in the resumed ``world`` if any."""
    state = {"epoch": epoch, "pos": pos, "shard": list(shard)}
    if world is not None:
        state["world"] = world
    return state


class SourceIter(IterNode):
    """Reads the epoch's ids in chunks through an executor (engine/executor.py): inline, on
    worker threads or in worker processes.

    ``rows_through``: a node the chunks are read through instead of the RowSource alone, its
    only child (the planner's cache of the source's rows, engine/cache_source_rows.py):
    ``rows_through.read_rows(ids, read_missing)`` on the worker threads, and
    ``rows_through.end_pass(ids, total)`` after a pass read from its first row."""

    def __init__(self, ds, ctx, children=()):
        rows_through = children[0] if children else None
        workers = ctx.workers(ds.num_parallel_workers or config.get_num_parallel_workers())
        # Resources first set to None: close() works whatever step of the set-up failed.
        self._pool = None
        self.src = None
        super().__init__(ctx, children, num_workers=workers, name=ds.display_name())
        self._through = rows_through
        self.ds = ds
        self.position = ctx.position()
        self.src = ds.open_source()
        self.workers = workers
        self._shard = ds.shard()
        self._world = None
        self._ids = np.zeros(0, np.int64)
        self._pos = 0           # rows returned this epoch
        self._next_chunk = 0    # first id index not yet submitted
        self._buf = []
        self._buf_i = 0
        self._buf_start = 0
        self._last_id = None
        # Rows read through another node are read in this process (a cache's store cannot be
        # used in a forked child).
        processes = ds.process_workers and rows_through is None and workers > 1
        # Rows per read task: process tasks cost a pipe round trip, so they get bigger ones. A
        # pass reading the pipeline's metadata reads row by row, as MindSpore's does: a later
        # row that cannot be read must not fail output_types() of the first.
        self._chunk = 1 if ctx.inline else \
            ds.chunk_rows or (64 if workers <= 1 or processes else 16)
        task = _SourceTask(ds.source_factory) if processes else self._read_task
        self._pool = make_executor(workers, task, self.name, processes=processes,
                                   budget=ctx.threads, max_rowsize=ds.max_rowsize)
        self._stage = OrderedStage(self._pool, 2 * workers if workers > 1 else 1)
        self.stats.queue_capacity = 2 * workers * self._chunk if workers > 1 else None

    # protocol
    def start(self, epoch):
        self._start_epoch(epoch, None)

    def _start_epoch(self, epoch, world):
        self.epoch = epoch
        # world: this epoch continues one saved by another number of ranks (elastic resume).
        self._world = world
        self._ids = epoch_ids(self.ds, self.src, self.ctx.seed, epoch, self.position,
                                      world)
        for child in self.children:
            child.start(epoch)
        self._seek(0)

    def get_state(self):
        return source_state(self._shard, self.epoch, self._pos, self._world)

    def reset(self, state):
        check_source_state(self, state, self._shard)
        self._start_epoch(state["epoch"], state.get("world"))
        self._seek(int(state["pos"]))

    def _seek(self, pos):
        if self._pool is not None:
            self._pool.clear()
        self.src.will_read(self._ids[pos:])     # a remote source fetches ahead in this order
        self._pos = pos
        self._from_start = pos == 0     # a resumed pass did not read the rows before pos
        self._next_chunk = pos
        self._buf = []
        self._buf_i = 0

    def _next(self):
        if self._buf_i >= len(self._buf):
            if not self._fill():
                if self._through is not None and self._from_start:
                    self._through.end_pass(self._ids, len(self.src))
                return None
        row = self._buf[self._buf_i]
        self._last_id = int(self._ids[self._buf_start + self._buf_i])
        self._buf_i += 1
        self._pos += 1
        return row

    def _fill(self):
        n = len(self._ids)
        if self._pos >= n:
            return False
        try:
            self._buf = self._stage.take(self._next_read)[0]
        except BaseException as e:
            raise self._wrap(e, None)
        if self.workers > 1:
            self.stats.sample_queue(len(self._pool))
        self._buf_start = self._pos
        self._buf_i = 0
        return bool(self._buf)

    def _next_read(self):
        """The next chunk of the epoch's ids to read, or None when all are submitted."""
        n = len(self._ids)
        if self._next_chunk >= n:
            return None
        stop = min(n, self._next_chunk + self._chunk)
        ids = self._ids[self._next_chunk:stop]
        self._next_chunk = stop
        return ids, (), None

    def _read_task(self, ids, _payload):
        if self._through is None:
            return self._read_direct(ids)
        return self._through.read_rows(ids, self._read_direct)

    def _read_direct(self, ids):
        try:
            rows = self.src.read_rows(ids)
        except BaseException as e:
            raise self._wrap(e, ids)
        if len(rows) != len(ids):
            raise RuntimeError(f"{self.name}: read_rows returned {len(rows)} rows for "
                               f"{len(ids)} ids")
        return rows

    def _wrap(self, exc, ids):
        prov = None
        if ids is not None and len(ids):
            try:
                prov = self.src.provenance(int(ids[0]))
                if len(ids) > 1:
                    prov = f"rows read from {prov} onwards ({len(ids)} rows)"
            except Exception:
                prov = None
        return self.fail(exc, prov)

    # state codec (engine/positions.py) -------------------------------------------------------
    role = "source"

    @staticmethod
    def state_at(node, at, child):
        return source_state(at.shard, at.epoch, at.items, at.world)

    @staticmethod
    def items_in(state):
        return int(state["pos"])

    @staticmethod
    def child_of(state):
        return None

    def prov_token(self):
        return None if self._last_id is None else (self, self._last_id)

    def _format_prov(self, key):
        return self.src.provenance(key)

    def _close_self(self):
        try:
            if self._pool is not None:
                self._pool.close()
        finally:
            if self.src is not None:
                self.src.close()


class _SourceTask:
    """Runs in a worker process: opens its own RowSource (after fork) and reads id chunks."""

    name = "read"

    def __init__(self, factory):
        self.factory = factory
        self.src = None

    def __call__(self, ids, rows_in):
        if self.src is None:
            self.src = self.factory()
        return self.src.read_rows(ids)

    def provenance(self, ids):
        try:
            return self.src.provenance(int(ids[0])) if self.src is not None else None
        except Exception:
            return None

