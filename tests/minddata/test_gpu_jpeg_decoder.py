"""Which library decodes a GPU batch's JPEGs (minddata.gpu.set_jpeg_decoder) and the nvImageCodec
adapter (minddata/gpu/nvimgcodec_decoder.py), checked without a GPU: the choice is made from
stand-ins for the three libraries, and the adapter runs against a stand-in of nvImageCodec's
Python API that decodes with the CPU path's decoder."""
import io
import threading
import time
import types
import warnings

import numpy as np
import pytest
from PIL import Image

import minddata.vision as vision
from minddata import gpu
from minddata.gpu import backend
from minddata.gpu.batch import GpuRun, RowError
from minddata.gpu.nvimgcodec_decoder import NvImageCodecDecoder

from .native_batch_helpers import jpeg_bytes

torch = pytest.importorskip("torch")


@pytest.fixture
def decoders(monkeypatch):
    """Stand-ins for the three libraries; the device and the choice are put back afterwards."""
    found = {"nvjpeg": object(), "torchvision": object(), "nvimgcodec": object()}
    monkeypatch.setattr(backend, "_nvjpeg_decoder", lambda output="rgb": found["nvjpeg"])
    monkeypatch.setattr(backend, "_torchvision_decoder", lambda: found["torchvision"])
    monkeypatch.setattr(backend, "_nvimgcodec_decoder", lambda share: found["nvimgcodec"])
    device, choice = gpu.get_device(), gpu.get_jpeg_decoder()
    yield found
    gpu.set_device(device)
    gpu.set_jpeg_decoder(choice)


def test_auto_prefers_the_direct_nvjpeg_then_torchvision_then_nvimgcodec_on_cuda(decoders):
    gpu.set_device("cuda")
    assert gpu.get_jpeg_decoder() == "auto"
    assert backend.jpeg_decoder() is decoders["nvjpeg"]
    decoders["nvjpeg"] = None
    assert backend.jpeg_decoder() is decoders["torchvision"]
    decoders["torchvision"] = None
    assert backend.jpeg_decoder() is decoders["nvimgcodec"]
    decoders["nvimgcodec"] = None
    assert backend.jpeg_decoder() is None


def test_auto_on_the_cpu_device_is_torchvision_or_none(decoders):
    """The direct nvJPEG decoder and nvImageCodec serve CUDA devices only."""
    gpu.set_device("cpu")
    assert backend.jpeg_decoder() is decoders["torchvision"]
    decoders["torchvision"] = None
    assert backend.jpeg_decoder() is None


def test_an_explicit_choice_is_that_library_or_none(decoders):
    gpu.set_device("cuda")
    for name in ("nvjpeg", "torchvision", "nvimgcodec"):
        gpu.set_jpeg_decoder(name)
        assert backend.jpeg_decoder() is decoders[name]
    decoders["nvimgcodec"] = decoders["nvjpeg"] = None
    gpu.set_jpeg_decoder("nvjpeg")
    assert backend.jpeg_decoder() is None   # no fallback to another library
    gpu.set_jpeg_decoder("torchvision")
    assert backend.jpeg_decoder() is decoders["torchvision"]
    decoders["torchvision"] = None
    assert backend.jpeg_decoder() is None
    gpu.set_jpeg_decoder("cpu")             # the host decodes every row
    assert backend.jpeg_decoder() is None


def test_the_decoder_is_named(decoders):
    gpu.set_device("cuda")
    decoders["nvjpeg"] = None
    decoders["torchvision"] = types.SimpleNamespace(name="torchvision decode_jpeg (nvJPEG)")
    assert backend.jpeg_decoder_name() == "torchvision decode_jpeg (nvJPEG)"
    gpu.set_jpeg_decoder("cpu")
    assert backend.jpeg_decoder_name() == "the CPU path's decoder"


def test_the_choice_is_checked():
    with pytest.raises(ValueError, match="nvimgcodec"):
        gpu.set_jpeg_decoder("dali")
    assert gpu.get_jpeg_decoder() == "auto"


def test_a_missing_decoder_names_what_to_install(decoders, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    gpu.set_device("cuda")
    decoders["nvjpeg"] = decoders["torchvision"] = decoders["nvimgcodec"] = None
    why = gpu.unavailable()                 # "auto": any of the three would do
    assert all(name in why for name in ("libnvjpeg", "torchvision", "nvImageCodec",
                                        "nvidia-nvjpeg-cu13", "nvidia-nvimgcodec-cu13"))
    gpu.set_jpeg_decoder("nvimgcodec")
    assert "set_jpeg_decoder('auto')" in gpu.unavailable()
    gpu.set_jpeg_decoder("cpu")             # needs no decoder library
    assert gpu.unavailable() is None


class FakeCodec:
    """nvImageCodec's Python API as the adapter uses it; decodes with the CPU path's decoder."""
    ColorSpec = types.SimpleNamespace(SRGB="srgb")
    P_RGB, HW_GPU_ONLY, GPU_ONLY = "planar rgb", "hardware", "cuda"

    def __init__(self):
        self.decoders = []

    def DecodeParams(self, **kwargs):
        return kwargs

    LoadHintPolicy = types.SimpleNamespace(ADAPTIVE_MINIMIZE_IDLE_TIME="adaptive")

    def Backend(self, kind, load_hint=1.0, load_hint_policy=None):
        if load_hint_policy is not None:
            return kind, load_hint, load_hint_policy
        return kind if load_hint == 1.0 else (kind, load_hint)

    def CodeStream(self, data):
        return np.asarray(data)

    def Decoder(self, device_id, max_num_cpu_threads, backends):
        decoder = FakeDecoder(device_id, backends)
        decoder.cpu_threads = max_num_cpu_threads
        self.decoders.append((threading.get_ident(), decoder))
        return decoder


class FakeDecoder:
    def __init__(self, device_id, backends):
        self.device_id, self.backends, self.calls = device_id, backends, []
        self.decode_op = vision.Decode()

    def decode(self, streams, params, cuda_stream):
        self.calls.append((len(streams), params, cuda_stream))
        out = []
        for data in streams:
            try:
                out.append(types.SimpleNamespace(
                    tensor=torch.from_numpy(self.decode_op(data)).permute(2, 0, 1)))
            except RuntimeError:
                out.append(None)            # as nvImageCodec: None for a row it cannot decode
        return out


def stand_in_torch():
    """The parts of torch the adapter calls on CUDA, for a machine without one."""
    cuda = types.SimpleNamespace(current_stream=lambda device: types.SimpleNamespace(cuda_stream=7),
                                 current_device=lambda: 0)
    return types.SimpleNamespace(cuda=cuda, from_dlpack=lambda image: image.tensor)


def test_the_adapter_decodes_planar_rgb_and_gives_none_for_a_broken_row():
    codec = FakeCodec()
    decode = NvImageCodecDecoder(codec, stand_in_torch())
    good = np.frombuffer(jpeg_bytes(0, 40, 30), np.uint8)
    rows = [torch.from_numpy(good.copy()), torch.from_numpy(np.zeros(64, np.uint8))]
    out = decode(rows, device=torch.device("cuda", 0))
    expected = vision.Decode()(good)
    assert out[1] is None
    assert out[0].shape == (3, 40, 30)
    assert np.array_equal(out[0].permute(1, 2, 0).numpy(), expected)
    # the hardware decoder takes the batch; a CUDA decoder, made then, only the refused row
    (_, hardware), (_, cuda) = codec.decoders
    assert hardware.device_id == cuda.device_id == 0
    assert hardware.backends == ["hardware"] and cuda.backends == ["cuda"]
    assert hardware.cpu_threads == cuda.cpu_threads == 1
    (count, params, stream), = hardware.calls
    assert count == 2 and stream == 7       # on the caller's current CUDA stream
    assert params == {"apply_exif_orientation": False, "color_spec": "srgb",
                      "sample_format": "planar rgb"}
    assert [call[0] for call in cuda.calls] == [1]


def test_the_workers_share_a_devices_decoders_one_batch_at_a_time():
    codec = FakeCodec()
    decode = NvImageCodecDecoder(codec, stand_in_torch())
    row = [torch.from_numpy(np.frombuffer(jpeg_bytes(1, 16, 16), np.uint8).copy())]
    decode(row, device=torch.device("cuda", 0))
    decode(row, device=torch.device("cuda", 1))
    busy, most = [0], [0]
    for _, decoder in codec.decoders:
        plain = decoder.decode

        def slow(streams, params, cuda_stream, plain=plain):
            busy[0] += 1
            most[0] = max(most[0], busy[0])
            time.sleep(0.02)
            busy[0] -= 1
            return plain(streams, params, cuda_stream)
        decoder.decode = slow
    workers = [threading.Thread(target=decode, args=(row,), kwargs={"device": torch.device("cuda")})
               for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert [d.device_id for _, d in codec.decoders] == [0, 1]      # none made per thread
    assert most[0] == 1


class CodecWithout(FakeCodec):
    """A codec whose decoder with only the ``missing`` backend cannot be made (as
    nvImageCodec answers on a GPU without hardware JPEG decoders, or without its CUDA
    backend's library)."""

    def __init__(self, missing):
        super().__init__()
        self.missing = missing

    def Decoder(self, device_id, max_num_cpu_threads, backends):
        if backends == [self.missing]:
            raise RuntimeError("Internal error - Could not create decoder. Code: 7")
        return super().Decoder(device_id, max_num_cpu_threads, backends)


def test_without_hardware_decoders_cuda_decodes_the_batch():
    codec = CodecWithout("hardware")
    data = np.frombuffer(jpeg_bytes(3, 20, 18), np.uint8)
    out = NvImageCodecDecoder(codec, stand_in_torch())([torch.from_numpy(data.copy())],
                                                       device=torch.device("cuda", 0))
    assert np.array_equal(out[0].permute(1, 2, 0).numpy(), vision.Decode()(data))
    (_, cuda), = codec.decoders
    assert cuda.backends == ["cuda"] and len(cuda.calls) == 1


def test_rows_the_hardware_refuses_are_left_to_the_cpu_without_a_cuda_decoder():
    codec = CodecWithout("cuda")
    decode = NvImageCodecDecoder(codec, stand_in_torch())
    data = np.frombuffer(jpeg_bytes(4, 20, 18), np.uint8)
    rows = [torch.from_numpy(np.zeros(64, np.uint8)), torch.from_numpy(data.copy())]
    for _ in range(2):          # the CUDA decoder is tried once, not per batch
        out = decode(rows, device=torch.device("cuda", 0))
        assert out[0] is None and out[1].shape == (3, 20, 18)
    assert [d.backends for _, d in codec.decoders] == [["hardware"]]


def test_the_adapter_refuses_a_cpu_device_and_gpu_run_decodes_on_the_host():
    decode = NvImageCodecDecoder(FakeCodec(), stand_in_torch())
    data = np.frombuffer(jpeg_bytes(2, 24, 20), np.uint8)
    with pytest.raises(RuntimeError, match="CUDA"):
        decode([torch.from_numpy(data.copy())], device=torch.device("cpu"))
    # GpuRun takes a refusal as "not decoded here": the row is decoded by the CPU path's decoder
    with pytest.warns(RuntimeWarning, match="nvImageCodec decodes on CUDA devices"):
        out = GpuRun([vision.Decode()], torch.device("cpu"), decode)([data], [[0]])
    assert np.array_equal(out[0].numpy(), vision.Decode()(data))     # HWC, as on the CPU


class FakeCodeStream:
    """nvImageCodec 0.7+'s CodeStream as the adapter uses it: a sub-code-stream of a region."""

    def __init__(self, data, region=None):
        self.data, self.region = np.asarray(data), region

    def get_sub_code_stream(self, region):
        return FakeCodeStream(self.data, region)


class RegionFakeCodec(FakeCodec):
    CodeStream = FakeCodeStream

    @staticmethod
    def Region(start_y, start_x, end_y, end_x):
        return (start_y, start_x, end_y, end_x)

    def Decoder(self, device_id, max_num_cpu_threads, backends):
        decoder = super().Decoder(device_id, max_num_cpu_threads, backends)
        plain = decoder.decode

        def decode(streams, params, cuda_stream):
            images = plain([s.data for s in streams], params, cuda_stream)
            for image, s in zip(images, streams):
                if image is not None and s.region is not None:
                    y0, x0, y1, x1 = s.region
                    image.tensor = image.tensor[:, y0:y1, x0:x1]
            return images
        decoder.decode = decode
        return decoder


def test_the_adapter_decodes_regions_as_sub_code_streams():
    decode = NvImageCodecDecoder(RegionFakeCodec(), stand_in_torch())
    assert decode.decodes_regions
    data = np.frombuffer(jpeg_bytes(2, 40, 30), np.uint8)
    rows = [torch.from_numpy(data.copy()) for _ in range(2)]
    out = decode(rows, device=torch.device("cuda", 0), regions=[(5, 7, 20, 10), None])
    whole = torch.from_numpy(vision.Decode()(data)).permute(2, 0, 1)
    assert torch.equal(out[0], whole[:, 5:25, 7:17])        # top, left, height, width
    assert torch.equal(out[1], whole)


def test_an_adapter_without_region_decode_refuses_regions():
    decode = NvImageCodecDecoder(FakeCodec(), stand_in_torch())
    assert not decode.decodes_regions        # a CodeStream without get_sub_code_stream
    row = [torch.from_numpy(np.frombuffer(jpeg_bytes(1, 16, 16), np.uint8).copy())]
    with pytest.raises(RuntimeError, match="no region decode"):
        decode(row, device=torch.device("cuda", 0), regions=[(0, 0, 8, 8)])


def test_the_hardware_share_is_the_hardware_backends_load_hint():
    codec = FakeCodec()
    row = [torch.from_numpy(np.frombuffer(jpeg_bytes(1, 16, 16), np.uint8).copy())]
    for share, backends in [(1.0, ["hardware"]), (0.75, [("hardware", 0.75), "cuda"]),
                            (0.0, ["cuda"]), ("auto", [("hardware", 0.75, "adaptive"), "cuda"])]:
        decode = NvImageCodecDecoder(codec, stand_in_torch(), share)
        decode(row, device=torch.device("cuda", 0))
        assert codec.decoders[-1][1].backends == backends
    assert NvImageCodecDecoder(codec, stand_in_torch()).name == "nvImageCodec"
    assert "75% of each batch to the hardware decoders" in \
        NvImageCodecDecoder(codec, stand_in_torch(), 0.75).name


def test_the_share_chooses_the_adapter_and_is_checked(monkeypatch):
    made = []
    monkeypatch.setattr(backend, "_nvimgcodec_decoder", lambda share: made.append(share) or share)
    device, choice = gpu.get_device(), gpu.get_jpeg_decoder()
    try:
        gpu.set_device("cuda")
        gpu.set_jpeg_decoder("nvimgcodec")
        assert gpu.get_hardware_decode_share() == 1.0
        gpu.set_hardware_decode_share(0.5)
        assert backend.jpeg_decoder() == 0.5 and made == [0.5]
        with pytest.raises(ValueError, match=r"\[0.0, 1.0\]"):
            gpu.set_hardware_decode_share(1.5)
        with pytest.raises(TypeError, match="share should be a float or 'auto'"):
            gpu.set_hardware_decode_share("all")
        gpu.set_hardware_decode_share("auto")
        assert backend.jpeg_decoder() == "auto"
    finally:
        gpu.set_hardware_decode_share(1.0)
        gpu.set_device(device)
        gpu.set_jpeg_decoder(choice)


def test_a_version_that_drops_failed_rows_still_gives_each_row_its_image():
    """Some nvImageCodec versions leave undecodable rows out of the returned list: the adapter
    must not pair the images that remain with the wrong rows."""
    codec = FakeCodec()
    decode = NvImageCodecDecoder(codec, stand_in_torch())
    datas = [np.frombuffer(jpeg_bytes(i, 20 + 4 * i, 24), np.uint8) for i in range(3)]
    rows = [torch.from_numpy(datas[0].copy()), torch.from_numpy(np.zeros(64, np.uint8)),
            torch.from_numpy(datas[2].copy())]
    decode(rows[:1], device=torch.device("cuda", 0))          # makes this thread's decoder
    decoder = codec.decoders[-1][1]
    plain = decoder.decode
    decoder.decode = lambda streams, params, cuda_stream: [
        image for image in plain(streams, params, cuda_stream) if image is not None]
    out = decode(rows, device=torch.device("cuda", 0))
    assert out[1] is None
    for i in (0, 2):
        assert np.array_equal(out[i].permute(1, 2, 0).numpy(), vision.Decode()(datas[i]))


def test_a_decoder_that_refuses_batches_is_named_once_and_the_rows_still_decode():
    """A batched decode that fails sends its rows one by one, then to the CPU path's decoder:
    right, but much slower, so it is said (once), not left silent."""
    calls = []

    def refusing(tensors, device=None):
        calls.append(len(tensors))
        raise RuntimeError("nvJPEG: nvjpegDecodeBatched returned EXECUTION_FAILED")
    refusing.name = "stand-in"
    datas = [np.frombuffer(jpeg_bytes(k, 24 + k, 20), np.uint8) for k in range(3)]
    run = GpuRun([vision.Decode(), vision.Resize((16, 16))], torch.device("cpu"), refusing)
    want = GpuRun([vision.Decode(), vision.Resize((16, 16))], torch.device("cpu"))
    with pytest.warns(RuntimeWarning, match=r"\(stand-in\) refused 3 rows at once "
                                            r"\(nvJPEG: nvjpegDecodeBatched returned EXEC"):
        assert torch.equal(run(datas, [[0] * 3] * 2), want(datas, [[0] * 3] * 2))
    assert calls == [3, 1, 1, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # no second warning
        assert torch.equal(run(datas, [[0] * 3] * 2), want(datas, [[0] * 3] * 2))


def test_cut_files_and_other_colour_codings_never_reach_the_gpu_decoder():
    """A GPU decoder may fill a file cut short with grey, or read CMYK colours as YCbCr: such
    rows go to the CPU path's Decode, so a cut file fails the batch naming the row (as on the
    CPU) and a CMYK file comes out as the CPU path decodes it. The decoder here decodes what it
    is given without complaint, and records it."""
    given = []

    def lenient(tensors, device=None):
        given.extend(bytes(t.numpy()) for t in tensors)
        return [torch.from_numpy(vision.Decode()(t.numpy())).permute(2, 0, 1) for t in tensors]
    lenient.name = "lenient stand-in"
    good = [np.frombuffer(jpeg_bytes(k, 24 + k, 20), np.uint8) for k in range(2)]
    cmyk = io.BytesIO()
    Image.fromarray(vision.Decode()(good[0])).convert("CMYK").save(cmyk, "JPEG")
    cmyk = np.frombuffer(cmyk.getvalue(), np.uint8)
    ops = [vision.Decode(), vision.Resize((16, 16))]
    run = GpuRun(ops, torch.device("cpu"), lenient)
    want = GpuRun(ops, torch.device("cpu"))
    datas = [good[0], cmyk, good[1]]
    assert torch.equal(run(datas, [[0] * 3] * 2), want(datas, [[0] * 3] * 2))
    assert given == [good[0].tobytes(), good[1].tobytes()]
    # its EOI marker gone: every pixel is there, the CPU's Decode gives them (as MindSpore 2.10)
    no_end = good[1][:-2].copy()
    given.clear()
    assert torch.equal(run([good[0], no_end], [[0] * 2] * 2), want(datas[::2], [[0] * 2] * 2))
    assert given == [good[0].tobytes()]
    cut = good[1][:-12].copy()                      # cut in its scan
    given.clear()
    with pytest.raises(RowError, match="row 1 of the batch failed in Decode") as info:
        run([good[0], cut], [[0] * 2] * 2)
    assert "Premature end of JPEG file" in str(info.value.__cause__)
    assert given == [good[0].tobytes()]
