"""split(sizes, randomize): cut a dataset into parts. Sizes are row counts or fractions
summing to 1 (rounded; the remainder goes to the first part, as MindSpore does)."""
import math

import numpy as np

from .. import config
from ..graph.checks import wrong_type
from ..graph.source import Source
from ..samplers import Shuffle, SubsetRandomSampler, SubsetSampler


def absolute_sizes(sizes, n):
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError("sizes must be a non-empty list of int or float")
    if all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError(f"sizes {list(sizes)} must all be positive")
        if sum(sizes) != n:
            raise RuntimeError(f"sizes {list(sizes)} sum to {sum(sizes)}, but the dataset has "
                               f"{n} rows")
        return list(sizes)
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes):
            raise ValueError(f"sizes {list(sizes)}: fractions must be in (0, 1]")
        if not math.isclose(sum(sizes), 1.0, abs_tol=1e-6):
            raise ValueError(f"sizes {list(sizes)} must sum to 1")
        out = [int(round(s * n)) for s in sizes]
        out[0] += n - sum(out)
        if any(s <= 0 for s in out):
            raise RuntimeError(f"sizes {list(sizes)} give an empty part for a dataset of {n} "
                               f"rows")
        return out
    raise TypeError("sizes must be all int or all float")


def split_dataset(ds, sizes, randomize=True):
    if not isinstance(randomize, bool):
        raise wrong_type('randomize', randomize, bool)
    n = ds.get_dataset_size()
    parts = absolute_sizes(sizes, n)
    bounds = np.cumsum([0] + parts)
    plain_source = (isinstance(ds, Source) and ds.sampler is None and
                    not ds.num_shards and not ds.num_samples and
                    getattr(ds, "random_access", True))
    if not plain_source:
        if randomize:
            raise RuntimeError("split with randomize=True needs a random-access source dataset "
                               "without sampler, shards or num_samples; split the source "
                               "first, or use randomize=False")
        out = []
        for a, b in zip(bounds[:-1], bounds[1:]):
            part = ds.skip(int(a)) if a else ds
            out.append(part.take(int(b - a)))
        return out
    if randomize:
        seed = config.get_seed()
        order = np.random.Generator(np.random.PCG64(seed)).permutation(n)
    else:
        order = np.arange(n, dtype=np.int64)
    out = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        ids = order[a:b].copy()
        out.append(ds.replace(sampler=SubsetRandomSampler(ids) if randomize
                              else SubsetSampler(ids), shuffle_level=Shuffle.FALSE))
    return out
