"""skip: drop the first ``count`` rows of each epoch."""
from ..dataset import Dataset
from ..engine.node import IterNode
from .take import check_count


class SkipDataset(Dataset):
    _op_name = "Skip"

    def __init__(self, child, count):
        super().__init__([child])
        check_count("count", count, False)
        self.count = count

    def _size(self):
        n = self.children[0]._size()
        return None if n is None else max(0, n - self.count)

    def _describe_self(self):
        return f"Skip({self.count})"

    def _build_iter(self, ctx):
        return SkipIter(self, ctx)


class SkipIter(IterNode):
    name = "Skip"

    def __init__(self, ds, ctx):
        super().__init__(ctx, [ctx.build(ds.children[0])])
        self.count = ds.count
        self.skipped = False

    def start(self, epoch):
        super().start(epoch)
        self.skipped = False

    def _next(self):
        child = self.children[0]
        if not self.skipped:
            self.skipped = True
            for _ in range(self.count):
                if self.pull(child) is None:
                    return None
        return self.pull(child)

    def get_state(self):
        return {"epoch": self.epoch, "skipped": self.skipped,
                "child": self.children[0].get_state()}

    def reset(self, state):
        self.epoch = state["epoch"]
        self.skipped = state["skipped"]
        self.children[0].reset(state["child"])
