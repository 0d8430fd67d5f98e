"""The rename node: rows pass unchanged (the names are the logical node's business)."""
from .pass_through import PassThroughIter


class RenameIter(PassThroughIter):
    name = "Rename"

    def _next(self):
        return self.pull(self.children[0])
