"""Worker processes that move arrays through shared memory.

Each worker owns slots for the arrays of its in-flight tasks, in both directions: anonymous
shared memory files (``memfd_create``) made before it is forked, which both processes map. Only
small descriptors (dtype, shape, offset) travel through the pipe; an array that does not fit
its slot, or has an object dtype, falls back to a pickle. A slot starts empty and only the side
that writes it grows it, to what its rows need (up to ``max_rowsize`` MB per row, or 64 MB per
task), so small rows reserve little memory whatever ``max_rowsize`` says. An anonymous file has
no name, so nothing can be left behind in /dev/shm whatever happens to the processes; a new
worker drops the slots it inherited from the other workers, so a slot's memory goes when its
pool closes.

A worker reads its pipe in a thread of its own, so the parent's send of a large (pickled) task
never waits for a worker that is itself sending a large result (they would wait for each other
forever). The parent's objects are frozen for the garbage collector (``gc.freeze``) while it
forks: a collection in a worker then does not write to every object the worker inherited, which
would copy each of those memory pages into every worker.

Tasks go to workers round-robin and results are read back in submission order, so the output
order is the input order. A worker that dies (kill -9, crash) is detected through its pipe's EOF
and reported as WorkerDiedError; a worker whose parent dies is killed by the kernel
(PR_SET_PDEATHSIG) or notices within a second.
"""
import collections
import ctypes
import gc
import logging
import mmap
import multiprocessing
import os
import pickle
import queue
import signal
import threading
import traceback
import weakref

import numpy as np

from .. import config
from .errors import WorkerDiedError
from .recycler import BufferRecycler

logger = logging.getLogger("minddata")

_INFLIGHT = 2          # tasks in flight per worker (= slots per direction)
_ALIGN = 64
_DEFAULT_SLOT_MB = 64      # the most a slot grows to without max_rowsize (rows beyond: pickled)
_FIRST_SLOT_BYTES = 256 << 10
_RECYCLE_BYTES = 1 << 20   # result arrays from this size on are copied into reused buffers


def _align(n):
    return (n + _ALIGN - 1) & ~(_ALIGN - 1)


_slots = weakref.WeakSet()      # every live slot of this process, for _forget_others


class _Slot:
    """One slot: an anonymous shared memory file mapped by the parent and one worker. The side
    that writes it grows it (``reserve``), the other maps the size the message names
    (``view``). Without memfd_create, a fixed anonymous mapping of ``cap`` bytes."""

    __slots__ = ("fd", "buf", "size", "cap", "__weakref__")

    def __init__(self, cap):
        self.cap = cap
        self.buf = None
        self.size = 0
        try:
            self.fd = os.memfd_create("minddata-slot", os.MFD_CLOEXEC)
        except (AttributeError, OSError):
            self.fd = -1
            self.buf = mmap.mmap(-1, cap)
            self.size = cap
        _slots.add(self)

    def reserve(self, nbytes):
        """Grow to hold ``nbytes`` (at most ``cap``; rows beyond it are pickled)."""
        if nbytes <= self.size or self.fd < 0 or self.size >= self.cap:
            return
        size = max(nbytes, 2 * self.size, _FIRST_SLOT_BYTES)
        size = min(-(-size // mmap.PAGESIZE) * mmap.PAGESIZE, self.cap)
        os.ftruncate(self.fd, size)
        self._map(size)

    def view(self, size):
        """Map at least ``size`` bytes (the writer grew the file to that)."""
        if size > self.size and self.fd >= 0:
            self._map(size)

    def _map(self, size):
        # Arrays still viewing the old mapping stay valid: it maps the same file.
        self.buf = mmap.mmap(self.fd, size)
        self.size = size

    def close(self):
        buf, self.buf, self.size = self.buf, None, 0
        if buf is not None:
            try:
                buf.close()
            except BufferError:
                pass  # a view is still alive somewhere; the mapping goes with it
        if self.fd >= 0:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = -1


def _forget_others(own):
    """In a new worker: drop the slots it inherited from the other workers and pools, so that
    their memory is freed when they close, not when this worker exits."""
    keep = {id(s) for s in own}
    for slot in list(_slots):
        if id(slot) not in keep:
            slot.close()


def _slot_grower(slot):
    """``grow(end) -> (buf, limit)`` for OutputArena and pack: the slot grown to ``end``."""
    def grow(end):
        slot.reserve(end)
        return slot.buf, slot.size
    return grow


class OutputArena:
    """Arrays allocated straight in a worker's output slot, for a handler that declares
    ``takes_arena`` (it is then called ``handler(meta, rows_in, arena)``): a result built there
    travels without being copied into the slot. ``empty`` grows the slot through ``grow``
    (``grow(end) -> (buf, limit)``) when one is given, and falls back to ordinary memory once
    the slot is full."""

    def __init__(self, buf, base, limit, use_shm, grow=None):
        self.buf, self.base, self.limit, self.use_shm = buf, base, limit, use_shm
        self._grow = grow
        self.used = 0
        self._placed = {}       # id(array) -> offset, for the arrays made here
        self._keep = []         # keeps those ids valid until the slot is packed

    def empty(self, shape, dtype):
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        start = _align(self.base + self.used)
        if not self.use_shm or dtype.hasobject or nbytes == 0:
            return np.empty(shape, dtype)
        if start + nbytes > self.base + self.limit and self._grow is not None:
            self.buf, self.limit = self._grow(start + nbytes)
        if start + nbytes > self.base + self.limit:
            return np.empty(shape, dtype)
        arr = np.ndarray(shape, dtype, buffer=self.buf, offset=start)
        self.used = start + nbytes - self.base
        self._placed[id(arr)] = start
        self._keep.append(arr)
        return arr

    def offset_of(self, arr):
        """Where ``arr`` lies in the slot, if it was made here (it is then not copied)."""
        return self._placed.get(id(arr))


def pack(rows, buf, base, limit, use_shm=True, arena=None, reserve=None):
    """Write the arrays of ``rows`` into ``buf[base:base+limit]``; return the descriptor.
    Arrays the handler made in ``arena`` (an OutputArena of this slot) are only described.
    ``reserve(end) -> (buf, limit)`` first grows the slot to what the rows need."""
    plan = []
    off = base + (arena.used if arena is not None else 0)
    for row in rows:
        rp = []
        for a in row:
            if isinstance(a, dict):     # a Python object column travels pickled, as it is
                rp.append((1, a))
                continue
            placed = arena.offset_of(a) if arena is not None else None
            if placed is not None:
                rp.append((0, a.dtype.str, a.shape, placed))
                continue
            if type(a) is not np.ndarray:
                a = np.asarray(a)
            if use_shm and not a.dtype.hasobject and a.dtype.kind != "V":
                off = _align(off) + a.nbytes
                rp.append((2, a))       # to write into the slot, if it fits
            else:
                rp.append((1, a))
        plan.append(rp)
    if reserve is not None and off > base + limit:
        buf, limit = reserve(off)
    desc = []
    off = base + (arena.used if arena is not None else 0)
    end = base + limit
    for rp in plan:
        rd = []
        for e in rp:
            if e[0] == 2:
                a = e[1]
                start = _align(off)
                stop = start + a.nbytes
                if stop > end:
                    rd.append((1, a))
                    continue
                if a.nbytes:
                    np.ndarray(a.shape, a.dtype, buffer=buf, offset=start)[...] = a
                rd.append((0, a.dtype.str, a.shape, start))
                off = stop
            else:
                rd.append(e)
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


def _read_pipe(conn, inbox, parent_pid):
    """A worker's reader thread: every message goes to ``inbox`` as soon as it arrives, so the
    parent never blocks on a send while this worker sends a result; None at the end."""
    while True:
        try:
            if not conn.poll(1.0):
                if os.getppid() != parent_pid:
                    break
                continue
            msg = conn.recv()
        except (EOFError, OSError):
            break
        inbox.put(msg)
        if msg is None:
            return
    inbox.put(None)


def _run_task(msg, slots_in, slots_out, handler, use_shm):
    """The reply to one task message ``(slot, input size, meta, descriptor)``."""
    slot, in_size, meta, in_desc = msg
    try:
        if slot >= 0:
            src, out = slots_in[slot], slots_out[slot]
            src.view(in_size)
            rows_in = unpack(in_desc, src.buf, copy=False)
        else:           # more tasks in flight than slots: this one travels pickled
            out = None
            rows_in = unpack(in_desc, None, copy=False)
        shm = use_shm and out is not None
        grow = _slot_grower(out) if shm else None
        if getattr(handler, "takes_arena", False):
            arena = OutputArena(out.buf if shm else None, 0, out.size if shm else 0, shm, grow)
            rows_out = handler(meta, rows_in, arena)
        else:
            arena = None
            rows_out = handler(meta, rows_in)
        del rows_in
        if shm:
            desc = pack(rows_out, out.buf, 0, out.size, True, arena, reserve=grow)
            return ("ok", out.size, desc)
        return ("ok", 0, pack(rows_out, None, 0, 0, False, arena))
    except BaseException as e:  # reported to the parent with the row index
        try:
            blob = pickle.dumps(e)
        except Exception:
            blob = None
        return ("err", blob, type(e).__name__, str(e), traceback.format_exc(),
                getattr(e, "_minddata_row", None))


def _worker_main(conn, slots_in, slots_out, handler, parent_pid, use_shm):
    # The parent handles Ctrl-C and stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _set_parent_death_signal()
    if os.getppid() != parent_pid:
        return
    _forget_others(slots_in + slots_out)
    inbox = queue.SimpleQueue()
    threading.Thread(target=_read_pipe, args=(conn, inbox, parent_pid), daemon=True,
                     name="minddata-worker-pipe").start()
    while True:
        msg = inbox.get()
        if msg is None:
            return
        reply = _run_task(msg, slots_in, slots_out, handler, use_shm)
        try:
            conn.send(reply)
        except (OSError, BrokenPipeError):
            return


class _Worker:
    __slots__ = ("proc", "conn", "slots_in", "slots_out", "busy", "pid")


class ProcessPool:
    """Ordered pool of forked worker processes running ``handler(meta, rows_in) -> rows``."""

    def __init__(self, num_workers, handler, name="worker", max_rowsize=None, rows_per_task=16,
                 slot_mb=_DEFAULT_SLOT_MB):
        self.name = name
        self.num_workers = num_workers
        mb = max_rowsize if max_rowsize else slot_mb
        # With an explicit max_rowsize (MB per row, MindSpore's meaning) a slot grows to hold
        # a task's rows; without one, to slot_mb per task. Larger rows travel pickled.
        self.slot_cap = int(mb * 1024 * 1024 * (rows_per_task if max_rowsize else 1))
        self.use_shm = config.get_enable_shared_mem()
        self._pending = collections.deque()   # (worker index, slot, context)
        self._task_no = 0
        self._workers = []
        self._broken = None
        self._closed = False
        # Results are copied out of the slots into reused buffers: a fresh batch-sized array
        # costs the kernel's zeroing of every page, in the pipeline's own process. Room for
        # every column of the tasks in flight and the batch the consumer holds (4, the
        # recycler's default, made a batch's image and label buffers evict each other: a new
        # 77 MB image batch, zeroed page by page, for most batches of the PIL path).
        self._recycler = BufferRecycler(keep=16)
        ctx = multiprocessing.get_context("fork")
        # Objects frozen while forking are never visited by a collection in the workers (see
        # the module's docstring); someone else's freeze is left as it is.
        freeze = gc.get_freeze_count() == 0
        if freeze:
            gc.freeze()
        try:
            for _ in range(num_workers):
                w = _Worker()
                w.proc = w.conn = w.pid = None
                w.slots_in, w.slots_out, w.busy = [], [], []
                self._workers.append(w)
                if self.use_shm:
                    for _ in range(_INFLIGHT):
                        w.slots_in.append(_Slot(self.slot_cap))
                        w.slots_out.append(_Slot(self.slot_cap))
                parent_conn, child_conn = ctx.Pipe(duplex=True)
                w.conn = parent_conn
                w.proc = ctx.Process(target=_worker_main, daemon=True,
                                     name=f"minddata-{name}-worker",
                                     args=(child_conn, w.slots_in, w.slots_out, handler,
                                           os.getpid(), self.use_shm))
                w.proc.start()
                child_conn.close()
                w.pid = w.proc.pid
        except BaseException:
            self.close()
            raise
        finally:
            if freeze:
                gc.unfreeze()

    def __len__(self):
        return len(self._pending)

    def shared_bytes(self):
        """Bytes of shared memory the slots hold now (in this process's mappings)."""
        return sum(s.size for w in self._workers for s in w.slots_in + w.slots_out)

    def submit(self, meta, rows_in, context=None):
        if self._broken is not None:
            raise self._broken
        wi = self._task_no % self.num_workers
        self._task_no += 1
        w = self._workers[wi]
        slot = next((k for k in range(len(w.slots_in)) if k not in w.busy), -1)
        if slot >= 0:
            src = w.slots_in[slot]
            desc = pack(rows_in, src.buf, 0, src.size, True, reserve=_slot_grower(src))
            size = src.size
        else:
            desc, size = pack(rows_in, None, 0, 0, False), 0
        try:
            w.conn.send((slot, size, meta, desc))
        except (OSError, BrokenPipeError):
            self._broken = self._died(w)
            raise self._broken
        w.busy.append(slot)
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
        finally:
            w.busy.remove(slot)
        if reply[0] == "ok":
            buf = None
            if slot >= 0:
                out = w.slots_out[slot]
                out.view(reply[1])
                buf = out.buf
            return unpack(reply[2], buf, copy=True, empty=self._empty), context
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
            if w.proc is not None:
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
            if w.conn is not None:
                try:
                    w.conn.close()
                except OSError:
                    pass
            for slot in w.slots_in + w.slots_out:
                slot.close()
        self._workers = []
        self._recycler.clear()

    def pids(self):
        return [w.pid for w in self._workers]
