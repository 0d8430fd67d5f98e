"""rename: change column names; the data and column order are unchanged."""
from __future__ import annotations

from typing import Any, List

from .checks import check_columns, check_known_columns
from .node import LogicalNode


class Rename(LogicalNode):
    kind = "Rename"
    passes_rows = True
    keeps_positions = True

    def __init__(self, child: LogicalNode, input_columns: Any, output_columns: Any) -> None:
        super().__init__([child])
        ins = check_columns("input_columns", input_columns, allow_none=False)
        outs = check_columns("output_columns", output_columns, allow_none=False)
        if len(ins) != len(outs):
            raise ValueError(f"rename: input_columns ({len(ins)}) and output_columns "
                             f"({len(outs)}) must have the same length")
        have = child.col_names()
        check_known_columns("rename", "input_columns", ins, have)
        mapping = dict(zip(ins, outs))
        new = [mapping.get(c, c) for c in have]
        if len(set(new)) != len(new):
            raise ValueError(f"rename: the result {new} has duplicate column names")
        self.columns = new
        self.mapping = mapping

    def col_names(self) -> List[str]:
        return list(self.columns)

    def _describe_self(self) -> str:
        return f"Rename({self.mapping})"
