"""ops.Print (screen and print_file_path), the .npy dump, save_graphs text, the profiling trace
and GLOG_v logging."""
import json
import logging

import numpy as np
import pytest

from training import Model, log, nn, ops, set_context
from training.tensor import Tensor

from tests.training.conftest import LeNet5, classification_data, make_dataset


def _model():
    net = nn.SequentialCell(nn.Dense(6, 4), nn.ReLU(), nn.Dense(4, 3))
    return Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                 nn.SGD(net.trainable_params(), 0.1))


def _dataset():
    x, y = classification_data(20)
    return make_dataset([x, y], 10)


def test_print_to_screen(capsys):
    ops.Print()("value:", Tensor(np.array([[1, 2], [3, 4]], np.int32)))
    out = capsys.readouterr().out
    assert out.startswith("value:\nTensor(shape=[2, 2], dtype=Int32, value=\n[[1 2]\n [3 4]])")


def test_print_to_file_when_print_file_path_is_set(tmp_path, capsys):
    path = tmp_path / "print.txt"
    set_context(print_file_path=str(path))
    ops.Print()("loss", Tensor(np.float32(0.5)))
    assert capsys.readouterr().out == ""
    assert path.read_text() == "loss\nTensor(shape=[], dtype=Float32, value=0.5)\n"


def test_print_rejects_other_objects():
    with pytest.raises(TypeError, match="Print"):
        ops.Print()(object())
    with pytest.raises(ValueError, match="directory"):
        set_context(print_file_path="/nonexistent/dir/p.txt")


def _dump_config(tmp_path, **common):
    settings = {"dump_mode": 0, "path": str(tmp_path / "dump"), "net_name": "Net",
                "iteration": "0|2", "input_output": 0, "kernels": []}
    settings.update(common)
    cfg = tmp_path / "dump.json"
    cfg.write_text(json.dumps({"common_dump_settings": settings}))
    return cfg


def test_dump_writes_inputs_and_outputs_for_chosen_iterations(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(_dump_config(tmp_path)))
    _model().train(2, _dataset())  # iterations 0..3
    base = tmp_path / "dump" / "rank_0" / "Net" / "0"
    assert sorted(p.name for p in base.iterdir()) == ["0", "2"]
    files = sorted(p.name for p in (base / "0").iterdir())
    dense_out = [f for f in files if f.startswith("Dense.0.") and ".output.0." in f]
    assert len(dense_out) == 1
    assert np.load(base / "0" / dense_out[0]).shape == (10, 4)
    assert any(f.startswith("ReLU.1.") and ".input.0." in f for f in files)


def test_dump_mode_1_keeps_only_named_kernels(tmp_path, monkeypatch):
    cfg = _dump_config(tmp_path, dump_mode=1, kernels=["2"], input_output=2, iteration="all")
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(cfg))
    _model().train(1, _dataset())
    files = [p.name for p in (tmp_path / "dump").rglob("*.npy")]
    assert len(files) == 2 and all(f.startswith("Dense.2.") and ".output." in f for f in files)


def test_dump_config_errors_name_the_problem(tmp_path, monkeypatch):
    cfg = _dump_config(tmp_path, path="relative/dir")
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(cfg))
    with pytest.raises(ValueError, match="'path' must be absolute"):
        _model().train(1, _dataset())
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="missing.json"):
        _model().train(1, _dataset())


def test_save_graphs_writes_structure_with_shapes(tmp_path):
    set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    net = LeNet5()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.SGD(net.trainable_params(), 0.01))
    x = np.zeros((4, 1, 32, 32), np.float32)
    model.train(1, make_dataset([x, np.zeros(4, np.int32)], 2))
    text = (tmp_path / "LeNet5_train_graph.txt").read_text()
    assert "conv1.weight: shape=[6, 1, 5, 5]" in text
    assert "fc1 [Dense] [(2, 400)] -> [(2, 120)]" in text
    assert text.count("conv1 [Conv2d]") == 1  # recorded for the first step only


def test_profiling_writes_a_chrome_trace(tmp_path):
    set_context(enable_profiling=True, profiling_options=json.dumps({"output": str(tmp_path)}))
    _model().train(2, _dataset(), dataset_sink_mode=True)
    trace = json.loads((tmp_path / "trace_view.json").read_text())
    names = [e["name"] for e in trace["traceEvents"]]
    assert names.count("data_wait") == 4 and names.count("forward_backward") == 4
    assert names.count("update") == 4 and names.count("step") == 4
    assert all(e["ph"] == "X" and e["dur"] >= 0 for e in trace["traceEvents"])


def test_glog_v_sets_the_level_and_log_dir_gets_a_file(tmp_path):
    try:
        logger = log.configure({"GLOG_v": "0", "GLOG_log_dir": str(tmp_path),
                                "GLOG_logtostderr": "0"})
        assert logger.level == logging.DEBUG
        logging.getLogger("training.model").debug("hello from the test")
        for h in logger.handlers:
            h.flush()
        files = list(tmp_path.iterdir())
        assert len(files) == 1 and "hello from the test" in files[0].read_text()
        assert log.configure({"GLOG_v": "3"}).level == logging.ERROR
        with pytest.raises(ValueError, match="GLOG_v"):
            log.configure({"GLOG_v": "debug"})
    finally:
        log.configure({})


def test_unknown_context_keys_and_values_raise():
    with pytest.raises(ValueError, match="not recognized"):
        set_context(device="CPU")
    with pytest.raises(ValueError, match="device_target"):
        set_context(device_target="TPU")
    with pytest.raises(ValueError, match="mode"):
        set_context(mode=5)
