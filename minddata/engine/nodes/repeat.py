"""The repeat node: its child ``count`` times per epoch, each pass a separate epoch of the
child's random decisions."""
from ...state_check import COUNT, NODE, check_node_state, up_to
from ..node import IterNode
from ..positions import NestedState, replace


class RepeatIter(NestedState, IterNode):
    name = "Repeat"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]])
        self.count = ds.count
        self.rep = 0
        self._rows_this_pass = 0

    def _child_epoch(self, rep):
        return self.pass_epoch(self.count, self.epoch, rep)

    @staticmethod
    def pass_epoch(count, epoch, rep):
        """The epoch the child gets in pass ``rep``: a distinct id per (outer epoch, pass)."""
        if count == -1:
            return epoch * (1 << 32) + rep
        return epoch * count + rep

    # state codec (engine/positions.py) -------------------------------------------------------
    role = "repeat"

    @classmethod
    def state_at(cls, node, at, child):
        return {"epoch": at.epoch, "rep": at.rep, "rows": at.rows,
                "child": child(replace(at, epoch=cls.pass_epoch(node.count, at.epoch, at.rep)))}

    @staticmethod
    def items_in(state):
        return int(state["rows"])

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
