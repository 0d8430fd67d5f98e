"""The torch backend on CPU: Model with a torch Module, sink mode, metrics, checkpoints through
the state_dict bridge, device errors, GRAPH_MODE via torch.compile."""
import logging
import warnings
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from training import GRAPH_MODE, PYNATIVE_MODE, Model, set_context  # noqa: E402
from training.callbacks import CheckpointConfig, LossMonitor, ModelCheckpoint  # noqa: E402
from training.checkpoint import (from_torch_state_dict, load_checkpoint,  # noqa: E402
                                 load_param_into_net, save_checkpoint, to_torch_state_dict,
                                 count_params)

from tests.training.conftest import EventRecorder, classification_data, make_dataset  # noqa: E402


class SmallNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(6, 16)
        self.bn = torch.nn.BatchNorm1d(16)
        self.fc2 = torch.nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


def _model(mode=PYNATIVE_MODE):
    set_context(mode=mode)
    torch.manual_seed(0)
    net = SmallNet()
    return Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), lr=0.1),
                 metrics={"accuracy", "loss"})


def _dataset(n=60, batch=10):
    x, y = classification_data(n)
    return make_dataset([x, y], batch)


def test_torch_model_trains_and_evaluates():
    model = _model()
    ds = _dataset()
    before = model.eval(ds)
    model.train(10, ds)
    after = model.eval(ds)
    assert after["loss"] < before["loss"] and after["accuracy"] >= 0.8


def test_torch_sink_mode_event_accounting():
    rec = EventRecorder()
    model = _model()
    model.train(2, _dataset(60, 10), callbacks=[rec, LossMonitor()], dataset_sink_mode=True,
                sink_size=3)
    assert [e for e in rec.events if e[0] == "step_end"] == [("step_end", 1, 3), ("step_end", 2, 6)]
    assert model.last_train_stats["steps"] == 6


def test_torch_predict_returns_a_torch_tensor():
    out = _model().predict(np.zeros((4, 6), np.float32))
    assert isinstance(out, torch.Tensor) and tuple(out.shape) == (4, 3)


def test_state_dict_bridge_renames_batchnorm():
    net = SmallNet()
    params = from_torch_state_dict(net.state_dict())
    assert "bn.gamma" in params and "bn.moving_variance" in params
    assert "bn.num_batches_tracked" not in params
    back = to_torch_state_dict(params)
    assert set(back) == set(net.state_dict()) - {"bn.num_batches_tracked"}


def test_torch_checkpoint_round_trip_through_ckpt(tmp_path):
    net = SmallNet()
    path = str(tmp_path / "torch.ckpt")
    save_checkpoint(net, path)
    assert "bn.moving_mean" in load_checkpoint(path)
    other = SmallNet()
    not_loaded, unused = load_param_into_net(other, load_checkpoint(path))
    assert not_loaded == [] and unused == []
    for key, value in net.state_dict().items():
        if key != "bn.num_batches_tracked":
            assert torch.equal(value, other.state_dict()[key])
    assert count_params(net) == sum(p.numel() for p in net.parameters())


def test_numpy_trained_dense_loads_into_torch_linear(tmp_path):
    from training import nn
    dense = nn.Dense(6, 3)
    save_checkpoint(dense, str(tmp_path / "d.ckpt"))
    linear = torch.nn.Linear(6, 3)
    load_param_into_net(linear, load_checkpoint(str(tmp_path / "d.ckpt")))
    x = np.random.default_rng(0).standard_normal((2, 6)).astype(np.float32)
    np.testing.assert_allclose(linear(torch.from_numpy(x)).detach().numpy(),
                               dense(x).asnumpy(), rtol=1e-5, atol=1e-6)


def test_model_checkpoint_with_torch_network(tmp_path):
    cb = ModelCheckpoint(prefix="t", directory=str(tmp_path),
                         config=CheckpointConfig(save_checkpoint_steps=6))
    _model().train(1, _dataset(60, 10), callbacks=cb)
    assert os.listdir(tmp_path) == ["t-1_6.ckpt"]
    assert "fc1.weight" in load_checkpoint(str(tmp_path / "t-1_6.ckpt"))


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-CUDA fallback")
def test_gpu_target_without_cuda_falls_back_or_names_what_to_install():
    set_context(device_target="GPU")
    with pytest.warns(UserWarning, match="CUDA build of PyTorch.*Running on the CPU"):
        model = Model(SmallNet(), torch.nn.CrossEntropyLoss(),
                      torch.optim.SGD(SmallNet().parameters(), 0.1))
    assert model._backend.device.type == "cpu"
    set_context(device_id=0)  # an explicit device: no fallback
    with pytest.raises(RuntimeError, match="CUDA build of PyTorch.*explicitly"):
        Model(SmallNet(), torch.nn.CrossEntropyLoss(), torch.optim.SGD(SmallNet().parameters(), 0.1))


def test_ascend_target_without_torch_npu_names_it():
    pytest.importorskip("torch", reason="torch present")
    try:
        import torch_npu  # noqa: F401
        pytest.skip("torch_npu is installed")
    except ImportError:
        pass
    set_context(device_target="Ascend")
    with pytest.warns(UserWarning, match="torch_npu"):
        Model(SmallNet(), torch.nn.CrossEntropyLoss(), torch.optim.SGD(SmallNet().parameters(), 0.1))
    set_context(device_id=1)
    with pytest.raises(RuntimeError, match="torch_npu"):
        Model(SmallNet(), torch.nn.CrossEntropyLoss(), torch.optim.SGD(SmallNet().parameters(), 0.1))


def test_training_nn_network_on_gpu_target_runs_on_the_torch_backend():
    from training import nn
    from training.backends.torch_cells import CellTorchBackend
    set_context(device_target="GPU")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no CUDA here: the CPU fallback's warning
        model = Model(nn.Dense(2, 2))
    assert isinstance(model._backend, CellTorchBackend)


@pytest.mark.slow  # torch.compile takes 20-60 s on the shared 2-core machine
def test_graph_mode_compiled_step_matches_eager_step():
    """One compiled step equals one eager step (falls back to eager without a compiler)."""
    x, y = classification_data(20)
    results = []
    for mode in (PYNATIVE_MODE, GRAPH_MODE):
        model = _model(mode)
        model.train(1, make_dataset([x, y], 20))
        results.append(model.predict(x[:4]).numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-4, atol=1e-5)


def test_graph_mode_uses_torch_compile_and_falls_back_to_eager(monkeypatch):
    compiled_calls = []

    def fake_compile(fn):
        def broken(*args):
            compiled_calls.append(len(args))
            raise RuntimeError("no C++ compiler")
        return broken
    monkeypatch.setattr(torch, "compile", fake_compile)
    model = _model(GRAPH_MODE)
    x, y = classification_data(20)
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logging.getLogger("training.torch").addHandler(handler)
    try:
        model.train(1, make_dataset([x, y], 10))
    finally:
        logging.getLogger("training.torch").removeHandler(handler)
    assert compiled_calls == [2]                       # tried once, then eager
    assert any("falls back to eager" in r.getMessage() for r in records)
    assert model.train_network._forward == model.train_network._eager_forward


def test_wrong_input_shape_names_the_torch_layer():
    model = _model()
    x = np.zeros((20, 5), np.float32)  # built for 6 features
    with pytest.raises(ValueError, match=r"'Linear' layer 'fc1'.*\(N, 6\).*\(10, 5\)"):
        model.train(1, make_dataset([x, np.zeros(20, np.int32)], 10))


def test_dump_records_torch_modules(tmp_path, monkeypatch):
    import json
    cfg = tmp_path / "dump.json"
    cfg.write_text(json.dumps({"common_dump_settings": {
        "dump_mode": 1, "path": str(tmp_path / "d"), "net_name": "Small", "iteration": "0",
        "input_output": 2, "kernels": ["fc2"]}}))
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(cfg))
    _model().train(1, _dataset(20, 10))
    files = list((tmp_path / "d").rglob("*.npy"))
    assert len(files) == 1 and files[0].name.startswith("Linear.fc2.")
    assert np.load(files[0]).shape == (10, 3)


def test_a_read_only_batch_reaches_torch_as_a_copy():
    """A batch column that is a view of read-only memory (a MindRecord file map) is copied
    before torch.from_numpy: torch may write into its tensors."""
    from training.backends.torch_backend import TorchBackend
    images = np.arange(12, dtype=np.float32).reshape(3, 4)
    images.flags.writeable = False
    labels = np.array([0, 1, 2], np.int64)              # writable: shared, not copied
    image_t, label_t = TorchBackend().to_device((images, labels))
    assert image_t.cpu().numpy().tolist() == images.tolist()
    image_t.add_(1)                                      # would write into read-only memory
    assert images[0, 0] == 0
    if label_t.device.type == "cpu":
        assert np.shares_memory(label_t.numpy(), labels)
