"""The plan as data: physical nodes, the rules' decisions, and the report ``Dataset.plan()``
returns. Nothing here runs anything: the engine (minddata/engine/registry.py) turns a
``PhysicalNode`` tree into iterator nodes."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Sequence, Tuple

from ..graph.node import LogicalNode


@dataclass(frozen=True)
class PhysicalNode:
    """One node the engine will run.

    ``kind`` is the engine registry's key; ``logical`` the node it runs (for a node that runs a
    chain, the chain's top); ``params`` what the rule that made it found (the chain's other
    nodes, a compiled plan, ...); ``fallback`` a plan to run instead when a condition that only
    an open source can confirm does not hold (a native batch whose source offers no native
    access to the column after all); ``ready_ahead``: the node keeps items ready by itself, so
    no prefetch thread is needed above it."""

    kind: str
    name: str
    logical: LogicalNode
    children: Tuple["PhysicalNode", ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    fallback: Optional["PhysicalNode"] = None
    ready_ahead: bool = False

    def walk(self) -> List[Tuple[int, "PhysicalNode"]]:
        """(depth, node) pairs, root first, depth-first."""
        out: List[Tuple[int, PhysicalNode]] = []

        def visit(node: PhysicalNode, depth: int) -> None:
            out.append((depth, node))
            for c in node.children:
                visit(c, depth + 1)
        visit(self, 0)
        del visit    # a recursive closure refers to itself: free the graph without the GC
        return out


@dataclass(frozen=True)
class Decision:
    """One rule looking at one node: did it fire, and why (not)."""

    rule: str
    target: str
    fired: bool
    why: str

    def __repr__(self) -> str:
        return (f"{self.rule} on {self.target}: {'fired' if self.fired else 'not applied'}"
                f" ({self.why})")


class Plan:
    """What ``Dataset.plan()`` returns: the physical tree (``root``; ``nodes``, its names root
    first, depth-first), whether the run needs its prefetch thread, and every rule decision
    (``rewrites``, ``fired(rule)``)."""

    def __init__(self, root: PhysicalNode, decisions: Sequence[Decision],
                 prefetch: bool) -> None:
        self.root = root
        self.rewrites = list(decisions)
        self.prefetch = prefetch
        self.nodes = [node.name for _, node in root.walk()]

    def fired(self, rule: str) -> bool:
        return any(r.rule == rule and r.fired for r in self.rewrites)

    def decisions_of(self, rule: str) -> List[Decision]:
        return [r for r in self.rewrites if r.rule == rule]

    def __str__(self) -> str:
        lines = ["  " * (depth + 1) + node.name for depth, node in self.root.walk()]
        return ("planned tree:\n" + "\n".join(lines) +
                "\nrewrites:\n" + "\n".join(f"  {r!r}" for r in self.rewrites))

    __repr__ = __str__
