"""``Dataset.skip(count)``: the logical node (minddata/graph/skip.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.skip import Skip


class SkipDataset(Skip, Dataset):
    pass
