"""The project node: keeps some columns, in a given order."""
from ..node import IterNode


class ProjectIter(IterNode):
    name = "Project"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]])
        self.index = ds.index

    def _next(self):
        row = self.pull(self.children[0])
        if row is None:
            return None
        return tuple(row[i] for i in self.index)

    def get_state(self):
        return self.children[0].get_state()

    def reset(self, state):
        self.children[0].reset(state)

    # state codec (engine/positions.py): the state is the child's -----------------------------
    role = "pass"

    @staticmethod
    def state_at(node, at, child):
        return child(at)

    @staticmethod
    def child_of(state):
        return state
