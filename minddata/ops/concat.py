"""concat (and ``+``): the rows of each dataset in turn; all must have the same columns."""
from ..dataset import Dataset
from ..engine.node import IterNode


class ConcatDataset(Dataset):
    _op_name = "Concat"

    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"concat: every item must be a Dataset, got {type(d).__name__}")
        super().__init__(datasets)
        first = datasets[0]._col_names()
        for d in datasets[1:]:
            if d._col_names() != first:
                raise ValueError(f"concat: datasets must have the same columns in the same "
                                 f"order, got {first} and {d._col_names()}")

    def _size(self):
        sizes = [c._size() for c in self.children]
        return None if any(s is None for s in sizes) else sum(sizes)

    def _batch_size(self):
        return self.children[0]._batch_size()

    def _build_iter(self, ctx):
        return ConcatIter(self, ctx)


class ConcatIter(IterNode):
    name = "Concat"

    def __init__(self, ds, ctx):
        super().__init__(ctx, [ctx.build(c) for c in ds.children])
        self.current = 0

    def start(self, epoch):
        self.epoch = epoch
        self.current = 0
        self.children[0].start(epoch)

    def _next(self):
        while self.current < len(self.children):
            row = self.pull(self.children[self.current])
            if row is not None:
                return row
            self.current += 1
            if self.current < len(self.children):
                self.children[self.current].start(self.epoch)
        return None

    def prov_token(self):
        if self.current < len(self.children):
            return self.children[self.current].prov_token()
        return None

    def get_state(self):
        i = min(self.current, len(self.children) - 1)
        return {"epoch": self.epoch, "current": self.current,
                "child": self.children[i].get_state()}

    def reset(self, state):
        self.epoch = state["epoch"]
        self.current = state["current"]
        if self.current < len(self.children):
            self.children[self.current].reset(state["child"])
