"""Worker processes that move arrays through shared memory.

Each worker owns an anonymous shared memory mapping (``mmap(-1, ...)``, MAP_SHARED) created
before it is forked: slots for the arrays of its in-flight tasks, in both directions. Only small
descriptors (dtype, shape, offset) travel through the pipe; an array that does not fit its slot,
or has an object dtype, falls back to a pickle. An anonymous mapping has no name, so nothing can
be left behind in /dev/shm whatever happens to the processes.

Tasks go to workers round-robin and results are read back in submission order, so the output
order is the input order. A worker that dies (kill -9, crash) is detected through its pipe's EOF
and reported as WorkerDiedError; a worker whose parent dies is killed by the kernel
(PR_SET_PDEATHSIG) or notices within a second.
"""
import collections
import logging
import ctypes
import mmap
import multiprocessing
import os
import pickle
import signal
import traceback

import numpy as np

from .. import config
from .errors import WorkerDiedError
from .recycler import BufferRecycler

logger = logging.getLogger("minddata")

_INFLIGHT = 2          # tasks in flight per worker (= slots per direction)
_ALIGN = 64
_DEFAULT_SLOT_MB = 16
_RECYCLE_BYTES = 1 << 20   # result arrays from this size on are copied into reused buffers


def _align(n):
    return (n + _ALIGN - 1) & ~(_ALIGN - 1)


class OutputArena:
    """Arrays allocated straight in a worker's output slot, for a handler that declares
    ``takes_arena`` (it is then called ``handler(meta, rows_in, arena)``): a result built there
    travels without being copied into the slot. ``empty`` falls back to ordinary memory once
    the slot is full."""

    def __init__(self, buf, base, limit, use_shm):
        self.buf, self.base, self.limit, self.use_shm = buf, base, limit, use_shm
        self.used = 0
        self._placed = {}       # id(array) -> offset, for the arrays made here
        self._keep = []         # keeps those ids valid until the slot is packed

    def empty(self, shape, dtype):
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        start = _align(self.base + self.used)
        if (not self.use_shm or dtype.hasobject or nbytes == 0
                or start + nbytes > self.base + self.limit):
            return np.empty(shape, dtype)
        arr = np.ndarray(shape, dtype, buffer=self.buf, offset=start)
        self.used = start + nbytes - self.base
        self._placed[id(arr)] = start
        self._keep.append(arr)
        return arr

    def offset_of(self, arr):
        """Where ``arr`` lies in the slot, if it was made here (it is then not copied)."""
        return self._placed.get(id(arr))


def pack(rows, buf, base, limit, use_shm=True, arena=None):
    """Write the arrays of ``rows`` into ``buf[base:base+limit]``; return the descriptor.
    Arrays the handler made in ``arena`` (an OutputArena of this slot) are only described."""
    desc = []
    off = base + (arena.used if arena is not None else 0)
    end = base + limit
    for row in rows:
        rd = []
        for a in row:
            if isinstance(a, dict):     # a Python object column travels pickled, as it is
                rd.append((1, a))
                continue
            placed = arena.offset_of(a) if arena is not None else None
            if placed is not None:
                rd.append((0, a.dtype.str, a.shape, placed))
                continue
            if type(a) is not np.ndarray:
                a = np.asarray(a)
            if use_shm and not a.dtype.hasobject and a.dtype.kind != "V":
                start = _align(off)
                stop = start + a.nbytes
                if stop <= end:
                    if a.nbytes:
                        np.ndarray(a.shape, a.dtype, buffer=buf, offset=start)[...] = a
                    rd.append((0, a.dtype.str, a.shape, start))
                    off = stop
                    continue
            rd.append((1, a))
        desc.append(rd)
    return desc


def unpack(desc, buf, copy=True, empty=np.empty):
    """Rows from a descriptor; arrays in shared memory are copied out (into ``empty(shape,
    dtype)``) unless ``copy`` is false (then they are views of the slot)."""
    rows = []
    for rd in desc:
        row = []
        for e in rd:
            if e[0] == 0:
                a = np.ndarray(e[2], np.dtype(e[1]), buffer=buf, offset=e[3])
                if copy:
                    out = empty(a.shape, a.dtype)
                    out[...] = a
                    a = out
                row.append(a)
            else:
                row.append(e[1])
        rows.append(tuple(row))
    return rows


def _set_parent_death_signal():
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _worker_main(conn, buf, slot_bytes, handler, parent_pid, use_shm):
    # The parent handles Ctrl-C and stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _set_parent_death_signal()
    if os.getppid() != parent_pid:
        return
    while True:
        try:
            if not conn.poll(1.0):
                if os.getppid() != parent_pid:
                    return
                continue
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        task_no, meta, in_desc = msg
        slot = (task_no // 1) % _INFLIGHT
        out_base = (_INFLIGHT + slot) * slot_bytes
        try:
            rows_in = unpack(in_desc, buf, copy=False)
            if getattr(handler, "takes_arena", False):
                arena = OutputArena(buf, out_base, slot_bytes, use_shm)
                rows_out = handler(meta, rows_in, arena)
            else:
                arena = None
                rows_out = handler(meta, rows_in)
            del rows_in
            reply = ("ok", pack(rows_out, buf, out_base, slot_bytes, use_shm, arena))
        except BaseException as e:  # reported to the parent with the row index
            try:
                blob = pickle.dumps(e)
            except Exception:
                blob = None
            reply = ("err", blob, type(e).__name__, str(e), traceback.format_exc(),
                     getattr(e, "_minddata_row", None))
        try:
            conn.send(reply)
        except (OSError, BrokenPipeError):
            return


class _Worker:
    __slots__ = ("proc", "conn", "buf", "seq", "pid")


class ProcessPool:
    """Ordered pool of forked worker processes running ``handler(meta, rows_in) -> rows``."""

    def __init__(self, num_workers, handler, name="worker", max_rowsize=None, rows_per_task=16,
                 slot_mb=_DEFAULT_SLOT_MB):
        self.name = name
        self.num_workers = num_workers
        mb = max_rowsize if max_rowsize else slot_mb
        # With an explicit max_rowsize (MB per row, MindSpore's meaning) a slot holds a task's
        # rows; without one, a slot of 16 MB per task.
        self.slot_bytes = int(mb * 1024 * 1024 * (rows_per_task if max_rowsize else 1))
        self.use_shm = config.get_enable_shared_mem()
        self._pending = collections.deque()   # (worker index, context)
        self._task_no = 0
        self._workers = []
        self._broken = None
        self._closed = False
        # Results are copied out of the slots into reused buffers: a fresh batch-sized array
        # costs the kernel's zeroing of every page, in the pipeline's own process.
        self._recycler = BufferRecycler()
        ctx = multiprocessing.get_context("fork")
        try:
            for _ in range(num_workers):
                w = _Worker()
                w.buf = mmap.mmap(-1, 2 * _INFLIGHT * self.slot_bytes)
                parent_conn, child_conn = ctx.Pipe(duplex=True)
                w.proc = ctx.Process(target=_worker_main, daemon=True,
                                     name=f"minddata-{name}-worker",
                                     args=(child_conn, w.buf, self.slot_bytes, handler,
                                           os.getpid(), self.use_shm))
                w.proc.start()
                child_conn.close()
                w.conn = parent_conn
                w.seq = 0
                w.pid = w.proc.pid
                self._workers.append(w)
        except BaseException:
            self.close()
            raise

    def __len__(self):
        return len(self._pending)

    def submit(self, meta, rows_in, context=None):
        if self._broken is not None:
            raise self._broken
        wi = self._task_no % self.num_workers
        self._task_no += 1
        w = self._workers[wi]
        slot = w.seq % _INFLIGHT
        w.seq += 1
        desc = pack(rows_in, w.buf, slot * self.slot_bytes, self.slot_bytes, self.use_shm)
        try:
            w.conn.send((slot, meta, desc))
        except (OSError, BrokenPipeError):
            self._broken = self._died(w)
            raise self._broken
        self._pending.append((wi, slot, context))

    def _empty(self, shape, dtype):
        """Room for a result array: a reused buffer for a large one (a batch), else new."""
        if np.prod(shape, dtype=np.int64) * np.dtype(dtype).itemsize >= _RECYCLE_BYTES:
            return self._recycler.empty(shape, dtype)
        return np.empty(shape, dtype)

    def _died(self, w):
        w.proc.join(timeout=1.0)
        code = w.proc.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else \
            f"exit code {code}"
        return WorkerDiedError(f"{self.name}: worker process {w.pid} exited unexpectedly "
                               f"({how}) in the middle of an epoch; the pipeline was stopped")

    def _recv(self, w):
        waited = 0.0
        warn_every = config.get_multiprocessing_timeout_interval()
        next_warn = warn_every
        while True:
            try:
                if w.conn.poll(0.5):
                    return w.conn.recv()
            except (EOFError, OSError):
                raise self._died(w) from None
            waited += 0.5
            if waited >= next_warn:
                next_warn += warn_every
                logger.warning("minddata: %s worker process %d has not answered for %.0f s "
                               "(a slow or stuck Python function?)", self.name, w.pid, waited)
            if not w.proc.is_alive():
                # It may have replied just before exiting.
                try:
                    if w.conn.poll(0):
                        return w.conn.recv()
                except (EOFError, OSError):
                    pass
                raise self._died(w)

    def result(self):
        """(output rows, context) of the oldest task (engine/executor.py's signature)."""
        if self._broken is not None:
            raise self._broken
        wi, slot, context = self._pending.popleft()
        w = self._workers[wi]
        try:
            reply = self._recv(w)
        except WorkerDiedError as e:
            self._broken = e
            raise
        if reply[0] == "ok":
            rows = unpack(reply[1], w.buf, copy=True, empty=self._empty)
            return rows, context
        _, blob, tname, msg, tb, row_k = reply
        exc = None
        if blob is not None:
            try:
                exc = pickle.loads(blob)
            except Exception:
                exc = None
        if exc is None:
            exc = RuntimeError(f"{tname}: {msg}")
        try:
            exc.add_note(f"in worker process {w.pid}:\n{tb}")
        except AttributeError:
            pass
        exc._minddata_task = (context, row_k) if context is not None and row_k is not None \
            else None
        raise exc

    def clear(self):
        """Wait for and drop the results of the pending tasks."""
        while self._pending:
            try:
                self.result()
            except BaseException:
                if self._broken is not None:
                    self._pending.clear()
                    return

    def close(self):
        if self._closed:
            return
        self._closed = True
        self._pending.clear()
        for w in self._workers:
            try:
                w.conn.send(None)
            except (OSError, BrokenPipeError, AttributeError):
                pass
        for w in self._workers:
            w.proc.join(timeout=2.0)
            if w.proc.is_alive():
                w.proc.terminate()
                w.proc.join(timeout=1.0)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join(timeout=1.0)
            try:
                w.proc.close()
            except ValueError:
                pass
            try:
                w.conn.close()
            except OSError:
                pass
            try:
                w.buf.close()
            except BufferError:
                pass  # a view is still alive somewhere; the mapping goes with it
        self._workers = []
        self._recycler.clear()

    def pids(self):
        return [w.pid for w in self._workers]
