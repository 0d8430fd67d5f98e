"""The base of nodes that hand each of their child's rows on, one for one (project, rename):
their state is their child's, and so is their position."""
from ..node import IterNode


class PassThroughIter(IterNode):
    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]])

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
