"""``Dataset.repeat(count)``: the logical node (minddata/graph/repeat.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.repeat import Repeat


class RepeatDataset(Repeat, Dataset):
    def get_dataset_size(self):
        # The input's size (counted once when only iterating can tell) times the count, as
        # MindSpore computes it: a generator repeated N times is not read N times for it.
        n = self.children[0].get_dataset_size()
        return n if self.count == -1 else n * self.count
