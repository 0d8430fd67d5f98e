"""The store for one cached stage: the rows a pipeline stage produced, keyed by row id.

This is the engine's side of the cache (docs/internals.md, "minddata -> cache"):
``is_complete() / get(row_key) / put(row_key, row) / mark_complete(num_rows) / close()``.

Keys inside the session's LMDB environment (one environment per session, shared by every
process and every stage of that session):
    b"V"                         format version of the environment
    b"k" + stage hash            the stage's description (JSON: pipeline_key, column_names)
    b"r" + stage hash + row id   one encoded row (row_codec), row id as 8 big-endian bytes
    b"s" + stage hash            the stage's counters (stats.StageCounters)
    b"c" + stage hash            completion marker (JSON: num_rows), written only by
                                 mark_complete after a full pass, so an interrupted first epoch
                                 is never taken for a complete cache
The stage hash is a 16-byte BLAKE2b of the upstream pipeline's description and column names: a
different upstream gets different keys, so it can never read another pipeline's rows. The
description identifies data and code by content (identity.py, fingerprint.py).

Rows are buffered and written in batches (one LMDB write transaction per batch: LMDB's single
writer lock serializes processes, so concurrent writers never corrupt the session), committed by
a write-behind thread (write_behind.py) so the pipeline does not wait for them. A row lands in
memory while the session is under its cap, else in the spill environment (spilling=True), else
it is not cached (and a warning says so once). A full file system (disk_space.py) is one more
reason to send rows past the memory store, or to stop growing. A complete stage read in row order is read ahead
on another thread (read_ahead.py)."""
import contextlib
import hashlib
import json
import logging
import operator
import os
import struct
import threading
import time
import warnings
import weakref

import lmdb
import numpy as np

from . import envs
from .disk_space import is_full_error
from . import root as roots
from . import sessions
from .read_ahead import ReadAhead
from .row_codec import RowDecodeError, decode_row, encode_row, parse_layout
from .stats import StageCounters, read_counters, session_counters, write_counters
from .write_behind import WriteBehind

logger = logging.getLogger(__name__)

FORMAT_VERSION = b"1"
VERSION_KEY = b"V"
INFO_PREFIX = b"k"
ROW_PREFIX = b"r"
COMPLETE_PREFIX = b"c"
STATS_PREFIX = b"s"
BATCH_ROWS = 128
BATCH_BYTES = 32 << 20
DEFAULT_READ_AHEAD = 20  # rows; MindSpore's default prefetch_size
STATS_FLUSH_S = 1.0
_ROW_ID = struct.Struct(">Q")
_SPILL_COUNT = struct.Struct("<Q")
_warned_full = set()  # (session dir, stage hash): the "cache stops growing" warning, once


def stage_hash(pipeline_key, column_names):
    h = hashlib.blake2b(digest_size=16)
    h.update(b"minddata-cache-stage\0")
    h.update(pipeline_key.encode("utf-8"))
    h.update(b"\0")
    h.update(json.dumps(list(column_names)).encode("utf-8"))
    return h.digest()


def _row_id(row_key):
    try:
        value = operator.index(row_key)
    except TypeError:
        raise TypeError(f"row_key must be an int, got {type(row_key).__name__}") from None
    if not 0 <= value < 2**64:
        raise ValueError(f"row_key must be in [0, 2**64), got {value}")
    return value


class _Batch(dict):
    """Rows to write (key -> (encoded row, row id)) and the counters to add with them."""
    local = None


def _weak(method):
    """Call ``method`` without keeping its object alive (the store's background threads must
    not keep an unclosed, forgotten store from being collected and its handles released)."""
    ref = weakref.WeakMethod(method)

    def call(*args):
        fn = ref()
        if fn is None:
            raise RuntimeError("the dataset cache stage store was garbage-collected")
        return fn(*args)
    return call


class _Handles:
    """What a store must give back, closed or merely dropped: its threads and its shares of
    the process's LMDB environments. Runs once, from close() or from the store's finalizer."""

    def __init__(self, env_dir, spill_dir):
        self.env_dir = env_dir
        self.spill_dir = spill_dir
        self.spill_acquired = False
        self.read_ahead = None
        self.writer = None
        self.pid = os.getpid()

    def release(self):
        if os.getpid() != self.pid:
            return  # a forked child owns none of these
        ahead, self.read_ahead = self.read_ahead, None
        if ahead is not None:
            ahead.close()  # before the environments go: the thread reads from them
        if self.writer is not None:
            self.writer.stop()
        envs.release(self.env_dir)
        if self.spill_acquired:
            self.spill_acquired = False
            envs.release(self.spill_dir)


class StageStore:
    """Open with ``DatasetCache.open_stage``. Thread-safe; use one per pipeline stage."""

    def __init__(self, session_paths, pipeline_key, column_names, size_bytes=0, spilling=False,
                 read_ahead=DEFAULT_READ_AHEAD):
        if not isinstance(pipeline_key, str) or not pipeline_key:
            raise TypeError("pipeline_key must be a non-empty str describing the upstream pipeline")
        if isinstance(column_names, str) or not all(isinstance(c, str) for c in column_names):
            raise TypeError("column_names must be a list of str")
        self.session_id = session_paths.session_id
        self.pipeline_key = pipeline_key
        self.column_names = list(column_names)
        self._paths = session_paths
        self._root = os.path.dirname(os.path.dirname(session_paths.env_dir))
        self._hash = stage_hash(pipeline_key, self.column_names)
        self._row_prefix = ROW_PREFIX + self._hash
        self._size_bytes = size_bytes
        self._spilling = spilling
        self._lock = threading.Lock()         # pending rows and local counters
        self._pending = {}
        self._pending_bytes = 0
        self._local = StageCounters()         # hits/misses not yet written
        # A caller that fills the stage without looking rows up first computed every row it
        # puts: those rows count as misses (a caller that looks up counts its misses in get).
        self._looked_up = False
        self._last_stats_flush = time.monotonic()
        self._stopped_growing = False
        self._closed = False
        self._spill_env = None
        self._read_ahead_depth = read_ahead
        self._complete_rows = None            # num_rows once is_complete() said True
        self._writer = WriteBehind(_weak(self._write_any))
        self._pid = os.getpid()
        self._env = envs.acquire(session_paths.env_dir)
        self._handles = _Handles(session_paths.env_dir, session_paths.spill_dir)
        self._handles.writer = self._writer
        self._finalizer = weakref.finalize(self, self._handles.release)
        try:
            self._register()
        except BaseException:
            self._closed = True
            self._finalizer()
            raise

    # -- setup ---------------------------------------------------------------------------------
    def _register(self):
        try:
            self._register_stage()
        except lmdb.Error as exc:
            if not self._full(exc):
                raise
            # No room to even describe the stage: serve nothing, store nothing.
            self._stopped_growing = True
            self._warn_full(full_disk=True)

    def _register_stage(self):
        info = json.dumps({"pipeline_key": self.pipeline_key,
                           "column_names": self.column_names}).encode("utf-8")
        with envs.txn(self._env, write=True) as txn:
            version = txn.get(VERSION_KEY)
            if version is not None and version != FORMAT_VERSION:
                # Written by another version of this code: start the session afresh.
                txn.drop(self._env.open_db(txn=txn), delete=False)
                version = None
            if version is None:
                txn.put(VERSION_KEY, FORMAT_VERSION)
            stored = txn.get(INFO_PREFIX + self._hash)
            if stored is None:
                txn.put(INFO_PREFIX + self._hash, info)
                write_counters(txn, self._hash, StageCounters())
            elif stored != info:
                raise RuntimeError(
                    f"DatasetCache session {self.session_id}: stage key collision between "
                    "two different pipelines; destroy the session and retry")
            spilled = read_counters(txn, self._hash).rows_spill
        if spilled:
            self._open_spill(create=False)

    def _open_spill(self, create=True):
        """The session's spill environment; None if it does not exist and create is False."""
        if self._spill_env is None:
            if not create and not self._paths.has_spill():
                return None
            self._spill_env = envs.acquire(self._paths.spill_dir, create=True)
            self._handles.spill_acquired = True
        return self._spill_env

    def _spilled_rows_present(self):
        """Rows of this stage the spill environment itself holds (its own counter, written in
        the same transaction as the rows)."""
        env = self._open_spill(create=False)
        if env is None:
            return 0
        with envs.txn(env) as txn:
            value = txn.get(STATS_PREFIX + self._hash)
        return _SPILL_COUNT.unpack(value)[0] if value is not None else 0

    def _check_open(self):
        if self._closed:
            raise RuntimeError(f"DatasetCache session {self.session_id}: stage store is closed")
        if os.getpid() != self._pid:
            raise RuntimeError(f"DatasetCache session {self.session_id}: a stage store cannot be "
                               "used in a forked child process; open the stage again there")

    # -- the engine's protocol -----------------------------------------------------------------
    def is_complete(self):
        """True only after mark_complete saw every row of a full pass stored (in memory or in
        the spill area). A cache whose first pass was interrupted, or that stopped growing at
        its memory cap, is not complete."""
        self._check_open()
        with envs.txn(self._env) as txn:
            marker = txn.get(COMPLETE_PREFIX + self._hash)
            counters = read_counters(txn, self._hash)
        self._complete_rows = None
        if marker is None:
            return False
        try:
            num_rows = int(json.loads(bytes(marker))["num_rows"])
        except (ValueError, KeyError, TypeError):
            return False
        if counters.rows < num_rows:
            return False
        if counters.rows_spill and self._spilled_rows_present() < counters.rows_spill:
            # The spill area vanished (deleted by hand, or another spill directory configured):
            # the rows it held are gone, so the stage must be rebuilt.
            return False
        self._complete_rows = num_rows
        return True

    def num_rows(self):
        """Rows of the full pass when the stage is complete, else None: a reader of a complete
        stage can stop at this count instead of probing for the first missing key."""
        return self._complete_rows if self.is_complete() else None

    def get(self, row_key):
        """The cached row (tuple of numpy arrays, freshly allocated) or None on a miss."""
        self._check_open()
        rid = _row_id(row_key)
        key = self._row_prefix + _ROW_ID.pack(rid)
        with self._lock:
            self._looked_up = True
            pending = self._pending.get(key)
            ahead = self._handles.read_ahead
            if ahead is None and self._complete_rows and self._read_ahead_depth:
                ahead = self._handles.read_ahead = ReadAhead(
                    _weak(self._lookup_id), self._complete_rows, self._read_ahead_depth)
        in_flight = self._writer.lookup(key)
        if pending is not None or in_flight is not None:
            # The first row put under a key wins (the batch writer skips stored keys): a row
            # already stored comes first, then one the writer is committing, then this
            # store's pending one.
            row = self._lookup_key(key)
            if row is None:
                row = decode_row((in_flight if in_flight is not None else pending)[0])
        else:
            found, row = ahead.take(rid) if ahead is not None else (False, None)
            if not found:
                row = self._lookup_key(key)
        with self._lock:
            if row is None:
                self._local.misses += 1
            else:
                self._local.hits += 1
            due = time.monotonic() - self._last_stats_flush > STATS_FLUSH_S
        if due:
            self._flush_counters()
        return row

    def _lookup_id(self, rid):
        return self._lookup_key(self._row_prefix + _ROW_ID.pack(rid))

    def _lookup_key(self, key):
        row = self._lookup(self._env, key)
        if row is None and self._spill_env is not None:
            row = self._lookup(self._spill_env, key)
        return row

    def read_keys(self, row_keys):
        """[row or None] for several row keys, read in one transaction: for a reader of a
        complete stage (rows this process put but has not committed yet are not seen; use
        get for those)."""
        self._check_open()
        keys = [self._row_prefix + _ROW_ID.pack(_row_id(k)) for k in row_keys]
        return self._read_keys(keys, False, None)

    def read_range(self, first, count, stack=False, empty=np.empty):
        """Rows ``first`` .. ``first + count - 1`` read in one transaction (for a reader of a
        complete stage, in order). Returns a list of rows (tuples of fresh arrays, None where
        a row is missing); with ``stack=True``, when every row is there with the same column
        shapes and dtypes, a tuple with one array per column instead, the rows stacked on a
        new first axis and copied once, straight out of the memory map. Only numpy copies run
        per row, and they release the GIL, so several threads read at once. ``empty(shape,
        dtype)`` allocates the stacked arrays (a caller may hand back recycled ones)."""
        self._check_open()
        first, count = _row_id(first), _row_id(count)
        keys = [self._row_prefix + _ROW_ID.pack(first + i) for i in range(count)]
        return self._read_keys(keys, stack, empty)

    def _read_keys(self, keys, stack, empty):
        count = len(keys)
        spill = self._spill_env
        with contextlib.ExitStack() as txns:
            txn = txns.enter_context(envs.txn(self._env, buffers=True))
            spill_txn = None
            values = []
            for key in keys:
                value = txn.get(key)
                if value is None and spill is not None:
                    if spill_txn is None:
                        spill_txn = txns.enter_context(envs.txn(spill, buffers=True))
                    value = spill_txn.get(key)
                values.append(value)
            result = _stack_rows(values, empty) if stack and count else None
            if result is None:
                result = [self._decode_or_none(v) for v in values]
                found = sum(r is not None for r in result)
            else:
                found = count
        with self._lock:
            self._looked_up = True
            self._local.hits += found
            self._local.misses += count - found
            due = time.monotonic() - self._last_stats_flush > STATS_FLUSH_S
        if due:
            self._flush_counters()
        return result

    def _decode_or_none(self, value):
        if value is None:
            return None
        try:
            return decode_row(value)
        except RowDecodeError as exc:
            logger.warning("DatasetCache session %s: unreadable cached row (%s); "
                           "treating it as a miss", self.session_id, exc)
            return None

    def get_many(self, row_keys):
        """[row or None] for several keys (convenience over get)."""
        return [self.get(k) for k in row_keys]

    def put(self, row_key, row):
        """Add one row. Written in batches; an existing row with the same key is kept (rows of
        one stage key are deterministic, so both are equal)."""
        self._check_open()
        rid = _row_id(row_key)
        if not isinstance(row, (tuple, list)) or len(row) != len(self.column_names):
            got = len(row) if isinstance(row, (tuple, list)) else type(row).__name__
            raise ValueError(f"DatasetCache: a row for columns {self.column_names} must be a "
                             f"tuple of {len(self.column_names)} arrays, got {got}")
        if not self._looked_up:
            with self._lock:
                self._local.misses += 1
        if self._stopped_growing:
            with self._lock:
                self._local.dropped += 1
            return
        encoded = encode_row(row, self.column_names)[0]
        key = self._row_prefix + _ROW_ID.pack(rid)
        with self._lock:
            if key not in self._pending:
                self._pending[key] = (encoded, rid)
                self._pending_bytes += len(encoded)
            if len(self._pending) >= BATCH_ROWS or self._pending_bytes >= BATCH_BYTES:
                self._submit_pending_locked()

    def mark_complete(self, num_rows, warn=True):
        """Record that a full pass of ``num_rows`` rows went through this stage. The marker is
        written only if that many rows are stored; returns whether it was. ``warn=False``:
        the caller only asks (a shard whose rows may be completed by the others)."""
        self._check_open()
        num_rows = _row_id(num_rows)
        self.flush()
        try:
            with envs.txn(self._env, write=True) as txn:
                counters = read_counters(txn, self._hash)
                if counters.rows < num_rows:
                    complete = False
                else:
                    txn.put(COMPLETE_PREFIX + self._hash,
                            json.dumps({"num_rows": num_rows}).encode("utf-8"))
                    complete = True
        except lmdb.Error as exc:
            if not self._full(exc):
                raise
            self._warn_full(full_disk=True)
            return False        # no room for the marker: the stage stays incomplete
        if warn and not complete and not counters.dropped:
            logger.warning("DatasetCache session %s: mark_complete(%d) but only %d rows are "
                           "stored; the stage stays incomplete", self.session_id, num_rows,
                           counters.rows)
        return complete

    def close(self):
        """Write buffered rows and counters, then release the environments. Idempotent."""
        if self._closed:
            return
        with self._lock:
            ahead, self._handles.read_ahead = self._handles.read_ahead, None
        if ahead is not None:
            ahead.close()
        try:
            if os.getpid() == self._pid:  # a forked child only drops its references
                self.flush()
        finally:
            self._closed = True
            self._spill_env = None
            self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- internals -----------------------------------------------------------------------------
    def _lookup(self, env, key):
        with envs.txn(env, buffers=True) as txn:
            return self._decode_or_none(txn.get(key))

    def _take_local_counters(self):
        with self._lock:
            local, self._local = self._local, StageCounters()
            self._last_stats_flush = time.monotonic()
        return local

    def _flush_counters(self):
        self._add_counters(self._take_local_counters())

    def _submit_pending_locked(self):
        """Hand the buffered rows (and the counters gathered so far) to the write-behind thread.
        Called with self._lock held, so a get never misses a row between the two places."""
        batch = _Batch(self._pending)
        self._pending, self._pending_bytes = {}, 0
        batch.local, self._local = self._local, StageCounters()
        self._last_stats_flush = time.monotonic()
        self._writer.submit(batch)

    def flush(self):
        """Write buffered rows and counters now; returns when they are committed."""
        self._check_open()
        with self._lock:
            local = self._local
            if self._pending or local.hits or local.misses or local.dropped:
                self._submit_pending_locked()
        self._writer.drain()

    def _write_any(self, batch):
        """Runs on the write-behind thread: one batch, memory first, then spill or drop."""
        if not batch:
            self._add_counters(batch.local)
            return
        needed = sum(len(v) for v, _ in batch.values())
        try:
            self._write_batch(batch, batch.local, memory_ok=True)
        except lmdb.Error as exc:
            if not self._full(exc, needed):
                raise
            # A file system is full (the memory one, or the spill one): send this batch past
            # the memory store (to the spill area, or nowhere).
            try:
                self._write_batch(batch, batch.local, memory_ok=False)
            except lmdb.Error as exc2:
                if not self._full(exc2, needed):
                    raise
                # Nowhere left to write: the cache stops growing; the pipeline goes on.
                self._stopped_growing = True
                batch.local.dropped += len(batch)
                self._add_counters(batch.local)
                self._warn_full(full_disk=True)

    def _full(self, exc, needed=0):
        return is_full_error(exc, (self._paths.env_dir, self._paths.spill_dir), needed)

    def _add_counters(self, local):
        if not (local.hits or local.misses or local.dropped):
            return
        try:
            with envs.txn(self._env, write=True) as txn:
                counters = read_counters(txn, self._hash)
                counters.add(local)
                write_counters(txn, self._hash, counters)
        except lmdb.Error as exc:  # statistics must never break a pipeline
            logger.debug("DatasetCache: could not update counters: %s", exc)

    def _host_room(self, batch_bytes):
        limit = roots.memory_cap_ratio(self._root) * roots.host_memory_bytes()
        return limit <= 0 or sessions.memory_bytes_used(self._root) + batch_bytes <= limit

    def _write_batch(self, batch, local, memory_ok):
        batch_bytes = sum(len(v) for v, _ in batch.values())
        memory_wanted = memory_ok     # False: retried after a file system was full
        memory_ok = memory_ok and self._host_room(batch_bytes)
        to_spill = []
        with envs.txn(self._env, write=True) as txn:
            counters = read_counters(txn, self._hash)
            counters.add(local)
            if counters.rows_spill:
                self._open_spill(create=False)
            used = session_counters(txn).bytes_mem if self._size_bytes else 0
            for key, (value, _rid) in batch.items():
                if txn.get(key) is not None:
                    continue
                fits = memory_ok and (not self._size_bytes or used + len(value) <= self._size_bytes)
                if fits:
                    # A failed put (map or file system full) aborts the whole transaction; flush
                    # then retries the batch with the memory store skipped.
                    txn.put(key, value, overwrite=False)
                    used += len(value)
                    counters.rows_mem += 1
                    counters.bytes_mem += len(value)
                    continue
                if self._spilling:
                    to_spill.append((key, value))
                else:
                    counters.dropped += 1
                    self._stopped_growing = True
            if to_spill:
                spilled, spilled_bytes = self._write_spill(to_spill)
                counters.rows_spill += spilled
                counters.bytes_spill += spilled_bytes
            write_counters(txn, self._hash, counters)
        if self._stopped_growing:
            self._warn_full(full_disk=not memory_wanted)

    def _write_spill(self, rows):
        env = self._open_spill()
        count = nbytes = 0
        with envs.txn(env, write=True) as txn:
            for key, value in rows:
                if txn.put(key, value, overwrite=False):
                    count += 1
                    nbytes += len(value)
            present = txn.get(STATS_PREFIX + self._hash)
            present = _SPILL_COUNT.unpack(present)[0] if present is not None else 0
            txn.put(STATS_PREFIX + self._hash, _SPILL_COUNT.pack(present + count))
        return count, nbytes

    def _warn_full(self, full_disk=False):
        tag = (self._paths.env_dir, self._hash)
        if tag in _warned_full:
            return
        _warned_full.add(tag)
        if full_disk:
            warnings.warn(
                f"DatasetCache session {self.session_id}: the file system of the cache "
                f"({self._paths.env_dir}) or of its spill directory ({self._paths.spill_dir}) "
                "is full: the cache stops growing and rows beyond it are recomputed every "
                "epoch. Free space there or move the cache ($MINDDATA_CACHE_DIR, "
                "dataset-cache -s).", RuntimeWarning, stacklevel=3)
            return
        cap = (f"its memory cap of {self._size_bytes >> 20} MB" if self._size_bytes
               else "the host memory cap")
        warnings.warn(
            f"DatasetCache session {self.session_id} reached {cap}: the cache stops growing and "
            "rows beyond it are recomputed every epoch. Pass spilling=True to spill them to disk "
            f"({roots.spill_root(self._root)}), or raise size.", RuntimeWarning, stacklevel=3)


def _stack_rows(values, empty=np.empty):
    """The rows' columns stacked into new arrays (one copy per row and column), or None when a
    row is missing or unreadable or its header differs from the first row's (different
    shapes or dtypes: the caller decodes the rows one by one and batches them itself)."""
    if any(v is None for v in values):
        return None
    try:
        header, specs = parse_layout(values[0])
    except RowDecodeError:
        return None
    n = len(values)
    outs = [empty((n,) + tuple(shape), dtype) for dtype, shape, _, _ in specs]
    # Per column: the destination as (rows, bytes), and where the column lies in a row.
    targets = [(out.reshape(n, -1).view(np.uint8), offset, offset + nbytes)
               for out, (_, _, offset, nbytes) in zip(outs, specs) if nbytes]
    end = max((stop for _, _, stop in targets), default=len(header))
    hlen = len(header)
    for i, value in enumerate(values):
        if len(value) < end or value[:hlen] != header:
            return None
        src = np.frombuffer(value, dtype=np.uint8)
        for dst, start, stop in targets:
            dst[i] = src[start:stop]
    return tuple(outs)
