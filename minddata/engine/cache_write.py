"""The cache-write node of a cached map stage (``map(..., cache=DatasetCache)``).

It hands its child's rows on unchanged and puts each into the stage's store, keyed by its
position in the pass; after a pass that reached the end, it marks the stage complete (the store
writes the marker only if it holds that many rows, so a pass whose rows were partly dropped, or
whose first part was never stored, leaves the stage incomplete). Rows keyed by position make a
cached stage replay the first pass's order.

The planner puts it under a cache-read node (cache_read.py), which starts it only in the epochs
that do not find the stage complete. The node owns the store: it closes it.
"""
from .node import IterNode


class CacheWriteIter(IterNode):
    name = "CacheWrite"

    def __init__(self, ctx, child, store):
        super().__init__(ctx, [child])
        self.store = store
        self.index = 0      # rows returned this epoch: the key of the next row

    def start(self, epoch):
        super().start(epoch)
        self.index = 0

    def skip_input(self, n):
        """Right after start(): go on from row ``n`` of the pass, without computing the rows
        before it (its child passes over them; a cache-read node whose complete stage lost row
        ``n`` computes the rest of the pass)."""
        self.children[0].skip_input(n)
        self.index = n

    def get_state(self):
        return {"epoch": self.epoch, "index": self.index,
                "child": self.children[0].get_state()}

    def reset(self, state):
        self.epoch = state["epoch"]
        self.index = state["index"]
        self.children[0].reset(state["child"])

    def _next(self):
        row = self.pull(self.children[0])
        if row is None:
            if not self.store.is_complete():
                self.store.mark_complete(self.index)
            return None
        self.store.put(self.index, row)
        self.index += 1
        return row

    def _close_self(self):
        self.store.close()
