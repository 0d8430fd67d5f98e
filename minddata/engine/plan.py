"""The planning stage: the Dataset graph becomes an iterator tree through one rewrite pass.

Every node of the tree is built through ``Planner.build`` (``BuildContext.build``), which first
tries the rewrite rules on the dataset node and falls back to the node's own ``_build_iter``. Each
rule that looked at a node records whether it fired and why, so debug mode, ``Dataset.profile()``
and tests (``Dataset.plan()``, as tf.data's ``assert_next``) can see what the engine will run.

Rules:
- ``native_batch``: ``Batch(Map(Source))`` whose map is one run of native ops becomes one
  NativeBatch node (engine/native_batch.py): C++ threads do all per-row work.
- ``prefetch``: the run's producer thread and bounded queue (engine/runtime.py) are the prefetch
  node; they are left out when the root keeps batches ready by itself (a native batch ring under
  nodes that only pass batches on), since a second thread would only add hand-overs of the
  interpreter lock.
- ``cache``: a ``cache=`` on a map becomes a CacheRead node over a CacheWrite node over the map
  (engine/cache_read.py, cache_write.py); on a source, a cache node keyed by row id that the
  source reads its rows through (engine/cache_source_rows.py).
- ``process_batches``: ``Batch(Map(Source, python_multiprocessing=True))`` (the PIL path) runs
  in worker processes a whole batch per task (engine/process_batch.py).
- ``cached_batches``: ``Batch(Map(cache=...))`` with a plain batch becomes one CacheRead node that
  emits whole batches read from the store (engine/cache_read_batches.py) over the map's
  CacheWrite node.
"""
import logging

from .. import config
from .cache_read import CacheReadIter
from .cache_read_batches import CacheReadBatchesIter
from .cache_source_rows import SourceRowsCacheIter
from .cache_write import CacheWriteIter
from .native_batch import NativeBatchIter, NativeBatchSpec, row_layout

logger = logging.getLogger("minddata")

#: Nodes that hand their child's rows (or batches) on without per-row Python work of their own.
PASS_THROUGH_NODES = ("Repeat", "Take", "Skip", "Project", "Rename")

#: Rows per read task of a cached map read row by row, unless DatasetCache(prefetch_size=...)
#: says otherwise.
CACHE_ROWS_PER_READ = 32


class Rewrite:
    """One rule looking at one dataset node: did it fire, and why (not)."""

    __slots__ = ("rule", "target", "fired", "why")

    def __init__(self, rule, target, fired, why):
        self.rule, self.target, self.fired, self.why = rule, target, fired, why

    def __repr__(self):
        return (f"{self.rule} on {self.target}: {'fired' if self.fired else 'not applied'}"
                f" ({self.why})")


class Planner:
    def __init__(self, ctx):
        self.ctx = ctx
        self.rewrites = []

    def build(self, ds):
        node = self._native_batch(ds)
        if node is None:
            node = self._process_batches(ds)
        if node is None:
            node = self._cached_batches(ds)
        if node is None:
            node = self._cache(ds)
        if node is None:
            node = ds._build_iter(self.ctx)
        return node

    def note(self, rule, target, fired, why):
        self.rewrites.append(Rewrite(rule, target, fired, why))

    # -- rules -----------------------------------------------------------------------------
    def _native_batch(self, ds):
        from ..ops.batch import BatchDataset
        if type(ds) is not BatchDataset:
            return None
        found = native_batch_spec(ds, self.ctx)
        if isinstance(found, str):
            self.note("native_batch", "Batch", False, found)
            return None
        spec = found
        src = spec.source_ds._source_factory()
        try:
            why = None
            column = src.native_column(spec.column)
            if column is None:
                why = (f"{type(spec.source_ds).__name__} offers no native access to column "
                       f"{spec.column!r}")
            else:
                others = [c for c in spec.source_ds._col_names() if c != spec.column]
                missing = [c for c in others if src.column_values(c) is None]
                layout = row_layout(spec.steps, column.image_shape)
                if missing:
                    why = f"column(s) {missing} cannot be gathered per batch"
                elif layout is None:
                    why = "the output shape depends on each image (no fixed-size op)"
            if why is not None:
                src.close()
                self.note("native_batch", "Batch", False, why)
                return None
            map_ds = spec.map_ds
            threads = map_ds.num_parallel_workers or config.get_num_parallel_workers()
            node = NativeBatchIter(self.ctx, spec, src, column, layout, threads,
                                   config.get_batch_ring_depth())
        except BaseException:
            src.close()
            raise
        self.note("native_batch", "Batch", True,
                  f"{type(spec.source_ds).__name__} + Map({spec.plan!r}) + "
                  f"Batch({spec.batch_ds.batch_size}) run by {threads} native thread(s), "
                  f"ring of {config.get_batch_ring_depth()} batches")
        return node

    def _process_batches(self, ds):
        """``Batch(Map(Source, python_multiprocessing=True))``: worker processes read, map and
        batch whole batches (engine/process_batch.py)."""
        from ..ops.batch import BatchDataset
        from ..ops.map import MapDataset
        from ..ops.source import SourceDataset
        if type(ds) is not BatchDataset:
            return None
        map_ds = ds.children[0]
        if type(map_ds) is not MapDataset or not map_ds.python_multiprocessing:
            return None
        source_ds = map_ds.children[0]
        workers = map_ds.num_parallel_workers or config.get_num_parallel_workers()
        why = None
        if not config.get_native_batches():
            why = "batch rewrites are switched off (config.set_native_batches)"
        elif self.ctx.debug or workers < 2:
            why = "debug mode or one worker: the map runs inline"
        elif not ds.is_plain():
            why = "the batch pads, has a per_batch_map or a callable batch_size"
        elif map_ds.cache is not None or map_ds.callbacks:
            why = "the map caches or has callbacks"
        elif (not isinstance(source_ds, SourceDataset) or source_ds.cache is not None
              or not getattr(source_ds, "random_access", True)):
            why = f"the map's input is {type(source_ds).__name__}, not an uncached source " \
                  f"read by row id"
        if why is not None:
            self.note("process_batches", "Batch", False, why)
            return None
        from .process_batch import ProcessBatchIter
        src = source_ds._source_factory()
        try:
            depth = max(config.get_batch_ring_depth(), 2 * workers)
            node = ProcessBatchIter(self.ctx, ds, map_ds, source_ds, src, workers, depth)
        except BaseException:
            src.close()
            raise
        self.note("process_batches", "Batch", True,
                  f"{workers} worker processes read, map and batch whole batches of "
                  f"{ds.batch_size} rows (shared memory, nothing pickled per row)")
        return node

    def _cached_batches(self, ds):
        """``Batch(Map(cache=...))`` with a plain batch: one node emits whole batches, read
        from the store (one copy per row, straight into the batch arrays) in the epochs that
        find the stage complete, else made of the rows of the map's CacheWrite node."""
        from ..ops.batch import BatchBuilder, BatchDataset, BatchInfo
        from ..ops.map import MapDataset
        if type(ds) is not BatchDataset:
            return None
        map_ds = ds.children[0]
        if not isinstance(map_ds, MapDataset) or map_ds.cache is None:
            return None
        why = None
        if not ds.is_plain():
            why = "the batch pads, has a per_batch_map or a callable batch_size"
        elif self.ctx.debug:
            why = "debug mode batches the rows of the cache-read node"
        if why is not None:
            self.note("cached_batches", "Batch", False, why)
            return None
        builder = BatchBuilder(ds)
        write = self._cache_write(map_ds)
        node = CacheReadBatchesIter(self.ctx, write, write.store, self._cache_readers(map_ds),
                                    ds.batch_size, ds.drop_remainder,
                                    lambda rows, num, epoch: builder.build(
                                        rows, BatchInfo(num, epoch)),
                                    not map_ds.children[0]._is_random())
        self.note("cached_batches", "Batch", True,
                  f"{node.name} reads whole batches of {ds.batch_size} rows from the store "
                  f"once its stage is complete, else batches the rows of {write.name}")
        self.note("cache", "Map", True, f"{node.name} over {write.name} over the map")
        return node

    def _cache(self, ds):
        """``cache=`` on a map: CacheRead over CacheWrite over the map. On a source: the
        source reads its rows through a cache node keyed by row id."""
        from ..ops.map import MapDataset
        from ..ops.source import SourceDataset, SourceIter
        if getattr(ds, "cache", None) is None:
            return None
        if isinstance(ds, MapDataset):
            write = self._cache_write(ds)
            node = CacheReadIter(self.ctx, write, write.store, self._cache_readers(ds),
                                 getattr(ds.cache, "prefetch_size", None) or CACHE_ROWS_PER_READ,
                                 not ds.children[0]._is_random())
            self.note("cache", "Map", True, f"{node.name} over {write.name} over the map: the "
                                            f"map runs only in epochs that find the stage "
                                            f"incomplete")
            return node
        if not isinstance(ds, SourceDataset):
            return None
        # The stage's columns are those of the opened RowSource (part of the stage's key).
        # Registered nodes are closed by the run if the source then fails to open.
        store = ds.cache.open_stage(ds._rows_key(), ds._source_meta()["columns"])
        rows = SourceRowsCacheIter(self.ctx, store)
        node = SourceIter(ds, self.ctx, rows_through=rows)
        self.note("cache", type(ds).__name__, True,
                  f"{node.name} reads its rows through {rows.name}: rows by id from the "
                  f"store, the misses from the source, then stored")
        return node

    def _cache_write(self, map_ds):
        """The CacheWrite node of cached map ``map_ds``, over its MapIter; it owns the stage's
        store (closed here if the map fails to build; once built, the run closes every node
        registered, whatever failed after)."""
        from ..ops.map import MapIter
        store = map_ds.cache.open_stage(map_ds._describe(), list(map_ds.columns))
        try:
            return CacheWriteIter(self.ctx, MapIter(map_ds, self.ctx), store)
        except BaseException:
            store.close()
            raise

    def _cache_readers(self, map_ds):
        """Reader threads of a cached map's complete stage: reading is copying, so two keep a
        consumer fed and more would only hold more batches in memory; none in debug mode (each
        read runs when its rows are asked for)."""
        if self.ctx.debug:
            return 0
        return min(4, max(2, map_ds.num_parallel_workers or config.get_num_parallel_workers()))

    def needs_prefetch_thread(self, root):
        """Whether the run needs its producer thread and queue (the prefetch node)."""
        node = root
        while node.name in PASS_THROUGH_NODES and len(node.children) == 1:
            node = node.children[0]
        if node.ready_ahead:
            self.note("prefetch", root.name, False,
                      f"{node.name} keeps {node.ready_ahead} items ready itself")
            return False
        self.note("prefetch", root.name, True, "a producer thread fills a bounded queue of "
                                               f"{self.ctx.prefetch_size} items")
        return True


def native_batch_spec(batch_ds, ctx):
    """A NativeBatchSpec for ``Batch(Map(Source))``, or a string saying why not (without
    opening the source)."""
    from ..ops.map import MapDataset, compile_map_operations
    from ..ops.source import SourceDataset
    if not config.get_native_batches():
        return "native batches are switched off (config.set_native_batches)"
    if ctx.debug:
        return "debug mode runs every op in Python"
    if not batch_ds.is_plain():
        return "the batch pads, has a per_batch_map or a callable batch_size"
    map_ds = batch_ds.children[0]
    if type(map_ds) is not MapDataset:
        return f"its input is {type(map_ds).__name__}, not a map"
    if map_ds.cache is not None or map_ds.callbacks or map_ds.python_multiprocessing:
        return "the map caches, has callbacks or runs in processes"
    if len(map_ds.in_cols) != 1 or map_ds.out_cols != map_ds.in_cols:
        return "the map does not read and write one same column"
    source_ds = map_ds.children[0]
    if not isinstance(source_ds, SourceDataset) or source_ds.cache is not None:
        return f"the map's input is {type(source_ds).__name__}, not an uncached source"
    plan = compile_map_operations(map_ds.operations)
    if plan is None:
        return "the map's operations are not one run of fusable native ops"
    steps = plan.native_steps()
    if steps is None:
        return f"an op of {plan!r} has no native step (e.g. an OpenCV-only interpolation)"
    return NativeBatchSpec(batch_ds, map_ds, source_ds, plan, steps, map_ds.in_cols[0])


class PlanReport:
    """What ``Dataset.plan()`` returns: the planned tree (node names, root first, depth-first)
    and every rewrite decision."""

    def __init__(self, root, rewrites):
        self.nodes = []
        self._lines = []

        def walk(node, depth):
            self.nodes.append(node.name)
            self._lines.append("  " * depth + node.name)
            for child in node.children:
                walk(child, depth + 1)
        walk(root, 0)
        self.rewrites = list(rewrites)

    def fired(self, rule):
        return any(r.rule == rule and r.fired for r in self.rewrites)

    def __str__(self):
        return ("planned tree:\n" + "\n".join("  " + l for l in self._lines) +
                "\nrewrites:\n" + "\n".join(f"  {r!r}" for r in self.rewrites))

    __repr__ = __str__
