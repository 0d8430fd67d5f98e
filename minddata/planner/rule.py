"""What a rule is. Two kinds, applied in this order by the planner (planner.py):

- a ``GraphRule`` rewrites the logical graph into another logical graph (map fusion,
  auto-shard): ``rewrite(node, options)`` returns the new node, or a ``Skip`` saying why not,
  or None when the node is none of its business;
- a ``LoweringRule`` turns a logical node (and the chain below it that it takes over) into a
  physical node: ``lower(node, lowering)`` returns a ``PhysicalNode``, a ``Skip`` or None.
  ``lowering.lower(child)`` plans a child with every rule (the chain's rest).

Rules are small objects without state; each one lives in its own module under rules/ and is
registered, in order, in rules/__init__.py. They read nodes through their public fields and
traits only, and open nothing: what only an open source can tell is left to the physical
node's ``fallback``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Protocol, Union

from ..graph.node import LogicalNode
from .options import PlanOptions
from .physical import PhysicalNode


class LoweringContext(Protocol):
    """What a lowering rule sees of the planning it is part of (planner.Lowering)."""

    options: PlanOptions

    def note(self, rule: str, target: str, fired: bool, why: str) -> None:
        """Records a decision (a rule that fired, or did not and why) in the plan."""
        ...

    def lower(self, node: LogicalNode) -> PhysicalNode:
        """Plans ``node`` (a chain's rest) with every rule."""
        ...


@dataclass(frozen=True)
class Skip:
    """The rule looked at the node and does not apply: ``why``."""

    why: str


class GraphRule:
    name: str = ""

    def rewrite(self, node: LogicalNode,
                options: PlanOptions) -> Union[LogicalNode, Skip, None]:
        raise NotImplementedError

    def explain(self, old: LogicalNode, new: LogicalNode) -> str:
        """Why-text of a rewrite that fired."""
        return f"{old.display_name()} rewritten"


class LoweringRule:
    name: str = ""

    def lower(self, node: LogicalNode,
              lowering: LoweringContext) -> Union[PhysicalNode, Skip, None]:
        raise NotImplementedError


Outcome = Optional[Union[LogicalNode, PhysicalNode, Skip]]
