"""Batch nodes that compute whole batches from pieces of the epoch's row ids.

``Batch(Map(Source))`` chains that the planner can run as a unit (native batches on C++ threads,
engine/native_batch.py; PIL batches in worker processes, engine/process_batch.py) share this
base: the epoch's ids come from the source's sampler, each batch is one piece (``batch_size``
consecutive ids, the first one at ``first``) submitted ahead of the consumer (a ring of
``ring_depth`` pieces in flight), and the state has the layout of the general
BatchIter(MapIter(SourceIter)) states, so a state saved from either resumes in the other.
Row ``first + i`` of a piece is row ``first + i`` of the epoch for the seeds, so the rows are
those of the general nodes whatever runs them.

The last rows of an epoch that ``drop_remainder`` drops are still a piece, whose batch is never
served: MindSpore maps every row before its batch op drops them, so an error in one of them (a
broken image, a function that fails) ends the epoch with that error as it does there.

Subclasses implement ``_start(ids, first)`` (submit one piece; returns an object with ``ids`` and
``first``), ``_finish(piece)`` (wait for it; the batch's columns) and ``_discard(piece)`` (wait for
it and drop it); ``_start_dropped``/``_finish_dropped`` submit and wait for the dropped rows'
piece (by default a piece like the others, its batch thrown away).
"""
import collections

import numpy as np

from ..graph.sharding import epoch_ids
from ..state_check import CHILD, COUNT, FLAG, check_node_state, check_source_state
from .nodes.source import source_state
from .node import IterNode


class PieceBatchIter(IterNode):
    def __init__(self, ctx, batch_ds, source_ds, src, ring_depth, workers, name):
        # Resources first: close() must work whatever step of the set-up failed.
        self.inflight = collections.deque()
        self.src = src
        super().__init__(ctx, (), queue_capacity=ring_depth, num_workers=workers, name=name)
        self.ds = batch_ds
        self.source_ds = source_ds
        self.ring_depth = ring_depth
        self.source_position = ctx.position()
        self.ids = np.zeros(0, np.int64)
        self.submitted = 0      # rows of the epoch submitted
        self.returned = 0       # rows of the epoch returned
        self.batch_num = 0
        self.done = False       # a batch shorter than batch_size was returned (state)
        self.exhausted = False  # every row of the epoch is submitted
        self.world = None
        self.horizon = None     # rows past which nothing is submitted ahead of time
        self.dropped = None     # the piece of the rows drop_remainder drops, once submitted

    # -- protocol ------------------------------------------------------------------------
    def start(self, epoch):
        self._position(epoch, 0, 0, False)

    def _position(self, epoch, rows, batch_num, done, world=None):
        self._drain()
        self.epoch = epoch
        self.world = world      # an epoch resumed on another number of ranks (elastic.py)
        self.ids = epoch_ids(self.source_ds, self.src, self.ctx.seed, epoch,
                                     self.source_position, world)
        self._epoch_started(epoch)
        self.src.will_read(self.ids[rows:])     # a remote source fetches ahead in this order
        self.submitted = self.returned = rows
        self.batch_num = batch_num
        self.done = self.exhausted = done
        self.horizon = None

    def limit_ready_ahead(self, items):
        self.horizon = self.returned + items * self.ds.batch_size

    def _epoch_started(self, epoch):
        """Hook: per-epoch set-up of a subclass (seed bases)."""

    @property
    def ready_ahead(self):
        return self.ring_depth

    def get_state(self):
        # The layout of BatchIter(MapIter(SourceIter)) states.
        child = None
        if self.returned:
            child = {"epoch": self.epoch, "index": self.returned,
                     "child": source_state(self.source_ds.shard(), self.epoch, self.returned,
                                          self.world)}
        return {"epoch": self.epoch, "batch_num": self.batch_num, "done": self.done,
                "child": child}

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, batch_num=COUNT, done=FLAG, child=CHILD)
        child = state["child"]
        if child is not None:
            check_node_state(self, child, index=COUNT)
            if isinstance(child.get("child"), dict):
                check_source_state(self, child["child"], self.source_ds.shard())
        rows = int(child["index"]) if child is not None else 0
        world = (child.get("child") or {}).get("world") if child is not None else None
        self._position(state["epoch"], rows, int(state["batch_num"]), bool(state["done"]),
                       world)

    def _next(self):
        self._fill(asked=True)
        if not self.inflight:
            return None
        piece = self.inflight.popleft()
        if piece is self.dropped:
            self.dropped = None
            self._finish_dropped(piece)     # their errors raise; the epoch ends
            return None
        batch = self._finish(piece)
        n = len(piece.ids)
        self.returned = piece.first + n
        self.batch_num += 1
        if n < self.ds.batch_size:
            self.done = True
        self._fill()
        return batch

    # -- pieces --------------------------------------------------------------------------
    def _fill(self, asked=False):
        """Submits pieces until ``ring_depth`` are in flight or the epoch's ids run out (past
        the horizon, only the one the consumer ``asked`` for)."""
        size = self.ds.batch_size
        while len(self.inflight) < self.ring_depth and not self.exhausted:
            if (self.horizon is not None and self.submitted >= self.horizon
                    and (self.inflight or not asked)):
                break
            first = self.submitted
            ids = self.ids[first:first + size]
            if not len(ids):
                self.exhausted = True
                break
            if len(ids) < size and self.ds.drop_remainder:
                self.dropped = self._start_dropped(ids, first)
                self.inflight.append(self.dropped)
                self.exhausted = True
                break
            self.inflight.append(self._start(ids, first))
            self.submitted = first + len(ids)
            if len(ids) < size:
                self.exhausted = True     # the last, partial batch
                break

    def _start_dropped(self, ids, first):
        """Submits the rows ``drop_remainder`` drops (their batch is never served)."""
        return self._start(ids, first)

    def _finish_dropped(self, piece):
        """Waits for the dropped rows' piece: raises their error, if one failed."""
        self._finish(piece)

    def _drain(self):
        """Waits for the pieces in flight and drops them (a new epoch or a reset)."""
        self.dropped = None
        while self.inflight:
            self._discard(self.inflight.popleft())

    def provenance_of(self, rid):
        try:
            return self.src.provenance(rid)
        except Exception:
            return f"row id {rid}"

    def _close_self(self):
        if self.src is not None:
            self.src.close()
