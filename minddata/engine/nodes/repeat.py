"""The repeat node: its child ``count`` times per epoch, each pass a separate epoch of the
child's random decisions."""
from ...state_check import COUNT, NODE, check_node_state, up_to
from ..node import IterNode


class RepeatIter(IterNode):
    name = "Repeat"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]])
        self.count = ds.count
        self.rep = 0
        self._rows_this_pass = 0

    def _child_epoch(self, rep):
        # A distinct epoch id per (outer epoch, pass).
        if self.count == -1:
            return self.epoch * (1 << 32) + rep
        return self.epoch * self.count + rep

    def start(self, epoch):
        self.epoch = epoch
        self.rep = 0
        self._rows_this_pass = 0
        self.children[0].start(self._child_epoch(0))

    def _next(self):
        child = self.children[0]
        while True:
            row = self.pull(child)
            if row is not None:
                self._rows_this_pass += 1
                return row
            if self._rows_this_pass == 0 and self.count == -1:
                return None  # an empty child repeated forever is still empty
            self.rep += 1
            if self.count != -1 and self.rep >= self.count:
                return None
            self._rows_this_pass = 0
            child.start(self._child_epoch(self.rep))

    def get_state(self):
        return {"epoch": self.epoch, "rep": self.rep, "rows": self._rows_this_pass,
                "child": self.children[0].get_state()}

    def reset(self, state):
        # rep == count: the last pass has ended (a state taken above the repeat after it).
        check_node_state(self, state, epoch=COUNT, rows=COUNT, child=NODE,
                         rep=COUNT if self.count == -1 else up_to(self.count))
        self.epoch = state["epoch"]
        self.rep = state["rep"]
        self._rows_this_pass = state["rows"]
        self.children[0].reset(state["child"])
