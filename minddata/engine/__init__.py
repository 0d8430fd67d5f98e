"""The engine: runs a plan (minddata/planner/) as a tree of iterator nodes, one builder per
kind of physical node (registry.py; builders.py registers the engine's own)."""
from . import builders  # noqa: F401  (registers the engine's kinds of physical node)
