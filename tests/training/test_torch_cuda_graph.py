"""The train step replayed as a CUDA graph (TRAINING_CUDA_GRAPH=1): on the CPU through a
stand-in whose replay runs the captured function again (what a replay does, minus the speed),
so when the step captures, replays, runs eagerly or captures again is checked everywhere, and
the parameters after each step are compared with the eager step's; on CUDA (skipped without
one) with real graphs, mixed precision and the loss scaler."""
import logging

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from training.amp import FixedLossScaleManager  # noqa: E402
from training.backends.torch_amp import TorchAmp  # noqa: E402
from training.backends.torch_backend import TorchTrainStep  # noqa: E402
from training.backends.torch_cuda_graph import (MIN_REPLAYS_PER_CAPTURE, WARM_STEPS,  # noqa: E402
                                                CudaGraphs, CudaGraphStep, cuda_graph_enabled)


class Rerun:
    """A stand-in of CudaGraphs on the CPU: capture records the function and runs nothing; a
    replay runs it into the captured output, its gradients fresh as a captured backward
    pass's are (it writes them, it does not add to them)."""

    def __init__(self, params, fail=None):
        self.params, self.fail = list(params), fail
        self.side_runs = 0

    def on_side_stream(self, fn, inputs):
        self.side_runs += 1
        return fn()

    def holds(self, tensor):
        return isinstance(tensor, torch.Tensor)

    def capture(self, fn):
        if self.fail:
            raise self.fail
        out = torch.zeros(())
        graph = _Graph(lambda: out.copy_(self._fresh(fn)))
        return graph, out

    def _fresh(self, fn):
        for p in self.params:
            p.grad = None
        return fn()


class _Graph:
    def __init__(self, run):
        self.replay = run


def _net(seed=0):
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4),
                               torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, 3))


def _batches(n, size=8, seed=1):
    rng = np.random.default_rng(seed)
    return [(torch.from_numpy(rng.standard_normal((size, 3, 8, 8)).astype(np.float32)),
             torch.from_numpy(rng.integers(0, 3, size))) for _ in range(n)]


def _step(net, optimizer=None, amp=None):
    optimizer = optimizer or torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    amp = amp or TorchAmp(torch, torch.device("cpu"), "O0", None)
    step = TorchTrainStep(net, torch.nn.CrossEntropyLoss(), optimizer, False, amp=amp)
    step.module = net
    return step


def _pair(make_optimizer=None, fail=None):
    """(graph step, eager step): the same network and optimizer made twice from one seed."""
    steps = []
    for _ in range(2):
        net = _net()
        optimizer = make_optimizer(net) if make_optimizer else None
        steps.append(_step(net, optimizer))
    graphed = CudaGraphStep(steps[0], Rerun(steps[0].network.parameters(), fail))
    return graphed, steps[1]


def _same_parameters(a, b):
    for (name, x), y in zip(a.module.state_dict().items(), b.module.state_dict().values()):
        assert torch.equal(x, y), name


def test_the_flag_takes_0_or_1(monkeypatch):
    monkeypatch.delenv("TRAINING_CUDA_GRAPH", raising=False)
    assert cuda_graph_enabled() is False
    monkeypatch.setenv("TRAINING_CUDA_GRAPH", "1")
    assert cuda_graph_enabled() is True
    monkeypatch.setenv("TRAINING_CUDA_GRAPH", "on")
    with pytest.raises(ValueError, match="TRAINING_CUDA_GRAPH must be '0' or '1'"):
        cuda_graph_enabled()


def test_warm_steps_then_one_capture_and_replays_train_as_the_eager_step():
    graphed, eager = _pair()
    batches = _batches(12)
    batches.insert(7, _batches(1, size=5, seed=9)[0])     # a short batch mid-way: eager
    for images, labels in batches:
        got, want = graphed(images, labels), eager(images, labels)
        assert torch.equal(got, want)
        _same_parameters(graphed, eager)
    assert graphed.captures == 1 and graphed.graphs.side_runs == WARM_STEPS + 1   # + the short


def test_the_loss_returned_is_a_tensor_of_its_own():
    graphed, _ = _pair()
    losses = [graphed(*b) for b in _batches(WARM_STEPS + 3)]
    assert len({id(x) for x in losses}) == len(losses)
    assert len({float(x) for x in losses[WARM_STEPS:]}) > 1     # not one tensor overwritten


def test_a_new_shape_seen_in_a_row_is_captured_in_its_turn():
    graphed, eager = _pair()
    for images, labels in _batches(WARM_STEPS + 2) + _batches(WARM_STEPS + 2, size=6):
        assert torch.equal(graphed(images, labels), eager(images, labels))
    _same_parameters(graphed, eager)
    assert graphed.captures == 2


def test_a_learning_rate_changed_after_many_steps_is_captured_again():
    graphed, eager = _pair()
    batches = _batches(WARM_STEPS + MIN_REPLAYS_PER_CAPTURE + 4)
    for k, (images, labels) in enumerate(batches):
        if k == WARM_STEPS + MIN_REPLAYS_PER_CAPTURE:
            for step in (graphed, eager):
                step.optimizer.param_groups[0]["lr"] = 0.05
        graphed(images, labels), eager(images, labels)
    _same_parameters(graphed, eager)
    assert graphed.captures == 2


def test_a_schedule_changing_every_step_runs_eagerly_with_a_warning(caplog):
    graphed, eager = _pair()
    with caplog.at_level(logging.WARNING, logger="training.torch"):
        for k, (images, labels) in enumerate(_batches(WARM_STEPS + 6)):
            for step in (graphed, eager):
                step.optimizer.param_groups[0]["lr"] = 0.1 / (k + 1)
            assert torch.equal(graphed(images, labels), eager(images, labels))
    _same_parameters(graphed, eager)
    assert graphed.captures == 1
    assert "runs eagerly: the optimizer's hyperparameters or state changed" in caplog.text


def test_a_loaded_optimizer_state_is_captured_again():
    graphed, eager = _pair()
    batches = _batches(WARM_STEPS + MIN_REPLAYS_PER_CAPTURE + 3)
    for k, (images, labels) in enumerate(batches):
        if k == WARM_STEPS + MIN_REPLAYS_PER_CAPTURE:
            for step in (graphed, eager):
                step.optimizer.load_state_dict(step.optimizer.state_dict())
        graphed(images, labels), eager(images, labels)
    _same_parameters(graphed, eager)
    assert graphed.captures == 2


def test_an_optimizer_keeping_state_on_the_host_runs_eagerly_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="training.torch"):
        graphed, eager = _pair(lambda net: torch.optim.Adam(net.parameters(), lr=0.01))
        for images, labels in _batches(WARM_STEPS + 3):
            assert torch.equal(graphed(images, labels), eager(images, labels))
    _same_parameters(graphed, eager)
    assert graphed.captures == 0 and graphed.graphs.side_runs == 0
    assert "optimizer Adam keeps state on the host" in caplog.text


@pytest.mark.parametrize("amp, words", [
    (lambda: TorchAmp(torch, torch.device("cpu"), "O2", None), None),
    (lambda: _with_scaler(), "unless the optimizer is fused"),
    (lambda: TorchAmp(torch, torch.device("cpu"), "O0",
                      FixedLossScaleManager(128, drop_overflow_update=True)),
     "drop_overflow_update=True"),
])
def test_loss_scaling_that_reads_the_host_runs_eagerly(amp, words, caplog):
    net = _net()
    with caplog.at_level(logging.WARNING, logger="training.torch"):
        graphed = CudaGraphStep(_step(net, amp=amp()), Rerun(net.parameters()))
    assert (graphed._why_eager is None) == (words is None)
    if words:
        assert words in caplog.text


def _with_scaler():
    """An amp whose dynamic loss scaler is torch's (on the CPU: only its presence matters)."""
    made = TorchAmp(torch, torch.device("cpu"), "O0", None)
    made.scaler = torch.amp.GradScaler("cpu")
    return made


def test_inputs_that_are_not_tensors_run_eagerly():
    net = _net()

    class Strings(Rerun):
        def holds(self, tensor):
            return False
    graphed = CudaGraphStep(_step(net), Strings(net.parameters()))
    for images, labels in _batches(WARM_STEPS + 2):
        graphed(images, labels)
    assert graphed.captures == 0 and graphed.graphs.side_runs == 0


def test_a_failed_capture_raises_naming_the_switch():
    graphed, _ = _pair(fail=RuntimeError("operation not permitted when stream is capturing"))
    batches = _batches(WARM_STEPS + 1)
    for images, labels in batches[:WARM_STEPS]:
        graphed(images, labels)
    with pytest.raises(RuntimeError, match="TRAINING_CUDA_GRAPH=1: capturing the train step "
                                           "as a CUDA graph failed .*TRAINING_CUDA_GRAPH=0"):
        graphed(*batches[-1])


def test_the_backend_wraps_the_step_only_on_cuda(monkeypatch):
    from training import Model, set_context
    monkeypatch.setenv("TRAINING_CUDA_GRAPH", "1")
    set_context(device_target="CPU")
    net = _net()
    model = Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), lr=0.1))
    assert isinstance(model.train_network, TorchTrainStep)


# --- on a CUDA device ---------------------------------------------------------------------------
cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def _cuda_steps(optimizer_kwargs):
    """(graph step, eager step) of one conv network on CUDA: amp O2 (float16, dynamic loss
    scaling), channels_last, SGD with momentum."""
    from training.amp import DynamicLossScaleManager
    device = torch.device("cuda")
    steps = []
    for _ in range(2):
        net = _net().to(device).to(memory_format=torch.channels_last)
        optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, **optimizer_kwargs)
        amp = TorchAmp(torch, device, "O2", DynamicLossScaleManager())
        steps.append(_step(net, optimizer, amp))
    return CudaGraphStep(steps[0], CudaGraphs(torch, device)), steps[1]


@cuda
def test_on_cuda_replays_train_as_the_eager_step():
    graphed, eager = _cuda_steps({"fused": True})
    batches = [(x.cuda(), y.cuda()) for x, y in _batches(WARM_STEPS + 20, size=16)]
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):      # as the sink's step stream
        got = [graphed(x, y) for x, y in batches]
    want = [eager(x, y) for x, y in batches]
    torch.cuda.synchronize()
    assert graphed.captures == 1
    # float16 kernels, cuDNN's choice of algorithm per run: close, not equal
    np.testing.assert_allclose([float(x) for x in got], [float(x) for x in want],
                               rtol=2e-2, atol=2e-3)
    for (name, x), y in zip(graphed.module.state_dict().items(),
                            eager.module.state_dict().values()):
        if x.is_floating_point():
            torch.testing.assert_close(x, y, rtol=2e-2, atol=2e-3, msg=name)


@cuda
def test_on_cuda_the_unfused_optimizer_with_loss_scaling_runs_eagerly():
    graphed, _ = _cuda_steps({"foreach": True})
    for x, y in _batches(WARM_STEPS + 2, size=16):
        graphed(x.cuda(), y.cuda())
    assert graphed.captures == 0


def test_inputs_on_the_steps_cuda_device_are_held_however_it_is_spelled():
    """torch.device("cuda") means the current device: a batch on cuda:0 is captured when that
    is current (the CUDA test above spells the device so; the backend says cuda:<id>)."""
    import types

    class Tensor:
        def __init__(self, device):
            self.device = torch.device(device)
    stand_in = types.SimpleNamespace(Tensor=Tensor, cuda=types.SimpleNamespace(
        current_device=lambda: 0))
    for spelled in ("cuda", "cuda:0"):
        graphs = CudaGraphs(stand_in, torch.device(spelled))
        assert graphs.holds(Tensor("cuda:0")) and not graphs.holds(Tensor("cuda:1"))
        assert not graphs.holds(Tensor("cpu")) and not graphs.holds(torch.zeros(1))
    assert CudaGraphs(stand_in, torch.device("cuda:1")).holds(Tensor("cuda:1"))
