"""Source nodes: a RowSource (minddata/sources/base.py) read through a sampler and sharding.

Public source classes (MindDataset, ImageFolderDataset, GeneratorDataset, ...) are the API's
``SourceDataset`` (minddata/ops/source.py), a ``Source`` that validates its own arguments
first. The engine reads the node (minddata/engine/nodes/source.py); opening the RowSource is
the engine's business, except for the metadata the node reads once (columns, length, classes).
"""
from __future__ import annotations

import math
import weakref
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import seeds
from ..cache.identity import describe_value
from ..config import check_independent_mode
from ..samplers import Sampler, Shuffle, _check_num_samples, as_sampler, copy_for_run
from .block_shuffle import block_shuffle_order, check_block_options, contiguous_split
from .checks import INT32_MAX as _INT32_MAX
from .checks import check_num_parallel_workers, wrong_type
from .node import LogicalNode
from .sharding import Ids, source_shard, with_shards


def check_shard_args(num_shards: Optional[int], shard_id: Optional[int], sampler: Any,
                      shuffle: Any) -> None:
    """MindSpore's rules (RuntimeError for conflicting options, ValueError for ranges)."""
    if sampler is not None and shuffle is not None:
        raise RuntimeError("sampler and shuffle cannot be specified at the same time.")
    if sampler is not None and (num_shards is not None or shard_id is not None):
        raise RuntimeError("sampler and sharding cannot be specified at the same time.")
    if num_shards is not None and shard_id is None:
        raise RuntimeError("num_shards is specified and currently requires shard_id as well.")
    if shard_id is not None and num_shards is None:
        raise RuntimeError("shard_id is specified but num_shards is not.")
    if num_shards is not None and shard_id is not None:   # (one without the other raised)
        for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise wrong_type(name, v, int)
        if not 1 <= num_shards <= _INT32_MAX:
            raise ValueError(f"Input num_shards is not within the required interval of "
                             f"[1, {_INT32_MAX}].")
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"Input shard_id is not within the required interval of "
                             f"[0, {num_shards - 1}].")


def _normalize_shuffle(shuffle: Any, shuffle_modes: Tuple[Shuffle, ...]) -> Shuffle:
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
    # MindSpore's words for a source that takes a bool (a file source also takes a Shuffle).
    raise TypeError(f"Argument shuffle with value {shuffle} is not of type [<class 'bool'>], "
                    f"but got {type(shuffle)}. (shuffle must be a bool or a Shuffle member)")


def _as_sampler(sampler: Any) -> Optional[Sampler]:
    return as_sampler(sampler)


class Source(LogicalNode):
    """Leaf node over a RowSource opened lazily by ``source_factory()``.

    Keyword arguments are MindSpore's source arguments; ``shuffle_modes`` lists the
    ``Shuffle`` members the source supports beyond True/False/GLOBAL (e.g. FILES, INFILE).
    ``column_names`` (optional) saves opening the source just to learn them.
    ``shuffle_block_rows`` / ``shuffle_window_rows``: the block and window sizes of
    ``Shuffle.BLOCKS`` (graph/block_shuffle.py; None: its defaults), refused with any other
    level.
    """

    kind = "Source"

    source_factory: Callable[[], Any]
    num_samples: Optional[int]
    shuffle_level: Shuffle
    num_shards: Optional[int]
    shard_id: Optional[int]
    sampler: Optional[Sampler]
    cache: Any
    known_columns: Optional[List[str]]
    process_workers: bool
    max_rowsize: Optional[int]
    chunk_rows: Optional[int]
    shuffle_block_rows: Optional[int]
    shuffle_window_rows: Optional[int]

    def __init__(self, source_factory: Callable[[], Any], *, num_samples: Optional[int] = None,
                 shuffle: Any = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, sampler: Any = None,
                 num_parallel_workers: Optional[int] = None, cache: Any = None,
                 shuffle_modes: Sequence[Shuffle] = (Shuffle.GLOBAL,),
                 column_names: Optional[Sequence[str]] = None, process_workers: bool = False,
                 max_rowsize: Optional[int] = None, chunk_rows: Optional[int] = None,
                 shuffle_block_rows: Optional[int] = None,
                 shuffle_window_rows: Optional[int] = None) -> None:
        super().__init__(num_parallel_workers=check_num_parallel_workers(num_parallel_workers))
        if not callable(source_factory):
            raise TypeError("source_factory must be a callable that opens a RowSource")
        _check_num_samples(num_samples)
        check_shard_args(num_shards, shard_id, sampler, shuffle)
        self.source_factory = source_factory
        self.num_samples = num_samples
        self.shuffle_level = _normalize_shuffle(shuffle, tuple(shuffle_modes))
        ordering = "a sampler" if sampler is not None else (
            f"shuffle=Shuffle.{self.shuffle_level.name}"
            + (" (the default)" if shuffle is None else ""))
        self.shuffle_block_rows, self.shuffle_window_rows = check_block_options(
            self.shuffle_level == Shuffle.BLOCKS, ordering, shuffle_block_rows,
            shuffle_window_rows)
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.sampler = _as_sampler(sampler)
        if cache is not None and not hasattr(cache, "open_stage"):
            raise TypeError(f"cache must be a DatasetCache, got {type(cache).__name__}")
        check_independent_mode("Dataset Cache", cache is not None)
        self.cache = cache
        self.known_columns = list(column_names) if column_names is not None else None
        self.process_workers = process_workers
        self.max_rowsize = max_rowsize
        self.chunk_rows = chunk_rows
        self._meta: Optional[Dict[str, Any]] = None
        self._native: Optional[Dict[str, Any]] = None

    # -- metadata (opens the source once, closes it) ---------------------------------------
    def open_source(self) -> Any:
        """A new RowSource over this node's data (the caller closes it)."""
        return self.source_factory()

    def source_meta(self) -> Dict[str, Any]:
        """Columns, length, classes and description of the data (opens the source once)."""
        if self._meta is None:
            src = self.open_source()
            try:
                self._meta = {"columns": list(src.column_names), "len": len(src),
                              "classes": src.class_indexing(), "describe": src.describe()}
            finally:
                src.close()
        return self._meta

    def native_access(self) -> Dict[str, Any]:
        """What the native batch node can read without Python per row (opens the source once,
        reads no row): ``{"images": {column: image shape or None}, "gathered": [columns whose
        values come as one array]}`` (minddata/sources/base.py's native_column and
        column_values)."""
        if self._native is None:
            src = self.open_source()
            try:
                images: Dict[str, Optional[Tuple[int, ...]]] = {}
                for name in src.column_names:
                    column = src.native_column(name)
                    if column is not None:
                        images[name] = column.image_shape
                gathered = [n for n in src.column_names if src.column_values(n) is not None]
            finally:
                src.close()
            self._native = {"images": images, "gathered": gathered}
        return self._native

    def col_names(self) -> List[str]:
        if self.known_columns is not None:
            return list(self.known_columns)
        return self.source_meta()["columns"]

    def row_count(self) -> Optional[int]:
        n = self.source_meta()["len"]
        return self.count_ids(n)

    def count_ids(self, n: int) -> int:
        """Rows per epoch read from a RowSource of ``n`` rows."""
        if self.sampler is not None:
            return self.sampler.count(n)
        c = math.ceil(n / self.num_shards) if (self.num_shards and n) else n
        if self.num_samples:
            c = min(c, self.num_samples)
        return c

    def _class_indexing(self) -> Optional[Dict[str, int]]:
        return self.source_meta()["classes"]

    def _num_classes(self) -> Optional[int]:
        ci = self.source_meta()["classes"]
        return None if ci is None else len(set(ci.values()))

    def _describe_self(self) -> str:
        return (f"{type(self).__name__}[{self.source_meta()['describe']}]"
                f"(shuffle={self._shuffle_key()}, shards={self.num_shards}/{self.shard_id},"
                f" num_samples={self.num_samples}, sampler={self._sampler_key()})")

    def _shuffle_key(self) -> str:
        if self.shuffle_level == Shuffle.BLOCKS:
            return (f"BLOCKS(block_rows={self.shuffle_block_rows}, "
                    f"window_rows={self.shuffle_window_rows})")
        return self.shuffle_level.name

    def _sampler_key(self) -> Optional[str]:
        # A sampler's repr abbreviates its indices and names a user sampler by its class:
        # the key needs its content (the ids a map above it caches depend on them).
        if self.sampler is None:
            return None
        return f"{self.sampler!r}#{describe_value(self.sampler, 'the sampler')}"

    def rows_key(self) -> str:
        """Cache key of this source's own stage. Its rows are stored by row id, and a row's
        content does not depend on the shuffle, the sampler or the shard: every sharding and
        sampling of one source shares one stage, as in MindSpore's shared cache."""
        return f"{type(self).__name__}[{self.source_meta()['describe']}]"

    keeps_positions = True

    #: Whether rows are read by id (False: a stream, e.g. a generator without __getitem__).
    random_access = True

    def _shippable_self(self) -> bool:
        return self.cache is None

    def display_name(self) -> str:
        return type(self).__name__

    def shard(self) -> Tuple[int, int]:
        """(num_shards, shard_id) this source reads: its sharding arguments, its sampler's
        DistributedSampler, or (1, 0) when it is not sharded."""
        return source_shard(self)

    def _is_random_self(self) -> bool:
        if self.sampler is not None:
            s: Optional[Sampler] = self.sampler
            while s is not None:
                if s.is_random():
                    return True
                s = s.child_sampler
            return False
        return self.shuffle_level != Shuffle.FALSE

    # -- the ids of one epoch -------------------------------------------------------------
    def epoch_ids(self, src: Any, seed: int, epoch: int, position: int,
                  shards: Optional[Tuple[int, int]] = None) -> Ids:
        """``shards`` = (num_shards, shard_id) replaces the dataset's own split (elastic
        resume recomputes the ids of another world size's ranks).

        The epoch's order over all rows comes from the shuffle level; a shard reads position
        ``(shard_id + j * num_shards) mod n`` of it (MindSpore's strided split), except under
        ``Shuffle.BLOCKS``, where it reads the ``shard_id``-th contiguous part (positions
        ``shard_id * per + j``, ``per = ceil(n / num_shards)``, past the end wrapping to the
        start): each rank then reads its own few blocks at a time, not a row of every block.
        Both give every shard ``per`` rows and pad the same number of rows."""
        n = len(src)
        if self.sampler is not None:
            sampler = _run_sampler(self.sampler, src)
            sampler = sampler if shards is None else with_shards(sampler, *shards)
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
        elif level == Shuffle.BLOCKS:
            assert self.shuffle_block_rows is not None and self.shuffle_window_rows is not None
            order = block_shuffle_order(list(src.file_row_ranges()), self.shuffle_block_rows,
                                        self.shuffle_window_rows, rng)
        else:
            order = np.arange(n, dtype=np.int64)
        order = order.astype(np.int64, copy=False)
        if num_shards and shard_id is not None and n:
            if level == Shuffle.BLOCKS:
                order = order[contiguous_split(n, num_shards, shard_id)]
            else:
                per = math.ceil(n / num_shards)
                order = order[(shard_id + np.arange(per, dtype=np.int64) * num_shards) % n]
        if self.num_samples:
            order = order[:self.num_samples]
        return order


# The sampler of each opened RowSource: a run (an iterator) opens its own source and reads
# every epoch with the same copy of a user sampler (samplers.copy_for_run).
_RUN_SAMPLERS: "weakref.WeakKeyDictionary[Any, Sampler]" = weakref.WeakKeyDictionary()


def _run_sampler(sampler: Sampler, src: Any) -> Sampler:
    run = _RUN_SAMPLERS.get(src)
    if run is None:
        run = _RUN_SAMPLERS[src] = copy_for_run(sampler)
    return run


def _read_class_column(src: Any, sampler: Any) -> np.ndarray:
    """Labels of every row for PKSampler (reads all rows once)."""
    s = sampler
    while s is not None and not hasattr(s, "class_column"):
        s = s.child_sampler
    col = getattr(s, "class_column", "label")
    names = list(src.column_names)
    if col not in names:
        col = getattr(src, "class_column", col)
    if col not in names:
        raise RuntimeError(f"PKSampler: class_column {col!r} is not a column of the dataset "
                           f"(columns: {names})")
    k = names.index(col)
    rows = src.read_rows(np.arange(len(src), dtype=np.int64))
    return np.array([np.asarray(r[k]).reshape(-1)[0] for r in rows])
