"""SummaryCollector writes its scalars through tensorboardX; TensorBoard's own event reader
(which checks every record's CRC) reads them back with the right tags, steps and values."""
import os
import threading

import pytest
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from training import Model, nn, set_seed
from training.callbacks import LambdaCallback, SummaryCollector
from training.callbacks.loss_monitor import loss_value

from tests.training.conftest import classification_data, make_dataset


def _model():
    set_seed(0)
    net = nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3))
    return Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                 nn.Momentum(net.trainable_params(), 0.05, 0.9), metrics={"loss", "accuracy"})


def _dataset(n=30, batch=10):
    x, y = classification_data(n)
    return make_dataset([x, y], batch)


def _read(directory):
    events = EventAccumulator(str(directory))
    events.Reload()
    return events


def _writer_threads():
    return [t for t in threading.enumerate() if type(t).__name__ == "_EventLoggerThread"]


def test_scalars_read_back_by_tensorboard(tmp_path):
    losses = {}
    record = LambdaCallback(on_train_step_end=lambda rc: losses.__setitem__(
        rc.original_args().cur_step_num, loss_value(rc.original_args().net_outputs)))
    _model().train(2, _dataset(), callbacks=[SummaryCollector(str(tmp_path), collect_freq=2),
                                             record])
    files = os.listdir(tmp_path)
    assert len(files) == 1 and files[0].startswith("events.out.tfevents.")
    events = _read(tmp_path)
    assert set(events.Tags()["scalars"]) == {"loss", "learning_rate"}
    loss = events.Scalars("loss")
    # Step 1 always, then every collect_freq steps: 3 steps per epoch, 6 in all.
    assert [e.step for e in loss] == [1, 2, 4, 6]
    assert [e.value for e in loss] == pytest.approx([losses[s] for s in (1, 2, 4, 6)], rel=1e-6)
    assert [e.value for e in events.Scalars("learning_rate")] == pytest.approx([0.05] * 4)
    assert not _writer_threads()    # training's end closed the writer and its thread


def test_eval_metrics_at_each_epoch_end(tmp_path):
    ds = _dataset()
    with SummaryCollector(tmp_path / "run", collect_freq=100) as collector:
        _model().fit(2, ds, valid_dataset=ds, callbacks=collector)
    events = _read(tmp_path / "run")
    assert {"eval_loss", "eval_accuracy"} <= set(events.Tags()["scalars"])
    assert [e.step for e in events.Scalars("eval_accuracy")] == [3, 6]
    assert all(0.0 <= e.value <= 1.0 for e in events.Scalars("eval_accuracy"))


def test_close_without_training_leaves_no_thread(tmp_path):
    collector = SummaryCollector(str(tmp_path))
    collector.close()                   # nothing opened: nothing written
    assert os.listdir(tmp_path) == []
    assert not _writer_threads()


@pytest.mark.parametrize("bad", ["", 3])
def test_bad_summary_dir_is_rejected(bad):
    with pytest.raises(ValueError, match="summary_dir"):
        SummaryCollector(bad)
