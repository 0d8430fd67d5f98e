"""map_fusion: ``Map(Map(x))`` over the same column(s) becomes one ``Map(x)`` running both
operation lists, so that ``Batch(Map(Map(Source)))`` reaches the native batch node and one
executor runs what two did.

Rows are unchanged: the fused map gives its ops the seed positions the two maps gave them
(the inner map's first, in build order), and both maps read and write the same columns.
"""
from __future__ import annotations

from typing import Union, cast

from ...graph.map import Map
from ...graph.node import LogicalNode
from ..options import PlanOptions
from ..rule import GraphRule, Skip


class MapFusion(GraphRule):
    name = "map_fusion"

    def rewrite(self, node: LogicalNode,
                options: PlanOptions) -> Union[LogicalNode, Skip, None]:
        if not isinstance(node, Map) or not isinstance(node.children[0], Map):
            return None
        inner = node.children[0]
        why = None
        if options.debug:
            why = "debug mode runs each map as written"
        elif node.cache is not None or inner.cache is not None:
            why = "a map caches its rows"
        elif node.callbacks or inner.callbacks:
            why = "a map has callbacks (they count its own rows)"
        elif not (node.in_cols == node.out_cols == inner.in_cols == inner.out_cols):
            why = "the maps do not read and write the same columns"
        elif node.python_multiprocessing != inner.python_multiprocessing:
            why = "one map runs in processes, the other in threads"
        elif node.num_parallel_workers != inner.num_parallel_workers:
            why = "the maps ask for different numbers of workers"
        elif node.device != inner.device:
            why = "the maps are placed on different devices (map(device=...))"
        if why is not None:
            return Skip(why)
        sizes = [s for s in (inner.max_rowsize, node.max_rowsize) if s is not None]
        # Where the first map ended is kept: MindSpore hands a map's PIL output to the next
        # map as an array, so the merged map turns a PIL image into one there (measured in
        # MindSpore 2.10: Decode, ToPIL, then a map of Resize(17, BICUBIC) is OpenCV's resize,
        # up to 138 levels from the Pillow path a merged list would take).
        first = len(inner.operations)
        return node.replace(children=inner.children,
                            operations=tuple(inner.operations) + tuple(node.operations),
                            map_ends=(*inner.map_ends, first,
                                      *(first + end for end in node.map_ends)),
                            max_rowsize=max(sizes) if sizes else None)

    def explain(self, old: LogicalNode, new: LogicalNode) -> str:
        outer, inner, fused = cast(Map, old), cast(Map, old.children[0]), cast(Map, new)
        return (f"Map({len(inner.operations)} ops) + Map({len(outer.operations)} ops) "
                f"on {list(outer.in_cols)} run as one map of {len(fused.operations)} ops")
