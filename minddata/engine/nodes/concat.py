"""The concat node: the rows of each child in turn."""
import numpy as np

from ..node import IterNode


class ConcatIter(IterNode):
    name = "Concat"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, list(children))
        self.current = 0

    def start(self, epoch):
        self.epoch = epoch
        self.current = 0
        self.children[0].start(epoch)

    def _next(self):
        while self.current < len(self.children):
            row = self.pull(self.children[self.current])
            if row is not None:
                return row
            self.current += 1
            if self.current < len(self.children):
                self.children[self.current].start(self.epoch)
        return None

    def prov_token(self):
        if self.current < len(self.children):
            return self.children[self.current].prov_token()
        return None

    def get_state(self):
        i = min(self.current, len(self.children) - 1)
        return {"epoch": self.epoch, "current": self.current,
                "child": self.children[i].get_state()}

    def reset(self, state):
        self.epoch = state["epoch"]
        self.current = state["current"]
        if self.current < len(self.children):
            self.children[self.current].reset(state["child"])
