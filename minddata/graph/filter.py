"""filter(predicate): keep the rows for which predicate(*columns) is true."""
from __future__ import annotations

from typing import Any, Callable, Optional

from .checks import check_columns, check_known_columns, check_num_parallel_workers
from .node import LogicalNode
from ..cache.identity import describe_operation


class Filter(LogicalNode):
    kind = "Filter"

    def __init__(self, child: LogicalNode, predicate: Callable[..., Any], input_columns: Any = None,
                 num_parallel_workers: Optional[int] = None) -> None:
        if not callable(predicate):         # before the workers, as MindSpore 2.10 checks
            raise TypeError(f"Predicate should be a Python function or a callable Python "
                            f"object, got {type(predicate).__name__}.")
        super().__init__([child], check_num_parallel_workers(num_parallel_workers))
        cols = check_columns("input_columns", input_columns)
        have = child.col_names()
        if cols is not None:
            check_known_columns("filter", "input_columns", cols, have)
        self.predicate = predicate
        self.input_columns = cols
        self.index = [have.index(c) for c in cols] if cols is not None else None

    def row_count(self) -> Optional[int]:
        return None

    def _describe_self(self) -> str:
        # Cache keys: the predicate's code and state (cache/identity.py), not its name.
        return f"Filter({describe_operation(self.predicate)}, {self.input_columns})"
