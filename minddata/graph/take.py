"""take: the first ``count`` rows of each epoch (all of them when count is -1)."""
from __future__ import annotations

from typing import Any, Optional

from .node import LogicalNode

from .checks import INT32_MAX as _INT32_MAX
from .checks import out_of_range, wrong_type


def check_count(name: str, count: Any, allow_minus_one: bool) -> None:
    if isinstance(count, bool) or not isinstance(count, int):
        raise wrong_type(name, count, int)
    low = -1 if allow_minus_one else 0
    if not low <= count <= _INT32_MAX:
        words = (f"{name} should be either -1 or within the required interval of "
                 f"(0, {_INT32_MAX}], got {count}." if allow_minus_one else "")
        raise out_of_range(name, count, low, _INT32_MAX, words)


class Take(LogicalNode):
    kind = "Take"
    passes_rows = True

    def __init__(self, child: LogicalNode, count: int = -1) -> None:
        super().__init__([child])
        check_count("count", count, True)
        if count == 0:
            raise ValueError(f"count 0 is not within the required interval of [-1, 0) or "
                             f"[1, {_INT32_MAX}]: count should be either -1 or within the "
                             f"required interval of (0, {_INT32_MAX}], got 0.")
        self.count = count

    def row_count(self) -> Optional[int]:
        n = self.children[0].row_count()
        if self.count == -1:
            return n
        return None if n is None else min(n, self.count)

    def _describe_self(self) -> str:
        return f"Take({self.count})"
