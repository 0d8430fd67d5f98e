"""``Dataset.concat(datasets)`` and ``+``: the logical node (minddata/graph/concat.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.concat import Concat


class ConcatDataset(Concat, Dataset):
    def use_sampler(self, sampler):
        """MindSpore's ``ConcatDataset.use_sampler``: split the concatenated rows over shards
        with a ``DistributedSampler(num_shards, shard_id, shuffle=False)`` (shard k gets the
        rows at positions k, k+N, ... of the concatenated order, e.g. a MindDataset followed
        by a PaddedDataset that evens the count), or interleave the datasets at random with a
        ``RandomSampler``. Changes this dataset in place, as MindSpore's does (the one
        exception to datasets being immutable; pipelines built before keep the old sampler)."""
        from ..samplers import DistributedSampler, RandomSampler
        if not isinstance(sampler, (DistributedSampler, RandomSampler)):
            raise TypeError(f"The parameter {sampler} of concat must be DistributedSampler or "
                            f"RandomSampler!")
        if isinstance(sampler, DistributedSampler):
            if sampler.shuffle:
                raise ValueError("The parameter shuffle of DistributedSampler must be False!")
            if sampler.num_samples is not None:
                raise ValueError("The parameter num_samples of DistributedSampler is not "
                                 "support to be set!")
        object.__setattr__(self, "sampler", sampler)
        self._forget_memos()
