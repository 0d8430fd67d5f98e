"""auto_shard: re-shard a built pipeline for one rank by rewriting its source(s), as tf.data's
auto-shard policy DATA does: the source reads shard ``shard_id`` of ``num_shards`` of its rows
(position ``shard_id + j*num_shards`` of the epoch's order), everything above it is unchanged.
Asked for by ``PlanOptions(shard=...)`` (``minddata.auto_shard``, ``to_torch`` under DDP).

It refuses (each with its reason) what sharding the source would change the meaning of: a
take or skip (their counts would apply per shard), a zip (its inputs must stay aligned), an
already-sharded source or one with a sampler, and a source read as a stream (a generator
without ``__getitem__``).
"""
from __future__ import annotations

from typing import Union, cast

from ...graph.node import LogicalNode
from ...graph.skip import Skip as SkipNode
from ...graph.source import Source
from ...graph.take import Take
from ...graph.zip import Zip
from ..options import PlanOptions
from ..rule import GraphRule, Skip


class AutoShard(GraphRule):
    name = "auto_shard"

    def rewrite(self, node: LogicalNode,
                options: PlanOptions) -> Union[LogicalNode, Skip, None]:
        if options.shard is None:
            return None
        num_shards, shard_id = options.shard
        if isinstance(node, (Take, SkipNode)):
            return Skip(f"{node.display_name()}({node.count}) would count rows per shard")
        if isinstance(node, Zip):
            return Skip("a zip's inputs would no longer be aligned")
        if not isinstance(node, Source):
            return None
        if (node.num_shards, node.shard_id) == (num_shards, shard_id):
            return None         # already this shard (a graph planned twice)
        if not node.random_access:
            return Skip(f"{node.display_name()} is read as a stream, not by row id")
        if node.num_shards is not None:
            return Skip(f"{node.display_name()} already reads shard {node.shard_id} of "
                        f"{node.num_shards}")
        if node.sampler is not None:
            return Skip(f"{node.display_name()} has a sampler; give it a DistributedSampler "
                        f"instead")
        return node.replace(num_shards=num_shards, shard_id=shard_id)

    def explain(self, old: LogicalNode, new: LogicalNode) -> str:
        source = cast(Source, new)
        return f"{old.display_name()} reads shard {source.shard_id} of {source.num_shards}"
