"""Sharding of a source, and the ids of an epoch resumed on another number of ranks.

The rule of an elastic resume (minddata/elastic.py's docstring has it whole): the old ranks'
undelivered ids are interleaved back into the epoch's global order, and new rank r of M reads
every M-th of them from the r-th. These are pure functions of a Source node's fields and the
ids; the engine's source nodes call them each epoch.
"""
from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Tuple, Union

import numpy as np

from ..samplers import DistributedSampler

#: Ids of one epoch (int64).
Ids = np.ndarray


class ShardedSource(Protocol):
    """What these functions read of a Source node (graph/source.py)."""

    num_shards: Optional[int]
    shard_id: Optional[int]
    sampler: Any

    def epoch_ids(self, src: Any, seed: int, epoch: int, position: int,
                  shards: Optional[Tuple[int, int]] = None) -> Ids: ...


# -- sharding of a source --------------------------------------------------------------------
def distributed_sampler_of(sampler: Any) -> Optional[DistributedSampler]:
    """The DistributedSampler in a sampler chain, or None."""
    s = sampler
    while s is not None:
        if isinstance(s, DistributedSampler):
            return s
        s = s.child_sampler
    return None


def source_shard(source: ShardedSource) -> Tuple[int, int]:
    """(num_shards, shard_id) of a SourceDataset: its sharding arguments, its sampler's
    DistributedSampler, or (1, 0) when it is not sharded."""
    if source.num_shards and source.shard_id is not None:
        return source.num_shards, source.shard_id
    dist = distributed_sampler_of(source.sampler)
    if dist is not None:
        return dist.num_shards, dist.shard_id
    return 1, 0


def with_shards(sampler: Any, num_shards: int, shard_id: int) -> Any:
    """A copy of a sampler chain whose DistributedSampler takes shard ``shard_id`` of
    ``num_shards`` (the ids another rank of another world size read)."""
    if distributed_sampler_of(sampler) is None:
        if num_shards == 1:
            return sampler
        raise ValueError("elastic resume: the dataset's sampler has no DistributedSampler, so "
                         f"the ids of shard {shard_id} of {num_shards} cannot be recomputed")
    top = copy.copy(sampler)
    s = top
    while True:
        if isinstance(s, DistributedSampler):
            s.num_shards, s.shard_id = num_shards, shard_id
            return top
        s.child_sampler = copy.copy(s.child_sampler)
        s = s.child_sampler


# -- the ids of a resumed epoch ---------------------------------------------------------------
def remaining_ids(parts: Sequence[Union[Ids, Sequence[int]]], consumed: Sequence[int]) -> Ids:
    """The old ranks' undelivered ids, interleaved back into the epoch's order (see the rule).
    ``consumed[k] == -1`` means rank k delivered its whole list."""
    js: List[Ids] = []
    ks: List[Ids] = []
    vals: List[Ids] = []
    for rank, (ids, done) in enumerate(zip(parts, consumed)):
        done = len(ids) if done < 0 else done
        if done > len(ids):
            raise ValueError(f"elastic resume: rank {rank} reports {done} rows delivered, but "
                             f"its shard of this epoch has only {len(ids)} rows (the states do "
                             f"not belong to this dataset)")
        js.append(np.arange(done, len(ids), dtype=np.int64))
        ks.append(np.full(len(ids) - done, rank, dtype=np.int64))
        vals.append(np.asarray(ids[done:], dtype=np.int64))
    if not vals:
        return np.zeros(0, np.int64)
    j, k, v = np.concatenate(js), np.concatenate(ks), np.concatenate(vals)
    return v[np.lexsort((k, j))]


def resumed_ids(shard_ids: Callable[[int, int], Ids], world: Optional[Dict[str, Any]],
                num_shards: int, shard_id: int) -> Ids:
    """Ids of shard ``shard_id`` of ``num_shards`` in an epoch resumed from ``world``.
    ``shard_ids(n, k)`` returns the dataset's own ids of shard k of n for that epoch."""
    if world is None:
        return shard_ids(num_shards, shard_id)
    old = int(world["num_shards"])
    parts = [resumed_ids(shard_ids, world["from"], old, k) for k in range(old)]
    return remaining_ids(parts, world["consumed"])[shard_id::num_shards]


def epoch_ids(source: ShardedSource, src: Any, seed: int, epoch: int, position: int,
              world: Optional[Dict[str, Any]] = None) -> Ids:
    """The ids Source ``source`` (open RowSource ``src``) reads in ``epoch``: its own
    split, or, in an epoch resumed from ``world``, its share of the rest."""
    if world is None:
        return source.epoch_ids(src, seed, epoch, position)
    return resumed_ids(lambda n, k: source.epoch_ids(src, seed, epoch, position, (n, k)),
                       world, *source_shard(source))
