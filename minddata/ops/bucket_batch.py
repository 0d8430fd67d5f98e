"""``Dataset.bucket_batch_by_length(...)``: the logical node (minddata/graph/bucket_batch.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.bucket_batch import BucketBatch


class BucketBatchByLengthDataset(BucketBatch, Dataset):
    pass
