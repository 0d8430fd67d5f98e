"""The direct nvJPEG decoder inside GpuRun, the way the pipeline's workers use it, on five kinds
of device: the stand-in library of test_gpu_nvjpeg_decoder.py on the CPU, asked for RGB and for
the YCbCr planes (both equal to the CPU path byte for byte), and, where CUDA and libnvjpeg are
present, the real library on the GPU with the backend it chooses (the hardware one where the
GPU has JPEG engines), with the CUDA backend forced, and with YCbCr output converted by
ycbcr_to_rgb's kernel (close to the CPU path: another IDCT, and but for the YCbCr output
another chroma upsampling, than libjpeg-turbo's). The same test code runs on all five, so on a machine without a GPU it is itself checked, and on a
GPU it checks the real library on what matters: every row its own pixels, whatever the JPEG's
coding, with several workers decoding at once."""
import threading

import cv2
import numpy as np
import pytest

import minddata.vision as vision
from minddata.gpu.batch import GpuRun, RowError
from minddata.gpu.nvjpeg_decoder import NvJpegDecoder

from .test_gpu_nvjpeg_decoder import OnTheCpu, StandInNvJpeg, _real_decoder

torch = pytest.importorskip("torch")

#: the largest mean difference (levels) from the CPU path allowed per row on the GPU (met on
#: the H200 by every row of test_a_batch_of_every_coding_gives_each_row_its_own_pixels)
GPU_MEAN_LEVELS = 3.0


class Device:
    """A decoder with the device it decodes on, a stream per worker and how close to the CPU
    path its rows must be."""

    def __init__(self, kind):
        self.kind, self.on_gpu = kind, not kind.startswith("stand-in")
        output = "ycbcr" if "ycbcr" in kind else "rgb"
        if self.on_gpu:
            # cuda-ycbcr-padded: every plane's rows padded to 256 bytes (pitch_align)
            self.decoder = _real_decoder(hardware=kind != "cuda-backend", output=output,
                                         pitch_align=256 if kind.endswith("padded") else 1)
            if self.decoder is None:
                pytest.skip("needs CUDA and libnvjpeg")
            self.device = torch.device("cuda")
        else:
            self.decoder = OnTheCpu(NvJpegDecoder(StandInNvJpeg(), torch, output=output))
            self.device = torch.device("cpu")

    def stream(self):
        """A context for one worker's batches: its own CUDA stream on the GPU."""
        if self.on_gpu:
            return torch.cuda.stream(torch.cuda.Stream(self.device))
        return _Nothing()

    def finish(self):
        """Waits for the GPU; with the CUDA backend forced, checks that it decoded."""
        if self.on_gpu:
            torch.cuda.synchronize(self.device)
        if self.kind == "cuda-backend":
            assert self.decoder.backend() == "CUDA"

    def assert_close(self, got, want, what, levels=GPU_MEAN_LEVELS):
        """``got`` is ``want`` (the CPU path's rows) on the stand-in; on the GPU each row is
        within ``levels`` on average."""
        got, want = got.cpu(), want.cpu()
        assert got.shape == want.shape, what
        if not self.on_gpu:
            assert torch.equal(got, want), what
            return
        for i, (g, w) in enumerate(zip(got, want)):
            diff = (g.float() - w.float()).abs()
            assert float(diff.mean()) < levels, (
                f"{what}, row {i}: mean difference {float(diff.mean()):.2f} levels, largest "
                f"{int(diff.max())}")


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.fixture(params=["stand-in", "stand-in-ycbcr", "cuda", "cuda-backend", "cuda-ycbcr",
                        "cuda-ycbcr-padded"])
def on(request):
    return Device(request.param)


def _jpeg(seed, height, width, gray=False, **flags):
    """A JPEG of a smooth picture with noise, written by OpenCV with ``flags`` (IMWRITE_*
    names without the prefix; a flag this OpenCV lacks skips the test)."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:height, 0:width]
    img = np.stack([xx * 255 // width, yy * 255 // height, (xx + yy) * 3 % 256], -1)
    img = np.clip(img + rng.integers(-20, 20, img.shape), 0, 255).astype(np.uint8)
    params = [cv2.IMWRITE_JPEG_QUALITY, 90]
    for name, value in flags.items():
        if not hasattr(cv2, f"IMWRITE_{name}"):
            pytest.skip(f"this OpenCV has no IMWRITE_{name}")
        params += [getattr(cv2, f"IMWRITE_{name}"),
                   getattr(cv2, f"IMWRITE_{value}") if isinstance(value, str) else value]
    ok, enc = cv2.imencode(".jpg", img[:, :, 0] if gray else img, params)
    assert ok
    return enc.reshape(-1)


def _varied():
    """JPEGs of every coding a dataset holds: sizes odd and even, chroma 4:2:0, 4:2:2, 4:4:4,
    grey, restart markers, progressive (which nvJPEG's hardware decoder leaves to the CPU)."""
    return [_jpeg(0, 61, 47), _jpeg(1, 64, 48),
            _jpeg(2, 53, 71, JPEG_SAMPLING_FACTOR="JPEG_SAMPLING_FACTOR_422"),
            _jpeg(3, 50, 66, JPEG_SAMPLING_FACTOR="JPEG_SAMPLING_FACTOR_444"),
            _jpeg(4, 45, 59, gray=True), _jpeg(5, 72, 40, JPEG_RST_INTERVAL=2),
            _jpeg(6, 57, 63, JPEG_PROGRESSIVE=1), _jpeg(7, 33, 90, JPEG_QUALITY=60)]


OPS = [vision.Decode(), vision.RandomResizedCrop((28, 32)), vision.RandomHorizontalFlip()]


def _seeds(n, base=0):
    return [list(range(base + k * 1000, base + k * 1000 + n)) for k in range(len(OPS))]


def test_a_batch_of_every_coding_gives_each_row_its_own_pixels(on):
    datas = _varied()
    seeds = _seeds(len(datas))
    want = GpuRun(OPS, on.device)(datas, seeds)        # every row decoded on the host
    with on.stream():
        got = GpuRun(OPS, on.device, on.decoder)(datas, seeds)
    on.finish()
    on.assert_close(got, want, "a batch of every coding")


#: Per row, on the GPU, for test_workers_decoding_at_once_keep_their_own_pixels. On the H200
#: nvJPEG's hardware decode of these small images with a sawtooth channel differed from the CPU
#: path by up to 3.66 levels on average (worker 1, batch 1, row 10), while that batch's rows
#: differ from the same rows of the worker's other batches by 8.5 to 96. The exact check
#: against the batch decoded alone is what catches a mix-up; this one, a decoder that decodes
#: these files otherwise than the CPU path.
WORKER_MEAN_LEVELS = 6.0


def test_workers_decoding_at_once_keep_their_own_pixels(on):
    """Four workers share the decoder and the GpuRun, each on its own stream, five batches
    each without waiting between them: a decode state or staging buffer reused too early
    would give a row another batch's pixels. So each batch must be exactly what the same
    decoder gives for it run alone afterwards (a fixed decoder on the same files gives the
    same pixels), and close to the CPU path's."""
    run = GpuRun(OPS, on.device, on.decoder)
    results, failures = {}, []
    barrier = threading.Barrier(4)

    def worker(w):
        try:
            with on.stream():
                for b in range(5):
                    datas = [_jpeg(100 * w + 10 * b + k, 40 + 3 * k + w, 44 + 2 * b)
                             for k in range(12)]
                    barrier.wait()
                    results[w, b] = datas, run(datas, _seeds(len(datas), 7 * w + b))
        except Exception as exc:           # reported from the test's thread
            failures.append(exc)
    threads = [threading.Thread(target=worker, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    on.finish()
    assert not failures, failures
    for (w, b), (datas, got) in sorted(results.items()):
        seeds = _seeds(len(datas), 7 * w + b)
        with on.stream():
            alone = GpuRun(OPS, on.device, on.decoder)(datas, seeds)
        on.finish()
        what = f"worker {w}, batch {b}"
        assert torch.equal(got.cpu(), alone.cpu()), f"{what}: not the batch decoded alone"
        on.assert_close(got, GpuRun(OPS, on.device)(datas, seeds), what, WORKER_MEAN_LEVELS)


def test_a_cut_file_fails_the_batch_naming_its_row(on):
    """As on the CPU: the file without its end never reaches the GPU decoder, which might
    fill it with grey."""
    datas = [_jpeg(0, 40, 40), _jpeg(1, 40, 40)[:-12].copy(), _jpeg(2, 40, 40)]   # cut in its scan
    with pytest.raises(RowError, match="row 1 of the batch failed in Decode") as info:
        with on.stream():
            GpuRun(OPS, on.device, on.decoder)(datas, _seeds(3))
    on.finish()
    assert "Premature end of JPEG file" in str(info.value.__cause__)
