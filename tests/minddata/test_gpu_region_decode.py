"""Region decode on the GPU path (minddata.gpu.set_region_decode): the decoder reads only each
row's crop window, drawn before the decode from the JPEG header's size and the row's seed. Run
by torch on the CPU with a stand-in decoder that takes ``regions=`` as the nvImageCodec adapter
does: the batches equal those of a full decode, the windows are the ones the op draws, rows the
decoder does not take (PNG, the CPU share) are decoded whole, and a region of the wrong shape is
an error, never a wrong crop."""
import concurrent.futures

import numpy as np
import pytest

import minddata.vision as vision
from minddata import gpu
from minddata.engine.errors import PipelineError
from minddata.gpu import backend
from minddata.gpu.batch import GpuRun, RowError
from minddata.gpu.decode_split import DecodeSplit

from .native_batch_helpers import jpeg_bytes
from .test_gpu_placement import STD, _levels, _restore, batches, images, mr_path, pipeline, \
    train_ops  # noqa: F401

torch = pytest.importorskip("torch")


class RegionStandIn:
    """The adapter's call on the CPU: the native decoder's pixels as CHW tensors, cut to each
    row's region (top, left, height, width); records the regions it was given."""
    decodes_regions = True

    def __init__(self, wrong_shape=False):
        self.calls = []
        self.decode = vision.Decode()
        self.wrong_shape = wrong_shape

    def __call__(self, tensors, device, regions=None):
        self.calls.append(regions)
        out = []
        for t, region in zip(tensors, regions or [None] * len(tensors)):
            img = torch.from_numpy(self.decode(t.numpy())).permute(2, 0, 1)
            if region is not None:
                top, left, height, width = region
                img = img[:, top:top + height + (1 if self.wrong_shape else 0),
                          left:left + width]
            out.append(img.to(device))
        return out

    def regions(self):
        return [r for call in self.calls if call for r in call]


@pytest.fixture
def stand_in(monkeypatch):
    gpu.set_device("cpu")
    decoder = RegionStandIn()
    monkeypatch.setattr(backend, "jpeg_decoder", lambda: decoder)
    yield decoder
    backend.set_region_decode(False)


def run_both(path, ops, batch=4):
    """The GPU path's batches with region decode on, then off."""
    backend.set_region_decode(True)
    with_regions = batches(pipeline(path, ops, batch=batch), epochs=2)
    backend.set_region_decode(False)
    return with_regions, batches(pipeline(path, ops, batch=batch), epochs=2)


def test_regions_give_the_batches_of_a_full_decode(mr_path, stand_in):
    with_regions, whole = run_both(mr_path, train_ops())
    regions = stand_in.regions()
    assert any(r is not None for r in regions)      # the decoder was asked for windows
    assert all(r is None or r[2] < 200 for r in regions)
    for (a, la), (b, lb) in zip(with_regions, whole):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(la, lb)
    cpu = batches(pipeline(mr_path, device=None), epochs=2)
    for (a, _), (b, _) in zip(with_regions, cpu):
        assert _levels(a, b, STD) <= 1.0 + 1e-3


@pytest.mark.parametrize("ops", [
    [vision.Decode(), vision.CenterCrop(48), vision.RandomHorizontalFlip()],
    [vision.Decode(), vision.Crop((2, 3), (40, 36))],
    [vision.RandomCropDecodeResize(36), vision.ToTensor()],
], ids=["centercrop", "crop", "random-crop-decode-resize"])
def test_other_crops_read_their_windows(mr_path, stand_in, ops):
    with_regions, whole = run_both(mr_path, ops)
    assert any(r is not None for r in stand_in.regions())
    for (a, _), (b, _) in zip(with_regions, whole):
        np.testing.assert_array_equal(a, b)


def test_the_windows_are_the_ones_the_op_draws():
    datas = [np.frombuffer(jpeg_bytes(i, 60 + 9 * i, 50 + 4 * i), np.uint8) for i in range(5)]
    op = vision.RandomResizedCrop(24, scale=(0.1, 0.5))
    decoder = RegionStandIn()
    run = GpuRun([vision.Decode(), op], torch.device("cpu"), decoder, regions=True)
    seeds = [[0] * 5, [101, 202, 303, 404, 505]]
    out = run(datas, seeds)
    from transforms_c._rng import Rng
    drawn = [tuple(op.window(60 + 9 * i, 50 + 4 * i, Rng(seeds[1][i]))) for i in range(5)]
    assert decoder.regions() == drawn
    whole = GpuRun([vision.Decode(), op], torch.device("cpu"), RegionStandIn())(datas, seeds)
    assert torch.equal(out, whole)


def test_a_resize_first_asks_for_no_region():
    datas = [np.frombuffer(jpeg_bytes(i, 40, 30), np.uint8) for i in range(3)]
    decoder = RegionStandIn()
    ops = [vision.Decode(), vision.Resize((20, 16)), vision.CenterCrop(10)]
    GpuRun(ops, torch.device("cpu"), decoder, regions=True)(datas, [[0] * 3] * 3)
    assert decoder.calls == [None]      # a whole-image window: the decoder's plain call


def test_the_cpu_share_decodes_its_rows_whole():
    datas = [np.frombuffer(jpeg_bytes(i, 48 + 4 * i, 40 + 2 * i), np.uint8) for i in range(6)]
    ops = [vision.Decode(), vision.RandomResizedCrop(20)]
    seeds = [[0] * 6, list(range(6))]
    split = DecodeSplit(2)
    split.gpu_decoded(100, 1.0)
    split.cpu_decoded(100, 1.0)         # two thirds of the rows go to the CPU
    decoder = RegionStandIn()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        shared = GpuRun(ops, torch.device("cpu"), decoder, split, pool, regions=True)(
            datas, seeds)
    assert len(decoder.regions()) == 2
    alone = GpuRun(ops, torch.device("cpu"), RegionStandIn())(datas, seeds)
    assert torch.equal(shared, alone)


def test_a_region_of_the_wrong_shape_is_an_error_naming_the_row():
    datas = [np.frombuffer(jpeg_bytes(i, 64, 64), np.uint8) for i in range(3)]
    run = GpuRun([vision.Decode(), vision.CenterCrop(20)], torch.device("cpu"),
                 RegionStandIn(wrong_shape=True), regions=True)
    with pytest.raises(RowError) as err:
        run(datas, [[0] * 3] * 2)
    assert err.value.row == 0 and "shape (3, 21, 20) for the window" in str(err.value.__cause__)


def test_in_the_pipeline_a_wrong_region_fails_the_batch(mr_path, monkeypatch):
    gpu.set_device("cpu")
    monkeypatch.setattr(backend, "jpeg_decoder", lambda: RegionStandIn(wrong_shape=True))
    backend.set_region_decode(True)
    try:
        with pytest.raises(PipelineError, match=r"gave shape \(3, \d+, \d+\) for the window"):
            batches(pipeline(mr_path))
    finally:
        backend.set_region_decode(False)


def test_plan_names_region_decode(mr_path, stand_in):
    stand_in.name = "a stand-in"
    backend.set_region_decode(True)
    assert "a stand-in, crop windows only (region decode)" in str(pipeline(mr_path).plan())
    backend.set_region_decode(False)
    assert "region decode" not in str(pipeline(mr_path).plan())


def test_region_decode_is_off_by_default_and_checked():
    assert gpu.get_region_decode() is False
    with pytest.raises(TypeError, match="enabled should be a bool"):
        gpu.set_region_decode(1)
