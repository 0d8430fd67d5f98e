"""Which share of the epoch one process (and one DataLoader worker in it) reads.

Ranks split the epoch first; each rank's share is then split among its DataLoader workers, so
worker ``w`` of ``W`` on rank ``r`` of ``R`` reads shard ``r * W + w`` of ``R * W``. The shards
are the sources' own (``num_shards``/``shard_id``), so they are disjoint and, as in MindSpore
(and torch's DistributedSampler), padded to equal length when the rows do not divide evenly.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Shard:
    num_shards: int
    shard_id: int

    def split(self, num_parts, part):
        """Part ``part`` of ``num_parts`` of this shard, as a shard of the whole epoch."""
        return Shard(self.num_shards * num_parts, self.shard_id * num_parts + part)


def _check_int(value, name, minimum):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"to_torch: {name} must be an int, but got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"to_torch: {name} must be >= {minimum}, but got {value}")


def explicit_or_distributed(num_shards, shard_id):
    """The rank-level shard: the explicit one, else torch.distributed's (world size, rank)
    when it is initialised, else the whole epoch. Returns (Shard, explicit)."""
    if (num_shards is None) != (shard_id is None):
        raise ValueError("to_torch: give both num_shards and shard_id, or neither (then "
                         "torch.distributed's world size and rank are used when initialised)")
    if num_shards is not None:
        _check_int(num_shards, "num_shards", 1)
        _check_int(shard_id, "shard_id", 0)
        if shard_id >= num_shards:
            raise ValueError(f"to_torch: shard_id must be in [0, {num_shards - 1}], but got "
                             f"{shard_id}")
        return Shard(num_shards, shard_id), True
    return distributed_shard() or Shard(1, 0), False


def distributed_shard():
    """Shard(world size, rank) when torch.distributed is initialised in this process."""
    import torch.distributed as dist
    if dist.is_available() and dist.is_initialized():
        return Shard(dist.get_world_size(), dist.get_rank())
    return None
