"""repeat: run the child pipeline ``count`` times per epoch (forever when count is None/-1).
Each pass is a separate epoch for the child's random decisions (a shuffle under a repeat
reshuffles every pass)."""
from ..dataset import Dataset
from ..engine.node import IterNode

_INT32_MAX = 2 ** 31 - 1


class RepeatDataset(Dataset):
    _op_name = "Repeat"

    def __init__(self, child, count=None):
        super().__init__([child])
        if count is None:
            count = -1
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"count must be of type int, but got {type(count).__name__}")
        if count != -1 and not 1 <= count <= _INT32_MAX:
            raise ValueError(f"count {count} is not within the required interval of "
                             f"[-1, 0) or [1, {_INT32_MAX}]")
        self.count = count

    def _size(self):
        n = self.children[0]._size()
        if n is None:
            return None
        return n * self.count if self.count != -1 else n

    def _repeat_count(self):
        return self.count * self.children[0]._repeat_count() if self.count != -1 else -1

    def _describe_self(self):
        return f"Repeat({self.count})"

    def _build_iter(self, ctx):
        return RepeatIter(self, ctx)


class RepeatIter(IterNode):
    name = "Repeat"

    def __init__(self, ds, ctx):
        super().__init__(ctx, [ctx.build(ds.children[0])])
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
        self.epoch = state["epoch"]
        self.rep = state["rep"]
        self._rows_this_pass = state["rows"]
        self.children[0].reset(state["child"])
