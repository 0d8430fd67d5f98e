"""minddata.sync_wait_for_dataset: MindSpore 2.10's OBS download barrier has nothing to wait
for here (OBSMindDataset reads through node-local caches), so it checks its arguments and
returns at once."""
import time

import pytest

import minddata as ds


def test_returns_at_once_for_a_valid_rank():
    started = time.monotonic()
    assert ds.sync_wait_for_dataset(1, 4, 3, obs_runtime=None) is None
    assert time.monotonic() - started < 1
    assert ds.sync_wait_for_dataset is ds.sources.mindrecord_dataset.sync_wait_for_dataset


@pytest.mark.parametrize("args, error, message", [
    (("0", 2, 1), TypeError, "Argument rank_id with value 0 is not of type"),
    ((0, 2.0, 1), TypeError, "Argument rank_size"),
    ((0, 2, True), TypeError, "Argument current_epoch"),
    ((0, 0, 1), ValueError, "rank_size must be at least 1"),
    ((2, 2, 1), ValueError, r"rank_id must be in \[0, 2\), but got 2"),
    ((0, 2, -1), ValueError, "current_epoch must not be negative"),
])
def test_arguments_are_checked(args, error, message):
    with pytest.raises(error, match=message):
        ds.sync_wait_for_dataset(*args, None)
