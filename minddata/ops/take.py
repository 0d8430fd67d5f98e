"""take: the first ``count`` rows of each epoch (all of them when count is -1)."""
from ..dataset import Dataset
from ..engine.node import IterNode

_INT32_MAX = 2 ** 31 - 1


def check_count(name, count, allow_minus_one):
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(f"{name} must be of type int, but got {type(count).__name__}")
    low = -1 if allow_minus_one else 0
    if not low <= count <= _INT32_MAX:
        raise ValueError(f"{name} {count} is not within the required interval of "
                         f"[{low}, {_INT32_MAX}]")


class TakeDataset(Dataset):
    _op_name = "Take"

    def __init__(self, child, count=-1):
        super().__init__([child])
        check_count("count", count, True)
        if count == 0:
            raise ValueError("count 0 is not within the required interval of [-1, 0) or "
                             f"[1, {_INT32_MAX}]")
        self.count = count

    def _size(self):
        n = self.children[0]._size()
        if self.count == -1:
            return n
        return None if n is None else min(n, self.count)

    def _describe_self(self):
        return f"Take({self.count})"

    def _build_iter(self, ctx):
        return TakeIter(self, ctx)


class TakeIter(IterNode):
    name = "Take"

    def __init__(self, ds, ctx):
        super().__init__(ctx, [ctx.build(ds.children[0])])
        self.count = ds.count
        self.taken = 0

    def start(self, epoch):
        super().start(epoch)
        self.taken = 0

    def _next(self):
        if self.count != -1 and self.taken >= self.count:
            return None
        row = self.pull(self.children[0])
        if row is not None:
            self.taken += 1
        return row

    def get_state(self):
        return {"epoch": self.epoch, "taken": self.taken, "child": self.children[0].get_state()}

    def reset(self, state):
        self.epoch = state["epoch"]
        self.taken = state["taken"]
        self.children[0].reset(state["child"])
