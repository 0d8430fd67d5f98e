"""cache (on a map): ``cache=`` on a map becomes CacheRead over CacheWrite over the map
(engine/cache_read.py, cache_write.py): the map runs only in epochs that find the stage
incomplete; the others read its rows from the store."""
from __future__ import annotations

from typing import Union

from ...graph.map import Map
from ...graph.node import LogicalNode
from ..options import PlanOptions
from ..physical import PhysicalNode
from ..rule import LoweringContext, LoweringRule, Skip

#: Rows per read task of a cached map read row by row, unless DatasetCache(prefetch_size=...)
#: says otherwise.
CACHE_ROWS_PER_READ = 32


def cache_readers(map_node: Map, options: PlanOptions) -> int:
    """Reader threads of a cached map's complete stage: reading is copying, so two keep a
    consumer fed and more would only hold more batches in memory; none in debug mode (each
    read runs when its rows are asked for)."""
    if options.debug:
        return 0
    return min(4, max(2, map_node.num_parallel_workers or options.num_parallel_workers))


def cache_write_of(map_node: Map, lowering: LoweringContext) -> PhysicalNode:
    """The CacheWrite node over the cached map (the map's input planned as usual)."""
    mapped = PhysicalNode("Map", map_node.display_name(), map_node,
                          (lowering.lower(map_node.children[0]),))
    return PhysicalNode("CacheWrite", "CacheWrite", map_node, (mapped,))


class CacheMap(LoweringRule):
    name = "cache"

    def lower(self, node: LogicalNode,
              lowering: LoweringContext) -> Union[PhysicalNode, Skip, None]:
        if not isinstance(node, Map) or node.cache is None:
            return None
        write = cache_write_of(node, lowering)
        lowering.note(self.name, "Map", True, "CacheRead over CacheWrite over the map: the map "
                                              "runs only in epochs that find the stage "
                                              "incomplete")
        rows = getattr(node.cache, "prefetch_size", None) or CACHE_ROWS_PER_READ
        return PhysicalNode("CacheRead", "CacheRead", node, (write,),
                            params={"readers": cache_readers(node, lowering.options),
                                    "rows_per_read": rows,
                                    "replayable": not node.children[0].is_random()})
