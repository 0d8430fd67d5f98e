"""repeat: run the child pipeline ``count`` times per epoch (forever when count is None/-1).
Each pass is a separate epoch for the child's random decisions (a shuffle under a repeat
reshuffles every pass)."""
from __future__ import annotations

from typing import Optional

from .node import LogicalNode

from .checks import INT32_MAX as _INT32_MAX
from .checks import wrong_type


class Repeat(LogicalNode):
    kind = "Repeat"
    passes_rows = True
    keeps_positions = True

    def __init__(self, child: LogicalNode, count: Optional[int] = None) -> None:
        super().__init__([child])
        if count is None:
            count = -1
        if isinstance(count, bool) or not isinstance(count, int):
            # MindSpore names the argument after the method here.
            raise wrong_type('repeat', count, int, type(None))
        if count != -1 and not 1 <= count <= _INT32_MAX:
            raise ValueError(f"count {count} is not within the required interval of "
                             f"[-1, 0) or [1, {_INT32_MAX}]: count should be either -1 or "
                             f"positive integer, range[1, INT32_MAX].")
        self.count = count

    def row_count(self) -> Optional[int]:
        n = self.children[0].row_count()
        if n is None:
            return None
        return n * self.count if self.count != -1 else n

    def _repeat_count(self) -> int:
        # MindSpore's get_repeat_count: the count of the repeat nearest the root, not the
        # product of nested ones (repeat(2).repeat(3) -> 3); a repeat(1) changes nothing and
        # does not count (repeat(2).repeat(1) -> 2).
        return self.children[0]._repeat_count() if self.count == 1 else self.count

    def _describe_self(self) -> str:
        return f"Repeat({self.count})"


def one_pass(node: LogicalNode) -> LogicalNode:
    """``node``'s graph with every infinite repeat running its child once: the graph whose
    rows a size count iterates (MindSpore's dataset size of ``repeat()`` is its child's)."""
    children = [one_pass(c) for c in node.children]
    if isinstance(node, Repeat) and node.count == -1:
        return children[0]
    if all(new is old for new, old in zip(children, node.children)):
        return node
    return node.with_children(children)
