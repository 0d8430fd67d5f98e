"""The base of every public source class (MindDataset, ImageFolderDataset, GeneratorDataset,
...): the logical Source node (minddata/graph/source.py) with the Dataset API on it.

A public source class validates its own arguments (MindSpore's error types), then calls
``SourceDataset.__init__(self, source_factory, *, num_samples, shuffle, num_shards, shard_id,
sampler, num_parallel_workers, cache, shuffle_modes=...)``.
"""
from ..dataset import Dataset
from ..graph.source import Source
from ..samplers import DistributedSampler, RandomSampler, Sampler, SequentialSampler, Shuffle


def _checked_sampler(sampler):
    if sampler is None:
        raise TypeError("Input sampler can not be None.")
    if not isinstance(sampler, Sampler):
        raise TypeError("Input sampler is not an instance of a sampler.")
    return sampler


class SourceDataset(Source, Dataset):
    # use_sampler and add_sampler change the dataset in place, as MindSpore's do: the one
    # exception to datasets being immutable (pipelines built before keep their sampling).
    def is_shuffled(self):
        """Whether this source reads its rows in a random order (MindSpore's)."""
        return self._is_random_self()

    def is_sharded(self):
        """Whether this source reads one shard of its rows (MindSpore's)."""
        return self.shard()[0] > 1

    def use_sampler(self, new_sampler):
        """Read the rows ``new_sampler`` gives, instead of those of this source's shuffle,
        sharding, num_samples or sampler arguments. As MindSpore, it replaces the sampler on
        top and keeps that one's child: a part of ``split`` keeps its rows, which
        ``new_sampler`` samples from."""
        new_sampler = _checked_sampler(new_sampler)
        if new_sampler.get_child() is not None:
            # MindSpore gives it the replaced sampler's child (even none): refused alike
            raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
        child = self.sampler.get_child() if self.sampler is not None else None
        if child is not None:
            new_sampler.add_child(child)
        self._sample_with(new_sampler)

    def add_sampler(self, new_sampler):
        """Let ``new_sampler`` sample from the ids this source's sampling gives (the current
        sampler, or the one its shuffle/sharding/num_samples arguments stand for, becomes its
        child): ``add_sampler(DistributedSampler(2, 1))`` over ``SequentialSampler(1, 4)``
        reads ids 2 and 4."""
        new_sampler = _checked_sampler(new_sampler)
        new_sampler.add_child(self._sampler_of_arguments())
        self._sample_with(new_sampler)

    def _sampler_of_arguments(self):
        if self.sampler is not None:
            return self.sampler
        level = self.shuffle_level
        if level not in (Shuffle.GLOBAL, Shuffle.FALSE):
            raise ValueError(f"add_sampler: shuffle=Shuffle.{level.name} has no sampler to "
                             f"add one to; give the dataset a sampler first (use_sampler)")
        shuffled = level == Shuffle.GLOBAL
        if self.num_shards is not None:
            return DistributedSampler(self.num_shards, self.shard_id, shuffle=shuffled,
                                      num_samples=self.num_samples)
        if shuffled:
            return RandomSampler(num_samples=self.num_samples)
        return SequentialSampler(num_samples=self.num_samples)

    def _sample_with(self, sampler):
        for name, value in (("sampler", sampler), ("num_shards", None), ("shard_id", None),
                            ("num_samples", None), ("shuffle_level", Shuffle.GLOBAL),
                            ("shuffle_block_rows", None), ("shuffle_window_rows", None)):
            object.__setattr__(self, name, value)
        self._forget_memos()
