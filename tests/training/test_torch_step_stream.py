"""The train step on a high-priority CUDA stream (TRAINING_HIGH_PRIORITY_STEP=1): the stream
is made only on CUDA and when asked, and a step run on it is ordered with the caller's stream
both ways on the GPU, its returned tensors marked as used there. The CUDA calls are checked
against a stand-in of torch.cuda (the device check of tools/check_gpu_pipeline.py runs it)."""
import contextlib
import types

import pytest

torch = pytest.importorskip("torch")

from training.backends.torch_backend import run_on_stream, step_stream  # noqa: E402


def test_the_stream_is_made_only_on_cuda_when_asked(monkeypatch):
    made = []
    stand_in = types.SimpleNamespace(cuda=types.SimpleNamespace(
        Stream=lambda device, priority: made.append((device, priority)) or "stream"))
    cuda, cpu = torch.device("cuda", 1), torch.device("cpu")
    monkeypatch.delenv("TRAINING_HIGH_PRIORITY_STEP", raising=False)
    assert step_stream(stand_in, cuda) is None
    monkeypatch.setenv("TRAINING_HIGH_PRIORITY_STEP", "1")
    assert step_stream(stand_in, cpu) is None
    assert step_stream(stand_in, cuda) == "stream" and made == [(cuda, -1)]
    monkeypatch.setenv("TRAINING_HIGH_PRIORITY_STEP", "yes")
    with pytest.raises(ValueError, match="TRAINING_HIGH_PRIORITY_STEP must be '0' or '1'"):
        step_stream(stand_in, cuda)


class Stream:
    def __init__(self, name, log):
        self.name, self.log, self.device = name, log, "cuda:0"

    def wait_stream(self, other):
        self.log.append(f"{self.name} waits for {other.name}")


class Tensor:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def record_stream(self, stream):
        self.log.append(f"{self.name} used on {stream.name}")


def test_a_step_on_the_stream_is_ordered_with_the_callers_both_ways():
    log = []
    caller, step = Stream("caller", log), Stream("step", log)
    current = [caller]

    @contextlib.contextmanager
    def on(stream):
        current.append(stream)
        log.append(f"enter {stream.name}")
        yield
        current.pop()
        log.append(f"leave {stream.name}")

    stand_in = types.SimpleNamespace(Tensor=Tensor, cuda=types.SimpleNamespace(
        current_stream=lambda device: current[-1], stream=on))

    def fn():
        log.append(f"step runs on {current[-1].name}")
        return Tensor("loss", log), [Tensor("out", log), 3]

    loss, (out, three) = run_on_stream(stand_in, step, fn)
    assert (loss.name, out.name, three) == ("loss", "out", 3)
    assert log == ["step waits for caller", "enter step", "step runs on step", "leave step",
                   "caller waits for step", "loss used on caller", "out used on caller"]
