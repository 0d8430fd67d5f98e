"""concat (and ``+``): the rows of each dataset in turn; all must have the same columns."""
from __future__ import annotations

from typing import Optional, Sequence

from .node import LogicalNode


class Concat(LogicalNode):
    kind = "Concat"

    def __init__(self, datasets: Sequence[LogicalNode]) -> None:
        for d in datasets:
            if not isinstance(d, LogicalNode):
                raise TypeError(f"concat: every item must be a Dataset, got {type(d).__name__}")
        super().__init__(datasets)
        first = datasets[0].col_names()
        for d in datasets[1:]:
            if d.col_names() != first:
                raise ValueError(f"concat: datasets must have the same columns in the same "
                                 f"order, got {first} and {d.col_names()}")

    def row_count(self) -> Optional[int]:
        sizes = [c.row_count() for c in self.children]
        known = [s for s in sizes if s is not None]
        return sum(known) if len(known) == len(sizes) else None

    def _batch_size(self) -> Optional[int]:
        return self.children[0]._batch_size()
