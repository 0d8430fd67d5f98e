"""zip: rows side by side (columns of the first dataset, then the second, ...); stops at the
shortest dataset. Column names must not repeat."""
from __future__ import annotations

from typing import List, Optional, Sequence

from .node import LogicalNode


class Zip(LogicalNode):
    kind = "Zip"

    def __init__(self, datasets: Sequence[LogicalNode]) -> None:
        for d in datasets:
            if not isinstance(d, LogicalNode):
                raise TypeError(f"zip: every item must be a Dataset, got {type(d).__name__}")
        super().__init__(datasets)
        cols: List[str] = []
        for d in datasets:
            cols.extend(d.col_names())
        dup = sorted({c for c in cols if cols.count(c) > 1})
        if dup:
            raise ValueError(f"zip: column names {dup} appear in more than one dataset; "
                             f"rename them first")
        self.columns = cols

    def col_names(self) -> List[str]:
        return list(self.columns)

    def row_count(self) -> Optional[int]:
        sizes = [c.row_count() for c in self.children]
        known = [s for s in sizes if s is not None]
        return min(known) if len(known) == len(sizes) else None

    def _num_classes(self) -> Optional[int]:
        for c in self.children:
            n = c._num_classes()
            if n is not None:
                return n
        return None
