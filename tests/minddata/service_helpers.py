"""Shared parts of the RayService tests: a loopback cluster fixture and pipelines."""
import time

import numpy as np
import pytest

import minddata as ds
from .engine_helpers import RandomAdd, numbers

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    """A head and a second node, one CPU each (`ray start`), stopped also on failure."""
    from minddata.service.local_cluster import LocalRayCluster
    cl = LocalRayCluster(num_nodes=2, cpus_per_node=1)
    try:
        cl.start()
        yield cl
    finally:
        cl.stop()


class SlowAdd(RandomAdd):
    """RandomAdd that takes ``delay`` seconds per row (a decode-sized cost)."""

    def __init__(self, delay):
        self.delay = delay

    def apply(self, arrays, seed):
        time.sleep(self.delay)
        return super().apply(arrays, seed)


def rank_pipeline(n, num_shards, shard_id, delay=0.0, batch=3, workers=1):
    """A shuffled, sharded source, a random map and a batch: the per-rank train pipeline."""
    op = SlowAdd(delay) if delay else RandomAdd()
    return (numbers(n, shuffle=True, num_shards=num_shards, shard_id=shard_id)
            .map(op, "x", num_parallel_workers=workers).batch(batch))


def run_items(dataset, num_epochs=1, service=None, state=None):
    """Every epoch of a run as lists of items (lists of Python values)."""
    ds.config.set_seed(99)
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True,
                                       service=service, state=state)
    try:
        return [[[np.asarray(a).tolist() for a in r] for r in it] for _ in range(num_epochs)]
    finally:
        it.close()
