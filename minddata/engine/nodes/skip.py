"""The skip node: drops the first ``count`` rows of each epoch."""
from ...state_check import COUNT, FLAG, NODE, check_node_state
from ..node import IterNode


class SkipIter(IterNode):
    name = "Skip"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]])
        self.count = ds.count
        self.skipped = False

    def start(self, epoch):
        super().start(epoch)
        self.skipped = False

    def _next(self):
        child = self.children[0]
        if not self.skipped:
            self.skipped = True
            for _ in range(self.count):
                if self.pull(child) is None:
                    return None
        return self.pull(child)

    def get_state(self):
        return {"epoch": self.epoch, "skipped": self.skipped,
                "child": self.children[0].get_state()}

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, skipped=FLAG, child=NODE)
        self.epoch = state["epoch"]
        self.skipped = state["skipped"]
        self.children[0].reset(state["child"])
