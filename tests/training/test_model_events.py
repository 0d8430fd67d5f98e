"""Model.train's callback event order and step accounting, non-sink and sink, and request_stop."""
import numpy as np
import pytest

from training import Model, nn, set_seed
from training.callbacks import Callback, LossMonitor, TimeMonitor

from tests.training.conftest import EventRecorder, classification_data, make_dataset


def _model():
    set_seed(0)
    net = nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, nn.Momentum(net.trainable_params(), 0.05, 0.9), metrics={"accuracy"})


def _dataset(n=40, batch=10):
    x, y = classification_data(n)
    return make_dataset([x, y], batch)


def test_non_sink_event_order_and_counters():
    rec = EventRecorder()
    _model().train(2, _dataset(20, 10), callbacks=rec)
    assert rec.events == [
        ("begin", 0, 0), ("epoch_begin", 1, 0),
        ("step_begin", 1, 1), ("step_end", 1, 1), ("step_begin", 1, 2), ("step_end", 1, 2),
        ("epoch_end", 1, 2), ("epoch_begin", 2, 2),
        ("step_begin", 2, 3), ("step_end", 2, 3), ("step_begin", 2, 4), ("step_end", 2, 4),
        ("epoch_end", 2, 4), ("end", 2, 4)]


def test_sink_mode_counts_a_chunk_as_one_step():
    rec = EventRecorder()
    model = _model()
    model.train(3, _dataset(40, 10), callbacks=rec, dataset_sink_mode=True, sink_size=2)
    steps = [e for e in rec.events if e[0].startswith("step")]
    assert steps == [("step_begin", 1, 0), ("step_end", 1, 2), ("step_begin", 2, 2),
                     ("step_end", 2, 4), ("step_begin", 3, 4), ("step_end", 3, 6)]
    assert model.last_train_stats["steps"] == 6


def test_sink_mode_full_dataset_per_epoch():
    rec = EventRecorder()
    _model().train(2, _dataset(40, 10), callbacks=rec, dataset_sink_mode=True)
    assert [e for e in rec.events if e[0] == "step_end"] == [("step_end", 1, 4), ("step_end", 2, 8)]


def test_request_stop_still_fires_epoch_end_and_end():
    rec = EventRecorder(stop_at_step=3)
    _model().train(5, _dataset(40, 10), callbacks=rec)
    names = [e[0] for e in rec.events]
    assert names[-3:] == ["step_end", "epoch_end", "end"]
    assert rec.events[-1] == ("end", 1, 3)


def test_request_stop_in_sink_mode_stops_after_the_chunk():
    rec = EventRecorder(stop_at_step=1)
    _model().train(4, _dataset(40, 10), callbacks=rec, dataset_sink_mode=True, sink_size=2)
    assert rec.events[-1] == ("end", 1, 2)


def test_initial_epoch_starts_counting_there():
    rec = EventRecorder()
    _model().train(3, _dataset(20, 10), callbacks=rec, initial_epoch=1)
    assert rec.events[1] == ("epoch_begin", 2, 2)
    assert rec.events[-1] == ("end", 3, 6)


def test_cb_params_fields_are_set():
    seen = {}

    class Grab(Callback):
        def on_train_step_end(self, rc):
            cb = rc.original_args()
            for key in ("train_network", "loss_fn", "optimizer", "train_dataset", "cur_epoch_num",
                        "cur_step_num", "batch_num", "epoch_num", "net_outputs"):
                seen[key] = cb[key]
    ds = _dataset(20, 10)
    model = _model()
    model.train(1, ds, callbacks=Grab())
    assert seen["train_network"] is model.train_network
    assert seen["train_dataset"] is ds and seen["batch_num"] == 2 and seen["epoch_num"] == 1
    assert np.isfinite(float(seen["net_outputs"].asnumpy()))


def test_old_style_callback_names_are_called():
    calls = []

    class Old(Callback):
        def begin(self, rc):
            calls.append("begin")

        def step_end(self, rc):
            calls.append("step_end")

        def end(self, rc):
            calls.append("end")
    _model().train(1, _dataset(20, 10), callbacks=[Old()])
    assert calls == ["begin", "step_end", "step_end", "end"]


def test_training_lowers_the_loss_and_eval_returns_metrics():
    model = _model()
    ds = _dataset(60, 10)
    before = model.eval(ds)["accuracy"]
    model.train(15, ds)
    after = model.eval(ds)["accuracy"]
    assert after > before and after >= 0.8


def test_loss_monitor_raises_on_nan_loss():
    model = _model()
    x, y = classification_data(20)
    x[3, 0] = np.nan
    with pytest.raises(ValueError, match="Invalid loss"):
        model.train(1, make_dataset([x, y], 10), callbacks=LossMonitor())


def test_loss_monitor_prints_epoch_and_step(capsys):
    _model().train(1, _dataset(20, 10), callbacks=LossMonitor(per_print_times=1))
    out = capsys.readouterr().out
    assert "epoch: 1 step: 1, loss is" in out and "epoch: 1 step: 2, loss is" in out


def test_time_monitor_reports_data_wait(capsys):
    tm = TimeMonitor(data_time=True)
    _model().train(1, _dataset(20, 10), callbacks=tm, dataset_sink_mode=True)
    assert "data wait time" in capsys.readouterr().out
    assert 0.0 <= tm.last_report["data_wait_fraction"] <= 1.0


def test_train_argument_errors():
    model = _model()
    ds = _dataset(20, 10)
    with pytest.raises(ValueError, match="epoch"):
        model.train(0, ds)
    with pytest.raises(ValueError, match="sink_size"):
        model.train(1, ds, dataset_sink_mode=True, sink_size=0)
    with pytest.raises(ValueError, match="initial_epoch"):
        model.train(2, ds, initial_epoch=2)
    with pytest.raises(TypeError, match="train_dataset"):
        model.train(1, [1, 2, 3])
    with pytest.raises(TypeError, match="Callback"):
        model.train(1, ds, callbacks=[object()])


def test_eval_without_metrics_raises():
    net = nn.Dense(6, 3)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True))
    with pytest.raises(ValueError, match="metrics"):
        model.eval(_dataset(20, 10))


def test_eval_event_order():
    rec = EventRecorder()
    _model().eval(_dataset(20, 10), callbacks=rec)
    assert [e[0] for e in rec.events] == ["eval_begin", "eval_step_end", "eval_step_end", "eval_end"]


def test_fit_puts_eval_results_before_epoch_end():
    results = []

    class Grab(Callback):
        def on_train_epoch_end(self, rc):
            results.append(rc.original_args().eval_results)
    ds = _dataset(20, 10)
    _model().fit(2, ds, valid_dataset=ds, callbacks=Grab())
    assert len(results) == 2 and all("accuracy" in r for r in results)


def test_predict_returns_network_output():
    model = _model()
    out = model.predict(np.zeros((3, 6), np.float32))
    assert out.shape == (3, 3)


def test_fit_sends_eval_events_to_the_same_callbacks():
    rec = EventRecorder()
    ds = _dataset(20, 10)
    _model().fit(2, ds, valid_dataset=ds, valid_frequency=2, callbacks=rec)
    names = [e[0] for e in rec.events]
    # evaluation only after epoch 2 (valid_frequency=2), before that epoch's epoch_end
    assert names[-6:] == ["eval_begin", "eval_step_end", "eval_step_end", "eval_end",
                          "epoch_end", "end"]
    assert names.count("eval_begin") == 1


def test_dataset_with_too_many_columns_is_explained():
    x, y = classification_data(20)
    ds = make_dataset([x, y, y], 10, ["image", "label", "extra"])
    with pytest.raises(TypeError, match=r"WithLossCell takes 2 input\(s\) \(data, label\).*"
                                        r"3 column\(s\) \(image, label, extra\)"):
        _model().train(1, ds)


def test_mindspore_train_namespace_is_mirrored():
    from training import train
    from training.callbacks import LossMonitor as LM
    assert train.LossMonitor is LM and train.Model is Model
    assert train.Accuracy()(np.eye(2), np.array([0, 1])) == 1.0
