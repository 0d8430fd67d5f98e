"""A GPU batch and the sink's device tail queue their host-to-device copies without waiting
(minddata/gpu/host_copy.py): a blocking copy (``Tensor.to(device)`` without ``non_blocking``)
first waits for everything queued on the stream so far (a worker's batch decode, the sink's
batch copy). Checked on the CPU by recording the copies asked for."""
import types

import cv2
import numpy as np
import pytest

import minddata.vision as vision
from minddata.engine.device_tail import DeviceTail
from minddata.gpu.batch import DeviceTimer, GpuRun
from minddata.gpu.host_copy import upload, upload_arrays

from .native_batch_helpers import jpeg_bytes

torch = pytest.importorskip("torch")


@pytest.fixture
def copies(monkeypatch):
    """The non_blocking flag of each Tensor.to call that names a device."""
    asked, original = [], torch.Tensor.to

    def to(self, *args, **kwargs):
        target = args[0] if args else kwargs.get("device")
        if isinstance(target, (torch.device, str)):
            asked.append(bool(kwargs.get("non_blocking", False)))
        return original(self, *args, **kwargs)
    monkeypatch.setattr(torch.Tensor, "to", to)
    return asked


def test_a_gpu_batch_asks_for_no_blocking_copy(copies):
    datas = [np.frombuffer(jpeg_bytes(i, 40 + 4 * i, 30 + 2 * i), np.uint8) for i in range(6)]
    # a PNG: the CPU path decodes it and copies it over
    datas[3] = cv2.imencode(".png", np.full((12, 9, 3), 50, np.uint8))[1].reshape(-1)
    ops = [vision.Decode(), vision.RandomResizedCrop(16), vision.RandomHorizontalFlip(),
           vision.Normalize([120.0, 110.0, 100.0], [50.0, 60.0, 70.0]), vision.HWC2CHW()]
    seeds = [list(range(k * 10, k * 10 + 6)) for k in range(len(ops))]
    batch = GpuRun(ops, torch.device("cpu"), fused=False)(datas, seeds)
    assert tuple(batch.shape) == (6, 3, 16, 16) and batch.dtype == torch.float32
    assert copies and all(copies)        # the row metadata, the flip mask, the point params


def test_the_sinks_device_tail_asks_for_no_blocking_copy(copies):
    tail = DeviceTail(0, [vision.Normalize([1.0, 2.0, 3.0], [2.0, 2.0, 2.0]), vision.HWC2CHW()])
    out = tail.apply_torch(torch.full((2, 4, 5, 3), 9, dtype=torch.uint8))
    assert tuple(out.shape) == (2, 3, 4, 5) and float(out[0, 2, 0, 0]) == 3.0
    assert copies and all(copies)


def test_a_worker_waits_for_its_batch_asleep():
    """The end of a batch is waited for on events made with blocking=True: CUDA's default wait
    spins the core the pipeline's other threads need."""
    made = []

    class Event:
        def __init__(self, **kwargs):
            made.append(kwargs)

        def record(self):
            pass

        def synchronize(self):
            pass

        def elapsed_time(self, other):
            return 2.5

    cuda = types.SimpleNamespace(Event=Event)
    timer = DeviceTimer(types.SimpleNamespace(cuda=cuda), torch.device("cuda", 0))
    assert timer.seconds() == 0.0025
    assert made == [{"enable_timing": True, "blocking": True}] * 2


def test_on_cuda_a_copy_goes_through_page_locked_memory():
    """From pageable memory CUDA may wait for the stream before it copies: pinned first."""
    steps = []

    class Tensor:
        def pin_memory(self):
            steps.append("pin")
            return self

        def to(self, device, non_blocking=False):
            steps.append(("to", device.type, non_blocking))
            return self

    upload(torch, Tensor(), torch.device("cuda", 0))
    upload(torch, Tensor(), torch.device("cpu"))
    assert steps == ["pin", ("to", "cuda", True), ("to", "cpu", True)]


def test_small_arrays_go_together_in_one_copy(copies):
    """Each copy lets go of the GIL, and taking it back beside a training loop may wait up to
    the switch interval: the kernel's row metadata, scales, flips and point parameters are one
    copy, each a typed view of the one buffer."""
    arrays = [np.arange(24, dtype=np.int64).reshape(3, 8),
              np.array([[0.5, 1.25], [2.0, 3.5], [0.75, 1.0]], np.float32),
              np.array([1, 0, 3], np.int32), np.zeros((0, 3, 3), np.float32),
              np.linspace(0, 1, 18, dtype=np.float32).reshape(2, 3, 3)]
    got = upload_arrays(torch, arrays, torch.device("cpu"))
    assert copies == [True]
    storages = {t.untyped_storage().data_ptr() for t in got}
    assert len(storages) == 1
    for want, tensor in zip(arrays, got):
        assert tensor.is_contiguous() and tensor.numpy().dtype == want.dtype
        assert np.array_equal(tensor.numpy(), want)
    assert upload_arrays(torch, [], torch.device("cpu")) == []


def test_the_arrays_cost_few_torch_calls():
    """Each torch call lets go of the GIL and takes it back, which a training loop beside the
    pipeline pays for: the upload makes its buffer, its copy, one view per dtype and one per
    array (the dtypes looked up once)."""
    import sys
    arrays = [np.ones((4, 8), np.int64), np.ones((4, 2), np.float32), np.ones(4, np.int32),
              np.ones((2, 3, 3), np.float32), np.int64(7).reshape(())]
    upload_arrays(torch, arrays, torch.device("cpu"))         # the dtypes looked up
    calls = []

    def count(frame, event, arg):
        if event == "c_call" and (getattr(arg, "__module__", None) == "torch"
                                  or isinstance(getattr(arg, "__self__", None), torch.Tensor)):
            calls.append(arg.__name__)
    sys.setprofile(count)
    try:
        got = upload_arrays(torch, arrays, torch.device("cpu"))
    finally:
        sys.setprofile(None)
    assert len(calls) <= 3 + 3 + len(arrays), calls
    for want, tensor in zip(arrays, got):
        assert tensor.shape == want.shape and np.array_equal(tensor.numpy(), want)
