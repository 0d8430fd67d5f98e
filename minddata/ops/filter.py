"""``Dataset.filter(predicate, ...)``: the logical node (minddata/graph/filter.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.filter import Filter


class FilterDataset(Filter, Dataset):
    pass
