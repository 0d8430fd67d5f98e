"""``Dataset.concat(datasets)`` and ``+``: the logical node (minddata/graph/concat.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.concat import Concat


class ConcatDataset(Concat, Dataset):
    pass
