"""Source nodes: a RowSource read through the engine's sampler, sharding and workers.

Public source classes (MindDataset, ImageFolderDataset, GeneratorDataset, ...) subclass
``SourceDataset`` and call ``SourceDataset.__init__`` after validating their own arguments.
"""
import math

import numpy as np

from .. import config, elastic
from ..cache.identity import describe_value
from ..dataset import Dataset, check_num_parallel_workers
from ..engine import seeds
from ..engine.node import IterNode
from ..engine.executor import make_executor
from ..samplers import Sampler, Shuffle, _check_num_samples, as_sampler

_INT32_MAX = 2 ** 31 - 1


def _check_shard_args(num_shards, shard_id, sampler, shuffle):
    """MindSpore's rules (RuntimeError for conflicting options, ValueError for ranges)."""
    if sampler is not None and shuffle is not None:
        raise RuntimeError("sampler and shuffle cannot be specified at the same time.")
    if sampler is not None and (num_shards is not None or shard_id is not None):
        raise RuntimeError("sampler and sharding cannot be specified at the same time.")
    if num_shards is not None and shard_id is None:
        raise RuntimeError("num_shards is specified and currently requires shard_id as well.")
    if shard_id is not None and num_shards is None:
        raise RuntimeError("shard_id is specified but num_shards is not.")
    if num_shards is not None:
        for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{name} must be of type int, but got {type(v).__name__}")
        if not 1 <= num_shards <= _INT32_MAX:
            raise ValueError(f"Input num_shards is not within the required interval of "
                             f"[1, {_INT32_MAX}].")
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"Input shard_id is not within the required interval of "
                             f"[0, {num_shards - 1}].")


def _normalize_shuffle(shuffle, shuffle_modes):
    """None/True -> GLOBAL, False -> FALSE, Shuffle members checked against the source's
    supported modes."""
    if shuffle is None or shuffle is True:
        return Shuffle.GLOBAL
    if shuffle is False:
        return Shuffle.FALSE
    if isinstance(shuffle, Shuffle):
        if shuffle in (Shuffle.ADAPTIVE, Shuffle.PARTIAL):
            return Shuffle.GLOBAL
        if shuffle not in shuffle_modes and shuffle not in (Shuffle.FALSE, Shuffle.GLOBAL):
            raise ValueError(f"shuffle mode {shuffle} is not supported by this dataset; "
                             f"use one of {[m.name for m in shuffle_modes]} or a bool")
        return shuffle
    raise TypeError(f"shuffle must be of type bool or Shuffle, but got {type(shuffle).__name__}")


def _as_sampler(sampler):
    return as_sampler(sampler)


class SourceDataset(Dataset):
    """Leaf node over a RowSource opened lazily by ``source_factory()``.

    Keyword arguments are MindSpore's source arguments; ``shuffle_modes`` lists the
    ``Shuffle`` members the source supports beyond True/False/GLOBAL (e.g. FILES, INFILE).
    ``column_names`` (optional) saves opening the source just to learn them.
    """

    _op_name = "Source"

    def __init__(self, source_factory, *, num_samples=None, shuffle=None, num_shards=None,
                 shard_id=None, sampler=None, num_parallel_workers=None, cache=None,
                 shuffle_modes=(Shuffle.GLOBAL,), column_names=None, process_workers=False,
                 max_rowsize=None, chunk_rows=None):
        super().__init__(num_parallel_workers=check_num_parallel_workers(num_parallel_workers))
        if not callable(source_factory):
            raise TypeError("source_factory must be a callable that opens a RowSource")
        _check_num_samples(num_samples)
        _check_shard_args(num_shards, shard_id, sampler, shuffle)
        self._source_factory = source_factory
        self.num_samples = num_samples
        self.shuffle_level = _normalize_shuffle(shuffle, tuple(shuffle_modes))
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.sampler = _as_sampler(sampler)
        if cache is not None and not hasattr(cache, "open_stage"):
            raise TypeError(f"cache must be a DatasetCache, got {type(cache).__name__}")
        self.cache = cache
        self._known_columns = list(column_names) if column_names is not None else None
        self._process_workers = process_workers
        self._max_rowsize = max_rowsize
        self._chunk_rows = chunk_rows
        self._meta = None

    # -- metadata (opens the source once, closes it) ---------------------------------------
    def _source_meta(self):
        if self._meta is None:
            src = self._source_factory()
            try:
                self._meta = {"columns": list(src.column_names), "len": len(src),
                              "classes": src.class_indexing(), "describe": src.describe()}
            finally:
                src.close()
        return self._meta

    def _col_names(self):
        if self._known_columns is not None:
            return list(self._known_columns)
        return self._source_meta()["columns"]

    def _size(self):
        n = self._source_meta()["len"]
        return self._count_ids(n)

    def _count_ids(self, n):
        if self.sampler is not None:
            return self.sampler.count(n)
        c = math.ceil(n / self.num_shards) if (self.num_shards and n) else n
        if self.num_samples:
            c = min(c, self.num_samples)
        return c

    def _class_indexing(self):
        return self._source_meta()["classes"]

    def _num_classes(self):
        ci = self._source_meta()["classes"]
        return None if ci is None else len(set(ci.values()))

    def _describe_self(self):
        return (f"{type(self).__name__}[{self._source_meta()['describe']}]"
                f"(shuffle={self.shuffle_level.name}, shards={self.num_shards}/{self.shard_id},"
                f" num_samples={self.num_samples}, sampler={self._sampler_key()})")

    def _sampler_key(self):
        # A sampler's repr abbreviates its indices and names a user sampler by its class:
        # the key needs its content (the ids a map above it caches depend on them).
        if self.sampler is None:
            return None
        return f"{self.sampler!r}#{describe_value(self.sampler, 'the sampler')}"

    def _rows_key(self):
        """Cache key of this source's own stage. Its rows are stored by row id, and a row's
        content does not depend on the shuffle, the sampler or the shard: every sharding and
        sampling of one source shares one stage, as in MindSpore's shared cache."""
        return f"{type(self).__name__}[{self._source_meta()['describe']}]"

    def _is_random_self(self):
        if self.sampler is not None:
            s = self.sampler
            while s is not None:
                if s.is_random():
                    return True
                s = s.child_sampler
            return False
        return self.shuffle_level != Shuffle.FALSE

    def _build_iter(self, ctx):
        return SourceIter(self, ctx)

    # -- the ids of one epoch -------------------------------------------------------------
    def _epoch_ids(self, src, seed, epoch, position, shards=None):
        """``shards`` = (num_shards, shard_id) replaces the dataset's own split (elastic
        resume recomputes the ids of another world size's ranks)."""
        n = len(src)
        if self.sampler is not None:
            sampler = self.sampler if shards is None else elastic.with_shards(self.sampler,
                                                                              *shards)
            labels = None
            if isinstance(sampler, Sampler):
                labels = lambda: _read_class_column(src, sampler)  # noqa: E731
            return sampler.ids(n, seed, epoch, position, labels)
        num_shards, shard_id = shards or (self.num_shards, self.shard_id)
        rng = seeds.rng(seed, epoch, position)
        level = self.shuffle_level
        if level == Shuffle.GLOBAL:
            order = rng.permutation(n)
        elif level == Shuffle.FILES:
            ranges = list(src.file_row_ranges())
            perm = rng.permutation(len(ranges))
            order = np.concatenate([np.arange(*ranges[i], dtype=np.int64) for i in perm]
                                   or [np.zeros(0, np.int64)])
        elif level == Shuffle.INFILE:
            order = np.concatenate([a + rng.permutation(b - a) for a, b in
                                    src.file_row_ranges()] or [np.zeros(0, np.int64)])
        else:
            order = np.arange(n, dtype=np.int64)
        order = order.astype(np.int64, copy=False)
        if num_shards and n:
            per = math.ceil(n / num_shards)
            order = order[(shard_id + np.arange(per, dtype=np.int64) * num_shards) % n]
        if self.num_samples:
            order = order[:self.num_samples]
        return order


def _read_class_column(src, sampler):
    """Labels of every row for PKSampler (reads all rows once)."""
    s = sampler
    while s is not None and not hasattr(s, "class_column"):
        s = s.child_sampler
    col = getattr(s, "class_column", "label")
    names = list(src.column_names)
    if col not in names:
        raise RuntimeError(f"PKSampler: class_column {col!r} is not a column of the dataset "
                           f"(columns: {names})")
    k = names.index(col)
    rows = src.read_rows(np.arange(len(src), dtype=np.int64))
    return np.array([np.asarray(r[k]).reshape(-1)[0] for r in rows])


class SourceIter(IterNode):
    """Reads the epoch's ids in chunks through an executor (engine/executor.py): inline, on
    worker threads or in worker processes.

    ``rows_through``: a node the chunks are read through instead of the RowSource alone, its
    only child (the planner's cache of the source's rows, engine/cache_source_rows.py):
    ``rows_through.read_rows(ids, read_missing)`` on the worker threads, and
    ``rows_through.end_pass(ids, total)`` after a pass read from its first row."""

    def __init__(self, ds, ctx, rows_through=None):
        workers = 1 if ctx.debug else (ds.num_parallel_workers or config.get_num_parallel_workers())
        # Resources first set to None: close() works whatever step of the set-up failed.
        self._pool = None
        self.src = None
        children = () if rows_through is None else (rows_through,)
        super().__init__(ctx, children, num_workers=workers, name=type(ds).__name__)
        self._through = rows_through
        self.ds = ds
        self.position = ctx.position()
        self.src = ds._source_factory()
        self.workers = workers
        self._shard = elastic.source_shard(ds)
        self._world = None
        self._ids = np.zeros(0, np.int64)
        self._pos = 0           # rows returned this epoch
        self._next_chunk = 0    # first id index not yet submitted
        self._buf = []
        self._buf_i = 0
        self._buf_start = 0
        self._last_id = None
        # Rows read through another node are read in this process (a cache's store cannot be
        # used in a forked child).
        processes = ds._process_workers and rows_through is None and workers > 1
        # Rows per read task: process tasks cost a pipe round trip, so they get bigger ones.
        self._chunk = ds._chunk_rows or (64 if workers <= 1 or processes else 16)
        task = _SourceTask(ds._source_factory) if processes else self._read_task
        self._pool = make_executor(workers, task, self.name, processes=processes,
                                   max_rowsize=ds._max_rowsize)
        self._depth = 2 * workers if workers > 1 else 1
        self.stats.queue_capacity = 2 * workers * self._chunk if workers > 1 else None

    # protocol
    def start(self, epoch):
        self._start_epoch(epoch, None)

    def _start_epoch(self, epoch, world):
        self.epoch = epoch
        # world: this epoch continues one saved by another number of ranks (elastic resume).
        self._world = world
        self._ids = elastic.epoch_ids(self.ds, self.src, self.ctx.seed, epoch, self.position,
                                      world)
        for child in self.children:
            child.start(epoch)
        self._seek(0)

    def get_state(self):
        return elastic.source_state(self._shard, self.epoch, self._pos, self._world)

    def reset(self, state):
        self._start_epoch(state["epoch"], state.get("world"))
        self._seek(int(state["pos"]))

    def _seek(self, pos):
        if self._pool is not None:
            self._pool.clear()
        self._pos = pos
        self._from_start = pos == 0     # a resumed pass did not read the rows before pos
        self._next_chunk = pos
        self._buf = []
        self._buf_i = 0

    def _next(self):
        if self._buf_i >= len(self._buf):
            if not self._fill():
                if self._through is not None and self._from_start:
                    self._through.end_pass(self._ids, len(self.src))
                return None
        row = self._buf[self._buf_i]
        self._last_id = int(self._ids[self._buf_start + self._buf_i])
        self._buf_i += 1
        self._pos += 1
        return row

    def _fill(self):
        n = len(self._ids)
        if self._pos >= n:
            return False
        while len(self._pool) < self._depth and self._next_chunk < n:
            stop = min(n, self._next_chunk + self._chunk)
            self._pool.submit(self._ids[self._next_chunk:stop], ())
            self._next_chunk = stop
        try:
            self._buf = self._pool.result()[0]
        except BaseException as e:
            raise self._wrap(e, None)
        if self.workers > 1:
            self.stats.sample_queue(len(self._pool))
        self._buf_start = self._pos
        self._buf_i = 0
        return bool(self._buf)

    def _read_task(self, ids, _payload):
        if self._through is None:
            return self._read_direct(ids)
        return self._through.read_rows(ids, self._read_direct)

    def _read_direct(self, ids):
        try:
            rows = self.src.read_rows(ids)
        except BaseException as e:
            raise self._wrap(e, ids)
        if len(rows) != len(ids):
            raise RuntimeError(f"{self.name}: read_rows returned {len(rows)} rows for "
                               f"{len(ids)} ids")
        return rows

    def _wrap(self, exc, ids):
        prov = None
        if ids is not None and len(ids):
            try:
                prov = self.src.provenance(int(ids[0]))
                if len(ids) > 1:
                    prov = f"rows read from {prov} onwards ({len(ids)} rows)"
            except Exception:
                prov = None
        return self.fail(exc, prov)

    def prov_token(self):
        return None if self._last_id is None else (self, self._last_id)

    def _format_prov(self, key):
        return self.src.provenance(key)

    def _close_self(self):
        try:
            if self._pool is not None:
                self._pool.close()
        finally:
            if self.src is not None:
                self.src.close()


class _SourceTask:
    """Runs in a worker process: opens its own RowSource (after fork) and reads id chunks."""

    name = "read"

    def __init__(self, factory):
        self.factory = factory
        self.src = None

    def __call__(self, ids, rows_in):
        if self.src is None:
            self.src = self.factory()
        return self.src.read_rows(ids)

    def provenance(self, ids):
        try:
            return self.src.provenance(int(ids[0])) if self.src is not None else None
        except Exception:
            return None

