"""The sink executor: bounded prefetch queue sized by minddata's prefetch size, data-wait
measurement, error propagation and thread clean-up."""
import threading
import time

import numpy as np
import pytest

from training import Model, nn, sink
from training.tensor import Tensor

from tests.training.conftest import DuckDataset, EventRecorder, classification_data


class SlowDataset(DuckDataset):
    """Each batch takes `delay` seconds to produce; batch `fail_at` raises."""

    def __init__(self, *args, delay=0.0, fail_at=None, **kw):
        super().__init__(*args, **kw)
        self.delay, self.fail_at = delay, fail_at
        self.produced = 0

    def create_tuple_iterator(self, num_epochs=-1, output_numpy=False):
        outer = self

        class It:
            def __init__(self):
                self.left = num_epochs

            def __iter__(self):
                if self.left == 0:
                    return
                self.left -= 1
                for batch in DuckDataset.create_tuple_iterator(outer, 1):
                    time.sleep(outer.delay)
                    if outer.fail_at is not None and outer.produced == outer.fail_at:
                        raise KeyError("broken row in batch")
                    outer.produced += 1
                    yield batch
        return It()


def _sink_threads():
    return [t for t in threading.enumerate() if t.name == "training-sink"]


def _model():
    net = nn.Dense(6, 3)
    return Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                 nn.SGD(net.trainable_params(), 0.01))


def test_queue_depth_follows_minddata_prefetch_size():
    minddata = pytest.importorskip("minddata")
    old = minddata.config.get_prefetch_size()
    try:
        minddata.config.set_prefetch_size(3)
        assert sink.prefetch_depth() == 3
        x, y = classification_data(40)
        feeder = sink.SinkFeeder(DuckDataset([x, y], 4), 1, lambda b: b)
        assert feeder.depth == 3 and feeder._queue.maxsize == 3
        feeder.close()
    finally:
        minddata.config.set_prefetch_size(old)


def test_producer_runs_ahead_up_to_the_depth():
    x, y = classification_data(80)
    ds = SlowDataset([x, y], 4)
    with sink.SinkFeeder(ds, 1, lambda b: b, depth=4) as feeder:
        feeder.next()
        deadline = time.time() + 10
        while feeder._queue.qsize() < 4 and time.time() < deadline:
            time.sleep(0.01)
        assert feeder._queue.qsize() == 4          # full, and no further
        assert ds.produced == 1 + 4 + 1 or ds.produced == 1 + 4  # one may wait on put()


def test_batches_arrive_in_order_across_epochs():
    x = np.arange(12, dtype=np.float32).reshape(12, 1)
    with sink.SinkFeeder(DuckDataset([x], 4), 2, lambda b: b, depth=2) as feeder:
        seen = []
        while (item := feeder.next()) is not None:
            seen.append((item[0], int(item[1][0][0, 0])))
    assert seen == [(0, 0), (0, 4), (0, 8), (1, 0), (1, 4), (1, 8)]


def test_data_wait_is_measured_when_the_pipeline_is_slow():
    x, y = classification_data(12)
    model = _model()
    model.train(1, SlowDataset([x, y], 4, delay=0.05), dataset_sink_mode=True)
    assert model.last_train_stats["data_wait_s"] > 0.05


def test_pipeline_error_reaches_the_caller_and_thread_ends():
    x, y = classification_data(40)
    rec = EventRecorder()
    with pytest.raises(KeyError, match="broken row"):
        _model().train(2, SlowDataset([x, y], 4, fail_at=3), callbacks=rec, dataset_sink_mode=True)
    assert not _sink_threads()
    assert ("end", 1, 0) not in rec.events


def test_no_thread_left_after_early_stop():
    x, y = classification_data(200)
    rec = EventRecorder(stop_at_step=1)
    _model().train(3, SlowDataset([x, y], 4, delay=0.001), callbacks=rec, dataset_sink_mode=True,
                   sink_size=2)
    assert rec.events[-1][0] == "end"
    assert not _sink_threads()


def test_to_device_conversion_runs_in_the_sink_thread():
    threads = set()

    def convert(batch):
        threads.add(threading.current_thread().name)
        return tuple(Tensor(b) for b in batch)
    x, y = classification_data(8)
    with sink.SinkFeeder(DuckDataset([x, y], 4), 1, convert, depth=2) as feeder:
        while feeder.next() is not None:
            pass
    assert threads == {"training-sink"}


@pytest.mark.parametrize("epochs,sink_size", [(2, -1), (3, 2), (5, 3)])
def test_sink_and_non_sink_train_on_the_same_batches(epochs, sink_size):
    """Same batches in the same order: identical final weights (the numpy backend is exact)."""
    from training import set_seed
    x, y = classification_data(40)
    weights = []
    for sink in (False, True):
        set_seed(0)
        net = nn.Dense(6, 3)
        model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.Momentum(net.trainable_params(), 0.1, 0.9))
        ds = DuckDataset([x, y], 10)
        if sink:
            model.train(epochs, ds, dataset_sink_mode=True, sink_size=sink_size)
            steps = model.last_train_stats["steps"]
        else:
            total = epochs * (sink_size if sink_size > 0 else 4)
            model.train(-(-total // 4), ds, callbacks=EventRecorder(stop_at_step=total))
        weights.append(net.weight.data.copy())
    assert steps == epochs * (sink_size if sink_size > 0 else 4)
    np.testing.assert_array_equal(weights[0], weights[1])


def test_early_stop_releases_the_pipeline_threads():
    minddata = pytest.importorskip("minddata")
    x, y = classification_data(400)
    ds = minddata.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(4)
    before = threading.active_count()
    for sink in (False, True):
        rec = EventRecorder(stop_at_step=2)
        _model().train(3, ds, callbacks=rec, dataset_sink_mode=sink, sink_size=2 if sink else -1)
    deadline = time.time() + 5
    while threading.active_count() > before and time.time() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= before
