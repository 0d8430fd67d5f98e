"""map(..., cache=DatasetCache): the map's output rows are stored by position in the first
full pass; once the store is complete, later epochs (and other pipelines with the same
upstream description) read the store and skip everything below the map.

Rows are keyed by their position in the pass, so a cached stage replays the first pass's row
order: a shuffle below a cached map is not redone in later epochs (shuffle after the cache
instead), as with MindSpore's cache placed after a map.
"""
from ..engine.node import IterNode
from .map import MapIter


class CachedMapIter(IterNode):
    name = "Map(cached)"

    def __init__(self, ds, ctx):
        self.store = ds.cache.open_stage(ds._describe(), list(ds.columns))
        try:
            inner = MapIter(ds, ctx)
        except BaseException:
            self.store.close()
            raise
        super().__init__(ctx, [inner])
        self.from_store = False
        self.index = 0
        self.full_pass = True

    def start(self, epoch):
        self.epoch = epoch
        self.index = 0
        self.full_pass = True
        self.from_store = self.store.is_complete()
        if not self.from_store:
            self.children[0].start(epoch)

    def _next(self):
        if self.from_store:
            row = self.store.get(self.index)
            if row is None:
                return None
            self.index += 1
            return tuple(row)
        row = self.pull(self.children[0])
        if row is None:
            if self.full_pass and not self.store.is_complete():
                self.store.mark_complete(self.index)
            return None
        self.store.put(self.index, row)
        self.index += 1
        return row

    def get_state(self):
        return {"epoch": self.epoch, "from_store": self.from_store, "index": self.index,
                "full": self.full_pass,
                "child": None if self.from_store else self.children[0].get_state()}

    def reset(self, state):
        self.epoch = state["epoch"]
        self.index = state["index"]
        self.from_store = state["from_store"] and self.store.is_complete()
        self.full_pass = state["full"]
        if not self.from_store:
            if state["child"] is None:
                self.children[0].start(self.epoch)
                self.index = 0
            else:
                self.children[0].reset(state["child"])

    def _close_self(self):
        self.store.close()
