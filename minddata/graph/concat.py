"""concat (and ``+``): the rows of each dataset in turn; all must have the same columns.

``sampler`` (set by ``ConcatDataset.use_sampler``, MindSpore's API): a DistributedSampler
(num_shards N, shard_id k, not shuffled) keeps the rows at positions k, k+N, k+2N, ... of the
concatenated order, without wrapping (measured in MindSpore 2.10: 9 rows over 2 shards give 5 and
4); a RandomSampler interleaves the datasets at random, each keeping its own order."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from .node import LogicalNode


class Concat(LogicalNode):
    kind = "Concat"

    sampler: Any

    def __init__(self, datasets: Sequence[LogicalNode], sampler: Any = None) -> None:
        for d in datasets:
            if not isinstance(d, LogicalNode):
                raise TypeError(f"concat: every item must be a Dataset, got {type(d).__name__}")
        super().__init__(datasets)
        self.sampler = sampler

    def column_mismatch(self) -> Optional[str]:
        """Why the datasets' columns do not line up, or None. MindSpore refuses such a concat
        when its pipeline starts (a RuntimeError), not when it is written, and still counts its
        rows; the engine's concat node raises it (engine/nodes/concat.py)."""
        first = self.children[0].col_names()
        for d in self.children[1:]:
            if d.col_names() != first:
                return (f"concat: datasets must have the same columns in the same order, got "
                        f"{first} and {d.col_names()}. [ERROR] Invalid columns, 'column name' "
                        f"or 'column order' of concat datasets should be the same.")
        return None

    def row_count(self) -> Optional[int]:
        sizes = [c.row_count() for c in self.children]
        known = [s for s in sizes if s is not None]
        if len(known) != len(sizes):
            return None
        total = sum(known)
        shards = self.distributed_shards()
        if shards is not None:
            num_shards, shard_id = shards
            return max(0, (total - shard_id + num_shards - 1) // num_shards)
        return total

    def distributed_shards(self) -> Optional[tuple]:
        """(num_shards, shard_id) of a DistributedSampler given by use_sampler, else None."""
        if type(self.sampler).__name__ == "DistributedSampler":
            return self.sampler.num_shards, self.sampler.shard_id
        return None

    def interleaves(self) -> bool:
        """Whether a RandomSampler given by use_sampler interleaves the datasets."""
        return type(self.sampler).__name__ == "RandomSampler"

    def _is_random_self(self) -> bool:
        return self.interleaves()

    # MindSpore's getters read the last dataset (get_batch_size of batch(3) + batch(5): 5).
    def _batch_size(self) -> Optional[int]:
        return self.children[-1]._batch_size()

    def _repeat_count(self) -> int:
        return self.children[-1]._repeat_count()
