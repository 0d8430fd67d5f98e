"""Driver side of the service: hands pieces of an epoch to Ray actors and returns their items
in piece order.

- Dynamic hand-out: an actor gets a new piece whenever it has fewer than ``pieces_per_worker``
  in flight, so faster or less busy actors take more pieces.
- Order: pieces are numbered from the epoch's (or the resume point's) first item; items leave
  in that order whatever actor finished first (finished pieces wait, at most ``max_ahead``).
- Failures: a piece whose actor or node died (or whose result was lost with its node) is
  redone by another actor, before any new piece; a dead actor is replaced (Ray places the
  new one on a live node). An error raised by the pipeline itself is raised to the trainer.
- The tail (``tail``, a DeviceTail: the batches' trailing Normalize/Rescale/HWC2CHW, left out of
  the shipped chain) is applied where it costs least: by an actor on the trainer's own node
  (its batches reach the trainer without a copy), and on the trainer for the batches of other
  nodes, which then cross object stores as uint8.
"""
import collections
import time

from ..engine.recycler import BufferRecycler

_WAIT_S = 2.0


class _Worker:
    """One pool actor as this scheduler sees it."""

    def __init__(self, actor):
        self.actor = actor
        self.ready_ref = actor.ready.remote()   # None once the actor answered
        self.where = None
        self.inflight = 0
        self.items = 0
        self.pieces = 0
        self.busy_s = 0.0
        self.alive = True


class PieceScheduler:
    def __init__(self, ray, pool, dataset_ref, piece_items, pieces_per_worker=2,
                 start_timeout_s=300.0, tail=None, trainer_node=None):
        self._ray = ray
        self._tail = tail
        self._trainer_node = trainer_node
        # The tail's float batches go into reused buffers (a fresh one costs its page zeroing).
        self._buffers = BufferRecycler()
        self._pool = pool
        self._dataset_box = [dataset_ref]
        self.piece_items = piece_items
        self.pieces_per_worker = pieces_per_worker
        self.max_ahead = len(pool.actors) * pieces_per_worker + 2
        self._start_timeout_s = start_timeout_s
        self.workers = [_Worker(a) for a in pool.actors]
        self.redone = 0
        self.closed = False
        self._depth_sum = 0
        self._depth_samples = 0
        self._epoch_key = None
        self._inflight = {}              # ObjectRef -> (worker, first item)
        self._done = {}                  # first item -> (items, ended)
        self._current = collections.deque()
        self._current_finished = True   # the items of _current need no tail

    def _replace(self, w):
        if w.alive:
            w.alive = False
            self.workers.append(_Worker(self._pool.replace(w.actor)))

    # -- an epoch (or the rest of one) -----------------------------------------------------
    def begin(self, seed, epoch, world, first):
        """Forget pieces of a previous position and start handing out the ones from item
        ``first`` of ``epoch``."""
        self._cancel_inflight()
        self._epoch_key = (seed, epoch, world)
        self._next_first = first         # first item of the next new piece
        self._deliver_first = first      # first item of the piece being delivered
        self._end = None                 # first item after the epoch, once known
        self._redo = []                  # pieces to run again (their actor died)
        self._done = {}
        self._current = collections.deque()
        self._current_ended = False
        self._started = False

    def next_item(self):
        """The next item of the epoch, or None at its end."""
        while True:
            if self._current:
                item = self._current.popleft()
                return item if self._current_finished else self._finish(item)
            if self._started and self._current_ended:
                return None
            if self._started:
                self._deliver_first += self.piece_items
            piece = self._take(self._deliver_first)
            self._started = True
            self._current.extend(piece[0])
            self._current_ended = piece[1]
            self._current_finished = piece[2]

    def _finish(self, item):
        """The tail applied to an item of a piece an actor of another node ran."""
        item = list(item)
        column = self._tail.column
        item[column] = self._tail.apply_native(item[column], self._buffers.empty)
        return tuple(item)

    def ready_items(self):
        """Items finished and waiting for the trainer (its queue depth)."""
        # list(): stats() calls this from another thread than the one filling _done.
        return len(self._current) + sum(len(piece[0]) for piece in list(self._done.values()))

    def sample_depth(self):
        """The queue depth now, also counted in the run's mean depth (``stats()``)."""
        depth = self.ready_items()
        self._depth_sum += depth
        self._depth_samples += 1
        return depth

    def _take(self, first):
        t_wait = None
        while first not in self._done:
            self._dispatch()
            if self._inflight:
                t_wait = None
            elif t_wait is None:      # no actor can take a piece: they are all starting
                t_wait = time.monotonic()
            elif time.monotonic() - t_wait > self._start_timeout_s:
                raise RuntimeError(f"RayService: no pipeline actor could start within "
                                   f"{self._start_timeout_s:.0f} s (is the cluster short of "
                                   f"CPUs?)")
            self._collect()
        return self._done.pop(first)

    def _dispatch(self):
        self._check_ready()
        for w in self.workers:
            while w.alive and w.ready_ref is None and w.inflight < self.pieces_per_worker:
                first = self._next_piece()
                if first is None:
                    return
                seed, epoch, world = self._epoch_key
                finish = self._tail is None or self._on_trainer_node(w)
                ref = w.actor.run_piece.remote(self._dataset_box, seed, epoch, world, first,
                                               self.piece_items,
                                               self._tail if finish else None)
                self._inflight[ref] = (w, first, finish)
                w.inflight += 1

    def _on_trainer_node(self, w):
        return (self._trainer_node is not None
                and (w.where or {}).get("node") == self._trainer_node)

    def _next_piece(self):
        if self._redo:
            return self._redo.pop(0)
        ahead = (self._next_first - self._deliver_first) // self.piece_items
        if ahead >= self.max_ahead or (self._end is not None and self._next_first >= self._end):
            return None
        first = self._next_first
        self._next_first += self.piece_items
        return first

    def _check_ready(self):
        pending = [w.ready_ref for w in self.workers if w.alive and w.ready_ref is not None]
        if not pending:
            return
        done, _ = self._ray.wait(pending, num_returns=len(pending), timeout=0)
        for w in self.workers:
            if w.ready_ref is not None and w.ready_ref in done:
                try:
                    w.where = self._ray.get(w.ready_ref)
                    w.ready_ref = None
                except self._ray.exceptions.RayError:
                    self._replace(w)

    def _collect(self):
        refs = list(self._inflight)
        starting = [w.ready_ref for w in self.workers if w.alive and w.ready_ref is not None]
        if not refs and not starting:
            time.sleep(_WAIT_S)     # nothing to wait on: replacements not submitted yet
            return
        # Wakes up when a piece is done (or failed) or an actor is up, else after _WAIT_S:
        # each wake-up takes the interpreter lock from the training thread, so there are few.
        done, _ = self._ray.wait(refs + starting, num_returns=1, timeout=_WAIT_S)
        for ref in done:
            if ref not in self._inflight:
                continue            # an actor that started: _dispatch hands it pieces
            w, first, finished = self._inflight.pop(ref)
            w.inflight -= 1
            try:
                items, ended, seconds = self._ray.get(ref)
            except self._ray.exceptions.RayTaskError as e:
                raise e.as_instanceof_cause() from None   # the pipeline's own error
            except self._ray.exceptions.RayError:
                # The actor, its node or the result died with the node: run the piece again.
                self.redone += 1
                self._redo.append(first)
                self._redo.sort()
                self._replace(w)
                continue
            w.items += len(items)
            w.pieces += 1
            w.busy_s += seconds
            if ended:
                end = first + len(items)
                self._end = end if self._end is None else min(self._end, end)
            if self._end is None or first <= self._end:   # not a piece past the epoch's end
                self._done[first] = (items, ended, finished)

    def _cancel_inflight(self):
        for ref, (w, _, _) in self._inflight.items():
            w.inflight -= 1
            try:
                self._ray.cancel(ref)
            except Exception:
                pass    # a running actor task cannot be cancelled: its result is dropped
        self._inflight = {}

    # -- observability / shutdown ----------------------------------------------------------
    def stats(self):
        workers = []
        for k, w in enumerate(list(self.workers)):
            workers.append({"worker": k, "alive": w.alive,
                            "node": (w.where or {}).get("node"),
                            "pid": (w.where or {}).get("pid"),
                            "pieces": w.pieces, "items": w.items, "busy_s": round(w.busy_s, 3),
                            "finishes_tail": self._tail is not None and self._on_trainer_node(w),
                            "items_per_s": round(w.items / w.busy_s, 2) if w.busy_s else 0.0})
        return {"workers": workers, "queue_depth": self.ready_items(),
                "depth_sum": self._depth_sum, "depth_samples": self._depth_samples,
                "pieces_redone": self.redone}

    def close(self):
        """Drop this iterator's pieces (the pool's actors stay for the service's next one)."""
        if self.closed:
            return
        self.closed = True
        self._cancel_inflight()
        self._done = {}
        self._current.clear()
        self._buffers.clear()
