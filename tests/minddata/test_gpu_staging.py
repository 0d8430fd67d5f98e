"""The bytes a GPU batch hands its JPEG decoder (GpuRun._staged): every row the decoder takes,
byte for byte, as views of one buffer per calling thread that later batches reuse (page-locked
on CUDA), MindRecord's read-only bytes rows included. Run by torch on the CPU with a stand-in
decoder that keeps what it was given."""
import threading

import cv2
import numpy as np
import pytest

import minddata.vision as vision
from minddata.gpu.batch import GpuRun

from .native_batch_helpers import jpeg_bytes

torch = pytest.importorskip("torch")


class KeepingDecoder:
    """decode_jpeg's call: the CPU decoder's pixels; keeps each call's tensors and their bytes."""

    def __init__(self):
        self.calls = []
        self.decode = vision.Decode()

    def __call__(self, tensors, device):
        self.calls.append([(t, t.numpy().tobytes()) for t in tensors])
        return [torch.from_numpy(self.decode(t.numpy())).permute(2, 0, 1) for t in tensors]


def _rows(n, seed=0, size=40):
    """Read-only JPEG rows, half as uint8 arrays, half as one-element bytes arrays (|S<n>, a
    MindRecord bytes field)."""
    rows = []
    for i in range(n):
        data = np.frombuffer(jpeg_bytes(seed + i, size + 3 * i, size), np.uint8)
        rows.append(data if i % 2 else np.frombuffer(data.tobytes(), f"S{data.size}"))
    return rows


def test_the_decoder_gets_every_row_byte_for_byte_from_one_buffer():
    png = cv2.imencode(".png", np.full((6, 8, 3), 90, np.uint8))[1].reshape(-1)
    rows = _rows(5) + [png]
    decoder = KeepingDecoder()
    run = GpuRun([vision.Decode()], torch.device("cpu"), decoder)
    images = run.decode(rows)
    (call,) = decoder.calls
    assert [data for _, data in call] == [r.tobytes() for r in rows[:5]]   # not the PNG
    storages = {t.untyped_storage().data_ptr() for t, _ in call}
    assert len(storages) == 1
    assert tuple(images[5].shape) == (3, 6, 8)      # the CPU path decoded the PNG
    for row, image in zip(rows[:5], images):
        want = vision.Decode()(row.reshape(-1).view(np.uint8))
        assert torch.equal(image, torch.from_numpy(want).permute(2, 0, 1))


def test_later_batches_reuse_the_buffer_and_a_larger_one_grows_it():
    decoder = KeepingDecoder()
    run = GpuRun([vision.Decode()], torch.device("cpu"), decoder)
    run.decode(_rows(4))
    run.decode(_rows(4, seed=10))
    run.decode(_rows(12, seed=20, size=80))
    first, second, third = ([t.untyped_storage() for t, _ in call][0] for call in decoder.calls)
    assert second.data_ptr() == first.data_ptr()        # reused
    assert third.nbytes() >= sum(len(data) for _, data in decoder.calls[2])
    assert [d for _, d in decoder.calls[2]] == [r.tobytes() for r in _rows(12, seed=20, size=80)]
    assert not third.is_pinned()                        # page-locked on CUDA only


def test_each_thread_stages_into_a_buffer_of_its_own():
    decoder = KeepingDecoder()
    run = GpuRun([vision.Decode()], torch.device("cpu"), decoder)
    barrier = threading.Barrier(2)
    storages, failures = {}, []

    def work(seed):
        try:
            for k in range(5):
                barrier.wait()
                rows = _rows(3, seed=seed + k)
                run.decode(rows)
                mine = [c for c in decoder.calls if c[0][1] == rows[0].tobytes()][-1]
                assert [d for _, d in mine] == [r.tobytes() for r in rows]
                storages.setdefault(seed, set()).add(mine[0][0].untyped_storage().data_ptr())
        except Exception as exc:            # reported below, from the test's thread
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in (0, 100)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    assert all(len(ptrs) == 1 for ptrs in storages.values())     # each reused its own
    assert storages[0] != storages[100]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_on_cuda_the_buffer_is_page_locked():
    decoder = KeepingDecoder()
    GpuRun([vision.Decode()], torch.device("cuda"), decoder).decode(_rows(3))
    assert decoder.calls[0][0][0].is_pinned()
