"""The map -> batch fast path: a map whose last operation offers ``apply_batch`` (a fused
native plan, see docs/internals.md) serves whole batches to the batch stage above it. The
plan writes each row's output straight into the batch array, so there is no per-row output
array, no copy into the batch and no per-row hand-over between stages; the batch arrays
come from a BufferRecycler (minddata/engine/recycler.py), which reuses an array only
when the consumer dropped every reference to it, so the kernel does not zero a fresh
77 MB array for every batch.

Rows, seeds and provenance are exactly those of the per-row path: row ``first + i`` of the
epoch gets the seeds ``runner.op_seeds(base, first + i)`` (one per op of the plan), and a failing
row is run again through the per-row path, which raises the error naming the op and row.
A row whose output does not fit the batch array (another shape or dtype) makes that batch a
list of rows that the batch stage stacks as usual (and so reports or pads as usual).

With worker threads, a batch is split into tasks of a few rows and the next batch's tasks
are submitted before the current one is awaited, so the workers never wait for the
pipeline's thread between batches.
"""
import numpy as np

from .recycler import BufferRecycler


_BATCHES_AHEAD = 2       # batches in flight with worker threads (two batch arrays)
_TASKS_PER_WORKER = 4    # tasks per worker and batch: small enough to balance the load


class _Job:
    """One batch in flight: its input rows and where their outputs go."""

    __slots__ = ("rows", "states", "provs", "first", "epoch", "out", "odd", "tasks")

    def __init__(self, rows, states, provs, first, epoch):
        self.rows, self.states, self.provs = rows, states, provs
        self.first, self.epoch = first, epoch
        self.out = None          # the batch array of the map's output column
        self.odd = {}            # row -> output that was not written into ``out``
        self.tasks = 0           # its tasks in the owner's ordered pool


class BatchFuser:
    """Owned by a MapIter (``it``); uses its child, runner, pool and bookkeeping."""

    def __init__(self, it):
        self.it = it
        self.plan = it.runner.ops[-1]
        self.stop_at = len(it.runner.ops) - 1      # ops before the plan, run per row
        self.active = False
        self.batch_size = 0
        self.spec = None         # (row shape, dtype) of the output, learned from a row
        self.jobs = []
        self._recycler = None

    # control -------------------------------------------------------------------------------
    def begin(self, batch_size):
        self.stop()
        self.batch_size = batch_size
        self.active = True

    def stop(self):
        """Leave batch mode, dropping batches in flight (the owner clears its pool first,
        or right after: their tasks only write into arrays nobody else holds)."""
        self.active = False
        pool = self.it._pool
        if pool is not None and self.jobs:
            pool.clear()
        self.jobs = []

    def close(self):
        self.stop()
        if self._recycler is not None:
            self._recycler.clear()

    # batches -------------------------------------------------------------------------------
    def next_batch(self):
        it = self.it
        ahead = 1 if it._pool is None else _BATCHES_AHEAD
        while len(self.jobs) < ahead and not it._child_done:
            job = self._collect()
            if job is None:
                break
            self.jobs.append(job)
            self._submit(job)
        if not self.jobs:
            return 0, None
        job = self.jobs.pop(0)
        if it._pool is not None:
            it.stats.sample_queue(len(it._pool))
        try:
            # Tasks are submitted in order and nothing else uses the pool in batch mode, so
            # the pool's oldest results are this batch's tasks.
            for _ in range(job.tasks):
                it._pool.result()
        except BaseException as e:
            self.stop()
            raise it._wrap_pool_error(e, None)
        it._last_child_state = job.states[-1]
        it._last_prov = job.provs[-1]
        it._returned += len(job.rows)
        return len(job.rows), self._assemble(job)

    def _collect(self):
        """Pull the next batch's rows from the map's child; None at the end of the epoch."""
        it = self.it
        rows, states, provs = it.pull_rows(self.batch_size)
        if not rows:
            return None
        job = _Job(rows, states, provs, it._index, it.epoch)
        it._index += len(rows)
        return job

    def _submit(self, job):
        it = self.it
        n = len(job.rows)
        start = 0
        if self.spec is None:
            # The first row tells the batch array's shape and dtype.
            out = self._run_row(job, 0)
            job.odd[0] = out
            self.spec = (out.shape, out.dtype)
            start = 1
        if self._recycler is None:
            self._recycler = BufferRecycler()
        shape, dtype = self.spec
        # Sized by the rows collected: a batch_size far above the epoch's rows allocates
        # only what it holds.
        job.out = self._recycler.empty((n,) + shape, dtype)
        pool = it._pool
        if pool is None:
            self._run_part(job, start, n)
            return
        step = max(1, -(-(n - start) // (_TASKS_PER_WORKER * it.workers)))
        for a in range(start, n, step):
            pool.submit(self._run_part, job, a, min(n, a + step))
            job.tasks += 1

    def _run_row(self, job, i):
        """Row ``i`` through the per-row path (errors name the op and the row)."""
        it = self.it
        index = job.first + i
        r = job.rows[i]
        try:
            out = it.runner.run(tuple(r[k] for k in it.in_idx), job.epoch, index)
        except BaseException as e:
            raise it._wrap(e, job.provs[i], index)
        return out[0]

    def _run_part(self, job, a, b):
        """Rows a..b-1 of the batch, written into job.out[a:b] (on a worker thread)."""
        it = self.it
        runner = it.runner
        base = runner.bases(job.epoch)[-1]
        inputs, row_seeds = [], []
        for i in range(a, b):
            index = job.first + i
            args = tuple(job.rows[i][k] for k in it.in_idx)
            if self.stop_at:
                try:
                    args = runner.run(args, job.epoch, index, stop=self.stop_at)
                except BaseException as e:
                    raise it._wrap(e, job.provs[i], index)
            inputs.append(args)
            row_seeds.append(runner.op_seeds(base, index))
        shape, dtype = self.spec
        try:
            results = self.plan.apply_batch(inputs, row_seeds, out=job.out[a:b])
            if len(results) != b - a:
                raise RuntimeError("apply_batch returned a wrong number of rows")
        except BaseException:
            # Which row, and why: the per-row path raises the op's error for that row, or
            # gives an output that does not fit the batch array.
            for i in range(a, b):
                job.odd[i] = self._run_row(job, i)
            return
        for k, res in enumerate(results):
            value = res[0] if isinstance(res, tuple) and len(res) == 1 else None
            if not isinstance(value, np.ndarray):
                job.odd[a + k] = self._run_row(job, a + k)
            elif value.shape != shape or value.dtype != dtype:
                job.odd[a + k] = np.array(value)    # stacked (or refused) by the batch

    def _assemble(self, job):
        it = self.it
        n = len(job.rows)
        shape, dtype = self.spec
        out = job.out
        for i, value in list(job.odd.items()):
            if value.shape == shape and value.dtype == dtype:
                out[i] = value
                del job.odd[i]
        if job.odd:
            # Rows that do not fit one array: the batch stage stacks (or pads, or refuses)
            # them as it would without the fast path.
            outs = [job.odd.get(i) if i in job.odd else out[i].copy() for i in range(n)]
            return [it._assemble(r, (o,)) for r, o in zip(job.rows, outs)]
        from ..ops.batch import stack_column
        names = it.ds.children[0]._col_names()
        return tuple(out if src == "out" else
                     stack_column(names[j], [r[j] for r in job.rows])
                     for src, j in it.place)
