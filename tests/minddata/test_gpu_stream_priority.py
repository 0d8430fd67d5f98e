"""minddata.gpu.set_stream_priority: the CUDA stream priority the GPU batch node's workers queue
their decode and augment on, checked without a GPU against a stand-in of torch.cuda.Stream."""
import threading
import types

import pytest

from minddata import gpu
from minddata.engine.gpu_batch import GpuBatchIter
from minddata.gpu import backend


@pytest.fixture
def priority():
    saved = gpu.get_stream_priority()
    yield
    gpu.set_stream_priority(saved)


def streams_made(device="cuda:0"):
    """(stream factory, the keyword arguments of each stream it made)."""
    made = []

    class Stream:
        def __init__(self, **kwargs):
            made.append(kwargs)
    return types.SimpleNamespace(cuda=types.SimpleNamespace(Stream=Stream)), made


def worker_streams(torch):
    """What GpuBatchIter._stream makes for two calls in each of two threads, with the priority
    the node reads from the settings when it is built."""
    node = types.SimpleNamespace(local=threading.local(), device="cuda:0",
                                 stream_priority=backend.cuda_stream_priority())
    got = []

    def work():
        first = GpuBatchIter._stream(node, torch)
        got.append(first is GpuBatchIter._stream(node, torch))     # one stream per thread
    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return got


def test_the_default_is_the_step_streams_priority(priority):
    assert gpu.get_stream_priority() == "normal"
    torch, made = streams_made()
    assert worker_streams(torch) == [True, True]
    assert made == [{"device": "cuda:0", "priority": 0}] * 2


def test_high_asks_for_the_devices_highest_priority(priority):
    gpu.set_stream_priority("high")
    torch, made = streams_made()
    worker_streams(torch)
    # torch maps a number beyond the device's range to its highest priority
    assert [m["priority"] for m in made] == [-100, -100]


def test_anything_else_is_refused_naming_the_choices(priority):
    with pytest.raises(ValueError, match=r"priority should be one of \('normal', 'high'\)"):
        gpu.set_stream_priority("urgent")
    assert gpu.get_stream_priority() == "normal"
