"""``Dataset.rename(input_columns, output_columns)``: the logical node (minddata/graph/rename.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.rename import Rename


class RenameDataset(Rename, Dataset):
    pass
