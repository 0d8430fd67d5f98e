"""cached_batches: ``Batch(Map(cache=...))`` with a plain batch becomes one CacheRead node that
emits whole batches read from the store (one copy per row, straight into the batch arrays) in
the epochs that find the stage complete, else the batches of the map's CacheWrite rows
(engine/cache_read_batches.py)."""
from __future__ import annotations

from typing import Union

from ...graph.node import LogicalNode
from ..physical import PhysicalNode
from ..rule import LoweringContext, LoweringRule, Skip
from ._chains import batch_of_map
from .cache_map import cache_readers, cache_write_of


class CachedBatches(LoweringRule):
    name = "cached_batches"

    def lower(self, node: LogicalNode,
              lowering: LoweringContext) -> Union[PhysicalNode, Skip, None]:
        found = batch_of_map(node)
        if found is None or found[1].cache is None:
            return None
        batch, map_node = found
        if not batch.is_plain():
            return Skip("the batch pads, has a per_batch_map or a callable batch_size")
        if lowering.options.debug:
            return Skip("debug mode batches the rows of the cache-read node")
        write = cache_write_of(map_node, lowering)
        lowering.note(self.name, "Batch", True,
                      f"CacheRead(batches) reads whole batches of {batch.batch_size} rows from "
                      f"the store once its stage is complete, else batches the rows of "
                      f"CacheWrite")
        lowering.note("cache", "Map", True, "CacheRead(batches) over CacheWrite over the map")
        return PhysicalNode("CacheReadBatches", "CacheRead(batches)", batch, (write,),
                            params={"readers": cache_readers(map_node, lowering.options),
                                    "replayable": not map_node.children[0].is_random()})
