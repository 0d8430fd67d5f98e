"""process_batches: ``Batch(Map(Source, python_multiprocessing=True))`` (the PIL path) runs in
worker processes a whole batch per task (engine/process_batch.py): shared memory, nothing
pickled per row."""
from __future__ import annotations

from typing import Union

from ...graph.node import LogicalNode
from ..physical import PhysicalNode
from ..rule import LoweringContext, LoweringRule, Skip
from ._chains import batch_of_map, uncached_random_access_source, workers_of


class ProcessBatches(LoweringRule):
    name = "process_batches"

    def lower(self, node: LogicalNode,
              lowering: LoweringContext) -> Union[PhysicalNode, Skip, None]:
        found = batch_of_map(node)
        if found is None or not found[1].python_multiprocessing:
            return None
        batch, map_node = found
        source = map_node.children[0]
        options = lowering.options
        workers = workers_of(map_node, options)
        why = None
        if not options.native_batches:
            why = "batch rewrites are switched off (config.set_native_batches)"
        elif options.debug or workers < 2:
            why = "debug mode or one worker: the map runs inline"
        elif not batch.is_plain():
            why = "the batch pads, has a per_batch_map or a callable batch_size"
        elif map_node.cache is not None or map_node.callbacks:
            why = "the map caches or has callbacks"
        elif not uncached_random_access_source(source):
            why = (f"the map's input is {source.display_name()}, not an uncached source read "
                   f"by row id")
        if why is not None:
            return Skip(why)
        depth = max(options.batch_ring_depth, 2 * workers)
        lowering.note(self.name, "Batch", True,
                      f"{workers} worker processes read, map and batch whole batches of "
                      f"{batch.batch_size} rows (shared memory, nothing pickled per row)")
        return PhysicalNode("ProcessBatch", f"ProcessBatch({source.display_name()}+Map+Batch)",
                            batch, params={"map": map_node, "source": source,
                                           "workers": workers, "ring_depth": depth},
                            ready_ahead=True)
