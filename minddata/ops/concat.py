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
        if isinstance(sampler, RandomSampler):
            if sampler.replacement:
                raise ValueError("The parameter replacement of RandomSampler must be False!")
            if sampler.num_samples is not None:
                raise ValueError("The parameter num_samples of RandomSampler is not support to "
                                 "be set!")
        if isinstance(sampler, DistributedSampler):
            if sampler.shuffle:
                raise ValueError("The parameter shuffle of DistributedSampler must be False!")
            if sampler.num_samples is not None:
                raise ValueError("The parameter num_samples of DistributedSampler is not "
                                 "support to be set!")
            _read_children_in_order(self.children)
        object.__setattr__(self, "sampler", sampler)
        self._forget_memos()


def _read_children_in_order(children):
    """What MindSpore does to the concatenated datasets for a DistributedSampler: each
    random-access source is given its part of that (unshuffled) sampler, in place, so it is
    read in order whatever its own shuffle said; one with num_samples, or a batch, is refused
    (measured in MindSpore 2.10)."""
    from ..samplers import SequentialSampler
    from .batch import BatchDataset
    from .source import SourceDataset
    for child in children:
        sampler = getattr(child, "sampler", None)
        if getattr(child, "num_samples", None) is not None or \
                (sampler is not None and sampler.num_samples is not None):
            raise ValueError(f"The parameter NumSamples of {type(child).__name__} is not "
                             f"support to be set!")
        if isinstance(child, BatchDataset):
            raise TypeError(f"The parameter {type(child).__name__} of concat must not be "
                            f"BatchDataset or PaddedBatchDataset!")
    for child in children:
        if isinstance(child, SourceDataset) and child.random_access:
            child.use_sampler(SequentialSampler())
