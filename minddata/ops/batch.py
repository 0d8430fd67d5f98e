"""``Dataset.batch(...)`` and ``padded_batch``: the logical node (minddata/graph/batch.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.batch import Batch


class BatchDataset(Batch, Dataset):
    pass


class PaddedBatchDataset(BatchDataset):
    """What ``padded_batch`` returns (MindSpore's class name)."""
