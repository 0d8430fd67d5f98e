"""Same outputs as MindSpore where it is installed (skipped otherwise)."""
import numpy as np
import pytest

import minddata as ds

ms_ds = pytest.importorskip("mindspore.dataset")


def _rows(d):
    return [[a.tolist() for a in r] for r in d.create_tuple_iterator(num_epochs=1,
                                                                     output_numpy=True)]


@pytest.mark.parametrize("shard", [0, 1, 2])
def test_shard_split_matches(shard):
    data = {"x": np.arange(10)}
    ours = ds.NumpySlicesDataset(data, shuffle=False, num_shards=3, shard_id=shard)
    theirs = ms_ds.NumpySlicesDataset(data, shuffle=False, num_shards=3, shard_id=shard)
    assert _rows(ours) == _rows(theirs)


def test_map_batch_pipeline_matches():
    data = {"a": np.arange(7), "b": np.arange(7) * 2}

    def build(mod):
        d = mod.NumpySlicesDataset(data, shuffle=False)
        d = d.map(lambda a: (a, a + 1), "a", ["a1", "a2"])
        return d.batch(3, drop_remainder=False)

    assert build(ds).get_col_names() == build(ms_ds).get_col_names()
    assert _rows(build(ds)) == _rows(build(ms_ds))
