"""``Dataset.repeat(count)``: the logical node (minddata/graph/repeat.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.repeat import Repeat


class RepeatDataset(Repeat, Dataset):
    pass
