"""The logical node: what the ``Dataset`` API builds, frozen once built.

A logical node says *what* a pipeline computes, never how: its children, its validated
arguments, and the traits the planner (minddata/planner/) decides from. It imports nothing
of the planner or the engine; the engine reads it, the planner rewrites graphs of them (a
rewrite builds new nodes with ``replace`` / ``with_children``, the graph it was given stays as
it is).

Subclasses implement the hooks ``column_names``, ``row_count``, ``_is_random_self``,
``_describe_self`` (and, where they differ from their child's, ``_num_classes``,
``_class_indexing``, ``_batch_size``, ``_repeat_count``) and declare the class attributes
``kind`` (the physical node the engine runs for them unless a rule says otherwise),
``passes_rows`` and ``keeps_positions``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple


@dataclass(frozen=True)
class Traits:
    """What the planner may know of a node without opening a file or running anything."""

    columns: tuple[str, ...]
    #: rows (or batches) per epoch; None when only iterating can tell (a filter)
    size: Optional[int]
    #: any random draw in this node or below it
    random: bool
    #: hands its child's rows on without per-row work (repeat, take, skip, project, rename)
    passes_rows: bool
    #: its state pins the source position of every row it returned (source, map, batch of
    #: an int size, project, rename, repeat): elastic resume and the service need that
    keeps_positions: bool
    #: can run in another process or on another node (no cache, no callbacks)
    shippable: bool


class _FrozenAfterInit(type):
    """Nodes are mutable while their ``__init__`` (the whole chain of it) runs, then frozen."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        node = super().__call__(*args, **kwargs)
        # The arguments it was built with: ds.serialize writes a source from them.
        object.__setattr__(node, "_init_args", (args, kwargs))
        object.__setattr__(node, "_frozen", True)
        return node


class LogicalNode(metaclass=_FrozenAfterInit):
    """Base of every logical node. Public attributes are fixed once the node is built;
    attributes whose names start with ``_`` are memos of what the node computes about itself
    (the source's metadata, a size counted once) and may be filled in later."""

    kind = "Node"
    passes_rows = False
    keeps_positions = False

    children: Tuple["LogicalNode", ...]
    num_parallel_workers: Optional[int]

    def __init__(self, children: Sequence["LogicalNode"] = (),
                 num_parallel_workers: Optional[int] = None):
        self.children = tuple(children)
        self.num_parallel_workers = num_parallel_workers

    def __setattr__(self, name: str, value: Any) -> None:
        if not name.startswith("_") and self.__dict__.get("_frozen"):
            raise AttributeError(f"{type(self).__name__} is immutable once built: {name!r} "
                                 f"cannot be set; build a new node (replace(), with_children())")
        object.__setattr__(self, name, value)

    # -- rewriting ------------------------------------------------------------------------
    def replace(self, **fields: Any) -> "LogicalNode":
        """A copy with some public fields changed (a rewrite's building block). Memos of
        what the node computed about itself are dropped, except the source's metadata."""
        unknown = [k for k in fields if k.startswith("_") or k not in self.__dict__]
        if unknown:
            raise AttributeError(f"{type(self).__name__} has no field(s) {unknown}")
        new = copy.copy(self)
        for k, v in fields.items():
            object.__setattr__(new, k, tuple(v) if k == "children" else v)
        new._forget_memos()
        return new

    def with_children(self, children: Sequence["LogicalNode"]) -> "LogicalNode":
        return self.replace(children=tuple(children))

    def _forget_memos(self) -> None:
        """Hook: drop memos that depend on the fields a rewrite changed."""

    # -- traits ---------------------------------------------------------------------------
    @property
    def traits(self) -> Traits:
        return Traits(columns=tuple(self.col_names()), size=self.row_count(),
                      random=self.is_random(), passes_rows=self.passes_rows,
                      keeps_positions=self.keeps_positions, shippable=self.is_shippable())

    def col_names(self) -> List[str]:
        return self.children[0].col_names()

    def row_count(self) -> Optional[int]:
        """Rows per epoch, or None when only iterating can tell (filter, ...)."""
        return self.children[0].row_count()

    def _is_random_self(self) -> bool:
        return False

    def is_random(self) -> bool:
        return self._is_random_self() or any(c.is_random() for c in self.children)

    def _shippable_self(self) -> bool:
        return True

    def is_shippable(self) -> bool:
        return self._shippable_self() and all(c.is_shippable() for c in self.children)

    def _describe_self(self) -> str:
        return self.kind

    def describe(self) -> str:
        """Stable text identifying the pipeline up to this node (cache keys)."""
        inner = ",".join(c.describe() for c in self.children)
        return f"{self._describe_self()}({inner})" if inner else self._describe_self()

    def _num_classes(self) -> Optional[int]:
        return self.children[0]._num_classes() if self.children else None

    def _class_indexing(self) -> Optional[Dict[str, int]]:
        return self.children[0]._class_indexing() if self.children else None

    def _batch_size(self) -> Optional[int]:
        return self.children[0]._batch_size() if self.children else 1

    def _repeat_count(self) -> int:
        return self.children[0]._repeat_count() if self.children else 1

    def display_name(self) -> str:
        """The name the plan and the stage statistics give this node's physical node."""
        return self.kind


def walk(node: LogicalNode) -> List[LogicalNode]:
    """Every node of a graph once, children before parents (depth-first)."""
    seen: Set[int] = set()
    out: List[LogicalNode] = []

    def visit(n: LogicalNode) -> None:
        if id(n) in seen:
            return
        seen.add(id(n))
        for c in n.children:
            visit(c)
        out.append(n)
    visit(node)
    del visit    # a recursive closure refers to itself: free the graph without the GC
    return out
