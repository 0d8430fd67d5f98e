"""training.nn networks on the torch backend: set_backend, the optimizers' torch rules against
their numpy rules, Model.train (non-sink and sink) matching the numpy backend step for step,
checkpoints across backends, custom training cells and value_and_grad."""
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import training as ms  # noqa: E402
from training import Model, Tensor, get_backend, nn, set_backend, set_seed  # noqa: E402
from training.callbacks import CheckpointConfig, ModelCheckpoint  # noqa: E402
from training.backends.torch_cells import CellTorchBackend, param  # noqa: E402

from tests.training.conftest import make_dataset  # noqa: E402


@pytest.fixture(autouse=True)
def _numpy_backend():
    """Each test starts on numpy whatever TRAINING_BACKEND says, and sets torch itself."""
    set_backend("numpy")
    yield
    set_backend(None)


def test_set_backend_chooses_and_checks(monkeypatch):
    monkeypatch.delenv("TRAINING_BACKEND", raising=False)
    set_backend(None)
    assert get_backend() == "torch"  # the default on the CPU too, torch being installed
    set_backend("numpy")
    assert get_backend() == "numpy"
    set_backend("torch")
    assert get_backend() == "torch"
    assert isinstance(Model(nn.Dense(2, 2))._backend, CellTorchBackend)
    with pytest.raises(ValueError, match="'backend' must be one of"):
        set_backend("jax")
    set_backend(None)
    assert get_backend() == "torch"


def test_the_default_is_numpy_without_torch(monkeypatch):
    from training.backends import base
    monkeypatch.delenv("TRAINING_BACKEND", raising=False)
    monkeypatch.setattr(base, "_torch_installed", lambda: False)
    set_backend(None)
    assert get_backend() == "numpy"


def test_training_backend_environment_variable(monkeypatch):
    set_backend(None)
    monkeypatch.setenv("TRAINING_BACKEND", "torch")
    assert get_backend() == "torch"
    set_backend("numpy")  # set_backend wins
    assert get_backend() == "numpy"
    set_backend(None)
    monkeypatch.setenv("TRAINING_BACKEND", "cuda")
    with pytest.raises(ValueError, match="TRAINING_BACKEND must be one of"):
        get_backend()


class SmallConvNet(nn.Cell):
    """Conv, BatchNorm (training statistics), pooling, a residual add and Dense."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, has_bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(4, 4, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 4 * 4, 3)

    def construct(self, x):
        x = self.relu(self.bn(self.conv(x)))
        x = self.relu(x + self.conv2(x))
        return self.fc(self.flatten(self.pool(x)))


def _data(n=32, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 1, 8, 8)).astype(np.float32)
    y = (x[:, 0, :4].mean(axis=(1, 2)) > 0).astype(np.int32) + (x[:, 0, 4:].mean(axis=(1, 2)) > 0)
    return x, y.astype(np.int32)


def _train(backend, optimizer_fn, sink=False, epochs=2, **model_kwargs):
    set_backend(backend)
    set_seed(3)
    net = SmallConvNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, optimizer_fn(net.trainable_params()), **model_kwargs)
    model.train(epochs, make_dataset(list(_data()), 8), dataset_sink_mode=sink)
    return net, model


OPTIMIZERS = {
    "momentum": lambda p: nn.Momentum(p, 0.05, 0.9, weight_decay=1e-3),
    "nesterov": lambda p: nn.Momentum(p, [0.05, 0.04, 0.03] + [0.02] * 5, 0.9,
                                      use_nesterov=True),  # a rate for each of the 8 steps
    "sgd": lambda p: nn.SGD(p, 0.05, momentum=0.8, dampening=0.1),
    "adam": lambda p: nn.Adam(p, 0.01, weight_decay=1e-4),
    "amsgrad": lambda p: nn.Adam(p, 0.01, use_amsgrad=True),
    "rmsprop": lambda p: nn.RMSProp(p, 0.01, momentum=0.5, centered=True, weight_decay=1e-3),
    "adagrad": lambda p: nn.Adagrad(p, learning_rate=0.05, weight_decay=1e-3),
    "adamweightdecay": lambda p: nn.AdamWeightDecay(p, 0.01, weight_decay=0.01),
    "scaled loss": lambda p: nn.Momentum(p, 0.05, 0.9, loss_scale=8.0),
    "own rule (host path)": lambda p: PlainDescent(p, 0.05),
}


class PlainDescent(nn.Optimizer):
    """A script's own optimizer, with a numpy rule only: the torch backend runs it on host
    copies of the gradients."""

    def __init__(self, params, learning_rate):
        super().__init__(learning_rate, params)

    def apply_gradients(self, gradients, lr):
        for p, g in zip(self.parameters, gradients):
            p.data -= lr * g


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_model_train_matches_the_numpy_backend(name):
    """Eight steps of Model.train end in the same parameters and optimizer states."""
    net_np, model_np = _train("numpy", OPTIMIZERS[name])
    net_t, model_t = _train("torch", OPTIMIZERS[name])
    assert isinstance(model_t._backend, CellTorchBackend)
    assert net_t.conv.weight._torch is not None  # it did run on torch
    states_np = dict(model_np._optimizer.parameters_and_names())
    for pname, p in model_t._optimizer.parameters_and_names():
        np.testing.assert_allclose(p.data, states_np[pname].data, rtol=2e-4, atol=2e-5,
                                   err_msg=pname)
    for (pname, p), (_, q) in zip(net_t.parameters_and_names(), net_np.parameters_and_names()):
        np.testing.assert_allclose(p.data, q.data, rtol=2e-4, atol=2e-5, err_msg=pname)


@pytest.mark.parametrize("manager", [
    lambda: ms.FixedLossScaleManager(64.0, drop_overflow_update=False),
    lambda: ms.FixedLossScaleManager(64.0, drop_overflow_update=True),
    lambda: ms.DynamicLossScaleManager(2.0 ** 10, 2, 4)])
def test_loss_scale_managers_match_the_numpy_backend(manager):
    """A fixed scale without overflow checks is unscaled by the optimizer's loss_scale, as
    MindSpore's; the others unscale the gradients themselves. No step overflows here."""
    def optimizer(p):
        fixed = isinstance(scale, ms.FixedLossScaleManager) and not scale.get_drop_overflow_update()
        return nn.Momentum(p, 0.05, 0.9, loss_scale=64.0 if fixed else 1.0)
    scale = manager()
    net_np, _ = _train("numpy", optimizer, loss_scale_manager=scale)
    scale = manager()
    net_t, _ = _train("torch", optimizer, loss_scale_manager=scale)
    for (name, p), (_, q) in zip(net_t.parameters_and_names(), net_np.parameters_and_names()):
        np.testing.assert_allclose(p.data, q.data, rtol=2e-4, atol=2e-5, err_msg=name)


def test_channels_last_weights_train_to_the_same_values(monkeypatch):
    net_np, _ = _train("numpy", OPTIMIZERS["momentum"])
    monkeypatch.setenv("TRAINING_CHANNELS_LAST", "1")
    net_t, _ = _train("torch", OPTIMIZERS["momentum"])
    assert param(net_t.conv2.weight).is_contiguous(memory_format=torch.channels_last)
    assert not param(net_t.conv2.weight).is_contiguous()
    for (name, p), (_, q) in zip(net_t.parameters_and_names(), net_np.parameters_and_names()):
        np.testing.assert_allclose(p.data, q.data, rtol=2e-4, atol=2e-5, err_msg=name)
    monkeypatch.setenv("TRAINING_CHANNELS_LAST", "yes")
    with pytest.raises(ValueError, match="TRAINING_CHANNELS_LAST must be"):
        _train("torch", OPTIMIZERS["momentum"])


def test_sink_mode_trains_and_evaluates_on_torch():
    net, model = _train("torch", OPTIMIZERS["momentum"], sink=True, epochs=6)
    x, y = _data()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.05, 0.9), metrics={"accuracy", "loss"})
    result = model.eval(make_dataset([x, y], 8))
    assert result["accuracy"] > 0.6
    predicted = model.predict(Tensor(x[:4]))
    assert isinstance(predicted, Tensor) and predicted.shape == (4, 3)
    net.set_train(False)
    np.testing.assert_allclose(predicted.asnumpy(), net(Tensor(x[:4])).asnumpy(), atol=1e-5)


def test_checkpoints_cross_backends(tmp_path):
    """A checkpoint saved by ModelCheckpoint on torch holds the numpy backend's names and loads
    into a numpy network that then computes the torch network's outputs, and back."""
    set_backend("torch")
    set_seed(3)
    net = SmallConvNet()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.05, 0.9))
    saver = ModelCheckpoint("t", str(tmp_path), CheckpointConfig(save_checkpoint_steps=4))
    model.train(1, make_dataset(list(_data()), 8), callbacks=[saver])
    path = os.path.join(str(tmp_path), "t-1_4.ckpt")
    saved = ms.load_checkpoint(path)
    assert {"conv.weight", "bn.moving_mean", "fc.bias", "moments.fc.weight", "global_step",
            "learning_rate"} <= set(saved)
    assert int(saved["global_step"].asnumpy()[0]) == 4

    set_backend("numpy")
    set_seed(99)
    fresh = SmallConvNet()
    ms.load_param_into_net(fresh, saved)
    x = Tensor(_data(4, seed=5)[0])
    net.set_train(False)
    fresh.set_train(False)
    with torch.no_grad():
        torch_out = net(torch.from_numpy(x.asnumpy())).numpy()
    np.testing.assert_allclose(fresh(x).asnumpy(), torch_out, atol=1e-5)

    ms.save_checkpoint(fresh, str(tmp_path / "numpy.ckpt"))
    set_seed(7)
    other = SmallConvNet()
    other.set_train(False)
    param(other.conv.weight)  # bound to torch before loading: the load writes through
    ms.load_param_into_net(other, ms.load_checkpoint(str(tmp_path / "numpy.ckpt")))
    with torch.no_grad():
        np.testing.assert_allclose(other(torch.from_numpy(x.asnumpy())).numpy(), torch_out,
                                   atol=1e-5)


def test_custom_train_one_step_cell_runs_on_torch():
    set_backend("torch")
    set_seed(3)
    net = SmallConvNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Adam(net.trainable_params(), 0.01)
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    model = Model(train_net)
    losses = []

    class Record(ms.train.Callback):
        def on_train_step_end(self, run_context):
            losses.append(float(run_context.original_args().net_outputs))
    model.train(6, make_dataset(list(_data()), 8), callbacks=[Record()])
    assert net.fc.weight._torch is not None
    assert int(opt.global_step.data[0]) == 24
    assert np.mean(losses[-4:]) < np.mean(losses[:4])


def test_value_and_grad_over_torch_tensors_and_parameters():
    set_seed(3)
    net = nn.Dense(4, 2)
    loss_fn = nn.MSELoss()
    opt = nn.SGD(net.trainable_params(), 0.1)
    x = np.ones((3, 4), np.float32)
    y = np.zeros((3, 2), np.float32)

    def forward(data, label):
        return loss_fn(net(data), label)
    expected_loss, expected = ms.value_and_grad(forward, None, opt.parameters)(Tensor(x), Tensor(y))
    loss, grads = ms.value_and_grad(forward, None, opt.parameters)(torch.from_numpy(x),
                                                                  torch.from_numpy(y))
    np.testing.assert_allclose(float(loss), float(expected_loss), rtol=1e-6)
    for g, e in zip(grads, expected):
        np.testing.assert_allclose(g.numpy(), e.asnumpy(), rtol=1e-5, atol=1e-6)
    before = net.weight.data.copy()
    opt(grads)  # the optimizer takes torch gradients too
    np.testing.assert_allclose(net.weight.data, before - 0.1 * expected[0].asnumpy(), atol=1e-6)
    grad_fn = ms.ops.GradOperation(get_by_list=True)(forward, opt.parameters)
    again = grad_fn(torch.from_numpy(x), torch.from_numpy(y))
    assert len(again) == 2 and tuple(again[0].shape) == (2, 4)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the fallback without CUDA")
def test_faq_print_example_on_a_gpu_target_warns_and_runs_on_cpu(capsys):
    """MindSpore's FAQ print example asks for device_target='GPU'; without one it runs, with a
    warning, on the CPU."""
    ms.set_context(mode=ms.GRAPH_MODE, device_target="GPU")

    class PrintDemo(nn.Cell):
        def __init__(self):
            super().__init__()
            self.print = ms.ops.Print()

        def construct(self, x, y):
            self.print("print Tensor x and Tensor y:", x, y)
            return x
    x = Tensor(np.ones([2, 1]).astype(np.int32))
    y = Tensor(np.ones([2, 2]).astype(np.int32))
    with pytest.warns(UserWarning, match="GPU.*Running on the CPU"):
        out = PrintDemo()(x, y)
    assert out.shape == (2, 1)
    assert "print Tensor x and Tensor y:" in capsys.readouterr().out


def _loss_scale_cell(backend, scale_value, reduction="mean"):
    set_backend(backend)
    set_seed(3)
    net = SmallConvNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction=reduction)
    update = nn.DynamicLossScaleUpdateCell(scale_value, 2, 100)
    return net, nn.TrainOneStepWithLossScaleCell(
        nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.05, 0.9), update)


def test_train_one_step_with_loss_scale_cell_on_torch():
    x, y = _data(8)
    net_np, cell_np = _loss_scale_cell("numpy", 2.0 ** 12)
    net_t, cell_t = _loss_scale_cell("torch", 2.0 ** 12)
    for _ in range(3):
        loss_np, overflow_np, _ = cell_np(Tensor(x), Tensor(y))
        loss_t, overflow_t, _ = cell_t(torch.from_numpy(x), torch.from_numpy(y).long())
        assert not bool(overflow_np.asnumpy()) and not bool(overflow_t.asnumpy())
        np.testing.assert_allclose(float(loss_t), float(loss_np.asnumpy()), rtol=1e-4)
    np.testing.assert_allclose(net_t.fc.weight.data, net_np.fc.weight.data, rtol=2e-4, atol=2e-5)

    biggest = float(np.finfo(np.float32).max)
    net_t, cell_t = _loss_scale_cell("torch", biggest, "sum")  # a loss above 1 overflows
    before = net_t.fc.weight.data.copy()
    loss, overflow, scale = cell_t(torch.from_numpy(x), torch.from_numpy(y).long())
    assert float(loss) > 1.0
    assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == pytest.approx(biggest)
    np.testing.assert_array_equal(net_t.fc.weight.data, before)  # the update was skipped
    assert float(cell_t.scale_sense.data) == pytest.approx(biggest / 2)


def test_direct_calls_with_tensors_run_on_torch_and_return_tensors():
    """A script's own loop (calls, value_and_grad, a training cell) with Tensor arguments runs
    on torch when the backend is torch, with the numpy backend's results, as Tensors."""
    x, y = _data(8)

    def run(backend):
        set_backend(backend)
        set_seed(3)
        net = SmallConvNet()
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
        net.set_train(True)

        def forward(data, label):
            logits = net(data)
            return loss_fn(logits, label), logits
        grad_fn = ms.value_and_grad(forward, None, opt.parameters, has_aux=True)
        (loss, logits), grads = grad_fn(Tensor(x), Tensor(y))
        opt(grads)
        train_net = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
        second = train_net(Tensor(x), Tensor(y))
        net.set_train(False)
        return net, [loss, logits, grads[0], second, net(Tensor(x))]
    net_np, expected = run("numpy")
    net_t, got = run("torch")
    assert net_t.conv.weight._torch is not None and net_np.conv.weight._torch is None
    for g, e in zip(got, expected):
        assert isinstance(g, Tensor)
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=2e-4, atol=2e-5)


def test_step_results_stay_on_the_device_until_read():
    from training.backends.torch_cells import DeviceResult
    seen = []

    class Read(ms.train.Callback):
        def on_train_step_end(self, run_context):
            seen.append(run_context.original_args().net_outputs)
    set_backend("torch")
    net = SmallConvNet()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.05, 0.9))
    model.train(1, make_dataset(list(_data()), 8), callbacks=[Read()])
    assert all(isinstance(r, DeviceResult) and r._host is None for r in seen)
    assert seen[0].asnumpy().shape == () and float(seen[0]) > 0  # fetched when read


def test_grad_operation_with_a_sens_tensor_built_from_the_loss_dtype():
    """The 1.x custom training cell: sens = Fill(DType(loss), Shape(loss), 1.0) on torch."""
    from training.ops import operations as P
    set_backend("torch")
    net = nn.Dense(3, 1)
    x = Tensor(np.ones((2, 3), np.float32))
    grad = ms.ops.GradOperation(get_by_list=True, sens_param=True)

    class Step(nn.Cell):
        def construct(self, data):
            out = net(data).sum()
            sens = P.Fill()(P.DType()(out), P.Shape()(out), 2.0)
            return grad(lambda d: net(d).sum(), ms.ParameterTuple(net.trainable_params()))(
                data, sens)
    grads = Step()(x)
    np.testing.assert_allclose(grads[0].asnumpy(), np.full((1, 3), 4.0))  # 2 rows x sens 2
    np.testing.assert_allclose(grads[1].asnumpy(), [4.0])


def test_learning_rate_schedule_cells_called_on_the_torch_backend():
    set_backend("torch")
    schedule = nn.CosineDecayLR(0.01, 0.1, 10)
    value = schedule(Tensor(np.array(5, np.int32)))
    assert isinstance(value, Tensor)
    set_backend("numpy")
    np.testing.assert_allclose(value.asnumpy(), schedule(Tensor(np.array(5, np.int32))).asnumpy())
    assert float(schedule(torch.tensor(5))) == pytest.approx(float(value.asnumpy()))


@pytest.mark.slow  # two torch processes under torchrun
@pytest.mark.timeout(300)
def test_two_rank_data_parallel_training_of_a_training_nn_network(tmp_path):
    import socket
    import subprocess
    import sys
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dist_cell_train_script.py")
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOG_v="2")
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2",
           f"--master_port={port}", "--master_addr=127.0.0.1", script, str(tmp_path)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=280)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    r0, r1 = (np.load(tmp_path / f"rank_{r}.npz") for r in (0, 1))
    assert int(r0["size"]) == 2
    np.testing.assert_array_equal(r0["weights"], r1["weights"])


@pytest.mark.slow  # torch.compile takes 10-60 s on the shared 2-core machine
def test_graph_mode_compiles_a_training_nn_network():
    net_eager, _ = _train("torch", OPTIMIZERS["momentum"], epochs=1)
    ms.set_context(mode=ms.GRAPH_MODE)
    net_graph, model = _train("torch", OPTIMIZERS["momentum"], epochs=1)
    step = model.train_network
    assert step._forward == step._compiled_forward  # compiled, no fallback to eager
    pairs = zip(net_graph.parameters_and_names(), net_eager.parameters_and_names())
    for (name, p), (_, q) in pairs:
        np.testing.assert_allclose(p.data, q.data, rtol=1e-4, atol=1e-5, err_msg=name)
