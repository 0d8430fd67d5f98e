"""project: keep the named columns, in the given order."""
from __future__ import annotations

from typing import Any, List

from .checks import check_columns, check_known_columns
from .node import LogicalNode


class Project(LogicalNode):
    kind = "Project"
    passes_rows = True
    keeps_positions = True

    def __init__(self, child: LogicalNode, columns: Any) -> None:
        super().__init__([child])
        cols = check_columns("columns", columns, allow_none=False)
        have = child.col_names()
        check_known_columns("project", "columns", cols, have)
        self.columns = cols
        self.index = [have.index(c) for c in cols]

    def col_names(self) -> List[str]:
        return list(self.columns)

    def _describe_self(self) -> str:
        return f"Project({self.columns})"
