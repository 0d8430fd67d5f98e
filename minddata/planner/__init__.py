"""The planner layer: rule objects over the logical graph (minddata/graph/), producing a plan
of physical nodes that the engine (minddata/engine/) runs. Imports the graph, never the engine.
"""
from .options import PlanOptions
from .physical import Decision, PhysicalNode, Plan
from .planner import plan, rewrite_graph

__all__ = ["Decision", "PhysicalNode", "Plan", "PlanOptions", "plan", "rewrite_graph"]
