"""The planner: a logical graph in, a ``Plan`` out (physical tree + every rule's decision).

1. Graph rules (rules.GRAPH_RULES, in order) rewrite the logical graph bottom-up: each node's
   children first, then the node, again until no rule fires on it.
2. Lowering rules (rules.LOWERING_RULES, in order) are tried on each node from the root down;
   the first that returns a physical node takes the node (and the chain it consumed) over. A
   node no rule takes becomes the physical node of its own ``kind``.
3. The prefetch rule decides whether the run needs its producer thread.

Nothing is opened, started or run: the plan is data (tests plan graphs and read the result).
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ..graph.node import LogicalNode
from .options import PlanOptions
from .physical import Decision, PhysicalNode, Plan
from .rule import GraphRule, Skip
from .rules import GRAPH_RULES, LOWERING_RULES, prefetch


class Lowering:
    """One planning: the options, the decisions so far, and ``lower(node)`` for rules that
    plan the rest of a chain."""

    def __init__(self, options: PlanOptions,
                 graph_rules: Sequence[GraphRule] = GRAPH_RULES) -> None:
        self.options = options
        self.graph_rules = graph_rules
        self.decisions: List[Decision] = []

    def note(self, rule: str, target: str, fired: bool, why: str) -> None:
        self.decisions.append(Decision(rule, target, fired, why))

    # -- graph rules -----------------------------------------------------------------------
    def rewrite(self, node: LogicalNode) -> LogicalNode:
        children = [self.rewrite(c) for c in node.children]
        if any(a is not b for a, b in zip(children, node.children)):
            node = node.with_children(children)
        changed = True
        while changed:
            changed = False
            for rule in self.graph_rules:
                out = rule.rewrite(node, self.options)
                if isinstance(out, Skip):
                    self.note(rule.name, node.display_name(), False, out.why)
                elif out is not None:
                    self.note(rule.name, node.display_name(), True, rule.explain(node, out))
                    node, changed = out, True
                    break
        return node

    # -- lowering --------------------------------------------------------------------------
    def lower(self, node: LogicalNode) -> PhysicalNode:
        for rule in LOWERING_RULES:
            out = rule.lower(node, self)
            if isinstance(out, Skip):
                self.note(rule.name, node.display_name(), False, out.why)
            elif out is not None:
                return out
        return default_node(node, tuple(self.lower(c) for c in node.children))


def default_node(node: LogicalNode, children: Tuple[PhysicalNode, ...]) -> PhysicalNode:
    """The physical node of the node's own kind."""
    return PhysicalNode(node.kind, node.display_name(), node, children,
                        ready_ahead=bool(getattr(node, "ready_ahead", False)))


def plan(graph: LogicalNode, options: Optional[PlanOptions] = None) -> Plan:
    """The plan of a logical graph (``options``: the configuration's, by default)."""
    options = options if options is not None else PlanOptions.from_config()
    lowering = Lowering(options)
    graph = lowering.rewrite(graph)
    root = lowering.lower(graph)
    needs_thread = prefetch.needs_prefetch_thread(root, lowering)
    return Plan(root, lowering.decisions, needs_thread)


def rewrite_graph(graph: LogicalNode, options: PlanOptions,
                  rules: Sequence[GraphRule] = GRAPH_RULES
                  ) -> Tuple[LogicalNode, List[Decision]]:
    """The graph rules alone (all of them, or ``rules``): (rewritten graph, decisions)."""
    lowering = Lowering(options, rules)
    return lowering.rewrite(graph), lowering.decisions
