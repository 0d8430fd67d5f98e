"""minddata.seeds.row_seeds: a batch's row seeds at once (the GPU batch node's), equal to
row_seed row by row, across the 64-bit wrap."""
import numpy as np
import pytest

from minddata import seeds


@pytest.mark.parametrize("first", [0, 12345, 2 ** 40])
def test_a_batch_of_row_seeds_is_row_seed_row_by_row(first):
    base = seeds.stage_base(7, 3, 2)
    got = seeds.row_seeds(base, first, 1000)
    assert got.dtype == np.uint64
    assert [int(s) for s in got] == [seeds.row_seed(base, first + i)
                                     for i in range(1000)]
