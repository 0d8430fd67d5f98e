"""rename: change column names; the data and column order are unchanged."""
from __future__ import annotations

from typing import Any, List

from .checks import PipelineArgumentError, check_columns, check_known_columns
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
                             f"({len(outs)}) must have the same length. Number of column in "
                             f"input_columns and output_columns is not equal.")
        have = child.col_names()
        check_known_columns("rename", "input_columns", ins, have)
        mapping = dict(zip(ins, outs))
        new = [mapping.get(c, c) for c in have]
        dup = [c for c in outs if new.count(c) > 1]
        if dup:
            # MindSpore finds it when the pipeline starts (a RuntimeError).
            raise PipelineArgumentError(
                f"rename: the result {new} has duplicate column names. [ERROR] Invalid column, "
                f"rename operation does not support rename one column name into another "
                f"already exist column name, existing column name is: {dup[0]}.")
        self.columns = new
        self.mapping = mapping

    def col_names(self) -> List[str]:
        return list(self.columns)

    def _describe_self(self) -> str:
        return f"Rename({self.mapping})"
