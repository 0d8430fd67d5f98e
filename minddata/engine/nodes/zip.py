"""The zip node: rows of its children side by side, to the shortest child's end."""
from ...state_check import COUNT, FLAG, check_node_state, states_of
from ..node import IterNode


class ZipIter(IterNode):
    name = "Zip"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, list(children))
        self._done = False

    def start(self, epoch):
        super().start(epoch)
        self._done = False

    def _next(self):
        if self._done:
            return None
        out = []
        for c in self.children:
            row = self.pull(c)
            if row is None:
                self._done = True
                return None
            out.extend(row)
        return tuple(out)

    def get_state(self):
        return {"epoch": self.epoch, "done": self._done,
                "children": [c.get_state() for c in self.children]}

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, done=FLAG,
                         children=states_of(len(self.children)))
        self.epoch = state["epoch"]
        self._done = state["done"]
        for c, s in zip(self.children, state["children"]):
            c.reset(s)
