"""The contract every iterator node keeps (tf.data's iterator / torchdata's node):

- ``start(epoch)``: position at the beginning of epoch ``epoch`` (an int that seeds that
  pass's random decisions; a repeat gives each of its passes a different one);
- ``next()``: the next row (tuple of numpy arrays) or ``None`` at the end of the epoch;
- ``get_state()`` / ``reset(state)``: a small JSON-serializable dict describing the position
  *after the last row returned*, and the inverse: a node reset from a state returns exactly the
  rows that would have come next;
- ``close()``: release threads, processes, shared memory and files; idempotent.

Nodes are built by ``ctx.build(pnode)`` from the planner's physical nodes (minddata/planner/),
through the registry of builders (engine/registry.py); the logical graph they run holds no
iteration state.
"""
import logging
import threading
import time

from . import registry
from .errors import wrap_error
from .executor import ThreadBudget
from .stats import StageStats

_perf = time.perf_counter
logger = logging.getLogger("minddata")


def format_provenance(token):
    if token is None or isinstance(token, str):
        return token
    node, key = token
    try:
        return node._format_prov(key)
    except Exception:
        return f"row {key}"


class BuildContext:
    """What a pipeline's nodes share: the seed, debug mode, and an op-position counter (the
    op position of the seed derivation, assigned in a fixed build order)."""

    def __init__(self, seed, debug=False, prefetch_size=16, hooks=(), inline=False):
        self.seed = seed
        self.debug = debug
        # A pass reading the pipeline's metadata (its first row): every node computes in the
        # caller's thread, so that no worker computes rows ahead (rows may be huge).
        self.inline = inline
        self.prefetch_size = prefetch_size
        self.hooks = list(hooks)
        # Set when the run stops: a node blocked on something outside the pipeline (a
        # WaitedDSCallback waiting for a training step) gives up instead of hanging close().
        self.stopping = threading.Event()
        # Set by a node whose rows must reach the consumer one by one (a map with callbacks
        # that may wait for the training loop, which needs the rows already produced).
        self.hand_over_each_row = False
        self._next_position = 0
        self.nodes = []
        # The worker threads every node of the run shares (closed with the run).
        self.threads = ThreadBudget()
        # The epoch of the run being produced (PipelineRun sets it), which the epoch numbers of
        # nodes under a repeat are not; None where no run drives the nodes (a service actor).
        self.run_epoch = None

    def workers(self, wanted):
        """The workers a node runs: ``wanted``, or one (no worker thread or process) in debug
        mode and in inline passes."""
        return 1 if self.debug or self.inline else wanted

    def build(self, pnode):
        """The iterator tree of physical node ``pnode`` (a planner/physical.py PhysicalNode),
        through the engine's registry of builders."""
        return registry.build(pnode, self)

    def position(self):
        p = self._next_position
        self._next_position += 1
        return p

    def register(self, node):
        self.nodes.append(node)


def _debug_shape(value):
    """(shape, dtype) of an array column for the debug log; the type of any other value (a
    dict column)."""
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return tuple(value.shape), str(value.dtype)
    return type(value).__name__


class IterNode:
    """Base class: time accounting, child access and default delegation."""

    name = "Node"
    #: Items this node computes ahead of its consumer by itself (a ring of batches in flight,
    #: pieces at remote workers); the planner starts no prefetch thread above such a node.
    ready_ahead = 0

    def __init__(self, ctx, children=(), queue_capacity=None, num_workers=1, name=None):
        self.ctx = ctx
        self.children = list(children)
        if name is not None:
            self.name = name
        self.stats = StageStats(self.name, queue_capacity, num_workers)
        self.epoch = 0
        self._closed = False
        ctx.register(self)
        if ctx.debug:
            self._plain_next = self.next
            self.next = self._debug_next

    # -- protocol -------------------------------------------------------------------------
    def start(self, epoch):
        self.epoch = epoch
        for c in self.children:
            c.start(epoch)

    def next(self):
        t0 = _perf()
        w0 = self.stats.wait_s
        row = self._next()
        st = self.stats
        st.busy_s += _perf() - t0 - (st.wait_s - w0)
        if row is not None:
            st.rows_out += 1
        return row

    def _next(self):
        raise NotImplementedError

    def limit_ready_ahead(self, items):
        """A hint: the consumer takes about ``items`` more items, then resets or closes this
        node (a service actor's piece), so a node that computes items ahead computes none past
        them until asked for. Later items are still served."""

    def _debug_next(self):
        row = self._plain_next()
        if row is None:
            logger.info("minddata debug: %s end of epoch %s", self.name, self.epoch)
        else:
            logger.info("minddata debug: %s out %s", self.name, [_debug_shape(a) for a in row])
        return row

    def get_state(self):
        return {"epoch": self.epoch, "children": [c.get_state() for c in self.children]}

    def reset(self, state):
        self.epoch = state["epoch"]
        for c, s in zip(self.children, state["children"]):
            c.reset(s)

    def close(self):
        if self._closed:
            return
        self._closed = True
        self._close_self()
        for c in self.children:
            c.close()

    def _close_self(self):
        pass

    # -- helpers --------------------------------------------------------------------------
    def pull(self, child):
        """child.next(), counted as waiting time of this node."""
        t0 = _perf()
        row = child.next()
        self.stats.wait_s += _perf() - t0
        return row

    def prov_token(self):
        """Cheap handle on the origin of the row last returned; ``format_provenance`` turns
        it into text only when an error needs it."""
        return self.children[0].prov_token() if self.children else None

    def _format_prov(self, key):
        return None

    def provenance(self):
        """Text describing where the row last returned came from (for error messages)."""
        return format_provenance(self.prov_token())

    def fail(self, exc, provenance=None):
        return wrap_error(exc, self.name, provenance)

    def iter_stats(self):
        """Stats of this subtree, from the source(s) to this node."""
        out = []
        for c in self.children:
            out.extend(c.iter_stats())
        out.append(self.stats)
        return out


class ReplayNode(IterNode):
    """Base for nodes whose internal state is not worth serialising (e.g. a shuffle buffer):
    the state is (epoch, rows returned), and reset replays the epoch from its start, dropping
    that many rows. Correct because every stage is deterministic given the seed."""

    def start(self, epoch):
        super().start(epoch)
        self._returned = 0
        self._start_epoch(epoch)

    def _start_epoch(self, epoch):
        pass

    def next(self):
        row = super().next()
        if row is not None:
            self._returned += 1
        return row

    def get_state(self):
        return {"epoch": self.epoch, "returned": self._returned}

    def reset(self, state):
        self.start(state["epoch"])
        for _ in range(state["returned"]):
            if self.next() is None:
                break
        # Replayed rows are not output rows.
        self.stats.rows_out -= state["returned"]
