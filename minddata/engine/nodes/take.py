"""The take node: the first ``count`` rows of each epoch."""
from ...state_check import COUNT, NODE, check_node_state, up_to
from ..node import IterNode


class TakeIter(IterNode):
    name = "Take"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]])
        self.count = ds.count
        self.taken = 0

    def start(self, epoch):
        super().start(epoch)
        self.taken = 0

    def _next(self):
        if self.count != -1 and self.taken >= self.count:
            return None
        row = self.pull(self.children[0])
        if row is not None:
            self.taken += 1
        return row

    def get_state(self):
        return {"epoch": self.epoch, "taken": self.taken, "child": self.children[0].get_state()}

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, child=NODE,
                         taken=COUNT if self.count == -1 else up_to(self.count))
        self.epoch = state["epoch"]
        self.taken = state["taken"]
        self.children[0].reset(state["child"])
