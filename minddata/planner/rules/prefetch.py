"""prefetch: the run's producer thread and bounded queue (engine/run.py) are the prefetch
node; they are left out when the root keeps items ready by itself (a native batch ring under
nodes that only pass batches on), since a second thread would only add hand-overs of the
interpreter lock."""
from __future__ import annotations

from ..physical import PhysicalNode
from ..rule import LoweringContext


#: Physical nodes that hand their child's items on without per-row Python work of their own.
PASS_THROUGH_KINDS = ("Repeat", "Take", "Skip", "Project", "Rename")


def needs_prefetch_thread(root: PhysicalNode, lowering: LoweringContext) -> bool:
    node = root
    while node.kind in PASS_THROUGH_KINDS and len(node.children) == 1:
        node = node.children[0]
    if node.ready_ahead:
        lowering.note("prefetch", root.name, False, f"{node.name} keeps items ready itself")
        return False
    lowering.note("prefetch", root.name, True, "a producer thread fills a bounded queue of "
                                               f"{lowering.options.prefetch_size} items")
    return True
