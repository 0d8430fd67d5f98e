"""The direct nvJPEG decoder (minddata/gpu/nvjpeg_decoder.py), checked without a GPU: a stand-in
for libnvjpeg follows nvJPEG's documented calls (the handle, the states, the image info, the
batched decode writing planar RGB, or the planes as coded, through the nvjpegImage_t table) on
host memory, decoding with the CPU path's decoder (libjpeg-turbo's raw planes for YCbCr), so the
decoder's tables, buffers, views, errors and state pool are checked end to end, GpuRun
included."""
import contextlib
import ctypes
import ctypes.util
import threading

import cv2
import numpy as np
import pytest

import minddata.vision as vision
from minddata import gpu
from minddata.gpu import backend, nvjpeg_decoder
from minddata.gpu.batch import GpuRun, RowError
from minddata.gpu.nvjpeg_decoder import NvJpegDecoder, NvJpegError
from minddata.gpu.nvjpeg_layout import CSS_FACTORS, image_table
from transforms_c._native import jpeg_planes, nvjpeg_image_sizes
from transforms_c.vision.decode import jpeg_size

from .native_batch_helpers import jpeg_bytes

torch = pytest.importorskip("torch")


TAIL = 16      # the stand-in knows a row by its last bytes
_INT_P = ctypes.POINTER(ctypes.c_int)
#: nvjpegChromaSubsampling_t of a file's chroma sampling factors (horizontal, vertical)
CSS_OF = {(f // 16, f % 16): code for code, f in CSS_FACTORS.items()}
GRAY = 6
IMAGE_INFO = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                              _INT_P, _INT_P, _INT_P, _INT_P)


class StandInNvJpeg:
    """libnvjpeg's calls as nvjpeg.h documents them, on host memory."""

    def __init__(self, hardware=True, refuse=None, unsupported=(), align=1):
        """``unsupported``: the last TAIL bytes of the rows the hardware backend does not take
        (its batched decode then refuses the whole batch); ``align``: what every plane's
        address must be a multiple of."""
        self.hardware, self.refuse, self.align = hardware, refuse or {}, align
        self.unsupported = set(unsupported)
        self.states, self.batch_of, self.streams, self.batches = 0, {}, [], []
        self.parsed, self.pooled, self.info_calls, self.created = {}, [], 0, []
        self.lock = threading.Lock()
        self.nvjpegGetImageInfo = IMAGE_INFO(self.image_info)     # a C function pointer

    def nvjpegCreateEx(self, backend, dev_allocator, pinned_allocator, flags, handle):
        self.created.append(backend)
        if backend == nvjpeg_decoder.BACKEND_HARDWARE and not self.hardware:
            return 7                                    # ARCH_MISMATCH
        if "create" in self.refuse:
            return self.refuse["create"]
        handle._obj.value = 1000 + backend
        return 0

    def nvjpegJpegStateCreate(self, handle, state):
        with self.lock:
            self.states += 1
            state._obj.value = 5000 + self.states
        return 0

    def nvjpegJpegStreamCreate(self, handle, jpeg_stream):
        jpeg_stream._obj.value = 9000 + self.states
        return 0

    def nvjpegJpegStreamParseHeader(self, handle, data, length, jpeg_stream):
        self.parsed[jpeg_stream.value] = ctypes.string_at(data.value, length)[-TAIL:]
        return 0

    def nvjpegDecodeBatchedSupported(self, handle, jpeg_stream, answer):
        answer._obj.value = int(self.parsed[jpeg_stream.value] in self.unsupported)
        return 0

    def image_info(self, handle, data, length, components, subsampling, widths, heights):
        """nvjpegGetImageInfo, called from native code through a C function pointer."""
        assert handle in (1000 + nvjpeg_decoder.BACKEND_HARDWARE,
                          1000 + nvjpeg_decoder.BACKEND_DEFAULT)
        raw = np.frombuffer(ctypes.string_at(data, length), np.uint8)
        if "info" in self.refuse and raw[-TAIL:].tobytes() == self.refuse["info"]:
            return 3                                    # BAD_JPEG
        widths[0], heights[0] = jpeg_size(raw)
        planes, factors = jpeg_planes(raw, 1 << 40)
        components[0] = len(planes)
        subsampling[0] = CSS_OF.get(factors[1], -1) if len(planes) > 1 else GRAY
        for c, plane in enumerate(planes):
            heights[c], widths[c] = plane.shape
        self.info_calls += 1
        return 0

    def nvjpegDecodeBatchedPreAllocate(self, handle, state, batch, width, height,
                                       subsampling, output_format):
        assert handle.value == 1000 + nvjpeg_decoder.BACKEND_HARDWARE     # its pool only
        self.pooled.append(state.value)
        return self.refuse.get("preallocate", 0)

    def nvjpegDecodeBatchedInitialize(self, handle, state, batch, threads, output_format):
        assert output_format in (nvjpeg_decoder.OUTPUT_RGB, nvjpeg_decoder.OUTPUT_YUV,
                                 nvjpeg_decoder.OUTPUT_Y)
        assert threads == 1
        if output_format == nvjpeg_decoder.OUTPUT_YUV and "yuv" in self.refuse:
            return self.refuse["yuv"]
        if output_format == nvjpeg_decoder.OUTPUT_Y and "y" in self.refuse:
            return self.refuse["y"]
        self.batch_of[state.value] = batch, output_format
        return 0

    def nvjpegDecodeBatched(self, handle, state, data, lengths, destinations, stream):
        if "decode" in self.refuse:
            return self.refuse["decode"]
        n, output_format = self.batch_of[state.value]
        self.streams.append(stream.value)
        ptrs = np.ctypeslib.as_array((ctypes.c_uint64 * n).from_address(data))
        sizes = np.ctypeslib.as_array((ctypes.c_uint64 * n).from_address(lengths))
        tails = [ctypes.string_at(int(p) + int(z) - TAIL, TAIL) for p, z in zip(ptrs, sizes)]
        if handle.value == 1000 + nvjpeg_decoder.BACKEND_HARDWARE and \
                self.unsupported & set(tails):
            return 4                                    # JPEG_NOT_SUPPORTED
        self.batches.append(n)
        table = np.ctypeslib.as_array((ctypes.c_uint64 * (8 * n)).from_address(destinations))
        table = table.reshape(n, 8)
        for k in range(n):
            raw = np.frombuffer(ctypes.string_at(int(ptrs[k]), int(sizes[k])), np.uint8)
            if output_format in (nvjpeg_decoder.OUTPUT_YUV, nvjpeg_decoder.OUTPUT_Y):
                # the planes as coded (YUV: all three, Y: the luma one), each at its pointer
                planes, _ = jpeg_planes(raw, 1 << 40)
                planes = planes[:1] if output_format == nvjpeg_decoder.OUTPUT_Y else planes
                assert len(planes) in (1, 3) and table[k, 3] == 0 and table[k, 7] == 0
                for c, plane in enumerate(planes):
                    pitch = int(table[k, 4 + c])                    # its width, or more
                    assert pitch >= plane.shape[1] and int(table[k, c]) % self.align == 0
                    for r, line in enumerate(plane):
                        ctypes.memmove(int(table[k, c]) + r * pitch, line.ctypes.data,
                                       line.size)
                continue
            rgb = vision.Decode()(raw)
            height, width = rgb.shape[:2]
            assert list(table[k, 4:]) == [width] * 3 + [0] and table[k, 3] == 0
            for c in range(3):
                plane = np.ascontiguousarray(rgb[:, :, c])      # alive through the copy
                ctypes.memmove(int(table[k, c]), plane.ctypes.data, height * width)
        return 0


class StandInEvent:
    """torch.cuda.Event's query / synchronize: done at once, or (``done=False``) only once
    waited for."""

    def __init__(self, done=True):
        self.done, self.waited = done, False

    def query(self):
        return self.done

    def synchronize(self):
        self.waited = self.done = True


class StandInStream:
    """What the decoder uses of a torch.cuda.Stream: its handle and record_event()."""

    def __init__(self, handle=0, finishes=True):
        self.cuda_stream, self.finishes, self.events = handle, finishes, []

    def record_event(self):
        self.events.append(StandInEvent(self.finishes))
        return self.events[-1]


class OnTheCpu:
    """The decoder as GpuRun calls it (a batch of tensors, or a whole staged batch), its CUDA
    stream replaced by a stand-in: the tests' torch runs on the CPU."""

    def __init__(self, decoder, stream=None):
        self.decoder, self.stream = decoder, stream or StandInStream()
        self.name, self.flats = decoder.name, []

    def __call__(self, tensors, device):
        return self.decoder.decode_on(tensors, device, 0, self.stream)

    def decode_batch(self, buffer, offsets, device):
        flat, hw, taken = self.decoder.decode_batch_on(buffer, offsets, device, 0, self.stream)
        self.flats.append(flat)
        return flat, hw, taken


def _rows(n, seed=0):
    return [torch.from_numpy(np.frombuffer(jpeg_bytes(seed + i, 30 + 5 * i, 24 + 3 * i),
                                           np.uint8).copy()) for i in range(n)]


def _cpu(t):
    return torch.from_numpy(vision.Decode()(t.numpy())).permute(2, 0, 1)


def test_the_image_table_lays_planar_rgb_images_one_after_another():
    table = image_table(1000, [2, 3], [5, 4])
    assert table.shape == (2, 8) and table.dtype == np.uint64
    assert table[0].tolist() == [1000, 1010, 1020, 0, 5, 5, 5, 0]
    assert table[1].tolist() == [1030, 1042, 1054, 0, 4, 4, 4, 0]


def test_a_batch_decodes_into_one_buffer_as_views_of_the_rows_pixels():
    lib = StandInNvJpeg()
    decoder = NvJpegDecoder(lib, torch)
    rows = _rows(5)
    images = decoder.decode_on(rows, torch.device("cpu"), 0, StandInStream(77))
    assert decoder.backend(0) == "hardware" and lib.streams == [77]
    assert len({img.untyped_storage().data_ptr() for img in images}) == 1
    for row, image in zip(rows, images):
        assert torch.equal(image, _cpu(row))
    assert decoder.decode_on([], torch.device("cpu"), 0, StandInStream()) == []


def test_without_jpeg_engines_the_cuda_backend_decodes():
    decoder = NvJpegDecoder(StandInNvJpeg(hardware=False), torch)
    rows = _rows(2)
    images = decoder.decode_on(rows, torch.device("cpu"), 0, StandInStream())
    assert decoder.backend(0) == "CUDA"
    assert decoder.lib.created == [nvjpeg_decoder.BACKEND_HARDWARE,
                                   nvjpeg_decoder.BACKEND_DEFAULT]
    assert all(torch.equal(i, _cpu(r)) for i, r in zip(images, rows))


def test_the_cuda_backend_can_be_forced_where_the_gpu_has_jpeg_engines(monkeypatch):
    """hardware=False: the CUDA backend only, the hardware one not even tried (the GPU checks
    run the CUDA backend that way on GPUs that have JPEG engines); kept through create()."""
    monkeypatch.setattr(nvjpeg_decoder, "load_library", StandInNvJpeg)
    for decoder in (NvJpegDecoder(StandInNvJpeg(), torch, hardware=False),
                    NvJpegDecoder.create(hardware=False)):
        rows = _rows(2)
        images = decoder.decode_on(rows, torch.device("cpu"), 0, StandInStream())
        assert decoder.backend(0) == "CUDA"
        assert decoder.lib.created == [nvjpeg_decoder.BACKEND_DEFAULT]
        assert decoder.lib.pooled == []         # the hardware backend's pool only
        assert all(torch.equal(i, _cpu(r)) for i, r in zip(images, rows))
    default = NvJpegDecoder.create()
    default.decode_on(_rows(1), torch.device("cpu"), 0, StandInStream())
    assert default.backend(0) == "hardware"


def test_failures_name_the_call_and_give_the_state_back():
    lib = StandInNvJpeg(refuse={"decode": 4})
    decoder = NvJpegDecoder(lib, torch)
    for _ in range(3):
        with pytest.raises(NvJpegError, match="nvjpegDecodeBatched returned JPEG_NOT_SUPPORTED"):
            decoder.decode_on(_rows(2), torch.device("cpu"), 0, StandInStream())
    assert lib.states == 1                              # one state, reused each time
    rows = _rows(3)
    lib = StandInNvJpeg(refuse={"info": rows[1].numpy()[-TAIL:].tobytes()})
    with pytest.raises(NvJpegError, match=r"nvjpegGetImageInfo \(row 1\) returned BAD_JPEG"):
        NvJpegDecoder(lib, torch).decode_on(rows, torch.device("cpu"), 0, StandInStream())
    with pytest.raises(NvJpegError, match="nvjpegCreateEx returned INTERNAL_ERROR"):
        NvJpegDecoder(StandInNvJpeg(hardware=False, refuse={"create": 8}), torch).decode_on(
            rows, torch.device("cpu"), 0, StandInStream())


def test_rows_the_hardware_does_not_take_are_left_to_the_cpu_and_the_rest_decoded_at_once():
    rows = _rows(5)
    tails = [rows[k].numpy()[-TAIL:].tobytes() for k in (1, 3)]
    lib = StandInNvJpeg(unsupported=tails)
    decoder = NvJpegDecoder(lib, torch)
    images = decoder.decode_on(rows, torch.device("cpu"), 0, StandInStream())
    assert images[1] is None and images[3] is None
    assert all(torch.equal(images[k], _cpu(rows[k])) for k in (0, 2, 4))
    assert lib.batches == [3]                           # one batch of the three it takes
    lib = StandInNvJpeg(unsupported=[r.numpy()[-TAIL:].tobytes() for r in rows])
    images = NvJpegDecoder(lib, torch).decode_on(rows, torch.device("cpu"), 0, StandInStream())
    assert images == [None] * 5
    # GpuRun decodes the rows left out on the CPU: the batch is the CPU path's
    datas = [r.numpy() for r in rows]
    ops = [vision.Decode(), vision.Resize((20, 20))]
    lib = StandInNvJpeg(unsupported=tails)
    direct = GpuRun(ops, torch.device("cpu"), lambda tensors, device: NvJpegDecoder(
        lib, torch).decode_on(tensors, device, 0, StandInStream()))
    want = GpuRun(ops, torch.device("cpu"))(datas, [[0] * 5] * 2)
    assert torch.equal(direct(datas, [[0] * 5] * 2), want)


def test_a_state_is_taken_again_only_after_its_batch_has_run(monkeypatch):
    """Its buffers hold the batch's files until the GPU has copied them: reusing it sooner
    would decode another batch's bytes."""
    lib = StandInNvJpeg()
    decoder = NvJpegDecoder(lib, torch)
    busy = StandInStream(finishes=False)        # its events pass only when waited for
    for _ in range(3):
        decoder.decode_on(_rows(2), torch.device("cpu"), 0, busy)
    assert lib.states == 3 and not any(e.waited for e in busy.events)
    assert lib.pooled == [5001, 5002, 5003]     # each hardware state gets nvJPEG's pool
    busy.events[1].done = True                  # the second batch has run: its state is next
    decoder.decode_on(_rows(2), torch.device("cpu"), 0, busy)
    assert lib.states == 3 and not any(e.waited for e in busy.events)
    monkeypatch.setattr(nvjpeg_decoder, "MAX_STATES", 3)
    rows = _rows(2, seed=7)
    images = decoder.decode_on(rows, torch.device("cpu"), 0, busy)   # all busy, none to make
    assert lib.states == 3 and busy.events[0].waited     # the oldest, once its batch had run
    assert all(torch.equal(i, _cpu(r)) for i, r in zip(images, rows))
    cuda = NvJpegDecoder(StandInNvJpeg(hardware=False), torch)
    cuda.decode_on(_rows(1), torch.device("cpu"), 0, StandInStream())
    assert cuda.lib.pooled == []                # the CUDA backend has no such pool
    refused = NvJpegDecoder(StandInNvJpeg(refuse={"preallocate": 9}), torch)
    rows = _rows(2)                             # no pool is only slower: the batch decodes
    images = refused.decode_on(rows, torch.device("cpu"), 0, StandInStream())
    assert refused.lib.pooled and all(torch.equal(i, _cpu(r)) for i, r in zip(images, rows))


def test_concurrent_calls_each_get_a_state_of_their_own():
    lib = StandInNvJpeg()
    decoder = NvJpegDecoder(lib, torch)
    barrier, failures = threading.Barrier(3), []

    def work(seed):
        try:
            for k in range(4):
                rows = _rows(3, seed + k)
                barrier.wait()
                images = decoder.decode_on(rows, torch.device("cpu"), 0, StandInStream())
                assert all(torch.equal(i, _cpu(r)) for i, r in zip(images, rows))
        except Exception as exc:            # reported from the test's thread
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in (0, 10, 20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures and lib.states <= 3


def test_gpu_run_with_it_gives_the_cpu_paths_batch():
    """The whole path: the staged rows, the decoder's table and views, the crop-resize; the
    whole batch staged and decoded in one buffer (decode_batch) and the list call alike, with
    Resize before the crop (two geometry ops) and a flip with a point op after it."""
    datas = [np.frombuffer(jpeg_bytes(i, 40 + 6 * i, 36 + 2 * i), np.uint8) for i in range(6)]
    for ops in ([vision.Decode(), vision.RandomResizedCrop(24), vision.RandomHorizontalFlip()],
                [vision.Decode(), vision.Resize((30, 28)), vision.CenterCrop(20),
                 vision.RandomHorizontalFlip(), vision.Rescale(1 / 255, 0), vision.HWC2CHW()],
                # each row its own size (resampled row by row from the one buffer), then one
                [vision.Decode(), vision.Resize(30), vision.CenterCrop(24)]):
        seeds = [list(range(k * 100, k * 100 + 6)) for k in range(len(ops))]
        want = GpuRun(ops, torch.device("cpu"))(datas, seeds)
        whole = OnTheCpu(NvJpegDecoder(StandInNvJpeg(), torch))
        assert torch.equal(GpuRun(ops, torch.device("cpu"), whole)(datas, seeds), want)
        assert len(whole.flats) == 1
        listed = NvJpegDecoder(StandInNvJpeg(), torch)
        direct = GpuRun(ops, torch.device("cpu"), lambda tensors, device: listed.decode_on(
            tensors, device, 0, StandInStream()))
        assert torch.equal(direct(datas, seeds), want)


def test_a_whole_batch_with_rows_left_to_the_cpu_or_cut_wrong():
    """Rows the hardware does not take are decoded on the CPU beside the rest; a PNG in the
    batch sends it to the list call; a size other than the header's fails the batch, naming
    the row; a refused batch warns and goes the list way."""
    datas = [np.frombuffer(jpeg_bytes(i, 30 + 4 * i, 26), np.uint8) for i in range(5)]
    ops = [vision.Decode(), vision.Resize((20, 20))]
    seeds = [[0] * 5] * 2
    want = GpuRun(ops, torch.device("cpu"))(datas, seeds)
    tails = [datas[k][-TAIL:].tobytes() for k in (1, 3)]
    lib = StandInNvJpeg(unsupported=tails)
    whole = OnTheCpu(NvJpegDecoder(lib, torch))
    assert torch.equal(GpuRun(ops, torch.device("cpu"), whole)(datas, seeds), want)
    assert lib.batches == [3] and len(whole.flats) == 1
    png = cv2.imencode(".png", np.full((9, 7, 3), 60, np.uint8))[1].reshape(-1)
    mixed = datas[:2] + [png] + datas[3:]
    whole = OnTheCpu(NvJpegDecoder(StandInNvJpeg(), torch))
    assert torch.equal(GpuRun(ops, torch.device("cpu"), whole)(mixed, seeds),
                       GpuRun(ops, torch.device("cpu"))(mixed, seeds))
    assert whole.flats == []                    # the list call took the JPEGs

    class Misread(OnTheCpu):
        def decode_batch(self, buffer, offsets, device):
            flat, hw, taken = super().decode_batch(buffer, offsets, device)
            hw[2, 1] += 1
            return flat, hw, taken
    with pytest.raises(RowError, match="row 2 of the batch failed in Decode") as err:
        GpuRun(ops, torch.device("cpu"), Misread(NvJpegDecoder(StandInNvJpeg(), torch)))(
            datas, seeds)
    assert "gave shape (3, 38, 27) for the whole image, expected (3, 38, 26)" in str(
        err.value.__cause__)
    refusing = OnTheCpu(NvJpegDecoder(StandInNvJpeg(refuse={"decode": 6}), torch))
    with pytest.warns(RuntimeWarning, match="refused 5 rows at once"):
        assert torch.equal(GpuRun(ops, torch.device("cpu"), refusing)(datas, seeds), want)


def test_gpu_run_reads_the_decoders_batch_in_place(monkeypatch):
    """The rows lie one after another in the decoder's buffer: the crop-resize reads them
    there (no copy of the batch); a row from elsewhere (a PNG, decoded on the CPU) makes a
    copy, and both give the CPU path's batch."""
    decoder = OnTheCpu(NvJpegDecoder(StandInNvJpeg(), torch))
    given, read = [], []

    class Remembering:
        name = decoder.name

        def __call__(self, tensors, device):
            images = decoder(tensors, device)
            given.append(images[0].data_ptr())
            return images

        def decode_batch(self, buffer, offsets, device):
            flat, hw, taken = decoder.decode_batch(buffer, offsets, device)
            given.append(flat.data_ptr())
            return flat, hw, taken
    decode = Remembering()

    gather = GpuRun._gather
    monkeypatch.setattr(GpuRun, "_gather", lambda self, flat, *rest: (
        read.append((flat.data_ptr(), flat.numel())), gather(self, flat, *rest))[1])
    datas = [np.frombuffer(jpeg_bytes(i, 40 + 6 * i, 36 + 2 * i), np.uint8) for i in range(4)]
    ops = [vision.Decode(), vision.RandomResizedCrop(24)]
    seeds = [list(range(4)), list(range(10, 14))]
    run, cpu = GpuRun(ops, torch.device("cpu"), decode), GpuRun(ops, torch.device("cpu"))
    assert torch.equal(run(datas, seeds), cpu(datas, seeds))
    pixels = sum(3 * h * w for h, w in (jpeg_size(d) for d in datas))
    assert read[0] == (given[0], pixels)
    png = cv2.imencode(".png", np.full((30, 20, 3), 70, np.uint8))[1].reshape(-1)
    datas[2] = png
    assert torch.equal(run(datas, seeds), cpu(datas, seeds))
    assert read[-2][0] != given[-1]                     # copied: the PNG's pixels are elsewhere


def test_it_serves_cuda_devices_only():
    with pytest.raises(RuntimeError, match="CUDA devices"):
        NvJpegDecoder(StandInNvJpeg(), torch)(_rows(1), torch.device("cpu"))


def test_the_library_is_looked_for_where_it_is_installed(monkeypatch, tmp_path):
    fake = tmp_path / "libnvjpeg.so.13"
    fake.write_bytes(b"not a library")
    monkeypatch.setenv("MINDDATA_NVJPEG_LIBRARY", str(fake))
    assert nvjpeg_decoder.library_candidates()[0] == str(fake)
    monkeypatch.setattr(nvjpeg_decoder, "library_candidates", lambda: [str(fake)])
    with pytest.raises(ImportError, match="nvidia-nvjpeg-cu13") as err:
        nvjpeg_decoder.load_library()
    assert str(fake) in str(err.value)


@contextlib.contextmanager
def pretended_cuda(monkeypatch, decoder):
    """Inside: torch reports one CUDA device, gpu.set_device("cuda") and
    gpu.set_jpeg_decoder(``decoder``); the earlier settings back after it."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    device, choice = gpu.get_device(), gpu.get_jpeg_decoder()
    try:
        gpu.set_device("cuda")
        gpu.set_jpeg_decoder(decoder)
        yield
    finally:
        gpu.set_device(device)
        gpu.set_jpeg_decoder(choice)


def test_the_choice_and_what_to_install(monkeypatch):
    with pretended_cuda(monkeypatch, "nvjpeg"):
        found = NvJpegDecoder(StandInNvJpeg(), torch)
        monkeypatch.setattr(backend, "_nvjpeg_decoder", lambda output="rgb": found)
        assert backend.jpeg_decoder() is found and gpu.unavailable() is None
        assert backend.jpeg_decoder_name() == "nvJPEG (direct, on the pipeline's streams)"
        monkeypatch.setattr(backend, "_nvjpeg_decoder", lambda output="rgb": None)
        assert "MINDDATA_NVJPEG_LIBRARY" in gpu.unavailable()
        gpu.set_device("cpu")
        assert backend.jpeg_decoder() is None       # CUDA only: the host decodes


def _loadable_library():
    try:
        return nvjpeg_decoder.load_library()
    except ImportError:
        return None


def _real_decoder(hardware=True, output="rgb", pitch_align=1):
    lib = _loadable_library() if torch.cuda.is_available() else None
    return None if lib is None else NvJpegDecoder(lib, torch, hardware, output, pitch_align)


@pytest.mark.skipif(_real_decoder() is None, reason="needs CUDA and libnvjpeg")
def test_on_cuda_the_library_decodes_the_rows_on_the_callers_stream():
    decoder = _real_decoder()
    rows = [t.pin_memory() for t in _rows(8)]
    stream = torch.cuda.Stream(priority=-1)
    with torch.cuda.stream(stream):
        images = decoder(rows, torch.device("cuda"))
    stream.synchronize()
    for row, image in zip(rows, images):
        want = _cpu(row)
        assert image.is_cuda and image.shape == want.shape
        # another decoder's IDCT and chroma upsampling than libjpeg-turbo's: close, not equal
        assert (image.cpu().float() - want.float()).abs().mean() < 3.0


@pytest.mark.skipif(_loadable_library() is None, reason="no libnvjpeg loads here")
def test_the_installed_library_has_every_call_the_decoder_makes():
    """Without a GPU no handle can be made, but the calls and their names can be checked."""
    lib = _loadable_library()
    for name in nvjpeg_decoder.SIGNATURES:
        assert getattr(lib, name).restype is ctypes.c_int


def test_per_image_calls_keep_the_gil_and_the_decode_lets_it_go(monkeypatch):
    """Checked on the C library's abs and labs standing in for a per-image call and the
    batch's decode: the first through ctypes.PyDLL (no release and re-take of the GIL per
    image), the second through ctypes.CDLL; a required call missing is an AttributeError."""
    libc = ctypes.util.find_library("c")
    if libc is None:
        pytest.skip("no C library found")
    monkeypatch.setattr(nvjpeg_decoder, "SIGNATURES", {"abs": [ctypes.c_int],
                                                       "labs": [ctypes.c_long]})
    monkeypatch.setattr(nvjpeg_decoder, "OPTIONAL_SIGNATURES", {"no_such_call": []})
    monkeypatch.setattr(nvjpeg_decoder, "HELD_CALLS", frozenset({"abs"}))
    lib = nvjpeg_decoder.bind(libc)
    assert lib.abs(-3) == 3 and lib.labs(-4) == 4 and not hasattr(lib, "no_such_call")
    assert lib.abs._flags_ & ctypes._FUNCFLAG_PYTHONAPI
    assert not lib.labs._flags_ & ctypes._FUNCFLAG_PYTHONAPI
    monkeypatch.setattr(nvjpeg_decoder, "SIGNATURES", {"no_such_call": []})
    with pytest.raises(AttributeError, match="no_such_call"):
        nvjpeg_decoder.bind(libc)


def test_the_header_sizes_come_from_one_native_loop():
    """nvjpegGetImageInfo through its C address, every image in one call without the GIL;
    the first refusal stops it and names the row; wrong shapes and null addresses are
    refused before any call."""
    seen = []

    def info(handle, data, length, components, subsampling, widths, heights):
        seen.append(length)
        if length == 30:
            return 3
        heights[0], widths[0] = length, 2 * length
        return 0
    fn = IMAGE_INFO(info)
    address = ctypes.cast(fn, ctypes.c_void_p).value
    buf = np.zeros(100, np.uint8)
    data = np.full(4, buf.ctypes.data, np.uint64)
    out = np.zeros((4, 2), np.int64)
    assert nvjpeg_image_sizes(address, 7, data, np.array([10, 20, 40, 50], np.uint64),
                              out) == (-1, 0)
    assert out.tolist() == [[10, 20], [20, 40], [40, 80], [50, 100]]
    out[:] = 0
    assert nvjpeg_image_sizes(address, 7, data, np.array([10, 20, 30, 50], np.uint64),
                              out) == (2, 3)
    assert out.tolist() == [[10, 20], [20, 40], [0, 0], [0, 0]] and seen[-1] == 30
    with pytest.raises(ValueError, match=r"expected \(4, 2\)"):
        nvjpeg_image_sizes(address, 7, data, np.zeros(3, np.uint64), out)
    with pytest.raises(ValueError, match="null"):
        nvjpeg_image_sizes(0, 7, data, np.zeros(4, np.uint64), out)
    lib = StandInNvJpeg()
    NvJpegDecoder(lib, torch).decode_on(_rows(5), torch.device("cpu"), 0, StandInStream())
    assert lib.info_calls == 5
