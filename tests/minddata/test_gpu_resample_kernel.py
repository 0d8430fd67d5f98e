"""The fused crop-and-resize kernel (minddata/gpu/resample_kernel.py) against GpuRun's torch
path, run on the CPU in Triton's interpreter (TRITON_INTERPRET=1, in a child process: the
variable must be set before the kernel is made). Skipped where Triton is not installed; on a
GPU machine tools/check_gpu_pipeline.py compares the compiled kernel the same way."""
import importlib.util
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from minddata.gpu.batch import GpuRun                                      # noqa: E402
from transforms_c.vision.crop import CenterCrop, Crop                      # noqa: E402
from transforms_c.vision.resize import Resize                              # noqa: E402
from transforms_c.vision.resized_crop import RandomResizedCrop            # noqa: E402

from .triton_helpers import interpreted_lines                             # noqa: E402

HAS_TRITON = importlib.util.find_spec("triton") is not None

# (op, image sizes): random windows up- and downscaled, a resize to one shape, an exact crop,
# a CenterCrop wider than some images (zeros outside them), one-pixel windows
CASES = [
    ("rrc", lambda: RandomResizedCrop(24), [(37, 53), (20, 16), (64, 48), (9, 7)]),
    ("rrc-wide", lambda: RandomResizedCrop((10, 31), scale=(0.01, 1.0)), [(50, 70), (12, 90)]),
    ("resize", lambda: Resize((17, 29)), [(40, 30), (5, 6), (17, 29)]),
    ("crop", lambda: Crop((3, 4), 8), [(20, 20), (11, 13)]),
    ("centercrop", lambda: CenterCrop(12), [(30, 20), (8, 15), (12, 12)]),
    ("tiny", lambda: RandomResizedCrop(5), [(1, 1), (2, 1)]),
]


# whole maps whose last geometry op is followed by flips, point and layout ops: the kernel
# does them all (uint8 out without point ops, float32 with)
TAIL_CASES = [
    ("train", lambda v: [v.Decode(), v.RandomResizedCrop(24), v.RandomHorizontalFlip(),
                         v.Normalize([121.0, 115.0, 104.0], [58.0, 57.0, 57.5]), v.HWC2CHW()]),
    ("flips-hwc", lambda v: [v.Decode(), v.CenterCrop(16), v.RandomVerticalFlip(0.5),
                             v.HorizontalFlip(), v.RandomHorizontalFlip(0.3)]),
    ("rescale-totensor", lambda v: [v.Decode(), v.Resize((20, 18)), v.Rescale(0.5, -3.0),
                                    v.ToTensor()]),
    ("crop-decode", lambda v: [v.RandomCropDecodeResize(12), v.VerticalFlip(), v.ToTensor()]),
    ("cast-fp16", lambda v: [v.Decode(), v.RandomResizedCrop(24), v.RandomHorizontalFlip(),
                             v.Normalize([121.0, 115.0, 104.0], [58.0, 57.0, 57.5]),
                             v.HWC2CHW(), v.ToType(np.float16)]),
]
# the dtype each TAIL_CASES map gives
TAIL_DTYPES = {"train": "torch.float32", "flips-hwc": "torch.uint8",
               "rescale-totensor": "torch.float32", "crop-decode": "torch.float32",
               "cast-fp16": "torch.float16"}


def jpeg(rng, height, width):
    import cv2
    ok, data = cv2.imencode(".jpg", rng.integers(0, 256, (height, width, 3), dtype=np.uint8))
    assert ok
    return data.reshape(-1)


def compare_tails():
    """Every TAIL_CASES map through GpuRun with and without the kernel: (differing values,
    largest difference, dtype, shape of the kernel's batch, shape of the torch path's)."""
    import minddata.vision as v
    rng = np.random.default_rng(9)
    datas = [jpeg(rng, h, w) for h, w in [(40, 30), (25, 33), (50, 50), (31, 17)]]
    report = {}
    for name, make_ops in TAIL_CASES:
        ops = make_ops(v)
        seeds = [[1000 * k + i for i in range(len(datas))] for k in range(len(ops))]
        fused, plain = (GpuRun(ops, torch.device("cpu"), fused=f)(datas, seeds)
                        for f in (True, False))
        diff = (fused.double() - plain.double()).abs()
        report[name] = (int((diff > 0).sum()), float(diff.max()), str(fused.dtype),
                        tuple(fused.shape), tuple(plain.shape))
    return report


def compare_cases():
    """Every case through GpuRun's geometry with and without the kernel: the count of
    differing values, the largest difference and the output shapes, per case."""
    rng = np.random.default_rng(7)
    report = {}
    for name, make_op, sizes in CASES:
        op = make_op()
        images = [torch.from_numpy(rng.integers(0, 256, (3, h, w), dtype=np.uint8))
                  for h, w in sizes]
        seeds = list(range(11, 11 + len(images)))
        outs = [GpuRun([op], torch.device("cpu"), fused=fused).geometry(op, images, seeds)
                for fused in (True, False)]
        fused, plain = (o if isinstance(o, torch.Tensor) else torch.stack(o) for o in outs)
        diff = (fused.int() - plain.int()).abs()
        report[name] = (int((diff > 0).sum()), int(diff.max()), tuple(fused.shape),
                        tuple(plain.shape))
    return report


@pytest.mark.skipif(not HAS_TRITON, reason="Triton is not installed (pip install triton)")
def test_the_kernel_equals_the_torch_path_in_the_interpreter():
    lines = interpreted_lines(__file__)
    report = eval(lines[-1])                # the dict compare_cases printed
    assert set(report) == {name for name, _, _ in CASES}
    for name, (differing, largest, fused_shape, plain_shape) in report.items():
        assert fused_shape == plain_shape, name
        # The interpreter computes in numpy's float32 without fused multiply-adds: the same
        # values as the torch path, to the level.
        assert (differing, largest) == (0, 0), (name, differing, largest)
    tails = eval(lines[-2])
    assert set(tails) == {name for name, _ in TAIL_CASES}
    for name, (differing, largest, dtype, fused_shape, plain_shape) in tails.items():
        assert fused_shape == plain_shape, name
        assert dtype == TAIL_DTYPES[name], name
        assert (differing, largest) == (0, 0.0), (name, differing, largest)


@pytest.mark.skipif(not (HAS_TRITON and torch.cuda.is_available()),
                    reason="needs CUDA and Triton")
def test_compiled_on_cuda_the_kernel_is_within_one_level_of_the_torch_path():
    import minddata.vision as v
    rng = np.random.default_rng(4)
    datas = [jpeg(rng, h, w) for h, w in [(240, 320), (333, 250), (90, 500), (64, 64)]]
    # one level of the resample in each case's output units (after Normalize: over std 57)
    level = {"train": 1 / 57.0, "flips-hwc": 1.0, "rescale-totensor": 0.5 / 255,
             "crop-decode": 1 / 255, "cast-fp16": 1 / 57.0 + 2 ** -8}
    for name, make_ops in TAIL_CASES:
        ops = make_ops(v)
        seeds = [[1000 * k + i for i in range(len(datas))] for k in range(len(ops))]
        fused, plain = (GpuRun(ops, torch.device("cuda"), fused=f)(datas, seeds).double().cpu()
                        for f in (True, False))
        assert float((fused - plain).abs().max()) <= level[name] * (1 + 1e-5), name


def test_without_the_kernel_the_torch_path_runs():
    run = GpuRun([Resize(4)], torch.device("cpu"))
    if not (HAS_TRITON and os.environ.get("TRITON_INTERPRET") == "1"):
        assert run.fused is False        # the kernel serves CUDA devices (or the interpreter)
    out = GpuRun([Resize(4)], torch.device("cpu"), fused=False).geometry(
        Resize(4), [torch.full((3, 8, 8), 9, dtype=torch.uint8)], [0])
    assert out.shape == (1, 3, 4, 4) and int(out.min()) == int(out.max()) == 9


class FailingKernel:
    """Stands in for the jitted kernel: ``kernel[grid](...)`` raises ``error``."""

    def __init__(self, error):
        self.error = error

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            raise self.error
        return launch


def fresh_kernel_state(monkeypatch, error):
    from minddata.gpu import resample_kernel
    from minddata.gpu.triton_kernel import TritonKernel

    class Failing(TritonKernel):
        def jitted(self):
            return FailingKernel(error)
    monkeypatch.setattr(resample_kernel, "KERNEL", Failing("fused resample kernel", None))
    return resample_kernel


def test_a_kernel_that_does_not_compile_falls_back_to_torch_with_a_warning(monkeypatch):
    resample_kernel = fresh_kernel_state(monkeypatch, RuntimeError("no ptxas for sm_90"))
    op = RandomResizedCrop(6)
    images = [torch.from_numpy(np.random.default_rng(3).integers(0, 256, (3, 20, 30),
                                                                 dtype=np.uint8))]
    run = GpuRun([op], torch.device("cpu"), fused=True)
    with pytest.warns(RuntimeWarning, match="did not compile: RuntimeError: no ptxas"):
        got = run.geometry(op, images, [4])
    expected = GpuRun([op], torch.device("cpu"), fused=False).geometry(op, images, [4])
    assert torch.equal(got, expected)
    assert run.fused is False
    # and no later run tries it again
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert not resample_kernel.available(torch.device("cpu"))


def test_a_kernel_that_ran_before_raises_its_later_failures(monkeypatch):
    resample_kernel = fresh_kernel_state(monkeypatch, RuntimeError("illegal memory access"))
    resample_kernel.KERNEL.launched.add((3, False, True, False, 0))    # it compiled and ran
    op = RandomResizedCrop(6)
    images = [torch.zeros((3, 20, 30), dtype=torch.uint8)]
    with pytest.raises(RuntimeError, match="illegal memory access"):
        GpuRun([op], torch.device("cpu"), fused=True).geometry(op, images, [4])
    assert resample_kernel.KERNEL.failure is None


if __name__ == "__main__":
    print(compare_tails())
    print(compare_cases())
