"""``Dataset.shuffle(buffer_size)``: the logical node (minddata/graph/shuffle.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.shuffle import Shuffle


class ShuffleDataset(Shuffle, Dataset):
    pass
