"""The engine's builders for the planner's kinds of physical node (registry.py)."""
from .cache_read import CacheReadIter
from .cache_read_batches import CacheReadBatchesIter
from .cache_source_rows import SourceRowsCacheIter
from .cache_write import CacheWriteIter
from .gpu_batch import build_gpu_batch, build_gpu_unavailable
from .native_batch import NativeBatchIter, NativeBatchSpec
from .nodes.batch import BatchBuilder, BatchInfo, BatchIter
from .nodes.bucket_batch import BucketBatchIter
from .nodes.concat import ConcatIter
from .nodes.filter import FilterIter
from .nodes.generator_stream import GeneratorStreamIter
from .nodes.map import MapIter
from .nodes.project import ProjectIter
from .nodes.rename import RenameIter
from .nodes.repeat import RepeatIter
from .nodes.shuffle import ShuffleIter
from .nodes.skip import SkipIter
from .nodes.source import SourceIter
from .nodes.sync_wait import SyncWaitIter
from .nodes.take import TakeIter
from .nodes.zip import ZipIter
from .process_batch import ProcessBatchIter
from .registry import register


def _plain(cls):
    """A node that runs its logical node over its children."""
    return lambda pnode, ctx, children: cls(pnode.logical, ctx, children)


for _kind, _cls in (("Source", SourceIter), ("Map", MapIter), ("Batch", BatchIter),
                    ("BucketBatchByLength", BucketBatchIter), ("Shuffle", ShuffleIter),
                    ("Repeat", RepeatIter), ("Project", ProjectIter), ("Rename", RenameIter),
                    ("Take", TakeIter), ("Skip", SkipIter), ("Concat", ConcatIter),
                    ("Zip", ZipIter), ("Filter", FilterIter),
                    ("GeneratorStream", GeneratorStreamIter)):
    register(_kind, _plain(_cls), codec=_cls if hasattr(_cls, "state_at") else None)


register("SyncWait", _plain(SyncWaitIter))


def _opened_source(source, make):
    """``make(src)`` over a newly opened RowSource, closed again if ``make`` fails."""
    src = source.open_source()
    try:
        return make(src)
    except BaseException:
        src.close()
        raise


def _native_batch(pnode, ctx, children):
    p = pnode.params
    spec = NativeBatchSpec(pnode.logical, p["map"], p["source"], p["plan"], p["steps"],
                           p["column"])

    def make(src):
        column = src.native_column(p["column"])
        if column is None:      # the planner read the source's metadata: not expected
            raise RuntimeError(f"{pnode.name}: {p['source'].display_name()} no longer offers "
                               f"native access to column {p['column']!r}")
        return NativeBatchIter(ctx, spec, src, column, p["layout"], p["threads"],
                               p["ring_depth"])
    return _opened_source(p["source"], make)


def _process_batch(pnode, ctx, children):
    p = pnode.params
    return _opened_source(p["source"], lambda src: ProcessBatchIter(
        ctx, pnode.logical, p["map"], p["source"], src, p["workers"], p["ring_depth"]))


def _cache_write(pnode, ctx, children):
    map_node = pnode.logical
    store = map_node.cache.open_stage(map_node.describe(), list(map_node.columns))
    try:
        return CacheWriteIter(ctx, children[0], store)
    except BaseException:
        store.close()
        raise


def _cache_read(pnode, ctx, children):
    write = children[0]
    return CacheReadIter(ctx, write, write.store, pnode.params["readers"],
                         pnode.params["rows_per_read"], pnode.params["replayable"])


def _cache_read_batches(pnode, ctx, children):
    batch = pnode.logical
    builder = BatchBuilder(batch)
    write = children[0]
    return CacheReadBatchesIter(ctx, write, write.store, pnode.params["readers"],
                                batch.batch_size, batch.drop_remainder,
                                lambda rows, num, epoch: builder.build(rows,
                                                                       BatchInfo(num, epoch)),
                                pnode.params["replayable"])


def _source_rows_cache(pnode, ctx, children):
    # The stage's columns are those of the opened RowSource (part of the stage's key).
    # Registered nodes are closed by the run if the source then fails to open.
    source = pnode.logical
    store = source.cache.open_stage(source.rows_key(), source.source_meta()["columns"])
    return SourceRowsCacheIter(ctx, store)


register("NativeBatch", _native_batch)
register("GpuBatch", build_gpu_batch)
register("GpuUnavailable", build_gpu_unavailable)
register("ProcessBatch", _process_batch)
register("CacheWrite", _cache_write)
register("CacheRead", _cache_read)
register("CacheReadBatches", _cache_read_batches)
register("SourceRowsCache", _source_rows_cache)
