"""The Ray actor that runs the shipped part of a pipeline on pieces of an epoch.

A piece is ``count`` items (batches, or rows without a batch) from item ``first`` of one epoch.
The actor builds the pipeline's nodes once per seed and repositions them for every piece with
``reset(state)``, the state a local run has after ``first`` items: the rows, and their random
draws, are those of a local run, whichever actor runs the piece, on as many threads as the actor
reserved CPUs.
"""
import os
import time

from .. import elastic
from ..engine.node import BuildContext
from ..planner import PlanOptions, plan
from ..planner.rules.prefetch import PASS_THROUGH_KINDS


class PieceWorker:
    """Runs pieces of any shipped chain; keeps the nodes of the last one it ran."""

    def __init__(self):
        self._key = None
        self._ctx = None
        self._root = None

    def ready(self):
        """Where the actor runs (the driver hands it pieces once this returned)."""
        import ray
        return {"node": ray.get_runtime_context().get_node_id(), "pid": os.getpid()}

    def run_piece(self, dataset_box, seed, epoch, world, first, count, tail=None):
        """(items, ended, seconds): up to ``count`` items; ``ended`` when the epoch ended
        before ``count`` items. ``dataset_box`` is ``[ObjectRef of the shipped chain]`` (in a
        list, so that Ray passes the reference and the chain is fetched only when new).
        ``tail``: a DeviceTail to finish the items with (the trainer finishes them otherwise)."""
        t0 = time.perf_counter()
        root, chain, shard = self._tree(dataset_box[0], seed)
        root.reset(elastic.positioned_state(chain, epoch, first, world, shard))
        # The next piece starts elsewhere: items computed ahead past this one would be lost.
        producer = root
        while producer.name in PASS_THROUGH_KINDS and len(producer.children) == 1:
            producer = producer.children[0]
        producer.limit_ready_ahead(count)
        items = []
        while len(items) < count:
            item = root.next()
            if item is None:
                break
            if tail is not None:
                item = list(item)
                item[tail.column] = tail.apply_native(item[tail.column])
                item = tuple(item)
            items.append(item)
        if (items and world is not None
                and elastic.chain_position(chain, root.get_state())[2] != world):
            raise RuntimeError("RayService: the planned pipeline's first node cannot read a "
                               "resharded epoch (it does not keep the elastic world)")
        return items, len(items) < count, time.perf_counter() - t0

    def _tree(self, ref, seed):
        key = (ref.hex(), seed)
        if key != self._key:
            import ray
            self.close()
            # The actor reserved some CPUs of its node: its source, maps and batches run on as
            # many threads, whatever num_parallel_workers the pipeline was written with for a
            # local run (rows do not depend on it), so that the actors do not oversubscribe
            # their node.
            cpus = ray.get_runtime_context().get_assigned_resources().get("CPU", 1)
            dataset = _with_workers(ray.get(ref), max(1, int(cpus)))
            self._chain = elastic.pipeline_chain(dataset, kinds=("map", "batch", "pass"))
            self._shard = self._chain[-1].shard()
            # Positions are assigned in build order from 0, as in the trainer's local build
            # (the shipped chain is the first part of the pipeline built).
            self._ctx = BuildContext(seed)
            self._root = self._ctx.build(plan(dataset, PlanOptions.from_config()).root)
            self._key = key
        return self._root, self._chain, self._shard

    def close(self):
        if self._ctx is not None:
            for node in reversed(self._ctx.nodes):
                node.close()
            self._ctx.threads.close()
        self._key = None
        self._ctx = None
        self._root = None


def _with_workers(node, workers):
    """The chain with every node asking for ``workers`` workers."""
    children = [_with_workers(c, workers) for c in node.children]
    return node.replace(children=children, num_parallel_workers=workers)
