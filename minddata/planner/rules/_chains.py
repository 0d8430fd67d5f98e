"""What several lowering rules check of a ``Batch(Map(Source))`` chain."""
from ...graph.batch import Batch
from ...graph.map import Map
from ...graph.source import Source


def batch_of_map(node):
    """(batch, map) when ``node`` is a Batch over a Map, else None."""
    if isinstance(node, Batch) and isinstance(node.children[0], Map):
        return node, node.children[0]
    return None


def uncached_random_access_source(node):
    return (isinstance(node, Source) and node.cache is None and node.random_access)


def workers_of(node, options):
    return node.num_parallel_workers or options.num_parallel_workers
