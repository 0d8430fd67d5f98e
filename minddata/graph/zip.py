"""zip: rows side by side (columns of the first dataset, then the second, ...); stops at the
shortest dataset. Column names must not repeat."""
from __future__ import annotations

from typing import List, Optional, Sequence

from .checks import PipelineArgumentError
from .node import LogicalNode


class Zip(LogicalNode):
    kind = "Zip"

    def __init__(self, datasets: Sequence[LogicalNode]) -> None:
        for d in datasets:
            if not isinstance(d, LogicalNode):
                raise TypeError(f"Invalid dataset, expected Dataset object, but got {type(d)}!")
        super().__init__(datasets)
        cols: List[str] = []
        for d in datasets:
            cols.extend(d.col_names())
        dup = sorted({c for c in cols if cols.count(c) > 1})
        if dup:
            # MindSpore finds it when the pipeline starts (a RuntimeError).
            raise PipelineArgumentError(
                f"zip: column names {dup} appear in more than one dataset; rename them first. "
                f"[ERROR] Invalid data, duplicate column {dup[0]} already exists when zipping "
                f"datasets.")
        self.columns = cols

    def col_names(self) -> List[str]:
        return list(self.columns)

    def row_count(self) -> Optional[int]:
        sizes = [c.row_count() for c in self.children]
        known = [s for s in sizes if s is not None]
        return min(known) if len(known) == len(sizes) else None

    # MindSpore's getters read the last dataset (see graph/concat.py).
    def _batch_size(self) -> Optional[int]:
        return self.children[-1]._batch_size()

    def _repeat_count(self) -> int:
        return self.children[-1]._repeat_count()

    def _num_classes(self) -> Optional[int]:
        for c in self.children:
            n = c._num_classes()
            if n is not None:
                return n
        return None
