"""What the planner is told besides the graph: the run's configuration, read once."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from .. import config


@dataclass(frozen=True)
class PlanOptions:
    debug: bool
    native_batches: bool
    num_parallel_workers: int
    batch_ring_depth: int
    prefetch_size: int
    #: (num_shards, shard_id): re-shard the pipeline's source for this rank (auto_shard)
    shard: Optional[Tuple[int, int]] = None

    @classmethod
    def from_config(cls, shard: Optional[Tuple[int, int]] = None) -> "PlanOptions":
        return cls(debug=config.get_debug_mode(), native_batches=config.get_native_batches(),
                   num_parallel_workers=config.get_num_parallel_workers(),
                   batch_ring_depth=config.get_batch_ring_depth(),
                   prefetch_size=config.get_prefetch_size(), shard=shard)
