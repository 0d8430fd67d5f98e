"""``Dataset.take(count)``: the logical node (minddata/graph/take.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.take import Take


class TakeDataset(Take, Dataset):
    pass
