"""The JPEG planes' conversion to RGB (minddata/gpu/ycbcr_to_rgb.py) and the direct nvJPEG
decoder asked for them (output="ycbcr"), checked without a GPU: given libjpeg-turbo's own raw
planes (transforms_c's jpeg_planes), the conversion must write exactly the CPU path's Decode,
with torch operations here and in Triton's interpreter (a child process: TRITON_INTERPRET must
be set before the kernel is made); the decoder through test_gpu_nvjpeg_decoder's stand-in
library."""
import importlib.util

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import minddata.vision as vision                                            # noqa: E402
from minddata import gpu                                                    # noqa: E402
from minddata.gpu import backend, nvjpeg_decoder, nvjpeg_layout, ycbcr_to_rgb  # noqa: E402
from minddata.gpu.batch import GpuRun                                       # noqa: E402
from minddata.gpu.nvjpeg_decoder import NvJpegDecoder                       # noqa: E402
from transforms_c._native import jpeg_planes                               # noqa: E402

from .test_gpu_nvjpeg_decoder import pretended_cuda                        # noqa: E402
from .test_gpu_nvjpeg_decoder_on_devices import _jpeg                    # noqa: E402
from .triton_helpers import interpreted_lines                             # noqa: E402

HAS_TRITON = importlib.util.find_spec("triton") is not None
LIMIT = 1 << 40
SAMPLINGS = {"4:2:0": "JPEG_SAMPLING_FACTOR_420", "4:2:2": "JPEG_SAMPLING_FACTOR_422",
             "4:4:4": "JPEG_SAMPLING_FACTOR_444", "4:4:0": "JPEG_SAMPLING_FACTOR_440",
             "4:1:1": "JPEG_SAMPLING_FACTOR_411"}
FACTORS = {"4:2:0": (2, 2), "4:2:2": (2, 1), "4:4:4": (1, 1), "4:4:0": (1, 2), "4:1:1": (4, 1)}
#: odd and even sizes, chroma planes 1 and 2 samples wide (replicated, not filtered), and an
#: image of rows wider than a kernel block (BLOCK pixels) and more rows than PROGRAMS (each
#: program loops over several segments, of several rows)
SIZES = [(37, 53), (8, 8), (1, 1), (2, 3), (3, 5), (17, 4), (64, 33), (75, 301)]


def _sampled(seed, height, width, sampling="4:2:0", **flags):
    """A JPEG of that chroma sampling (SAMPLINGS), written by the on-devices tests' helper."""
    return _jpeg(seed, height, width, JPEG_SAMPLING_FACTOR=SAMPLINGS[sampling], **flags)


def _gray(seed, height, width):
    return _jpeg(seed, height, width, gray=True)


def _cases():
    """(name, JPEG) for every sampling and size, gray, progressive and restart-marker files."""
    cases = [(f"{s} {h}x{w}", _sampled(k, h, w, s)) for s in SAMPLINGS
             for k, (h, w) in enumerate(SIZES)]
    cases.append(("progressive", _sampled(50, 41, 67, JPEG_PROGRESSIVE=1)))
    cases.append(("restarts", _sampled(51, 72, 40, JPEG_RST_INTERVAL=2)))
    cases += [(f"gray {h}x{w}", _gray(60 + h, h, w)) for h, w in [(23, 31), (1, 1), (40, 300)]]
    return cases


def _batch(datas, align=1):
    """libjpeg-turbo's planes of ``datas`` one after another, each row padded to a multiple
    of ``align`` bytes (the padding filled with 77: read, it would show), and their layout."""
    planes, layout, src, dst = [], [], 0, 0
    for data in datas:
        coded, factors = jpeg_planes(data, LIMIT)
        gray = len(coded) == 1          # no chroma planes: (0, 0)
        (height, width), (ch, cw) = coded[0].shape, (0, 0) if gray else coded[1].shape
        code = 0x11 if gray else factors[1][0] * 16 + factors[1][1]
        mode = int(ycbcr_to_rgb.upsampling_modes([code], [cw])[0])
        y_pitch, c_pitch = (-(-w // align) * align for w in (width, cw))
        layout.append([height, width, ch, cw, code, mode, src, dst, y_pitch, c_pitch])
        for plane, pitch in zip(coded, (y_pitch, c_pitch, c_pitch)):
            padded = np.full((plane.shape[0], pitch), 77, np.uint8)
            padded[:, :plane.shape[1]] = plane
            planes.append(padded.reshape(-1))
            src += padded.size
        dst += 3 * height * width
    return torch.from_numpy(np.concatenate(planes)), np.array(layout, np.int64)


def compare(align=1):
    """{case: (differing values, largest difference)} of the conversion against the CPU
    decode, all cases in one batch (rows padded to ``align`` bytes; with padding, every
    tenth case); and whether the kernel ran."""
    names, datas = zip(*(_cases() if align == 1 else _cases()[::10]))
    planes, layout = _batch(datas, align)
    out = ycbcr_to_rgb.to_rgb(torch, planes, layout, torch.device("cpu"))
    report = {}
    for name, data, row in zip(names, datas, layout.tolist()):
        height, width, dst = row[0], row[1], row[7]
        got = out[dst:dst + 3 * height * width].view(3, height, width).permute(1, 2, 0)
        diff = np.abs(got.numpy().astype(int) - vision.Decode()(data).astype(int))
        report[name] = (int((diff > 0).sum()), int(diff.max()))
    return report, ycbcr_to_rgb.KERNEL.runs_on(torch.device("cpu"))


def test_the_planes_are_the_files_as_coded():
    for sampling, (h, v) in FACTORS.items():
        planes, factors = jpeg_planes(_sampled(0, 37, 53, sampling), LIMIT)
        assert [p.shape for p in planes] == [(37, 53)] + [(-(-37 // v), -(-53 // h))] * 2
        assert factors == [(1, 1), (h, v), (h, v)] and all(p.dtype == np.uint8 for p in planes)
        # Y is the picture's luma: near the decoded RGB's (BT.601 weights; apart where RGB
        # clips a noisy pixel)
        rgb = vision.Decode()(_sampled(0, 37, 53, sampling)).astype(float)
        luma = rgb @ np.array([0.299, 0.587, 0.114])
        assert np.median(np.abs(luma - planes[0])) < 0.5
    gray = cv2.imencode(".jpg", np.full((9, 11), 77, np.uint8))[1].reshape(-1)
    planes, factors = jpeg_planes(gray, LIMIT)
    assert [p.shape for p in planes] == [(9, 11)] and factors == [(1, 1)]
    with pytest.raises(RuntimeError, match="Premature end of JPEG file"):
        jpeg_planes(_sampled(0, 40, 40)[:-12].copy(), LIMIT)
    with pytest.raises(RuntimeError, match="no SOI marker"):
        jpeg_planes(np.zeros(10, np.uint8), LIMIT)
    with pytest.raises(RuntimeError, match="outside the accepted range"):
        jpeg_planes(_sampled(0, 40, 40), 100)


def test_the_upsamplers_are_libjpeg_turbos_choice():
    """The triangle filter for 2x (horizontally where the chroma plane is more than 2 samples
    wide), replication otherwise."""
    codes = [0x22, 0x22, 0x21, 0x21, 0x12, 0x12, 0x11, 0x41, 0x42]
    widths = [3, 2, 5, 1, 9, 1, 4, 6, 6]
    assert ycbcr_to_rgb.upsampling_modes(codes, widths).tolist() == [3, 0, 1, 0, 2, 2, 0, 0, 0]


@pytest.mark.parametrize("align", [1, 64])
def test_converted_with_torch_the_planes_give_the_cpu_decode_exactly(align):
    report, _ = compare(align)
    assert report and all(v == (0, 0) for v in report.values()), report


@pytest.mark.skipif(not HAS_TRITON, reason="Triton is not installed (pip install triton)")
def test_the_kernel_gives_the_cpu_decode_exactly_in_the_interpreter():
    lines = interpreted_lines(__file__)
    for line, cases in zip(lines[-2:], (_cases(), _cases()[::10])):    # rows tight, padded
        report, ran = eval(line)
        assert ran, "the kernel did not run in the interpreter"
        assert set(report) == {name for name, _ in cases}
        assert all(v == (0, 0) for v in report.values()), report


def test_a_kernel_that_does_not_compile_leaves_the_conversion_to_torch(monkeypatch):
    """Once, for every later batch too; on CUDA with a warning (here on the CPU as the
    interpreter would run it)."""
    from minddata.gpu.triton_kernel import TritonKernel

    class Failing(TritonKernel):
        def jitted(self):
            return FailingKernel()
    monkeypatch.setattr(ycbcr_to_rgb, "KERNEL", Failing("YCbCr-to-RGB kernel", None))
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    names, datas = zip(*_cases()[:3])
    planes, layout = _batch(datas)
    out = ycbcr_to_rgb.to_rgb(torch, planes, layout, torch.device("cpu"))
    assert ycbcr_to_rgb.KERNEL.failure.startswith("the YCbCr-to-RGB kernel did not compile")
    assert not ycbcr_to_rgb.KERNEL.runs_on(torch.device("cpu"))
    row = layout[0]
    got = out[:3 * row[0] * row[1]].view(3, row[0], row[1]).permute(1, 2, 0).numpy()
    assert np.array_equal(got, vision.Decode()(datas[0]))


class FailingKernel:
    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            raise RuntimeError("no ptxas for sm_90")
        return launch


@pytest.mark.skipif(not (HAS_TRITON and torch.cuda.is_available()),
                    reason="needs CUDA and Triton")
def test_compiled_on_cuda_the_kernel_gives_the_cpu_decode_exactly():
    names, datas = zip(*_cases())
    planes, layout = _batch(datas)
    out = ycbcr_to_rgb.to_rgb(torch, planes.cuda(), layout, torch.device("cuda")).cpu()
    assert ycbcr_to_rgb.KERNEL.runs_on(torch.device("cuda"))
    for name, data, row in zip(names, datas, layout.tolist()):
        height, width, dst = row[0], row[1], row[7]
        got = out[dst:dst + 3 * height * width].view(3, height, width).permute(1, 2, 0)
        assert np.array_equal(got.numpy(), vision.Decode()(data)), name


def test_ycbcr_output_serves_three_planes_of_the_sizes_their_subsampling_gives():
    info = np.array([[5, 7, 3, 2, 3, 4],       # 4:2:0
                     [5, 7, 3, 2, 3, 5],       # 4:2:0, a chroma width nvJPEG gives otherwise
                     [5, 7, 1, 6, 0, 0],       # gray: its Y plane alone
                     [5, 7, 3, 7, 3, 4],       # 4:1:0 with vertical siting: not converted
                     [5, 7, 4, 0, 5, 7],       # four components
                     [9, 9, 3, 4, 9, 3]], np.int64)      # 4:1:1
    assert nvjpeg_layout.takes_ycbcr(info).tolist() == [True, False, True, False, False, True]
    assert nvjpeg_layout.takes_ycbcr(info, gray=False).tolist() == [True, False, False, False,
                                                                     False, True]
    layout = nvjpeg_layout.ycbcr_layout(info[[2, 0]])
    assert layout.tolist() == [[5, 7, 0, 0, 0x11, 0, 0, 0, 7, 0],
                               [5, 7, 3, 4, 0x22, 3, 35, 105, 7, 4]]
    table = nvjpeg_layout.plane_table(1000, layout)
    assert table[0].tolist() == [1000, 0, 0, 0, 7, 0, 0, 0]       # no chroma pointers


def test_the_plane_table_points_nvjpeg_at_each_plane():
    info = np.array([[5, 7, 3, 2, 3, 4], [4, 4, 3, 0, 4, 4]], np.int64)   # 4:2:0, 4:4:4
    layout = nvjpeg_layout.ycbcr_layout(info)
    assert layout.tolist() == [[5, 7, 3, 4, 0x22, 3, 0, 0, 7, 4],
                               [4, 4, 4, 4, 0x11, 0, 35 + 24, 3 * 35, 4, 4]]
    table = nvjpeg_layout.plane_table(1000, layout)
    assert table.dtype == np.uint64
    assert table[0].tolist() == [1000, 1035, 1047, 0, 7, 4, 4, 0]
    assert table[1].tolist() == [1059, 1075, 1091, 0, 4, 4, 4, 0]
    # rows padded to 64 bytes: every plane at a multiple of 64 from the base, pitches 64
    layout = nvjpeg_layout.ycbcr_layout(info, 64)
    assert layout[:, 6].tolist() == [0, 5 * 64 + 2 * 3 * 64] and layout[:, 8:].tolist() == \
        [[64, 64], [64, 64]]
    table = nvjpeg_layout.plane_table(1024, layout)
    assert table[0].tolist() == [1024, 1024 + 320, 1024 + 512, 0, 64, 64, 64, 0]
    assert (table[:, :3] % 64 == 0).all()


def _decoder(pitch_align=1, **standin):
    from .test_gpu_nvjpeg_decoder import OnTheCpu, StandInNvJpeg
    lib = StandInNvJpeg(**standin)
    return lib, OnTheCpu(NvJpegDecoder(lib, torch, output="ycbcr", pitch_align=pitch_align))


def _stream():
    from .test_gpu_nvjpeg_decoder import StandInStream
    return StandInStream()


def test_asked_for_ycbcr_the_decoder_gives_the_cpu_decode_exactly():
    """Every sampling in one batch, and gray files (in a second call asking for their Y plane
    alone), one buffer converted by one kernel; a file the hardware refuses is left to the CPU
    path; GpuRun's batch is then the CPU path's, byte for byte."""
    datas = [_sampled(k, 30 + 3 * k, 41 - 2 * k, s) for k, s in enumerate(SAMPLINGS)]
    datas.insert(2, _gray(1, 12, 13))
    datas.append(_gray(2, 20, 9))
    lib, decoder = _decoder()
    rows = [torch.from_numpy(d.copy()) for d in datas]
    images = decoder(rows, torch.device("cpu"))
    assert lib.batches == [len(datas) - 2, 2]          # colour (YUV), then gray (Y)
    assert len({img.untyped_storage().data_ptr() for img in images}) == 1
    for data, image in zip(datas, images):
        assert torch.equal(image.permute(1, 2, 0), torch.from_numpy(vision.Decode()(data)))
    assert lib.pooled and decoder.name.startswith("nvJPEG") and "YCbCr" in decoder.name
    ops = [vision.Decode(), vision.RandomResizedCrop((20, 24)), vision.RandomHorizontalFlip()]
    seeds = [list(range(100 * k, 100 * k + len(datas))) for k in range(len(ops))]
    want = GpuRun(ops, torch.device("cpu"))(datas, seeds)
    assert torch.equal(GpuRun(ops, torch.device("cpu"), decoder)(datas, seeds), want)
    tail = datas[4][-16:].tobytes()
    lib, decoder = _decoder(unsupported=[tail])
    assert torch.equal(GpuRun(ops, torch.device("cpu"), decoder)(datas, seeds), want)
    assert lib.batches == [len(datas) - 3, 2]          # the refused row on the CPU


def test_planes_with_padded_rows_convert_alike():
    """pitch_align: every plane at an aligned address (the stand-in checks it), its rows
    padded; the rows are still the CPU decode's."""
    datas = [_sampled(k, 21 + 5 * k, 37 - 3 * k, s) for k, s in enumerate(SAMPLINGS)]
    datas.append(_gray(3, 19, 70))
    lib, decoder = _decoder(pitch_align=64, align=64)
    images = decoder([torch.from_numpy(d.copy()) for d in datas], torch.device("cpu"))
    for data, image in zip(datas, images):
        assert torch.equal(image.permute(1, 2, 0), torch.from_numpy(vision.Decode()(data)))
    for bad in (0, 513, 1.0, True):
        with pytest.raises(ValueError, match="pitch_align should be an int in"):
            NvJpegDecoder(None, torch, output="ycbcr", pitch_align=bad)


def test_where_nvjpeg_refuses_y_output_gray_files_go_to_the_cpu_for_good():
    datas = [_sampled(0, 20, 30), _gray(1, 15, 17), _sampled(2, 22, 26)]
    lib, decoder = _decoder(refuse={"y": 9})           # IMPLEMENTATION_NOT_SUPPORTED
    rows = [torch.from_numpy(d.copy()) for d in datas]
    with pytest.warns(RuntimeWarning, match="gray JPEGs are decoded by the CPU path's"):
        images = decoder(rows, torch.device("cpu"))
    assert images[1] is None and decoder.decoder.output == "ycbcr"
    assert torch.equal(images[2].permute(1, 2, 0), torch.from_numpy(vision.Decode()(datas[2])))
    assert lib.batches == [2, 2]               # the colour rows again, without the gray one
    decoder(rows, torch.device("cpu"))
    assert lib.batches == [2, 2, 2]


def test_chroma_planes_of_another_size_than_the_sampling_gives_are_left_to_the_cpu():
    """nvJPEG would write planes the conversion reads otherwise: the row is not taken."""
    lib, decoder = _decoder()
    info = lib.image_info

    def odd_sizes(handle, data, length, components, subsampling, widths, heights):
        status = info(handle, data, length, components, subsampling, widths, heights)
        widths[1] += 1
        return status
    from .test_gpu_nvjpeg_decoder import IMAGE_INFO
    lib.nvjpegGetImageInfo = IMAGE_INFO(odd_sizes)
    datas = [_sampled(0, 20, 30), _sampled(1, 21, 31)]
    images = decoder([torch.from_numpy(d.copy()) for d in datas], torch.device("cpu"))
    assert images == [None, None] and lib.batches == []


def test_where_nvjpeg_refuses_ycbcr_output_the_decoder_turns_to_rgb_for_good():
    """A library or backend without YUV output: one warning, the batch and every later one
    decoded to RGB by nvJPEG itself; a refusal after YCbCr batches have decoded is the files'
    and raises as before."""
    datas = [_sampled(k, 20 + k, 30) for k in range(3)]
    rows = [torch.from_numpy(d.copy()) for d in datas]
    lib, decoder = _decoder(refuse={"yuv": 2})          # INVALID_PARAMETER
    with pytest.warns(RuntimeWarning, match="INVALID_PARAMETER for YCbCr output"):
        images = decoder(rows, torch.device("cpu"))
    assert decoder.decoder.output == "rgb" and "YCbCr" not in decoder.decoder.name
    for data, image in zip(datas, images):
        assert torch.equal(image.permute(1, 2, 0), torch.from_numpy(vision.Decode()(data)))
    assert len(decoder(rows, torch.device("cpu"))) == 3 and lib.batches == [3, 3]
    lib, decoder = _decoder()
    decoder(rows, torch.device("cpu"))                   # YCbCr decodes here
    lib.refuse["yuv"] = 2
    with pytest.raises(nvjpeg_decoder.NvJpegError, match="INVALID_PARAMETER"):
        decoder(rows, torch.device("cpu"))
    assert decoder.decoder.output == "ycbcr"


def test_a_pipeline_on_the_gpu_node_gives_the_cpu_decodes_batches(monkeypatch, tmp_path):
    """The whole engine (MindDataset, map(device="GPU") with two workers, batch) with the
    YCbCr decoder on the stand-in library, torch on the CPU: the batches are those of the
    same pipeline with every row decoded by the CPU path (set_jpeg_decoder("cpu")), to the
    byte: a gray JPEG and a PNG among the rows go to the CPU decoder in the same batch."""
    import minddata as ds
    from minddata.gpu import backend as gpu_backend

    from .native_batch_helpers import jpeg_bytes, png_bytes, write_mindrecord
    images = [jpeg_bytes(i, 50 + 7 * i, 44 + 5 * i, gray=(i == 2)) for i in range(7)]
    images.insert(4, png_bytes(1, 40, 52))
    path = write_mindrecord(str(tmp_path / "y.mindrecord"), images)
    ops = [vision.Decode(), vision.RandomResizedCrop(32, scale=(0.3, 1.0)),
           vision.RandomHorizontalFlip(), vision.HWC2CHW()]

    def run():
        d = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True)
        d = d.map(ops, input_columns=["image"], num_parallel_workers=2, device="GPU").batch(3)
        ds.config.set_seed(5)
        it = d.create_tuple_iterator(num_epochs=1, output_numpy=True)
        try:
            return [row for row in it]
        finally:
            it.close()
    _, decoder = _decoder()
    choice = gpu.get_jpeg_decoder()
    gpu.set_device("cpu")
    try:
        gpu.set_jpeg_decoder("cpu")
        want = run()
        monkeypatch.setattr(gpu_backend, "jpeg_decoder", lambda: decoder)
        got = run()
    finally:
        gpu.set_device(None)
        gpu.set_jpeg_decoder(choice)
    assert len(got) == len(want) == 3 and decoder.flats     # the decoder took whole batches
    for (image, label), (want_image, want_label) in zip(got, want):
        assert np.array_equal(image, want_image) and np.array_equal(label, want_label)


def test_the_padding_comes_from_the_environment(monkeypatch):
    """MINDDATA_NVJPEG_PITCH_ALIGN pads the YCbCr decoder's rows (not RGB output's); a wrong
    value is a ValueError naming the variable, also where the backend makes the decoder (not
    taken for a library that does not load)."""
    monkeypatch.setattr(nvjpeg_decoder, "load_library", lambda: None)
    monkeypatch.setenv("MINDDATA_NVJPEG_PITCH_ALIGN", "256")
    ycbcr = NvJpegDecoder.create(output="ycbcr")
    assert ycbcr.pitch_align == 256 and "rows padded to 256 bytes" in ycbcr.name
    assert NvJpegDecoder.create(output="rgb").pitch_align == 1
    monkeypatch.delenv("MINDDATA_NVJPEG_PITCH_ALIGN")
    assert NvJpegDecoder.create(output="ycbcr").pitch_align == 1
    try:
        with pretended_cuda(monkeypatch, "nvjpeg-ycbcr"):
            for bad in ("0", "1024", "x", ""):
                monkeypatch.setenv("MINDDATA_NVJPEG_PITCH_ALIGN", bad)
                with pytest.raises(ValueError, match="MINDDATA_NVJPEG_PITCH_ALIGN should be an "
                                                     "int in \\[1, 512\\], but got"):
                    NvJpegDecoder.create(output="ycbcr")
                backend._nvjpeg_decoder.cache_clear()   # made once per process
                with pytest.raises(ValueError, match="MINDDATA_NVJPEG_PITCH_ALIGN"):
                    backend.jpeg_decoder()
    finally:
        backend._nvjpeg_decoder.cache_clear()


def test_the_choice_names_it(monkeypatch):
    made = []
    monkeypatch.setattr(backend, "_nvjpeg_decoder", lambda output="rgb": made.append(output)
                        or NvJpegDecoder(None, torch, output=output))
    with pretended_cuda(monkeypatch, "nvjpeg-ycbcr"):
        assert gpu.unavailable() is None and "YCbCr planes" in backend.jpeg_decoder_name()
        assert made[-1] == "ycbcr"
        gpu.set_jpeg_decoder("nvjpeg")
        assert backend.jpeg_decoder().output == "rgb" and made[-1] == "rgb"
        monkeypatch.setattr(backend, "_nvjpeg_decoder", lambda output="rgb": None)
        gpu.set_jpeg_decoder("nvjpeg-ycbcr")
        assert "MINDDATA_NVJPEG_LIBRARY" in gpu.unavailable()
    with pytest.raises(ValueError, match="output should be 'rgb' or 'ycbcr'"):
        NvJpegDecoder(None, torch, output="yuv")


if __name__ == "__main__":      # the interpreter test's child: prints compare(), tight and padded
    print(compare())
    print(compare(64))
