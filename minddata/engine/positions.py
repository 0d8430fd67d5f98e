"""Positions: each node that pins the source position of its rows writes the state it has at a
given position and reads the position back from its state (its state codec), so elastic resume
and the Ray service position a chain at item k by asking its nodes (``state_at``,
``items_in``, ``child_of`` of the engine node classes, found through registry.codec)."""
from dataclasses import dataclass, replace
from typing import Optional

__all__ = ["Position", "replace"]


@dataclass(frozen=True)
class Position:
    """Where a chain stands: ``items`` of a node's output returned in ``epoch``; for its
    source, the shard it reads and the resumed world of the epoch; for a repeat, the pass
    ``rep`` and the ``rows`` returned in it."""

    epoch: int
    items: int = 0
    world: Optional[dict] = None
    shard: tuple = (1, 0)
    rep: int = 0
    rows: int = 0


class NestedState:
    """The codec part shared by nodes whose state holds their child's under "child" (map,
    batch, repeat)."""

    @staticmethod
    def child_of(state):
        return state.get("child")
