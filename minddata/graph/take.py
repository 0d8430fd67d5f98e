"""take: the first ``count`` rows of each epoch (all of them when count is -1)."""
from __future__ import annotations

from typing import Any, Optional

from .node import LogicalNode

from .checks import INT32_MAX as _INT32_MAX


def check_count(name: str, count: Any, allow_minus_one: bool) -> None:
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(f"{name} must be of type int, but got {type(count).__name__}")
    low = -1 if allow_minus_one else 0
    if not low <= count <= _INT32_MAX:
        raise ValueError(f"{name} {count} is not within the required interval of "
                         f"[{low}, {_INT32_MAX}]")


class Take(LogicalNode):
    kind = "Take"
    passes_rows = True

    def __init__(self, child: LogicalNode, count: int = -1) -> None:
        super().__init__([child])
        check_count("count", count, True)
        if count == 0:
            raise ValueError("count 0 is not within the required interval of [-1, 0) or "
                             f"[1, {_INT32_MAX}]")
        self.count = count

    def row_count(self) -> Optional[int]:
        n = self.children[0].row_count()
        if self.count == -1:
            return n
        return None if n is None else min(n, self.count)

    def _describe_self(self) -> str:
        return f"Take({self.count})"
