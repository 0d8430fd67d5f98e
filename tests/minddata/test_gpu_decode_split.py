"""The CPU share of a GPU batch's JPEG decode (minddata/gpu/decode_split.py): the share follows
the measured rates, the rows the CPU decodes are the same pixels, a broken row is its op's
error, and the threads go with the iterator. Run by torch on the CPU, with a stand-in for the
GPU decoder (torchvision's decode_jpeg takes the same call)."""
import concurrent.futures
import threading

import numpy as np
import pytest

import minddata.vision as vision
from minddata import gpu
from minddata.gpu import backend
from minddata.gpu.decode_split import DecodeSplit

from .native_batch_helpers import jpeg_bytes
from .test_gpu_placement import batches, mr_path, images, pipeline, _restore  # noqa: F401

torch = pytest.importorskip("torch")


class StandInDecoder:
    """decode_jpeg's call on the CPU: the native decoder's pixels, as CHW tensors; counts rows."""

    def __init__(self):
        self.rows = 0
        self.decode = vision.Decode()

    def __call__(self, tensors, device):
        self.rows += len(tensors)
        return [torch.from_numpy(self.decode(t.numpy())).permute(2, 0, 1).to(device)
                for t in tensors]


def test_the_share_follows_the_measured_rates():
    split = DecodeSplit(2)
    assert split.cpu_rows(12) == 1 and split.cpu_share() is None  # measuring the CPU first
    split.gpu_decoded(1000, 1.0)
    split.cpu_decoded(100, 1.0)
    # two threads at 100 rows/s beside a GPU at 1000: 200 / 1200 of the rows
    assert split.cpu_share() == pytest.approx(1 / 6)
    assert split.cpu_rows(12) == 2
    assert split.cpu_rows(1) == 0                   # the GPU keeps at least one row
    for _ in range(40):                             # the GPU slows down: the CPU takes more
        split.gpu_decoded(100, 1.0)
    assert split.cpu_rows(12) == 8 and split.cpu_rows(12) < 12
    assert DecodeSplit(0).cpu_rows(12) == 0 and DecodeSplit(0).cpu_share() == 0.0
    with pytest.raises(ValueError, match="cpu_threads"):
        DecodeSplit(-1)


def test_rows_decoded_by_the_cpu_share_are_the_same_pixels():
    from minddata.gpu.batch import GpuRun
    datas = [np.frombuffer(jpeg_bytes(i, 48 + 4 * i, 40 + 2 * i), np.uint8) for i in range(6)]
    ops = [vision.Decode(), vision.Resize((24, 24))]
    seeds = [[0] * 6, [0] * 6]
    alone = GpuRun(ops, torch.device("cpu"), StandInDecoder())(datas, seeds)
    split = DecodeSplit(2)
    split.gpu_decoded(100, 1.0)
    split.cpu_decoded(100, 1.0)         # equal rates: two thirds of the rows go to the CPU
    decoder = StandInDecoder()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        shared = GpuRun(ops, torch.device("cpu"), decoder, split, pool)(datas, seeds)
    assert decoder.rows == 2            # the decoder got a third of the six rows
    assert torch.equal(alone, shared)


def test_a_broken_jpeg_in_the_cpu_share_raises_the_decode_error():
    from minddata.gpu.batch import GpuRun, RowError
    good = np.frombuffer(jpeg_bytes(0, 40, 40), np.uint8)
    broken = good.copy()
    broken[len(broken) // 2:] = 0       # a valid header, then nothing decodable
    split = DecodeSplit(1)              # no rates yet: the last row goes to the CPU
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        run = GpuRun([vision.Decode()], torch.device("cpu"), StandInDecoder(), split, pool)
        with pytest.raises(RowError) as err:
            run([good, broken], [[0, 0]])
    assert err.value.row == 1 and err.value.op_name == "Decode"


def test_the_pipeline_with_a_cpu_share_gives_the_same_batches(mr_path, monkeypatch):  # noqa: F811
    gpu.set_device("cpu")
    decoder = StandInDecoder()
    monkeypatch.setattr(backend, "jpeg_decoder", lambda: decoder)
    try:
        backend.set_cpu_decode_threads(0)
        alone = batches(pipeline(mr_path))
        gpu_rows_alone = decoder.rows
        backend.set_cpu_decode_threads(2)
        before = {t.name for t in threading.enumerate()}
        shared = batches(pipeline(mr_path))
        assert decoder.rows - gpu_rows_alone < gpu_rows_alone   # the CPU took some rows
        left = {t.name for t in threading.enumerate()} - before
        assert not [n for n in left if n.startswith("gpu-batch")]   # closed with the iterator
    finally:
        backend.set_cpu_decode_threads(0)
    assert len(alone) == len(shared)
    for a, b in zip(alone, shared):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_cpu_decode_threads_are_checked():
    with pytest.raises(TypeError, match="threads"):
        backend.set_cpu_decode_threads(1.5)
    with pytest.raises(ValueError, match=r"\[0, 64\]"):
        backend.set_cpu_decode_threads(65)
    assert gpu.get_cpu_decode_threads() == 0     # the default: the GPU decodes every JPEG


def test_a_decoder_giving_fewer_images_than_rows_is_not_trusted_with_the_order():
    """A decoder that leaves a row out of its batch answer: the rows go one by one (the one it
    cannot decode to the CPU decoder), never shifted onto their neighbours' images."""
    from minddata.gpu.batch import GpuRun

    class Dropping(StandInDecoder):
        def __call__(self, tensors, device):
            out = super().__call__(tensors, device)
            return out[1:] if len(out) > 1 else out

    datas = [np.frombuffer(jpeg_bytes(i, 30 + 6 * i, 24), np.uint8) for i in range(3)]
    ops = [vision.Decode(), vision.Resize((12, 12))]
    with pytest.warns(RuntimeWarning, match=r"\(Dropping\) gave 2 images for 3 rows"):
        got = GpuRun(ops, torch.device("cpu"), Dropping())(datas, [[0] * 3] * 2)
    want = GpuRun(ops, torch.device("cpu"), StandInDecoder())(datas, [[0] * 3] * 2)
    assert torch.equal(got, want)


def test_a_decoder_giving_another_layout_fails_the_batch_naming_the_row():
    """(H, W, C) where (C, H, W) is expected would be cut as garbage: an error instead."""
    from minddata.gpu.batch import GpuRun, RowError

    class Interleaved(StandInDecoder):
        def __call__(self, tensors, device):
            return [img.permute(1, 2, 0) for img in super().__call__(tensors, device)]

    datas = [np.frombuffer(jpeg_bytes(i, 30, 24), np.uint8) for i in range(2)]
    run = GpuRun([vision.Decode(), vision.Resize((12, 12))], torch.device("cpu"), Interleaved())
    with pytest.raises(RowError) as err:
        run(datas, [[0] * 2] * 2)
    assert err.value.row == 0
    assert "expected (3, 30, 24) (C, H, W)" in str(err.value.__cause__)
