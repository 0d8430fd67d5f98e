"""skip: drop the first ``count`` rows of each epoch."""
from __future__ import annotations

from typing import Optional

from .node import LogicalNode
from .take import check_count


class Skip(LogicalNode):
    kind = "Skip"
    passes_rows = True

    def __init__(self, child: LogicalNode, count: int) -> None:
        super().__init__([child])
        check_count("count", count, False)
        self.count = count

    def row_count(self) -> Optional[int]:
        n = self.children[0].row_count()
        return None if n is None else max(0, n - self.count)

    def _describe_self(self) -> str:
        return f"Skip({self.count})"
