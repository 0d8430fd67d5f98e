"""A worker process killed with kill -9 mid-epoch gives a clean error, not a hang."""
import os
import signal
import time

import numpy as np
import pytest

import minddata as ds
from minddata.engine.errors import WorkerDiedError
from .engine_helpers import live_children, shm_entries, wait_until


class Rows:
    def __getitem__(self, i):
        time.sleep(0.002)
        return (np.array(i, dtype=np.int64),)

    def __len__(self):
        return 2000


def _kill_one(before):
    new = sorted(live_children() - before)
    assert new, "no worker process found"
    os.kill(new[0], signal.SIGKILL)


@pytest.mark.timeout(60)
def test_source_worker_killed():
    before, shm = live_children(), shm_entries()
    pipe = ds.GeneratorDataset(Rows(), ["i"], num_parallel_workers=2, shuffle=False,
                               python_multiprocessing=True)
    it = pipe.create_tuple_iterator(num_epochs=1)
    next(it)
    _kill_one(before)
    with pytest.raises(WorkerDiedError, match="killed by signal 9"):
        for _ in it:
            pass
    assert wait_until(lambda: live_children() <= before)
    assert shm_entries() <= shm


@pytest.mark.timeout(60)
def test_map_worker_killed():
    before = live_children()
    pipe = ds.GeneratorDataset(Rows(), ["i"], shuffle=False).map(
        lambda i: i * 2, "i", num_parallel_workers=2, python_multiprocessing=True)
    it = pipe.create_tuple_iterator(num_epochs=1)
    next(it)
    _kill_one(before)
    with pytest.raises(RuntimeError, match=r"failed on a row of epoch 0: .*exited unexpectedly"):
        for _ in it:
            pass
    assert wait_until(lambda: live_children() <= before)


@pytest.mark.timeout(60)
def test_silent_worker_is_reported_in_the_log(caplog):
    ds.config.set_multiprocessing_timeout_interval(1)

    def slow(i):
        time.sleep(1.6)
        return i

    pipe = ds.NumpySlicesDataset([1, 2], shuffle=False).map(
        slow, num_parallel_workers=2, python_multiprocessing=True)
    with caplog.at_level("WARNING", logger="minddata"):
        assert len(list(pipe.create_tuple_iterator(num_epochs=1))) == 2
    assert "has not answered" in caplog.text
