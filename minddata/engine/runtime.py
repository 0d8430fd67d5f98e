"""Running a planned pipeline: the producer thread, the bounded prefetch queue, epochs and
state (the user-facing iterators over it are minddata/iterators.py).

Ownership: the user's iterator object owns a ``PipelineRun``; the producer thread references
only the run, so dropping the iterator lets the garbage collector finalise it, which stops the
thread and closes every node (threads, processes, shared memory, files).
"""
import collections
import logging
import queue
import threading
import time

from .. import config
from ..graph.checks import INT32_MAX, PipelineArgumentError, wrong_type
from ..planner import PlanOptions, plan
from .errors import PAST_LAST_EPOCH, IteratorStoppedError
from .node import BuildContext

logger = logging.getLogger("minddata")

_ROW, _END, _ERR, _DONE = 0, 1, 2, 3
_CHUNK = 64
_CHUNK_S = 0.002
_SLOW_ITEM_S = 0.0005
_CHUNK_BYTES = 256 * 1024   # keeps prefetch_size chunks of large rows small
# The most bytes of rows the prefetch queue holds: prefetch_size rows of hundreds of MB each
# would take many GB; the producer waits (still one chunk ahead of the consumer) instead.
_QUEUE_BYTES = 256 * 1024 * 1024
_perf = time.perf_counter


class PipelineRun:
    """One run of a logical graph: planned (minddata/planner/), built (engine/registry.py),
    then produced epoch by epoch. ``start_at`` = (epoch, items to skip in it) starts the run
    later than its beginning (``Dataset.set_init_step``)."""

    def __init__(self, ds, num_epochs=-1, state=None, start_at=None, start=True, inline=False):
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int):
            raise wrong_type("num_epochs", num_epochs, int)
        if not -1 <= num_epochs <= INT32_MAX or num_epochs == 0:
            # MindSpore's words for both of its checks (the argument's range, then its
            # pipeline's refusal of 0).
            raise PipelineArgumentError(f"num_epochs {num_epochs} must be -1 (infinite) or "
                                        f"positive. Input num_epochs is not within the "
                                        f"required interval of [-1, {INT32_MAX}]. [ERROR] "
                                        f"RootNode: num_epochs should be either -1 or "
                                        f"positive integer, num_epochs: {num_epochs}")
        if state is not None:
            seed = int(state["seed"])
        else:
            # MindSpore's samplers and shuffles use the configured seed, 5489 unless set, so
            # an unseeded run is reproducible and every rank of a sharded job draws the same
            # permutation (shards stay disjoint).
            if config.get_debug_mode():
                config._debug_mode_seed()
            seed = config.get_seed()
        self.debug = config.get_debug_mode()
        self.ctx = BuildContext(seed, debug=self.debug, prefetch_size=config.get_prefetch_size(),
                                hooks=config._debug_hooks(), inline=inline)
        self.num_epochs = num_epochs
        self.column_names = list(ds.col_names())
        self.plan = plan(ds, PlanOptions.from_config())
        self._lock = threading.Lock()
        self._closed = False
        self.root = None
        try:
            self.root = self.ctx.build(self.plan.root)
        except BaseException:
            self._close_nodes()
            raise
        # Position of the producer: epoch index and whether that epoch has started.
        self.state = dict(state) if state is not None else {"seed": seed, "epoch": 0,
                                                             "root": None}
        self._p_epoch = int(self.state["epoch"])
        self._p_root = self.state["root"]
        self._skip = 0
        if start_at is not None and state is None:
            self._p_epoch, self._skip = start_at
            self.state["epoch"] = self._p_epoch
        self._epochs_consumed = self._p_epoch
        # Epochs the consumer has started reading: the producer begins an epoch only once it is
        # asked for, as MindSpore does (a map's functions never run for an epoch nobody reads).
        self._epochs_wanted = self._p_epoch + 1
        self._epoch_cv = threading.Condition()
        self._read_an_end = False
        self._finished = num_epochs != -1 and self._p_epoch >= num_epochs
        self._stop = self.ctx.stopping
        self._queue = None
        self._queued_bytes = 0
        self._queued_cv = threading.Condition()
        self._pending = collections.deque()
        self._thread = None
        # The prefetch queue is the root stage's output queue in its statistics (unless the
        # root keeps a queue of its own, a map's task queue).
        self._queue_stats = None
        if self.debug:
            logger.info("minddata debug: %s", self.plan)
        if start and not inline and not self.debug and not self._finished and self.plan.prefetch:
            if self.root.stats.queue_capacity is None:
                self.root.stats.queue_capacity = self.ctx.prefetch_size
                self._queue_stats = self.root.stats
            self._queue = queue.Queue(maxsize=self.ctx.prefetch_size)
            self._thread = threading.Thread(target=self._produce_loop, daemon=True,
                                            name="minddata-producer")
            self._thread.start()

    # -- producer -------------------------------------------------------------------------
    def _begin(self):
        self.ctx.run_epoch = self._p_epoch
        if self._p_root is not None:
            try:
                self.root.reset(self._p_root)
            except (KeyError, TypeError, IndexError) as e:
                # A state is a tree of the nodes' own states: one saved from another pipeline
                # (or another version of minddata) does not have this tree's layout.
                raise ValueError(f"state does not fit this pipeline: it was saved by an iterator "
                                 f"of another pipeline or another version of minddata "
                                 f"({type(e).__name__}: {e} in {self.root.name}'s state)") from e
            self._p_root = None
        else:
            self.root.start(self._p_epoch)
        while self._skip > 0:
            self._skip -= 1
            if self.root.next() is None:
                break

    def _step(self, started):
        """Produce one item: (_ROW, row, state) or (_END, None, state) or (_DONE, ...)."""
        if not started:
            self._begin()
        row = self.root.next()
        if row is None:
            self._p_epoch += 1
            st = {"seed": self.ctx.seed, "epoch": self._p_epoch, "root": None}
            return (_END, None, st)
        st = {"seed": self.ctx.seed, "epoch": self._p_epoch, "root": self.root.get_state()}
        return (_ROW, row, st)

    def _produce_loop(self):
        # Items travel in small chunks: handing rows one by one between threads costs more
        # than producing a small row. A chunk is sent when it holds _CHUNK items, when
        # _CHUNK_S seconds passed since its first item (slow stages keep low latency), or at
        # an epoch end.
        q = self._queue
        started = False
        chunk = []
        t_first = 0.0
        nbytes = 0
        try:
            while not self._stop.is_set():
                if not chunk:
                    self._wait_for_room()
                if not started and not self._wait_for_epoch_wanted():
                    return
                t_step = _perf()
                item = self._step(started)
                now = _perf()
                started = item[0] == _ROW
                if not chunk:
                    t_first = t_step
                    nbytes = 0
                chunk.append(item)
                if item[0] == _ROW:
                    nbytes += sum(getattr(a, "nbytes", 0) for a in item[1])
                last = (item[0] == _END and self.num_epochs != -1 and
                        self._p_epoch >= self.num_epochs)
                # A slow item (a batch of decoded images) goes out at once: only fast rows
                # are worth grouping, and grouping slow ones would delay the consumer.
                if (item[0] == _END or len(chunk) >= _CHUNK or nbytes >= _CHUNK_BYTES
                        or now - t_first > _CHUNK_S or now - t_step > _SLOW_ITEM_S
                        or self.ctx.hand_over_each_row):
                    with self._queued_cv:
                        self._queued_bytes += nbytes
                    if not self._put(q, (chunk, nbytes)):
                        return
                    chunk = []
                if last:
                    return
        except BaseException as e:  # delivered to the consumer, raised in its thread
            chunk.append((_ERR, e, None))
            self._put(q, (chunk, 0))

    def _wait_for_epoch_wanted(self):
        """Block until the consumer starts reading the epoch the producer is at; False when the
        run stops meanwhile."""
        with self._epoch_cv:
            while self._epochs_wanted <= self._p_epoch:
                if self._stop.is_set():
                    return False
                self._epoch_cv.wait(0.1)
        return True

    def _want_next_epoch(self):
        with self._epoch_cv:
            self._epochs_wanted += 1
            self._epoch_cv.notify_all()

    def _wait_for_room(self):
        with self._queued_cv:
            while self._queued_bytes > _QUEUE_BYTES and not self._stop.is_set():
                self._queued_cv.wait(0.1)

    def _put(self, q, item):
        while not self._stop.is_set():
            try:
                q.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    # -- consumer -------------------------------------------------------------------------
    def next_item(self):
        """The next row, or None at the end of an epoch; the pipeline's errors otherwise.
        Reading on after the last epoch ended raises MindSpore's RuntimeError, and after
        ``close()`` an IteratorStoppedError (both an AttributeError, as in MindSpore, and a
        RuntimeError), also when every epoch was read first (MindSpore checks for a stopped
        iterator first)."""
        if self._finished and not self.stopped_by_user:
            raise RuntimeError(f"{PAST_LAST_EPOCH} This iterator was created with num_epochs="
                               f"{self.num_epochs} and all of them were read; pass a larger "
                               f"num_epochs (-1: no limit) or create a new iterator")
        if self._closed:
            why = ("stop() or close() was called on it" if self._failed is None else
                   f"it stopped at an error: {self._failed}")
            raise IteratorStoppedError(
                f"{self.owner} does not have a running pipeline: {why} ('{self.owner}' object "
                f"has no attribute '_runtime_context', as MindSpore puts it); create a new "
                f"iterator")
        if self._read_an_end:       # the first read of the next epoch: the producer may start it
            self._read_an_end = False
            self._want_next_epoch()
        try:
            if self._thread is None:
                item = self._step(self._inline_started)
                self._inline_started = item[0] == _ROW
            else:
                item = self._get()
        except BaseException as e:
            self._fail(e)
            raise
        kind = item[0]
        if kind == _ERR:
            self._fail(item[1])
            raise item[1]
        self.state = item[2]
        if kind == _END:
            self._read_an_end = True
            self._epochs_consumed += 1
            if self.num_epochs != -1 and self._epochs_consumed >= self.num_epochs:
                self._finished = True
                self.close()
            return None
        return item[1]

    _inline_started = False
    _failed = None      # the first line of the error that stopped the run
    stopped_by_user = False     # stop_by_user() was called
    owner = "Iterator"  # the class name of the iterator reading this run, for its errors

    def _fail(self, exc):
        self._failed = f"{type(exc).__name__}: {str(exc).partition(chr(10))[0]}"
        self.close()

    def _get(self):
        if self._pending:
            return self._pending.popleft()
        q = self._queue
        if self._queue_stats is not None:
            self._queue_stats.sample_queue(q.qsize())
        while True:
            try:
                chunk, nbytes = q.get(timeout=0.5)
            except queue.Empty:
                if not self._thread.is_alive() and q.empty():
                    raise RuntimeError("minddata: the pipeline's producer thread stopped "
                                       "without reporting an error")
                continue
            if nbytes:
                with self._queued_cv:
                    self._queued_bytes -= nbytes
                    self._queued_cv.notify()
            self._pending.extend(chunk)
            return self._pending.popleft()

    # -- shutdown -------------------------------------------------------------------------
    def stop_by_user(self):
        """The iterator's stop()/close(): the run closes, and reading on raises the stopped
        iterator's error even where every epoch had been read."""
        self.stopped_by_user = True
        self.close()

    def close(self):
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stop.set()
        # Wake a producer waiting for the consumer (the next epoch, room in the queue) now
        # rather than at its next 0.1 s poll: every closed iterator waited for that poll.
        for cv in (self._epoch_cv, self._queued_cv):
            with cv:
                cv.notify_all()
        t = self._thread
        if t is not None and t is not threading.current_thread():
            # Unblock a producer waiting on a full queue, then wait for it.
            try:
                while True:
                    self._queue.get_nowait()
            except queue.Empty:
                pass
            t.join()
        self._close_nodes()

    def _close_nodes(self):
        for node in reversed(self.ctx.nodes):
            try:
                node.close()
            except Exception as e:  # keep closing the others
                logger.warning("minddata: error while closing %s: %s", node.name, e)
        self.ctx.nodes.clear()
        self.ctx.threads.close()

    def stage_stats(self):
        return self.root.iter_stats() if self.root is not None else []
