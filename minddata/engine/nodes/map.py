"""The map node: runs a list of operations on some columns of every row, inline, on worker
threads or in worker processes (shared memory); output order = input order.

Random ops draw from a seed derived from (global seed, epoch, row index in the epoch, op
position), so results do not depend on the worker count or kind.
"""
import collections
import logging
import random
import time

import numpy as np

from transforms_c._base import is_pil
from transforms_c.contract import FusedPlanLike, Operation

from ... import config, seeds
from ...graph.map import placement
from ...graph.operations import compile_segments, op_name, pil_boundaries, takes_pil
from ...state_check import CHILD, COUNT, check_node_state
from ..callback_runner import runner_for
from ..errors import wrap_error
from ..executor import make_executor
from ..node import IterNode, format_provenance
from ..ordered import OrderedStage
from ..positions import NestedState

logger = logging.getLogger("minddata")
_MAX_CHUNK = 64
_LARGE_TASK_BYTES = 64 << 20
_perf = time.perf_counter


class OpRunner:
    """Runs the op list on one row's input columns; picklable state for worker processes."""

    def __init__(self, ops, n_out, seed, positions, seed_py, debug=False, hooks=(),
                 ends_map=None):
        self.ops = ops
        self.n_out = n_out
        self.seed = seed
        self.positions = positions
        self.seed_py = seed_py      # seed Python's and numpy's global RNGs per row
        self.debug = debug
        self.hooks = hooks
        self.names = [op_name(op) for op in ops]
        self._bases = {}
        # An Operation takes its seed; a plain callable is seeded through the global RNGs.
        self.has_apply = [isinstance(op, Operation) for op in ops]
        # A fused plan gets one seed per op it runs, each from that op's own position.
        self.per_op_seeds = [isinstance(op, FusedPlanLike) for op in ops]
        # As MindSpore, a PIL image goes on as it is to a next op with a Pillow path (an op
        # taking PIL images, a Python op or callable; a fused plan runs its ops one by one on
        # it), and as an array to an op MindSpore has in C++ only (pil_input "array": ToTensor
        # then computes as in its pipelines). Where one of the maps merged into this one
        # ended (``ends_map``, per op), it becomes an array as at the end of any map.
        ends_map = ends_map or [False] * len(ops)
        self.pil_to_next = [k + 1 < len(ops) and takes_pil(ops[k + 1]) and not ends_map[k]
                            for k in range(len(ops))]

    def bases(self, epoch):
        """Per compiled op: the stage base of its position, or a list of them (fused plan)."""
        b = self._bases.get(epoch)
        if b is None:
            b = [[seeds.stage_base(self.seed, epoch, q) for q in p] if isinstance(p, list)
                 else seeds.stage_base(self.seed, epoch, p) for p in self.positions]
            if len(self._bases) > 64:
                self._bases.clear()
            self._bases[epoch] = b
        return b

    def _note_failed_op(self, exc, k):
        """Name the op that raised ``exc`` for the pipeline's error (engine/errors.py), as
        MindSpore names it: ``PyFunc`` for a Python function, else the op's name."""
        label = self.names[k] if self.has_apply[k] or self.per_op_seeds[k] else "PyFunc"
        try:
            exc._minddata_failed_op = label
        except AttributeError:   # an exception type that takes no attributes: name the map
            pass

    @staticmethod
    def op_seeds(base, index):
        """Seed(s) of one compiled op for row `index`, from its ``bases`` entry."""
        if isinstance(base, list):
            return [seeds.row_seed(b, index) for b in base]
        return seeds.row_seed(base, index)

    def run(self, args, epoch, index):
        """The row's outputs."""
        bases = self.bases(epoch)
        for k, op in enumerate(self.ops):
            s = self.op_seeds(bases[k], index)
            try:
                if self.per_op_seeds[k]:
                    res = op.apply_seeds(args, s)
                elif self.has_apply[k]:
                    res = op.apply(args, s)
                else:
                    if self.seed_py:
                        random.seed(s)
                        np.random.seed(s & 0xFFFFFFFF)
                    res = op(*args)
                res = res if isinstance(res, tuple) else (res,)
                keep_pil = self.pil_to_next[k]
                res = tuple(a if type(a) is np.ndarray or (keep_pil and is_pil(a))
                            else _to_array(a, self.names[k]) for a in res)
            except Exception as exc:
                self._note_failed_op(exc, k)
                raise
            if self.debug:
                _log_op(self.names[k], args, res, self.hooks, first=k == 0)
            args = res
        if len(args) != self.n_out:
            # MindSpore's words after ours (code matching on them keeps working).
            raise RuntimeError(f"the operations returned {len(args)} columns but "
                               f"output_columns names {self.n_out}. Invalid columns, the number "
                               f"of columns returned in 'map' operations should match the "
                               f"number of 'output_columns', but got the number of columns "
                               f"returned in 'map' operations: {len(args)}, the number of "
                               f"'output_columns': {self.n_out}.")
        return args


def _to_array(value, name):
    if isinstance(value, dict):
        return value    # a Python object column, passed on as it is (as in MindSpore)
    a = np.asarray(value)
    if a.dtype.hasobject:
        raise TypeError(f"operation {name} returned a {type(value).__name__}, which is not a "
                        f"numpy-compatible array or scalar")
    return a


def _log_op(name, inputs, outputs, hooks, first):
    """Debug mode: log the op's shapes and dtypes; call the debug hooks (minddata/debug.py) on
    the first op's input columns and on every op's output columns, as MindSpore does."""
    logger.info("minddata debug: map op %s in %s out %s", name, _desc(inputs), _desc(outputs))
    for hook in hooks:
        if first:
            _call_hook(hook, name, True, inputs)
        _call_hook(hook, name, False, outputs)


def _call_hook(hook, name, is_first, columns):
    hook.set_previous_op_name(name)
    hook.set_is_first(is_first)
    hook(*columns)


def _desc(arrays):
    return [(tuple(np.shape(a)), str(getattr(a, "dtype", type(a).__name__))) for a in arrays]


def _compiled_positions(original, compiled, positions):
    """Op position of each compiled op; a fused plan gets the list of the positions of the ops
    it runs, so every op draws from its own position whether it was fused or not."""
    ids = {id(op): k for k, op in enumerate(original)}
    out, k = [], 0
    for op in compiled:
        if id(op) in ids:
            k = ids[id(op)]
            out.append(positions[k])
            k += 1
        else:
            n = len(op.ops) if isinstance(op, FusedPlanLike) else 1
            out.append(list(positions[k:k + n]))
            k += n
    return out


def op_runner(ds, ctx, workers):
    """The OpRunner of MapDataset `ds`: its operations compiled (fused native runs), each op's
    seed position taken from `ctx` in build order (after the map's input)."""
    positions = [ctx.position() for _ in ds.operations]
    # Debug mode runs the same (fused) operations, so it shows the values training sees.
    ops, ends_map = compile_segments(ds.operations,
                                     pil_boundaries(ds.operations, ds.map_ends))
    positions = _compiled_positions(ds.operations, ops, positions)
    return OpRunner(ops, len(ds.out_cols), ctx.seed, positions,
                    seed_py=config._seed_is_set() and (workers == 1 or ds.python_multiprocessing),
                    debug=ctx.debug, hooks=tuple(ctx.hooks), ends_map=ends_map)




class MapIter(NestedState, IterNode):
    """Runs the operations on chunks of rows through an executor (engine/executor.py): inline
    (one worker, debug mode), threads, or processes (``python_multiprocessing``)."""

    name = "Map"

    def __init__(self, ds, ctx, children):
        child = children[0]
        workers = ctx.workers(ds.num_parallel_workers or config.get_num_parallel_workers())
        self._pool = None   # before anything can fail: close() must work
        super().__init__(ctx, [child], num_workers=workers)
        self.ds = ds
        child_cols = ds.children[0].col_names()
        self.in_idx = [child_cols.index(c) for c in ds.in_cols]
        self.place = placement(child_cols, ds.in_cols, ds.out_cols)
        self.runner = op_runner(ds, ctx, workers)
        self.workers = workers
        self._callbacks = runner_for(ds.callbacks, ctx)
        if ds.callbacks:
            ctx.hand_over_each_row = True
        self._index = 0            # rows pulled from the child this epoch (the seed row id)
        self._returned = 0
        self._last_child_state = None
        self._last_prov = None
        self._child_done = False
        self._buf = collections.deque()
        # Rows per task, adapted to the measured cost of a row: expensive rows (image decode)
        # go one or two per task so every worker stays busy; cheap rows are grouped so the
        # per-task overhead stays small. The first tasks take one row each: rows may be
        # hundreds of MB.
        self._chunk = 1
        self._row_cost = None
        self._t_result = None
        self._target_task_s = 0.002 if not ds.python_multiprocessing else 0.005
        # Inline execution runs one row per task when it is asked for, as a plain loop would;
        # workers get chunks of rows, twice as many tasks as workers in flight.
        self._inline = workers <= 1
        depth = 1 if self._inline else 2 * workers
        if self._inline:
            self._chunk = 1
        # set_error_samples_mode: a failing row is skipped or replaced (not in debug mode,
        # where MindSpore 2.10 uses RETURN); read when the pipeline is built.
        mode = config.get_error_samples_mode()
        self._error_mode = (None if ctx.debug or mode == config.ErrorSamplesMode.RETURN
                            else mode)
        self._replacer = _Replacer() if mode == config.ErrorSamplesMode.REPLACE else None
        self._pool = make_executor(workers, _MapTask(self.runner, self._error_mode is not None),
                                   "map",
                                   processes=ds.python_multiprocessing and not self._inline,
                                   budget=ctx.threads, max_rowsize=ds.max_rowsize)
        self._stage = OrderedStage(self._pool, depth)
        if not self._inline:
            self.stats.queue_capacity = 2 * workers * _MAX_CHUNK

    # protocol ----------------------------------------------------------------------------
    def start(self, epoch):
        super().start(epoch)
        self._restart_epoch()
        if self._callbacks is not None:
            # The run's epoch: the passes of a repeat above this map are one callback epoch.
            self._callbacks.epoch_begin(self.ctx.run_epoch)

    def next(self):
        row = super().next()
        cb = self._callbacks
        if cb is not None:
            if row is None:
                cb.pass_end()
            else:
                cb.step()
        return row

    def _restart_epoch(self, index=0):
        self._t_result = None
        if self._pool is not None:
            self._pool.clear()
        self._buf.clear()
        self._index = index
        self._returned = index
        self._child_done = False
        self._last_child_state = None

    def get_state(self):
        return {"epoch": self.epoch, "index": self._returned, "child": self._last_child_state}

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, index=COUNT, child=CHILD)
        self.epoch = state["epoch"]
        if state["child"] is None:
            self.children[0].start(self.epoch)
        else:
            self.children[0].reset(state["child"])
        self._restart_epoch(state["index"])

    def prov_token(self):
        return self._last_prov

    # state codec (engine/positions.py) -------------------------------------------------------
    role = "map"

    @staticmethod
    def state_at(node, at, child):
        return {"epoch": at.epoch, "index": at.items, "child": child(at)}

    @staticmethod
    def items_in(state):
        return int(state["index"])

    def skip_input(self, n):
        """Right after start(): pass over the next ``n`` input rows without running the
        operations (a cached stage computing its pass again from row ``n``)."""
        child = self.children[0]
        skipped = 0
        while skipped < n and self.pull(child) is not None:
            skipped += 1
        self._child_done = skipped < n
        self._index = self._returned = skipped
        self._last_child_state = child.get_state()
        self._last_prov = None

    # rows --------------------------------------------------------------------------------
    def _next(self):
        while not self._buf:
            # a task whose rows all failed (error samples mode) gives no row: take the next
            if not self._fill():
                if not self._buf:
                    return None
        row, cstate, prov = self._buf.popleft()
        self._last_child_state = cstate
        self._last_prov = prov
        self._returned += 1
        return row

    def _assemble(self, row, out):
        return tuple(out[j] if src == "out" else row[j] for src, j in self.place)

    def _wrap(self, e, prov, index):
        """``e`` named with this map and the row: ``index`` of the epoch (None: no one row, as
        when a worker process died) and its provenance ``prov``."""
        prov = format_provenance(prov)
        where = f"a row of epoch {self.epoch}" if index is None else \
            f"row {index} of epoch {self.epoch}"
        if prov:
            where = f"{prov} ({where})"
        name = f"Map({', '.join(self.runner.names)})"
        return wrap_error(e, name, where)

    def pull_rows(self, n):
        """Up to n rows from the child, with the child's state and provenance token after each
        (what a task needs to resume and to name a failing row); marks the child done at its end."""
        child = self.children[0]
        rows, states, provs = [], [], []
        for _ in range(n):
            r = self.pull(child)
            if r is None:
                self._child_done = True
                break
            rows.append(r)
            states.append(child.get_state())
            provs.append(child.prov_token())
        return rows, states, provs

    def _next_chunk(self):
        """The next chunk of input rows as a task, or None when the child has no more."""
        if self._child_done:
            return None
        rows, states, provs = self.pull_rows(self._chunk)
        if not rows:
            return None
        first = self._index
        self._index += len(rows)
        return ((self.epoch, first), [tuple(r[i] for i in self.in_idx) for r in rows],
                _Chunk(rows, states, provs, first, self.epoch))

    def _fill(self):
        pool = self._pool
        try:
            done = self._stage.take(self._next_chunk)
        except BaseException as e:
            raise self._wrap_pool_error(e, getattr(e, "_minddata_task", None))
        if done is None:
            if self._replacer is not None:
                for row in self._replacer.end_of_epoch():
                    self._buf.append((row, self._last_child_state, None))
            return False
        outs, task = done
        if self._error_mode is None:
            for r, o, s, p in zip(task.rows, outs, task.states, task.provs):
                self._buf.append((self._assemble(r, o), s, p))
        else:
            self._fill_error_mode(outs, task)
        if not self._inline:
            self.stats.sample_queue(len(pool))
            self._adapt_chunk(len(outs))
            self._adapt_depth(outs)
        return True

    def _fill_error_mode(self, outs, task):
        """ErrorSamplesMode.SKIP drops a failed row (an empty output); REPLACE gives a row
        the map produced before in its place (_Replacer)."""
        for r, o, s, p in zip(task.rows, outs, task.states, task.provs):
            if len(o):
                row = self._assemble(r, o)
                if self._replacer is None:
                    self._buf.append((row, s, p))
                else:
                    for out in self._replacer.good(row):
                        self._buf.append((out, s, p))
            elif self._replacer is not None:
                for out in self._replacer.failed():
                    self._buf.append((out, s, p))

    def _adapt_chunk(self, n_rows):
        """Results arrive about every task_time / workers when the workers are the
        bottleneck, which gives the cost of a row."""
        now = _perf()
        last, self._t_result = self._t_result, now
        if last is None or not n_rows:
            return
        cost = (now - last) * self.workers / n_rows
        self._row_cost = cost if self._row_cost is None else 0.8 * self._row_cost + 0.2 * cost
        want = int(self._target_task_s / max(self._row_cost, 1e-7)) + 1
        self._chunk = max(1, min(_MAX_CHUNK, want))

    def _adapt_depth(self, outs):
        """Two tasks per worker keep the workers busy; one per worker when a task's rows are
        large (hundreds of MB each: every task in flight holds them, twice in a worker
        process), so that memory stays a few rows per worker."""
        nbytes = sum(getattr(a, "nbytes", 0) for out in outs for a in out)
        self._stage.depth = self.workers * (1 if nbytes > _LARGE_TASK_BYTES else 2)

    def _wrap_pool_error(self, e, info):
        if getattr(e, "_minddata_wrapped", False):
            return e
        if info is not None:
            task, k = info
            return self._wrap(e, task.provs[k], task.first + k)
        return self._wrap(e, None, None)

    def _close_self(self):
        if self._pool is not None:
            self._pool.close()


class _Chunk:
    __slots__ = ("rows", "states", "provs", "first", "epoch")

    def __init__(self, rows, states, provs, first, epoch):
        self.rows, self.states, self.provs, self.first = rows, states, provs, first
        self.epoch = epoch


class _Replacer:
    """ErrorSamplesMode.REPLACE as MindSpore 2.10 does it (measured: the rows given for failed
    rows, and where they come, over whole runs and epochs): the map keeps up to 16 of its good
    rows in a queue, kept over the epochs of a run. A good row joins the queue while it is not
    full; when it fills the queue and failed rows wait, the oldest queued row is given (and
    leaves the queue) after it. A row that fails while the queue is full and none waits is
    replaced in place by the oldest queued row (which goes to the back of the queue); other
    failed rows wait. At the end of an epoch the waiting rows are given the queued rows in
    order, round and round, and as many leave the queue; with none queued, MindSpore's
    RuntimeError."""

    CAPACITY = 16

    def __init__(self):
        self.queue = collections.deque()
        self.waiting = 0

    def good(self, row):
        q = self.queue
        if len(q) < self.CAPACITY:
            q.append(row)
        out = [row]
        if len(q) == self.CAPACITY and self.waiting:
            out.append(q.popleft())
            self.waiting -= 1
        return out

    def failed(self):
        q = self.queue
        if len(q) == self.CAPACITY and not self.waiting:
            row = q.popleft()
            q.append(row)
            return [row]
        self.waiting += 1
        return []

    def end_of_epoch(self):
        n, self.waiting = self.waiting, 0
        if not n:
            return []
        if not self.queue:
            raise RuntimeError("All data is garbage and cannot be replaced. (every row of the "
                               "epoch failed in map, with ErrorSamplesMode.REPLACE)")
        rows = list(self.queue)
        for _ in range(min(n, len(rows))):
            self.queue.popleft()
        return [rows[k % len(rows)] for k in range(n)]


class _MapTask:
    """Applies the op list to a chunk of rows (inline, on a worker thread or in a worker
    process); a failing row is marked for the error message, or, with an error samples mode
    (``catch``), logged and given as an empty output."""

    name = "Map"

    def __init__(self, runner, catch=False):
        self.runner = runner
        self.catch = catch

    def __call__(self, meta, rows_in):
        epoch, first = meta
        out = []
        for k, args in enumerate(rows_in):
            try:
                out.append(self.runner.run(tuple(args), epoch, first + k))
            except Exception as e:
                if not self.catch:
                    e._minddata_row = k
                    raise
                logger.warning("map: row %d of epoch %d failed (%s: %s); the error samples "
                               "mode skips or replaces it", first + k, epoch,
                               type(e).__name__, e)
                out.append(())
            except BaseException as e:
                e._minddata_row = k
                raise
        return out
