"""split(sizes, randomize): cut a dataset into parts. Sizes are row counts or fractions
summing to 1, rounded as MindSpore rounds them (checks and words are MindSpore's)."""
import math

import numpy as np

from .. import config
from ..graph.checks import wrong_type
from ..graph.source import Source
from ..samplers import SequentialSampler, Shuffle, SubsetRandomSampler, SubsetSampler


def check_sizes(sizes):
    """MindSpore's checks of the sizes alone (before the dataset is counted)."""
    if not isinstance(sizes, (list, tuple)):
        raise wrong_type("sizes", sizes, list)
    if not sizes:
        raise ValueError("sizes cannot be empty.")
    if all(isinstance(s, int) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError(f"sizes is a list of int, but there should be no negative or zero "
                             f"numbers: {list(sizes)}.")
    elif all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes):
            raise ValueError(f"sizes is a list of float, but there should be no numbers outside "
                             f"the range (0, 1]: {list(sizes)}.")
        if not math.isclose(sum(sizes), 1.0, abs_tol=1e-5):
            raise ValueError(f"sizes is a list of float, but the percentages do not sum up to "
                             f"1: {list(sizes)}.")
    else:
        raise ValueError(f"sizes should be list of int or list of float, got {list(sizes)}.")


def absolute_sizes(sizes, n):
    """The row count of each part of a dataset of ``n`` rows. Fractions are rounded (Python's
    round); what is missing goes to the first part, what is over comes off the first part
    that keeps a row; as MindSpore does."""
    if all(isinstance(s, int) for s in sizes):
        if sum(sizes) != n:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size "
                               f"{n}.")
        return [int(s) for s in sizes]
    out = []
    for s in sizes:
        if int(round(s * n)) == 0:
            raise RuntimeError(f"Split percentage {s} is too small for a dataset of {n} rows.")
        out.append(int(round(s * n)))
    rounded = sum(out)
    if rounded < n:
        out[0] += n - rounded
    else:
        fits = [k for k, size in enumerate(out) if size + n - rounded > 0]
        if fits:
            out[fits[0]] += n - rounded
    if sum(out) != n:
        raise RuntimeError(f"Sum of calculated split sizes {rounded} is not equal to dataset "
                           f"size {n}.")
    return out


def _is_sharded(ds):
    if isinstance(ds, Source):
        return bool(ds.num_shards) or (ds.sampler is not None and ds.sampler.is_sharded())
    return any(_is_sharded(c) for c in ds.children)


def split_dataset(ds, sizes, randomize=True):
    # MindSpore 2.10's order (its check_split): the types of sizes and randomize, then sizes
    if isinstance(sizes, (list, tuple)) and not isinstance(randomize, bool):
        raise wrong_type('randomize', randomize, bool)
    check_sizes(sizes)
    if not isinstance(randomize, bool):
        raise wrong_type('randomize', randomize, bool)
    if _is_sharded(ds):
        raise RuntimeError("Dataset should not be sharded before split.")
    n = ds.get_dataset_size()
    parts = absolute_sizes(sizes, n)
    bounds = np.cumsum([0] + parts)
    plain_source = (isinstance(ds, Source) and ds.sampler is None and
                    not ds.num_shards and not ds.num_samples and
                    getattr(ds, "random_access", True))
    if not plain_source:
        if randomize:
            # MindSpore's split of any other pipeline: every part reads the same shuffled
            # order (a 10000-row buffer, the same every epoch) and takes its own stretch.
            from .shuffle import ShuffleDataset
            ds = ShuffleDataset(ds, 10000, reshuffle_each_epoch=False)
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
        # A sampler on top of the part's rows, as MindSpore puts one: use_sampler replaces it
        # and samples from the part's rows (a DistributedSampler shards the part).
        top = SequentialSampler()
        top.add_child(SubsetRandomSampler(ids) if randomize else SubsetSampler(ids))
        out.append(ds.replace(sampler=top, shuffle_level=Shuffle.FALSE))
    return out
