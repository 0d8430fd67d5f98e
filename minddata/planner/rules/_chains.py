"""What several lowering rules check of a ``Batch(Map(Source))`` chain."""
from __future__ import annotations

from typing import Optional, Tuple

from ...graph.batch import Batch
from ...graph.map import Map
from ...graph.node import LogicalNode
from ...graph.source import Source
from ..options import PlanOptions


def batch_of_map(node: LogicalNode) -> Optional[Tuple[Batch, Map]]:
    """(batch, map) when ``node`` is a Batch over a Map, else None."""
    child = node.children[0] if node.children else None
    if isinstance(node, Batch) and isinstance(child, Map):
        return node, child
    return None


def uncached_random_access_source(node: LogicalNode) -> bool:
    return (isinstance(node, Source) and node.cache is None and node.random_access)


def workers_of(node: LogicalNode, options: PlanOptions) -> int:
    return node.num_parallel_workers or options.num_parallel_workers
