"""sync_wait_serial: a map or batch above a ``sync_wait`` runs on one worker.

Parallel maps and batches read rows ahead of what they return (tasks in flight for every
worker). Above a sync_wait those rows are held back until the training loop calls
``sync_update``, which it does only after it received the batch those nodes are still
waiting to complete: the pipeline would stall until the wait times out. One worker reads one
row at a time, as the wait needs (MindSpore's ops hand each row on as soon as it is ready)."""
from __future__ import annotations

from typing import Union

from ...graph.batch import Batch
from ...graph.map import Map
from ...graph.node import LogicalNode
from ...graph.sync_wait import has_sync_wait
from ..options import PlanOptions
from ..rule import GraphRule, Skip


class SyncWaitSerial(GraphRule):
    name = "sync_wait_serial"

    def rewrite(self, node: LogicalNode,
                options: PlanOptions) -> Union[LogicalNode, Skip, None]:
        if not isinstance(node, (Map, Batch)) or node.num_parallel_workers == 1:
            return None
        if isinstance(node, Batch) and node.num_parallel_workers is None:
            return None     # a batch without workers is built inline already
        if not has_sync_wait(node):
            return None
        return node.replace(num_parallel_workers=1)

    def explain(self, old: LogicalNode, new: LogicalNode) -> str:
        return (f"{old.display_name()} above a sync_wait runs on one worker (it may not read "
                f"rows ahead of the wait)")
