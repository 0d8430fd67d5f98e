"""project: keep the named columns, in the given order."""
from ..dataset import Dataset, check_columns
from ..engine.node import IterNode


class ProjectDataset(Dataset):
    _op_name = "Project"

    def __init__(self, child, columns):
        super().__init__([child])
        cols = check_columns("columns", columns, allow_none=False)
        have = child._col_names()
        missing = [c for c in cols if c not in have]
        if missing:
            raise ValueError(f"project: columns {missing} are not columns of the dataset {have}")
        self.columns = cols
        self.index = [have.index(c) for c in cols]

    def _col_names(self):
        return list(self.columns)

    def _describe_self(self):
        return f"Project({self.columns})"

    def _build_iter(self, ctx):
        return ProjectIter(self, ctx)


class ProjectIter(IterNode):
    name = "Project"

    def __init__(self, ds, ctx):
        super().__init__(ctx, [ctx.build(ds.children[0])])
        self.index = ds.index

    def _next(self):
        row = self.pull(self.children[0])
        if row is None:
            return None
        return tuple(row[i] for i in self.index)

    def get_state(self):
        return self.children[0].get_state()

    def reset(self, state):
        self.children[0].reset(state)
