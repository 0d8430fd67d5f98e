"""Dataset.sync_wait / sync_update (MindSpore 2.10 semantics): the pipeline lets num_batch
batches through at the start of each epoch, then holds rows back until the training loop
calls sync_update, which runs the wait's callback first; MindSpore's errors for misuse."""
import logging
import threading
import time

import numpy as np
import pytest

import minddata as ds
from minddata.planner import plan


def gen(n):
    def g():
        for i in range(n):
            yield (np.array(i, np.int64),)
    return g


def source(n=20):
    return ds.GeneratorDataset(gen(n), ["x"], shuffle=False)


class Policy:
    """A map op whose output depends on the last value sync_update handed to the callback."""

    def __init__(self):
        self.value = 0
        self.updates = []

    def update(self, data):
        self.value = data
        self.updates.append(data)

    def apply(self, x):
        return np.stack([x, np.array(self.value, np.int64)])


def _settle(seen, polls=40):
    """len(seen) once the pipeline stopped reading (no assertion on time)."""
    last = -1
    for _ in range(polls):
        if len(seen) == last:
            break
        last = len(seen)
        time.sleep(0.05)
    return len(seen)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("workers", [1, 4])
def test_each_batch_sees_the_policy_of_the_update_before_it(workers):
    policy = Policy()
    data = source(20).sync_wait("policy", callback=policy.update)
    data = data.map(policy.apply, "x", num_parallel_workers=workers).batch(4)
    got = []
    for step, row in enumerate(data.create_dict_iterator(num_epochs=1, output_numpy=True)):
        got.append(row["x"][:, 1].tolist())
        data.sync_update("policy", data=step + 1)
    # batch k was mapped after the k-th update (the first batch passes without one)
    assert got == [[k] * 4 for k in range(5)]
    assert policy.updates == [1, 2, 3, 4, 5]


@pytest.mark.timeout(60)
def test_rows_are_held_back_until_sync_update():
    seen = []

    def record(x):
        seen.append(int(x))
        return x

    data = source(40).sync_wait("c", num_batch=2).map(record, "x").batch(3)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    next(it)
    assert _settle(seen) == 6           # num_batch=2 batches of 3 rows
    data.sync_update("c", num_batch=1)  # one more batch of 3 rows
    next(it)
    assert _settle(seen) == 9
    data.sync_update("c")               # the wait's own num_batch: 2 batches
    assert _settle(seen) == 15
    it.close()


@pytest.mark.timeout(60)
def test_each_epoch_starts_with_num_batch_batches():
    data = source(10).sync_wait("c").batch(3, drop_remainder=True)
    it = data.create_tuple_iterator(num_epochs=3, output_numpy=True)
    for _ in range(3):
        out = []
        for row in it:
            out.append(row[0].tolist())
            data.sync_update("c")
        assert out == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


@pytest.mark.timeout(60)
def test_close_while_waiting_does_not_hang():
    data = source(50).sync_wait("c").batch(2)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    next(it)
    done = threading.Event()

    def close():
        it.close()
        done.set()
    t = threading.Thread(target=close, daemon=True)
    t.start()
    t.join(30)
    assert done.is_set()


@pytest.mark.timeout(60)
def test_a_missing_sync_update_times_out_and_lets_rows_through(caplog):
    ds.config.set_callback_timeout(1)
    data = source(6).sync_wait("c").batch(2)
    with caplog.at_level(logging.WARNING, logger="minddata"):
        rows = [r[0].tolist() for r in data.create_tuple_iterator(num_epochs=1,
                                                                  output_numpy=True)]
    assert rows == [[0, 1], [2, 3], [4, 5]]
    assert "Timeout happened in sync_wait" in caplog.text or "timeout happened in sync_wait" \
        in caplog.text


def test_argument_errors_are_mindspore_s():
    data = source()
    with pytest.raises(TypeError, match="condition_name"):
        data.sync_wait(1)
    with pytest.raises(TypeError, match="num_batch"):
        data.sync_wait("c", num_batch=1.5)
    with pytest.raises(ValueError, match="num_batch need to be greater than 0"):
        data.sync_wait("c", num_batch=0)
    with pytest.raises(TypeError, match="callback"):
        data.sync_wait("c", callback=3)
    waited = data.sync_wait("c")
    with pytest.raises(RuntimeError, match="Condition name is already in use"):
        waited.map(lambda x: x, "x").sync_wait("c")
    with pytest.raises(RuntimeError, match="No shuffle after sync operators"):
        waited.shuffle(4)
    with pytest.raises(RuntimeError, match="Condition name not found"):
        waited.sync_update("other")
    for bad in (0, "x", 1.5):
        with pytest.raises(RuntimeError, match="Sync_update batch size can only be positive"):
            waited.sync_update("c", num_batch=bad)
    with pytest.raises(TypeError, match="condition_name"):
        waited.sync_update(5)


@pytest.mark.timeout(60)
def test_a_wrong_sync_update_lets_the_pipeline_run_to_its_end():
    # MindSpore disables every wait of the pipeline when sync_update is misused.
    data = source(8).sync_wait("c").batch(2)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    first = next(it)
    with pytest.raises(RuntimeError):
        data.sync_update("c", num_batch=-1)
    rest = list(it)
    assert [first[0].tolist()] + [r[0].tolist() for r in rest] == [[0, 1], [2, 3], [4, 5],
                                                                  [6, 7]]


def test_maps_and_batches_above_a_wait_run_on_one_worker():
    data = source().sync_wait("c").map(lambda x: x, "x", num_parallel_workers=4)
    data = data.batch(2, num_parallel_workers=3)
    p = plan(data)
    assert p.fired("sync_wait_serial")
    assert "SyncWait" in p.nodes
    # no wait: the rule leaves the graph alone
    assert not plan(source().map(lambda x: x, "x", num_parallel_workers=4)).fired(
        "sync_wait_serial")


def test_sync_waited_dataset_reads_as_its_child():
    data = source(7).sync_wait("c")
    assert data.get_dataset_size() == 7
    assert data.get_col_names() == ["x"]
    assert data.output_shapes() == [[]]
