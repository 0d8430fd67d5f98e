"""The GPU batch node: source + GPU-placed map + batch (planner rule gpu_batch).

For each batch (a piece of the epoch's row ids, engine/piece_batches.py), a CPU thread reads
the rows (the encoded images and the other columns: where the source offers them as columns,
sources/native_access.py, as where the images' bytes lie in memory, or the image files' names,
the files then read by one native call, and one array per other column, indexed by the batch's
ids, with no Python object per row), derives each op's seed per row exactly as
the general nodes do (op k draws for row i from ``row_seed(stage_base(seed, epoch,
position_k), i)``), and hands the batch to ``minddata.gpu.batch.GpuRun``, which decodes and
augments it on the device: the mapped column is a torch tensor there, the other columns numpy
arrays as a Batch gives them. On CUDA each thread works on its own stream (at the priority of
``gpu.set_stream_priority``) and waits for it before the batch is handed over, so up to ``ring
depth`` batches overlap the consumer's steps;
memory is bounded by the ring. The state has the general Batch/Map/Source nodes' layout, so a
state saved here resumes on the CPU path and back. A failing row raises its op's error naming
the row and the epoch; a batch with a failing row is never returned.
"""
import concurrent.futures
import threading

import numpy as np

from transforms_c import _batch, _native
from transforms_c.vision.decode import EncodedRows
from .. import seeds
from ..gpu import backend
from ..gpu.batch import DeviceTimer, GpuRun, RowError
from ..gpu.decode_split import DecodeSplit
from .errors import wrap_error
from .piece_batches import PieceBatchIter


class _Piece:
    __slots__ = ("ids", "first", "future")

    def __init__(self, ids, first, future):
        self.ids, self.first, self.future = ids, first, future


class GpuBatchIter(PieceBatchIter):
    """See the module doc. ``src`` is the opened source (owned from here on)."""

    def __init__(self, ctx, batch_ds, map_ds, source_ds, src, column, threads, ring_depth):
        self.pool = self.cpu_pool = None
        super().__init__(ctx, batch_ds, source_ds, src, ring_depth, threads,
                         f"GpuBatch({type(source_ds).__name__}+Map+Batch)")
        self.map_ds = map_ds
        self.op_positions = [ctx.position() for _ in map_ds.operations]
        self.columns = source_ds.col_names()
        self.mapped = self.columns.index(column)
        self.encoded, self.others = self._as_columns(src, column)
        self.device = backend.torch_device()
        decoder = backend.jpeg_decoder()
        cpu_threads = backend.get_cpu_decode_threads() if decoder is not None else 0
        # CPU threads decoding a share of each batch's JPEGs beside the GPU (decode_split.py)
        self.cpu_pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=cpu_threads, thread_name_prefix="gpu-batch-cpu-decode") \
            if cpu_threads else None
        self.split = DecodeSplit(cpu_threads)
        regions = backend.get_region_decode() and getattr(decoder, "decodes_regions", False)
        self.run = GpuRun(map_ds.operations, self.device, decoder, self.split, self.cpu_pool,
                          regions=regions)
        self.bases = None
        self.local = threading.local()      # each worker's CUDA stream
        self.stream_priority = backend.cuda_stream_priority()   # backend.set_stream_priority
        self.busy_lock = threading.Lock()
        # One batch per worker at a time: the ring bounds the batches in flight.
        self.pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, min(threads, ring_depth)), thread_name_prefix="gpu-batch")

    def _as_columns(self, src, column):
        """(where the mapped column's bytes lie or which files hold them, {index: every row's
        value} of the others) where the source offers both (a MindRecord file: its map and its
        scalar fields; an image folder: its files and labels); else (None, None), and each
        batch's rows are read one by one (read_rows)."""
        encoded = src.native_column(column)
        if getattr(encoded, "kind", None) not in (_batch.INPUT_ENCODED, _batch.INPUT_FILE):
            return None, None
        others = {k: src.column_values(name) for k, name in enumerate(self.columns)
                  if k != self.mapped}
        if any(values is None for values in others.values()):
            return None, None
        return encoded, others

    def _epoch_started(self, epoch):
        self.bases = [seeds.stage_base(self.ctx.seed, epoch, p) for p in self.op_positions]

    # -- pieces --------------------------------------------------------------------------
    def _start(self, ids, first):
        return _Piece(ids, first, self.pool.submit(self._compute, ids, first, self.bases))

    def _compute(self, ids, first, bases):
        if self.encoded is not None and self.encoded.kind == _batch.INPUT_FILE:
            rows, datas = None, self._read_files(ids)
        elif self.encoded is not None:
            rows = None
            addresses, sizes = self.encoded.locate(ids)
            datas = EncodedRows(addresses, sizes, owner=self.src)    # valid while it is open
        else:
            rows = self.src.read_rows(ids)
            datas = [row[self.mapped] for row in rows]
        # Only random ops draw: the others' seeds are never read.
        row_seeds = [seeds.row_seeds(base, first, len(ids)) if op.is_random
                     else np.zeros(len(ids), np.uint64)
                     for base, op in zip(bases, self.map_ds.operations)]
        import torch
        if self.device.type == "cuda":
            stream = self._stream(torch)
            with torch.cuda.device(self.device), torch.cuda.stream(stream):
                timer = DeviceTimer(torch, self.device)
                images = self.run(datas, row_seeds)
                # waits for the stream: the batch is complete when it is handed over
                self._add_device_busy(timer.seconds())
            # Made on this stream, used on the consumer's (the default one): when it is freed
            # the allocator must wait for the consumer's kernels before reusing its memory.
            images.record_stream(torch.cuda.default_stream(self.device))
        else:
            timer = DeviceTimer(torch, self.device)
            images = self.run(datas, row_seeds)
            self._add_device_busy(timer.seconds())
        return tuple(images if k == self.mapped else
                     self.others[k][ids] if rows is None else
                     np.stack([np.asarray(row[k]) for row in rows])
                     for k in range(len(self.columns)))

    def _read_files(self, ids):
        """The batch's image files read whole by one native call (the GIL let go once, not per
        file) into this worker's buffer, reused batch after batch, as EncodedRows; a file it
        cannot read is read by the source, which raises its own error (or reads it, if the
        file changed meanwhile)."""
        names, lengths = self.encoded.locate(ids)
        buffer = getattr(self.local, "files", None)
        for _ in range(3):      # a larger buffer when the files outgrow it (or grew meanwhile)
            if buffer is None:
                buffer = np.empty(1 << 20, np.uint8)
            offsets, errors, needed = _native.read_files(names, lengths, buffer)
            if needed <= len(buffer):
                break
            buffer = np.empty(needed + needed // 4, np.uint8)
        else:
            raise RuntimeError(f"the batch's image files kept growing while being read "
                               f"({needed} bytes at the last try)")
        self.local.files = buffer
        addresses = offsets[:-1].astype(np.uint64) + np.uint64(buffer.ctypes.data)
        sizes = np.diff(offsets)
        kept = [buffer]
        for i in np.flatnonzero(errors).tolist():
            data = np.ascontiguousarray(self.src.read_rows(ids[i:i + 1])[0][self.mapped],
                                        np.uint8)
            kept.append(data)
            addresses[i], sizes[i] = data.ctypes.data, data.nbytes
        return EncodedRows(addresses, sizes, owner=kept)

    def _add_device_busy(self, seconds):
        """Device time of one batch's decode and augment, summed over the workers' streams
        (minddata-bench and Model.last_train_stats report it against the wall time)."""
        with self.busy_lock:
            self.stats.device_busy_s = (self.stats.device_busy_s or 0.0) + seconds

    def _stream(self, torch):
        stream = getattr(self.local, "stream", None)
        if stream is None:
            stream = self.local.stream = torch.cuda.Stream(
                device=self.device, priority=self.stream_priority)
        return stream

    def _finish(self, piece):
        try:
            return piece.future.result()
        except RowError as e:
            i = e.row
            rid = int(piece.ids[i])
            err = wrap_error(e.__cause__ or e, f"Map({e.op_name} on {self.device})",
                             f"{self.provenance_of(rid)} (row {piece.first + i} of epoch "
                             f"{self.epoch})")
            raise err from err.__cause__
        except Exception as e:
            err = wrap_error(e, f"GpuBatch({self._ops()} on {self.device})",
                             f"the batch of rows {piece.first}..{piece.first + len(piece.ids) - 1}"
                             f" of epoch {self.epoch}")
            raise err from err.__cause__

    def _discard(self, piece):
        concurrent.futures.wait([piece.future])

    def _ops(self):
        return "+".join(type(op).__name__ for op in self.map_ds.operations)

    def _close_self(self):
        try:
            for piece in self.inflight:
                piece.future.cancel()
            if self.pool is not None:
                self.pool.shutdown(wait=True)
            if self.cpu_pool is not None:
                self.cpu_pool.shutdown(wait=True)
            self.inflight.clear()
        finally:
            super()._close_self()


def build_gpu_batch(pnode, ctx, children):
    p = pnode.params
    src = p["source"].open_source()
    try:
        return GpuBatchIter(ctx, pnode.logical, p["map"], p["source"], src, p["column"],
                            p["threads"], p["ring_depth"])
    except BaseException:
        src.close()
        raise


def build_gpu_unavailable(pnode, ctx, children):
    """A map placed on the GPU where none is usable: the pipeline is not built."""
    raise RuntimeError(f"map placed on the GPU (device('GPU') or map(device='GPU')) cannot "
                       f"run: {pnode.params['why']}")
