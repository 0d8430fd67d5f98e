"""The base of every public source class (MindDataset, ImageFolderDataset, GeneratorDataset,
...): the logical Source node (minddata/graph/source.py) with the Dataset API on it.

A public source class validates its own arguments (MindSpore's error types), then calls
``SourceDataset.__init__(self, source_factory, *, num_samples, shuffle, num_shards, shard_id,
sampler, num_parallel_workers, cache, shuffle_modes=...)``.
"""
from ..dataset import Dataset
from ..graph.source import Source


class SourceDataset(Source, Dataset):
    pass
