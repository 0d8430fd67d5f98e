"""The native batch node: source + native map + batch, run by C++ threads.

The planner (plan.py) puts this node in place of ``Batch(Map(Source))`` when the map is one run
of native ops (a fused plan whose ops all declare a native step), the source gives the mapped
column native access (minddata/sources/native_access.py) and every other column as one array,
and the batch is a plain fixed-size batch. Then, for each batch, Python only slices the epoch's
row ids, looks up where the rows' bytes are (one numpy call) and submits the batch; C++ threads
read, decode, augment (with each row's seeds) and write every row into its slot of a reused
batch buffer, with the interpreter lock released throughout. Up to ``ring depth`` batches are in
flight, so batches are ready ahead of the consumer without any Python thread.

Same rows as the general nodes: the epoch's ids come from the source's sampler, op k of the map
draws for row i from ``row_seed(stage_base(seed, epoch, position_k), i)``, and the state has the
general Batch/Map/Source nodes' layout, so a state saved from either resumes in the other. A row
the native plan cannot fold or decode (a PNG, a crop that pads, a broken file) runs through the
ops' Python path, which gives its value or raises its error naming the op, the row and the epoch;
a batch with a failing row is never returned.
"""
import numpy as np

from transforms_c import _batch, settings
from .. import seeds
from .errors import wrap_error
from .executor import make_executor
from .piece_batches import PieceBatchIter
from .recycler import BufferRecycler


class NativeBatchSpec:
    """What the planner found out about one ``Batch(Map(Source))`` chain."""

    def __init__(self, batch_ds, map_ds, source_ds, plan, steps, column):
        self.batch_ds, self.map_ds, self.source_ds = batch_ds, map_ds, source_ds
        self.plan = plan            # the FusedPlan the per-row path runs (repairs, errors)
        self.steps = steps          # its native steps
        self.column = column        # the mapped column


class _Job:
    __slots__ = ("job_id", "ids", "first", "out")

    def __init__(self, job_id, ids, first, out):
        self.job_id, self.ids, self.first, self.out = job_id, ids, first, out


class NativeBatchIter(PieceBatchIter):
    """See the module doc. ``src`` is the opened source (owned from here on)."""

    def __init__(self, ctx, spec, src, native_column, layout, threads, ring_depth):
        self.engine = None
        self.recycler = None
        self.fallback = None
        super().__init__(ctx, spec.batch_ds, spec.source_ds, src, ring_depth, threads,
                         f"NativeBatch({type(spec.source_ds).__name__}+Map+Batch)")
        self.spec = spec
        self.op_positions = [ctx.position() for _ in spec.map_ds.operations]
        self.native_column = native_column
        self.row_shape, self.dtype, self.row_hwc = layout
        self.columns = spec.source_ds.col_names()
        self.mapped = self.columns.index(spec.column)
        self.others = {k: src.column_values(c) for k, c in enumerate(self.columns)
                       if k != self.mapped}
        self.engine = _batch.BatchEngineHandle(spec.steps, native_column.kind,
                                               settings.get_max_image_pixels(), threads)
        self.recycler = BufferRecycler(keep=ring_depth + 1)
        self.fallback = make_executor(threads, self._python_row, "native-fallback",
                                      budget=ctx.threads)
        self.bases = None

    def _epoch_started(self, epoch):
        self.bases = np.array([seeds.stage_base(self.ctx.seed, epoch, p)
                               for p in self.op_positions], np.uint64)

    # -- pieces --------------------------------------------------------------------------
    def _start(self, ids, first):
        addresses, sizes = self.native_column.locate(ids)
        out = self.recycler.empty((len(ids),) + self.row_shape, self.dtype)
        job_id = self.engine.submit(addresses, sizes, self.bases, first, out, self.row_hwc,
                                    self.native_column, self.native_column.image_shape)
        return _Job(job_id, ids, first, out)

    def _finish(self, job):
        result = self.engine.wait(job.job_id)
        if result is None:
            raise RuntimeError(f"{self.name}: the native batch engine was stopped")
        statuses, messages = result
        if statuses.any():
            self._run_rows_in_python(job, np.flatnonzero(statuses))
        return tuple(job.out if k == self.mapped else self.others[k][job.ids]
                     for k in range(len(self.columns)))

    def _discard(self, job):
        self.engine.wait(job.job_id)

    def _run_rows_in_python(self, job, rows):
        """Rows the native plan left to Python: their value from the ops' Python path (or its
        error, naming the op and the row), written into their slots. They run on the map's
        number of worker threads (OpenCV releases the GIL), so a dataset of PNGs is not
        decoded one row at a time."""
        column = self.spec.column
        pool = self.fallback
        for i in rows.tolist():
            pool.submit((int(job.ids[i]), job.first + i), None, context=i)
        while len(pool):
            try:
                value, i = pool.result()
            except BaseException as e:
                pool.clear()
                i = e._minddata_task[0]
                err = self._wrap(e, int(job.ids[i]), job.first + i)
                raise err from err.__cause__    # the user's exception, not the pool's
            rid, index = int(job.ids[i]), job.first + i
            slot = job.out[i]
            if value.shape != slot.shape or value.dtype != slot.dtype:
                raise self._wrap(RuntimeError(
                    f"Batch: column {column!r} has rows of different shapes or types: "
                    f"{slot.shape} {slot.dtype} (the batch) and {value.shape} {value.dtype} "
                    f"(row {i}); use pad_info or padded_batch to pad them"), rid, index)
            slot[...] = value

    def _python_row(self, meta, _payload):
        """One row through the ops' Python path (on a fallback worker)."""
        rid, index = meta
        try:
            value = self.src.read_rows(np.array([rid], np.int64))[0][self.mapped]
            return self.spec.plan.apply_seeds((value,), [seeds.row_seed(int(b), index)
                                                         for b in self.bases])[0]
        except BaseException as e:
            e._minddata_row = 0     # marks the task (its context is the row's slot)
            raise

    def _wrap(self, exc, rid, index):
        names = "+".join(type(op).__name__ for op in self.spec.plan.ops)
        return wrap_error(exc, f"Map(FusedPlan({names}))",
                          f"{self.provenance_of(rid)} (row {index} of epoch {self.epoch})")

    def _close_self(self):
        try:
            if self.engine is not None:
                self.engine.stop()
            if self.fallback is not None:
                self.fallback.close()
            self.inflight.clear()
            if self.recycler is not None:
                self.recycler.clear()
        finally:
            super()._close_self()
