"""tools/probe_nvjpeg_output_formats.py, the GPU probe of nvJPEG's output formats, checked without
a GPU: it says SKIP and exits 0 here; each format's planes are sized from nvjpegGetImageInfo's
per-component sizes and laid out in the nvjpegImage_t table as nvjpeg.h describes; the image
info is read through the library's C signature; the pixel check compares each format's planes
with the right ones."""
import ctypes
import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

from minddata.gpu import nvjpeg_decoder, nvjpeg_layout
from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "probe_nvjpeg_output_formats.py"
probe = load_script(TOOL)

F = probe.FORMATS
#: nvjpegGetImageInfo's answer for a 61x47 4:2:0 image: chroma planes rounded up
W420, H420 = (61, 31, 31, 0), (47, 24, 24, 0)


def test_without_a_gpu_it_says_skip_and_exits_0(tmp_path):
    rng = np.random.default_rng(0)
    for k, name in enumerate(["a/one.jpg", "a/b/two.JPEG", "three.jpeg"]):
        os.makedirs(os.path.dirname(tmp_path / name), exist_ok=True)
        image = rng.integers(0, 256, (40 + k, 50, 3), np.uint8)
        assert cv2.imwrite(str(tmp_path / name), image)
    (tmp_path / "notes.txt").write_text("not a JPEG")
    out = subprocess.run([sys.executable, str(TOOL), "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "3 JPEG files under" in out.stdout
    assert "formats RGB, RGBI, YUV, Y, UNCHANGED; backends hardware" in out.stdout
    assert any(line.startswith("SKIP: ") for line in out.stdout.splitlines()), out.stdout


def test_bad_arguments_and_no_jpegs_are_errors(tmp_path):
    for args in (["--formats", "3,11"], ["--formats", "rgb"], ["--backends", "gpu"]):
        out = subprocess.run([sys.executable, str(TOOL), "--data", str(tmp_path), *args],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 2 and "error: --" in out.stderr, (args, out.stderr)
    out = subprocess.run([sys.executable, str(TOOL), "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "no .jpg/.jpeg file under" in out.stdout


def test_the_output_format_and_subsampling_names_are_nvjpeg_hs():
    assert [F[n] for n in ("UNCHANGED", "YUV", "Y", "RGB", "BGR", "RGBI", "BGRI", "NV12")] == \
        [0, 1, 2, 3, 4, 5, 6, 8]
    assert F["RGB"] == nvjpeg_decoder.OUTPUT_RGB
    assert nvjpeg_decoder.CSS_NAMES[nvjpeg_decoder.CSS_444] == "4:4:4"
    assert nvjpeg_decoder.CSS_NAMES[2] == "4:2:0" and nvjpeg_decoder.CSS_NAMES[6] == "GRAY"


def test_each_formats_planes_from_the_components_sizes():
    shapes = probe.plane_shapes
    # (rows, pitch in bytes) per nvjpegImage_t channel
    assert shapes(F["RGB"], 3, W420, H420) == [(47, 61)] * 3
    assert shapes(F["BGR"], 3, W420, H420) == [(47, 61)] * 3
    assert shapes(F["RGBI"], 3, W420, H420) == [(47, 3 * 61)]
    assert shapes(F["Y"], 3, W420, H420) == [(47, 61)]
    assert shapes(F["YUV"], 3, W420, H420) == [(47, 61), (24, 31), (24, 31)]
    assert shapes(F["UNCHANGED"], 3, W420, H420) == [(47, 61), (24, 31), (24, 31)]
    assert shapes(F["NV12"], 3, W420, H420) == [(47, 61), (24, 62)]
    assert shapes(F["YUY2"], 3, (61, 31, 31, 0), (47, 47, 47, 0)) == [(47, 124)]
    # 4:4:4, and 4:2:2 (chroma at half width, full height)
    assert shapes(F["YUV"], 3, (20, 20, 20, 0), (9, 9, 9, 0)) == [(9, 20)] * 3
    assert shapes(F["YUV"], 3, (20, 10, 10, 0), (9, 9, 9, 0)) == [(9, 20), (9, 10), (9, 10)]
    # grayscale: nvJPEG reports no chroma sizes; YUV's chroma planes are sized as the luma
    gray_w, gray_h = (20, 0, 0, 0), (9, 0, 0, 0)
    assert shapes(F["UNCHANGED"], 1, gray_w, gray_h) == [(9, 20)]
    assert shapes(F["YUV"], 1, gray_w, gray_h) == [(9, 20)] * 3
    assert shapes(F["RGB"], 1, gray_w, gray_h) == [(9, 20)] * 3
    assert shapes(F["UNCHANGED"], 4, (8, 8, 8, 8), (5, 5, 5, 5)) == [(5, 8)] * 4


def test_the_batch_lays_its_images_planes_one_after_another():
    shapes = [probe.plane_shapes(F["YUV"], 3, W420, H420),
              probe.plane_shapes(F["RGBI"], 3, (4, 4, 4, 0), (2, 2, 2, 0)),
              probe.plane_shapes(F["NV12"], 3, W420, H420)]
    offsets, pitches, size = probe.batch_layout(shapes)
    y, c = 47 * 61, 24 * 31
    assert offsets.tolist() == [[0, y, y + c, -1], [y + 2 * c, -1, -1, -1],
                                [y + 2 * c + 24, y + 2 * c + 24 + y, -1, -1]]
    assert pitches.tolist() == [[61, 31, 31, 0], [12, 0, 0, 0], [61, 62, 0, 0]]
    assert size == y + 2 * c + 24 + y + 24 * 62
    table = probe.image_table(1 << 40, offsets, pitches)
    assert table.dtype == np.uint64 and table.shape == (3, 2 * nvjpeg_layout.MAX_COMPONENT)
    assert table[0].tolist() == [(1 << 40) + o for o in (0, y, y + c)] + [0, 61, 31, 31, 0]
    assert table[1, 1:4].tolist() == [0, 0, 0]          # null: channels RGBI does not write
    assert table[2, 4:].tolist() == [61, 62, 0, 0]
    # --pitch-align 256: every channel starts, and each of its rows is padded, at 256 bytes
    offsets, pitches, size = probe.batch_layout(shapes, 256)
    assert pitches.tolist() == [[256, 256, 256, 0], [256, 0, 0, 0], [256, 256, 0, 0]]
    assert (offsets[offsets >= 0] % 256 == 0).all()
    assert offsets[0].tolist() == [0, 47 * 256, 47 * 256 + 24 * 256, -1]
    assert size == offsets[2, 1] + 24 * 256


def test_the_image_info_is_read_per_component_through_the_c_signature():
    """A stand-in nvjpegGetImageInfo with the C signature the decoder binds: the probe's
    arguments (a pointer, the length, the four out-pointers) arrive as nvjpeg.h has them."""
    seen = []

    def image_info(handle, data, length, components, subsampling, widths, heights):
        seen.append((handle, ctypes.string_at(data, 3), length))
        if length == 99:
            return 3                                    # BAD_JPEG
        ctypes.c_int.from_address(components).value = 3
        ctypes.c_int.from_address(subsampling).value = 2
        for c in range(3):
            ctypes.c_int.from_address(widths + 4 * c).value = W420[c]
            ctypes.c_int.from_address(heights + 4 * c).value = H420[c]
        return 0
    proto = ctypes.CFUNCTYPE(ctypes.c_int, *nvjpeg_decoder.SIGNATURES["nvjpegGetImageInfo"])
    lib = type("Lib", (), {})()
    lib.nvjpegGetImageInfo = proto(image_info)
    datas = [b"abcdef", b"ghijkl"]
    buffers = [ctypes.create_string_buffer(d) for d in datas]
    pointers = np.array([ctypes.addressof(b) for b in buffers], np.uint64)
    lengths = np.array([6, 6], np.uint64)
    infos = probe.image_infos(lib, ctypes.c_void_p(1234), pointers, lengths)
    assert seen == [(1234, b"abc", 6), (1234, b"ghi", 6)]
    assert infos == [probe.Info(3, 2, W420, H420)] * 2
    with pytest.raises(RuntimeError, match=r"image 1\) returned BAD_JPEG"):
        probe.image_infos(lib, ctypes.c_void_p(1234), pointers, np.array([6, 99], np.uint64))


def test_the_layouts_seen_are_described_per_subsampling(capsys):
    infos = [probe.Info(3, 2, W420, H420), probe.Info(1, 6, (20, 0, 0, 0), (9, 0, 0, 0)),
             probe.Info(3, 2, (8, 4, 4, 0), (8, 4, 4, 0))]
    probe.describe_layouts(infos)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("layout: 4:2:0: 2 images, 3 components; e.g. 61x47 (WxH): YUV "
                               "planes Y 61x47, Cb 31x24, Cr 31x24"), lines
    assert lines[1].startswith("layout: GRAY: 1 images, 1 components"), lines


def test_jpeg_files_are_found_in_the_whole_tree(tmp_path):
    for name in ("b/x.JPG", "a/y.jpeg", "z.png", "a/c/w.jpg"):
        os.makedirs(os.path.dirname(tmp_path / name), exist_ok=True)
        (tmp_path / name).write_bytes(b"")
    found = [os.path.relpath(f, tmp_path) for f in probe.jpeg_files(str(tmp_path))]
    assert found == ["a/c/w.jpg", "a/y.jpeg", "b/x.JPG"]


class _Loop:
    def rate(self, began, ended):
        return 40.0


class _Stream:
    def synchronize(self):
        pass


def test_beside_runs_one_batch_a_period_at_least_five_times():
    calls = []
    ms, count, rate = probe.beside(_Loop(), lambda: calls.append(1), _Stream(), period=0.01,
                                   seconds=0.0)
    assert count == len(calls) == 5 and rate == 40.0 and ms >= 0
    ms, count, _ = probe.beside(_Loop(), lambda: None, _Stream(), period=0.02, seconds=0.2)
    assert 6 <= count <= 11


torch = pytest.importorskip("torch")


def _ycbcr(rgb):
    """(Y, Cb, Cr) uint8 planes of an (H, W, 3) RGB image: JFIF full range (OpenCV's)."""
    ycrcb = cv2.cvtColor(rgb, cv2.COLOR_RGB2YCrCb)
    return ycrcb[..., 0], ycrcb[..., 2], ycrcb[..., 1]


def test_yuv_to_rgb_is_jfifs_full_range_formula():
    rng = np.random.default_rng(1)
    rgb = rng.integers(0, 256, (13, 17, 3), np.uint8)
    y, cb, cr = (torch.from_numpy(np.ascontiguousarray(p)) for p in _ycbcr(rgb))
    back = probe.yuv_to_rgb(torch, y, cb, cr).permute(1, 2, 0).numpy()
    assert np.abs(back.astype(int) - rgb).max() <= 3
    # 4:2:0 chroma (ceil sizes) upsampled by nearest: each 2x2 block takes one chroma sample
    grey = torch.full((5, 7), 100, dtype=torch.uint8)
    cb = torch.tensor([[128, 138, 128, 128]] * 3, dtype=torch.uint8)
    out = probe.yuv_to_rgb(torch, grey, cb, torch.full((3, 4), 128, dtype=torch.uint8))
    assert out.shape == (3, 5, 7)
    assert out[2, :, 2].tolist() == [118] * 5 and out[2, :, 4].tolist() == [100] * 5
    assert out[0].eq(100).all()


@pytest.mark.parametrize("align", [1, 256])
def test_the_pixel_check_compares_each_formats_planes(capsys, align):
    """Each format's buffer filled as nvJPEG would write a 4:4:4 image (rows padded to
    ``align`` bytes): every comparison is exact but YUV's own conversion (within the formula's
    rounding)."""
    rng = np.random.default_rng(2)
    h, w = 6, 10
    rgb = rng.integers(0, 256, (h, w, 3), np.uint8)
    y, cb, cr = _ycbcr(rgb)
    info = probe.Info(3, nvjpeg_decoder.CSS_444, (w, w, w, 0), (h, h, h, 0))
    gray = probe.Info(1, 6, (4, 0, 0, 0), (3, 0, 0, 0))
    planes = {"RGB": [rgb[..., c] for c in range(3)], "BGR": [rgb[..., 2 - c] for c in range(3)],
              "RGBI": [rgb.reshape(h, 3 * w)], "YUV": [y, cb, cr], "Y": [y],
              "UNCHANGED": [y, cb, cr]}
    probes = []
    for name, content in planes.items():
        p = probe.Format("hardware", F[name], align=align)
        p.status = "SUCCESS"
        p.allocate(torch, [gray, info], device="cpu")
        assert (p.table[:, :4][p.table[:, :4] > 0] % align == 0).all()
        for view, plane in zip(p.example(1), content):
            view.copy_(torch.from_numpy(np.ascontiguousarray(plane)))
        probes.append(p)
    probe.check_pixels(torch, probes, [gray, info])
    lines = [line for line in capsys.readouterr().out.splitlines() if "pixels hardware" in line]
    assert len(lines) == 7, lines
    for line in lines:
        if "YUV to RGB" in line:
            assert int(line.rsplit("largest ", 1)[1]) <= 3, line
        else:
            assert line.endswith("mean 0.000 levels, largest 0"), line


def test_nv12s_interleaved_chroma_is_compared_with_yuvs_planes(capsys):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 256, (H420[0], W420[0]), np.uint8)
    cb, cr = (rng.integers(0, 256, (H420[1], W420[1]), np.uint8) for _ in range(2))
    info = probe.Info(3, 2, W420, H420)
    planes = {"YUV": [y, cb, cr], "Y": [y], "NV12": [y, np.stack([cb, cr], -1).reshape(24, 62)]}
    probes = []
    for name, content in planes.items():
        p = probe.Format("cuda", F[name])
        p.status = "SUCCESS"
        p.allocate(torch, [info], device="cpu")
        for view, plane in zip(p.example(0), content):
            view.copy_(torch.from_numpy(np.ascontiguousarray(plane)))
        probes.append(p)
    probe.check_pixels(torch, probes, [info])
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("pixels cuda: ")]
    assert [line.split(": ")[1] for line in lines] == \
        ["Y vs YUV's Y", "NV12 Y vs YUV's Y", "NV12 U,V vs YUV's Cb,Cr"], out
    assert all(line.endswith("mean 0.000 levels, largest 0") for line in lines), out
    assert "pixels: image 0 (61x47, 4:2:0)" in out


class _StandInLib:
    """The batched calls as nvjpeg.h has them, recorded; ``refuse``: the output format that
    nvjpegDecodeBatchedInitialize refuses (INVALID_PARAMETER)."""

    def __init__(self, refuse=None):
        self.calls, self.refuse = [], refuse

    def nvjpegJpegStateCreate(self, handle, state):
        state._obj.value = 77
        return 0

    def nvjpegDecodeBatchedPreAllocate(self, handle, state, *hint):
        self.calls.append(("preallocate", state.value, hint))
        return 0

    def nvjpegDecodeBatchedInitialize(self, handle, state, batch, threads, fmt):
        self.calls.append(("initialize", batch, threads, fmt))
        return 2 if fmt == self.refuse else 0

    def nvjpegDecodeBatched(self, handle, state, data, lengths, destinations, stream):
        table = np.ctypeslib.as_array((ctypes.c_uint64 * 16).from_address(destinations))
        self.calls.append(("decode", data, lengths, table.reshape(2, 8).copy(), stream.value))
        return 0


class _CudaStream(_Stream):
    cuda_stream = 5


@pytest.mark.filterwarnings("ignore:CUDA is not available")   # the profiler, here
def test_a_format_is_decoded_by_the_batched_calls_and_a_refusal_is_its_status():
    infos = [probe.Info(3, 2, W420, H420)] * 2
    pointers, lengths = np.array([100, 200], np.uint64), np.array([10, 20], np.uint64)
    lib = _StandInLib()
    nv12 = probe.Format("hardware", F["NV12"])
    nv12.run(torch, lib, ctypes.c_void_p(1), infos, pointers, lengths, _CudaStream(), "cpu")
    assert nv12.status == "SUCCESS" and nv12.alone_ms is not None
    assert lib.calls[0] == ("preallocate", 77, (1, 1, 1, nvjpeg_decoder.CSS_444, 8))
    assert lib.calls[1] == ("initialize", 2, 1, 8)
    _, data, lengths_at, table, stream = lib.calls[2]
    assert (data, lengths_at, stream) == (pointers.ctypes.data, lengths.ctypes.data, 5)
    base, y = nv12.out.data_ptr(), 47 * 61
    assert table[0].tolist() == [base, base + y, 0, 0, 61, 62, 0, 0]
    assert table[1, 0] == base + y + 24 * 62
    assert len(lib.calls) == 1 + 2 * (1 + 2 + 5)      # the first batch, 2 warm-ups, 5 timed
    yuv = probe.Format("cuda", F["YUV"])
    lib = _StandInLib(refuse=F["YUV"])
    yuv.run(torch, lib, ctypes.c_void_p(1), infos, pointers, lengths, _CudaStream(), "cpu")
    assert yuv.status == "nvjpegDecodeBatchedInitialize returned INVALID_PARAMETER"
    assert lib.calls == [("initialize", 2, 1, F["YUV"])]   # no pool hint off the hardware
    assert yuv.summary() == ("summary: cuda YUV: nvjpegDecodeBatchedInitialize returned "
                             "INVALID_PARAMETER, kernels n/a, device n/a, alone n/a, beside n/a")
