"""The filter node: keeps the rows for which the predicate is true."""
from ...state_check import COUNT, NODE, check_node_state
from ..node import IterNode


class FilterIter(IterNode):
    """Runs the predicate in the pipeline's thread (Python predicates hold the GIL anyway)."""

    name = "Filter"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]])
        self.ds = ds

    def _next(self):
        child = self.children[0]
        pred = self.ds.predicate
        index = self.ds.index
        while True:
            row = self.pull(child)
            if row is None:
                return None
            args = row if index is None else tuple(row[i] for i in index)
            try:
                # Truth-testing is part of the predicate's call: an array of several values
                # fails there, reported (as in MindSpore) as the predicate's RuntimeError.
                keep = bool(pred(*args))
            except BaseException as e:
                raise self.fail(e, child.provenance())
            if keep:
                return row

    def get_state(self):
        return {"epoch": self.epoch, "child": self.children[0].get_state()}

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, child=NODE)
        self.epoch = state["epoch"]
        self.children[0].reset(state["child"])
