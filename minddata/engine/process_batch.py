"""The process batch node: source + map + batch in worker processes, a whole batch per task.

For ``Batch(Map(Source, python_multiprocessing=True))`` (the PIL path: py_transforms or Python
callables in worker processes), the planner puts this node in place of the three general ones.
The pipeline's process sends each worker only the row ids of a batch; the worker reads the rows
from its own copy of the source, runs the operations on them with each row's seeds and builds
the batch straight into its shared memory (procs.OutputArena), from where it comes back as one
set of arrays: no row crosses a pipe, nothing is pickled per row, and the pipeline's process
copies the batch once. Rows, seeds, errors and
state are those of the general nodes (engine/piece_batches.py).
"""
import numpy as np

from ..graph.map import placement
from .errors import wrap_error
from .nodes.batch import BatchBuilder, BatchInfo
from .nodes.map import op_runner
from .piece_batches import PieceBatchIter
from .procs import ProcessPool

#: Shared memory reserved per row of a batch (a 224x224x3 float32 image is 0.6 MB); a batch that
#: does not fit travels pickled, which is slower but correct. Pages are touched only when used.
_ROW_MB = 1


class _Piece:
    __slots__ = ("ids", "first")

    def __init__(self, ids, first):
        self.ids, self.first = ids, first


class BatchPieceTask:
    """Runs in a worker process: rows ``ids`` of the epoch through the map's ops into a batch."""

    name = "Batch"
    takes_arena = True      # the batch is stacked straight into the worker's shared memory

    def __init__(self, source_factory, runner, builder, in_idx, place):
        self.source_factory = source_factory
        self.runner, self.builder = runner, builder
        self.in_idx, self.place = in_idx, place
        self.src = None

    def __call__(self, meta, rows_in, arena=None):
        epoch, first, batch_num, ids, served = meta
        if self.src is None:
            self.src = self.source_factory()
        rows = self.src.read_rows(ids)
        out = []
        for k, row in enumerate(rows):
            try:
                res = self.runner.run(tuple(row[i] for i in self.in_idx), epoch, first + k)
            except BaseException as e:
                e._minddata_row = k
                raise
            out.append(tuple(res[j] if src == "out" else row[j] for src, j in self.place))
        if not served:      # rows drop_remainder drops: mapped (their errors raise), not batched
            return []
        empty = arena.empty if arena is not None else np.empty
        return [self.builder.build(out, BatchInfo(batch_num, epoch), empty)]


class ProcessBatchIter(PieceBatchIter):
    def __init__(self, ctx, batch_ds, map_ds, source_ds, src, workers, ring_depth):
        self.pool = None
        super().__init__(ctx, batch_ds, source_ds, src, ring_depth, workers,
                         f"ProcessBatch({source_ds.display_name()}+Map+Batch)")
        self.runner = op_runner(map_ds, ctx, workers)
        child_cols = source_ds.col_names()
        task = BatchPieceTask(source_ds.source_factory, self.runner, BatchBuilder(batch_ds),
                              [child_cols.index(c) for c in map_ds.in_cols],
                              placement(child_cols, map_ds.in_cols, map_ds.out_cols))
        self.pool = ProcessPool(workers, task, name="Batch", max_rowsize=map_ds.max_rowsize or
                                _ROW_MB, rows_per_task=batch_ds.batch_size)

    def _start(self, ids, first, served=True):
        piece = _Piece(ids, first)
        batch_num = self.batch_num + len(self.inflight)
        self.pool.submit((self.epoch, first, batch_num, np.asarray(ids), served), (),
                         context=piece)
        return piece

    def _start_dropped(self, ids, first):
        return self._start(ids, first, served=False)

    def _finish(self, piece):
        return self._result(piece)[0]

    def _finish_dropped(self, piece):
        self._result(piece)

    def _result(self, piece):
        """The task's result: [the batch], or [] for the dropped rows."""
        try:
            rows, _ = self.pool.result()
        except BaseException as e:
            err = self._wrap(e, piece, getattr(e, "_minddata_task", None))
            raise err from err.__cause__    # the user's exception, not the pool's traceback
        return rows

    def _discard(self, piece):
        try:
            self.pool.result()
        except BaseException:       # a dropped piece's failure is not the caller's concern
            pass

    def _wrap(self, exc, piece, info):
        if info is None or info[1] is None:
            return exc
        k = info[1]
        index = piece.first + k
        where = f"{self.provenance_of(int(piece.ids[k]))} (row {index} of epoch {self.epoch})"
        return wrap_error(exc, f"Map({', '.join(self.runner.names)})", where)

    def _close_self(self):
        try:
            if self.pool is not None:
                self.pool.close()
        finally:
            super()._close_self()
