"""cache (on a source): the source reads its rows through a cache node keyed by row id
(engine/cache_source_rows.py): rows by id from the store, the misses from the source, then
stored. Every sharding and sampling of one source shares the stage."""
from __future__ import annotations

from typing import Union

from ...graph.node import LogicalNode
from ...graph.source import Source
from ..physical import PhysicalNode
from ..rule import LoweringContext, LoweringRule, Skip


class CacheSource(LoweringRule):
    name = "cache"

    def lower(self, node: LogicalNode,
              lowering: LoweringContext) -> Union[PhysicalNode, Skip, None]:
        if not isinstance(node, Source) or node.cache is None:
            return None
        rows = PhysicalNode("SourceRowsCache", "CacheReadWrite(rows by id)", node)
        lowering.note(self.name, node.display_name(), True,
                      f"{node.display_name()} reads its rows through {rows.name}: rows by id "
                      f"from the store, the misses from the source, then stored")
        return PhysicalNode(node.kind, node.display_name(), node, (rows,))
