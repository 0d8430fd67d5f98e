"""filter(predicate): keep the rows for which predicate(*columns) is true."""
import numpy as np

from ..dataset import Dataset, check_columns, check_num_parallel_workers
from ..cache.identity import describe_operation
from ..engine.node import IterNode


class FilterDataset(Dataset):
    _op_name = "Filter"

    def __init__(self, child, predicate, input_columns=None, num_parallel_workers=None):
        super().__init__([child], check_num_parallel_workers(num_parallel_workers))
        if not callable(predicate):
            raise TypeError(f"predicate must be callable, got {type(predicate).__name__}")
        cols = check_columns("input_columns", input_columns)
        have = child._col_names()
        if cols is not None:
            missing = [c for c in cols if c not in have]
            if missing:
                raise ValueError(f"filter: input_columns {missing} are not columns of the "
                                 f"dataset {have}")
        self.predicate = predicate
        self.input_columns = cols
        self.index = [have.index(c) for c in cols] if cols is not None else None

    def _size(self):
        return None

    def _describe_self(self):
        # Cache keys: the predicate's code and state (cache/identity.py), not its name.
        return f"Filter({describe_operation(self.predicate)}, {self.input_columns})"

    def _build_iter(self, ctx):
        return FilterIter(self, ctx)


class FilterIter(IterNode):
    """Runs the predicate in the pipeline's thread (Python predicates hold the GIL anyway)."""

    name = "Filter"

    def __init__(self, ds, ctx):
        super().__init__(ctx, [ctx.build(ds.children[0])])
        self.ds = ds

    def _next(self):
        child = self.children[0]
        pred = self.ds.predicate
        index = self.ds.index
        while True:
            row = self.pull(child)
            if row is None:
                return None
            args = row if index is None else tuple(row[i] for i in index)
            try:
                keep = pred(*args)
            except BaseException as e:
                raise self.fail(e, child.provenance())
            if isinstance(keep, np.ndarray):
                if keep.size != 1:
                    raise TypeError(f"filter: predicate must return a bool, got an array of "
                                    f"shape {keep.shape}")
                keep = bool(keep.reshape(-1)[0])
            if keep:
                return row

    def get_state(self):
        return {"epoch": self.epoch, "child": self.children[0].get_state()}

    def reset(self, state):
        self.epoch = state["epoch"]
        self.children[0].reset(state["child"])
