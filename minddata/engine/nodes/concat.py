"""The concat node: the rows of each child in turn. The children must give the same column
types: the first row of each child is checked against the first row seen (MindSpore refuses a
float32 column concatenated with an int one; serving both would hand the consumer a column
whose type changes midway)."""
from ...state_check import COUNT, NODE, check_node_state, up_to
from ..node import IterNode


class ConcatIter(IterNode):
    name = "Concat"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, list(children))
        self.columns = ds.col_names()
        self.current = 0
        self._types = None          # column types of the first row seen
        self._checked = set()       # children whose first row was checked this epoch

    def start(self, epoch):
        self.epoch = epoch
        self.current = 0
        self._checked = set()
        self.children[0].start(epoch)

    def _next(self):
        while self.current < len(self.children):
            row = self.pull(self.children[self.current])
            if row is not None:
                if self.current not in self._checked:
                    self._check_types(row)
                return row
            self.current += 1
            if self.current < len(self.children):
                self.children[self.current].start(self.epoch)
        return None

    def _check_types(self, row):
        types = [getattr(a, "dtype", None) for a in row]
        self._checked.add(self.current)
        if self._types is None:
            self._types = types
            return
        for name, want, got in zip(self.columns, self._types, types):
            if want != got:
                raise RuntimeError(
                    f"Concat: the type of column {name!r} does not match: {want} in the rows "
                    f"before, {got} in dataset {self.current} of the concat; concatenated "
                    f"datasets must have the same column types (cast one with a map first)")

    def prov_token(self):
        if self.current < len(self.children):
            return self.children[self.current].prov_token()
        return None

    def get_state(self):
        i = min(self.current, len(self.children) - 1)
        return {"epoch": self.epoch, "current": self.current,
                "child": self.children[i].get_state()}

    def reset(self, state):
        # current == number of inputs: every input has ended.
        check_node_state(self, state, epoch=COUNT, current=up_to(len(self.children)),
                         child=NODE)
        self.epoch = state["epoch"]
        self.current = state["current"]
        if self.current < len(self.children):
            self.children[self.current].reset(state["child"])
