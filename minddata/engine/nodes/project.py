"""The project node: keeps some columns, in a given order."""
from .pass_through import PassThroughIter


class ProjectIter(PassThroughIter):
    name = "Project"

    def __init__(self, ds, ctx, children):
        super().__init__(ds, ctx, children)
        self.index = ds.index

    def _next(self):
        row = self.pull(self.children[0])
        if row is None:
            return None
        return tuple(row[i] for i in self.index)
