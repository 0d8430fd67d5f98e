"""``auto_shard(dataset, num_shards, shard_id)``: a built pipeline re-sharded for one rank, as
tf.data's auto-shard does: the planner's auto_shard rule (planner/rules/auto_shard.py)
rewrites its source(s) to read shard ``shard_id`` of ``num_shards``; the rest of the pipeline
is unchanged, so every row of an epoch goes to exactly one rank."""
from .dataset import _check_shard
from .graph.node import LogicalNode, walk
from .graph.source import Source
from .planner import PlanOptions, rewrite_graph
from .planner.rules import AutoShard

__all__ = ["auto_shard"]


def auto_shard(dataset, num_shards, shard_id):
    """``dataset`` reading shard ``shard_id`` of ``num_shards`` of its source's rows.
    ValueError (with the reasons) when sharding the source would change what the pipeline
    means: a take, skip or zip above it, a source already sharded or with a sampler, or a
    stream source."""
    if not isinstance(dataset, LogicalNode):
        raise TypeError(f"dataset must be a minddata Dataset, got {type(dataset).__name__}")
    shard = _check_shard(num_shards, shard_id)
    graph, decisions = rewrite_graph(dataset, PlanOptions.from_config(shard=shard),
                                     rules=(AutoShard(),))
    refused = [f"{d.target}: {d.why}" for d in decisions if not d.fired]
    if refused:
        raise ValueError(f"auto_shard: this pipeline cannot be sharded {num_shards} ways by "
                         f"rewriting its source: " + "; ".join(refused))
    if not any(isinstance(n, Source) and (n.num_shards, n.shard_id) == shard
               for n in walk(graph)):
        raise ValueError("auto_shard: the pipeline has no source that reads rows by id")
    return graph
