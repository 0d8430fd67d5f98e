"""``Dataset.zip(datasets)``: the logical node (minddata/graph/zip.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.zip import Zip


class ZipDataset(Zip, Dataset):
    pass
