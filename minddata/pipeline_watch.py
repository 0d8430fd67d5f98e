"""Watching a running pipeline from outside the engine (AutoTune and Dataset Profiling).

A ``RunWatch`` is attached to a user's iterator when it is created (through the iterator
registry's watchers): it sees every item the consumer takes (``on_item``) and the end of the
run (``on_close``), and reads the per-stage counters the engine keeps anyway
(engine/stats.py StageStats). Only the runs being watched get the extra call per item; a
pipeline without AutoTune or profiling runs exactly as before.

``op_tree`` names the ops of a pipeline as MindSpore's execution tree does (``MapOp``,
``BatchOp``, ``EpochCtrlOp`` above the root when more than one epoch is asked for, ...), which
is what MindSpore's profiling and AutoTune files list.
"""
import os
import sys
import time
import weakref

_perf = time.perf_counter

# Ops that MindSpore runs inline (no worker, no output queue): their profiling metrics are null.
INLINE_OPS = frozenset({"ZipOp", "ConcatOp", "EpochCtrlOp", "RenameOp", "RepeatOp", "SkipOp",
                        "TakeOp", "ProjectOp"})
# Source classes whose MindSpore op has another name than <class name minus Dataset>Op.
_SOURCE_OP_NAMES = {"TFRecordDataset": "TFReaderOp", "Cifar10Dataset": "CifarOp",
                    "Cifar100Dataset": "CifarOp", "MindDataset": "MindRecordOp",
                    "NumpySlicesDataset": "GeneratorOp", "PaddedDataset": "GeneratorOp"}
_KIND_OP_NAMES = {"BucketBatch": "BucketBatchByLengthOp", "SyncWait": "BarrierOp"}


def warn(message):
    """A warning on stderr, where MindSpore's engine writes its own (glog, shown unless
    ``GLOG_v`` is 3 or more), whatever Python's logging is set up to do."""
    level = (os.environ.get("GLOG_v") or "2").strip()
    if level in ("0", "1", "2"):
        print(f"[WARNING] MD({os.getpid()}): {message}", file=sys.stderr, flush=True)


def rank_id():
    """This process's rank (``RANK_ID``), 0 when unset, as MindSpore names its files."""
    return (os.environ.get("RANK_ID") or "0").strip() or "0"


def device_id():
    """``DEVICE_ID`` (the rank when unset): MindSpore's profiling files carry it."""
    return (os.environ.get("DEVICE_ID") or "").strip() or rank_id()


def _op_name(node):
    from .graph.source import Source
    if isinstance(node, Source):
        cls = type(node).__name__
        return _SOURCE_OP_NAMES.get(cls, cls.replace("Dataset", "") + "Op")
    return _KIND_OP_NAMES.get(node.kind, node.kind + "Op")


def op_tree(dataset, num_epochs):
    """[{"op_id", "op_type", "num_workers", "children", "node"}] of the pipeline, root first
    (ids in that order); an ``EpochCtrlOp`` tops it when ``num_epochs`` is not 1."""
    from . import config
    ops = []

    def visit(node):
        entry = {"op_id": len(ops), "op_type": _op_name(node), "node": node,
                 "num_workers": node.num_parallel_workers or config.get_num_parallel_workers()}
        ops.append(entry)
        entry["children"] = [visit(c) for c in node.children]
        return entry["op_id"]

    if num_epochs != 1:
        top = {"op_id": 0, "op_type": "EpochCtrlOp", "node": None, "num_workers": 0}
        ops.append(top)
        top["children"] = [visit(dataset)]
    else:
        visit(dataset)
    for entry in ops:
        if entry["op_type"] in INLINE_OPS:
            entry["num_workers"] = 0
    return ops


def match_stats(ops, stage_stats):
    """The engine's StageStats of each op of ``op_tree`` (by op id), None where the engine runs
    no stage of its own for it (inline ops, ops folded into another stage)."""
    by_name = {}
    for st in stage_stats:
        by_name.setdefault(st.name, []).append(st)
    # stage_stats come source first; op ids root first: match in the same (reversed) order.
    from .graph.source import Source
    matched = {}
    for entry in reversed(ops):
        node = entry["node"]
        if node is None:
            continue
        name = type(node).__name__ if isinstance(node, Source) else node.kind
        candidates = by_name.get(name)
        if candidates:
            matched[entry["op_id"]] = candidates.pop(0)
    return matched


class _Closer:
    """Registered with the run's build context, so the engine closes it with the run's nodes
    (first, while their counters are final)."""

    name = "pipeline watch"

    def __init__(self, on_close):
        self._on_close = on_close

    def close(self):
        on_close, self._on_close = self._on_close, None
        if on_close is not None:
            on_close()


class RunWatch:
    """Attach to ``iterator``'s run. Subclasses implement ``on_item(item, t_start, t_end)``
    (``item`` None at an epoch's end) and ``on_close()``."""

    def __init__(self, iterator):
        run = iterator._run      # the engine's PipelineRun behind the user's iterator
        self.dataset = iterator.dataset
        self.num_epochs = run.num_epochs
        self.stage_stats = run.stage_stats()
        self._queue = getattr(run, "_queue", None)
        self._run_ref = weakref.ref(run)
        self.closed = False
        # Another watch's wrapper, when the run has one: this one calls it.
        previous = vars(run).get("next_item")
        plain = type(run).next_item
        run_ref = self._run_ref
        watch_ref = weakref.ref(self)

        # No reference from the run to itself (a cycle would keep a dropped pipeline until
        # the garbage collector runs): the wrapper holds the run and the watch weakly.
        def next_item():
            t0 = _perf()
            item = plain(run_ref()) if previous is None else previous()
            watch = watch_ref()
            if watch is not None:
                watch.on_item(item, t0, _perf())
            return item

        run.next_item = next_item
        self._closer = _Closer(self._closed)
        run.ctx.register(self._closer)

    def queue_depth(self):
        """Chunks waiting in the run's prefetch queue (0 without one): the producer hands
        items over in small chunks, and the queue's capacity counts chunks too."""
        return self._queue.qsize() if self._queue is not None else 0

    def running(self):
        return not self.closed

    def _closed(self):
        self.closed = True
        self.on_close()
        self._queue = None      # the run's; nothing is read from it any more

    def on_item(self, item, t_start, t_end):
        raise NotImplementedError

    def on_close(self):
        raise NotImplementedError
