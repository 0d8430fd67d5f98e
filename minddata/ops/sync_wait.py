"""``Dataset.sync_wait(condition_name, num_batch, callback)``: the logical node
(minddata/graph/sync_wait.py, which validates the arguments) with the Dataset API on it."""
from ..dataset import Dataset
from ..graph.sync_wait import SyncWait


class SyncWaitDataset(SyncWait, Dataset):
    pass
