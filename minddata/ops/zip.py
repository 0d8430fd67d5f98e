"""zip: rows side by side (columns of the first dataset, then the second, ...); stops at the
shortest dataset. Column names must not repeat."""
from ..dataset import Dataset
from ..engine.node import IterNode


class ZipDataset(Dataset):
    _op_name = "Zip"

    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"zip: every item must be a Dataset, got {type(d).__name__}")
        super().__init__(datasets)
        cols = []
        for d in datasets:
            cols.extend(d._col_names())
        dup = sorted({c for c in cols if cols.count(c) > 1})
        if dup:
            raise ValueError(f"zip: column names {dup} appear in more than one dataset; "
                             f"rename them first")
        self.columns = cols

    def _col_names(self):
        return list(self.columns)

    def _size(self):
        sizes = [c._size() for c in self.children]
        return None if any(s is None for s in sizes) else min(sizes)

    def _num_classes(self):
        for c in self.children:
            n = c._num_classes()
            if n is not None:
                return n
        return None

    def _build_iter(self, ctx):
        return ZipIter(self, ctx)


class ZipIter(IterNode):
    name = "Zip"

    def __init__(self, ds, ctx):
        super().__init__(ctx, [ctx.build(c) for c in ds.children])
        self._done = False

    def start(self, epoch):
        super().start(epoch)
        self._done = False

    def _next(self):
        if self._done:
            return None
        out = []
        for c in self.children:
            row = self.pull(c)
            if row is None:
                self._done = True
                return None
            out.extend(row)
        return tuple(out)

    def get_state(self):
        return {"epoch": self.epoch, "done": self._done,
                "children": [c.get_state() for c in self.children]}

    def reset(self, state):
        self.epoch = state["epoch"]
        self._done = state["done"]
        for c, s in zip(self.children, state["children"]):
            c.reset(s)
