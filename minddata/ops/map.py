"""``Dataset.map(operations, ...)``: the logical node (minddata/graph/map.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.map import Map


class MapDataset(Map, Dataset):
    pass
