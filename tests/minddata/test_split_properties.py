"""Property tests: shard splits and batch remainders for any sizes."""
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from minddata.samplers import DistributedSampler
from minddata.ops.split import absolute_sizes


@settings(deadline=None, max_examples=60)
@given(n=st.integers(1, 200), shards=st.integers(1, 9), shuffle=st.booleans(),
       seed=st.integers(0, 2 ** 32 - 1))
def test_shards_have_equal_size_and_cover_every_row(n, shards, shuffle, seed):
    parts = [DistributedSampler(shards, k, shuffle=shuffle).ids(n, seed, 0, 0)
             for k in range(shards)]
    assert all(len(p) == math.ceil(n / shards) for p in parts)
    assert set(np.concatenate(parts).tolist()) == set(range(n))
    if not shuffle:
        for k, p in enumerate(parts):
            assert p.tolist() == [(k + j * shards) % n for j in range(len(p))]


@settings(deadline=None, max_examples=60)
@given(n=st.integers(3, 500), weights=st.lists(st.integers(1, 10), min_size=1, max_size=3))
def test_split_fractions_sum_to_the_dataset(n, weights):
    fractions = [w / sum(weights) for w in weights]
    fractions[-1] = 1.0 - sum(fractions[:-1])
    try:
        sizes = absolute_sizes(fractions, n)
    except RuntimeError:
        return   # a part would be empty: refused, as MindSpore does
    assert sum(sizes) == n and all(s > 0 for s in sizes)
