"""Which torch device runs GPU-placed maps, and why none can.

The mixed pipeline (engine/gpu_batch.py) is torch code parameterised by one device: "cuda" on
a machine with a CUDA build of torch, or, set by ``set_device("cpu")``, the CPU, where the very
same code runs (tests and CPU machines check placement, windows, seeds and fallbacks that
way). Nothing here imports torch until a GPU-placed map is planned.
"""
import functools
import threading

_lock = threading.Lock()
# device None: "cuda" when it is usable
# cpu_decode_threads 0: on an H200 with 4 cores, a CPU share of 2 threads lowered the mixed
# pipeline from 15,839 to 14,047 images/s (the threads take the cores that read the rows).
_state = {"device": None, "cpu_decode_threads": 0, "jpeg_decoder": "auto",
          "region_decode": False, "hardware_share": 1.0, "stream_priority": "normal"}
STREAM_PRIORITIES = ("normal", "high")
JPEG_DECODERS = ("auto", "nvimgcodec", "torchvision", "nvjpeg", "nvjpeg-ycbcr", "cpu")


def _set(name, value):
    with _lock:
        _state[name] = value


def _checked_number(name, value, kinds, what, low, high):
    """``value`` if it is one of ``kinds`` (not a bool) within [low, high]; else the TypeError
    (saying it should be ``what``) or MindSpore's range ValueError, naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise TypeError(f"{name} should be {what}, but got {type(value).__name__}: {value!r}")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}], "
                         f"but got {value}")
    return value


def _checked_choice(name, value, choices):
    """``value`` if it is one of ``choices``, else a ValueError naming ``name`` and them."""
    if value not in choices:
        raise ValueError(f"{name} should be one of {choices}, but got {value!r}")
    return value


def set_device(device):
    """The torch device GPU-placed maps run on: "cuda", "cuda:<index>", "cpu" (the same
    code on the CPU, for tests and machines without a GPU), or None (the default: CUDA)."""
    if device is not None:
        if not isinstance(device, str):
            raise TypeError(f"device should be a str ('cuda', 'cuda:<index>' or 'cpu') or None, "
                            f"but got {type(device).__name__}: {device!r}")
        head, _, index = device.partition(":")
        if head not in ("cuda", "cpu") or (index and (head == "cpu" or not index.isdigit())):
            raise ValueError(f"device should be 'cuda', 'cuda:<index>' or 'cpu', but got "
                             f"{device!r}")
    _set("device", device)


def get_device():
    """The device set by ``set_device`` (None: CUDA)."""
    return _state["device"]


def unavailable():
    """Why GPU-placed maps cannot run here (a sentence naming what to install), or None."""
    device = _state["device"] or "cuda"
    try:
        import torch
    except ImportError:
        return ("torch is not installed: install a CUDA build of torch (pip install torch) "
                "and torchvision to run maps placed on the GPU")
    if device == "cpu":
        return None
    if not torch.cuda.is_available():
        build = "a CPU-only build" if torch.version.cuda is None else "a CUDA build"
        return (f"CUDA is not available (torch {torch.__version__} is {build}, and "
                f"torch.cuda.is_available() is False): install a CUDA build of torch and "
                f"torchvision, or place the map on the CPU")
    index = int(device.partition(":")[2] or 0)
    if index >= torch.cuda.device_count():
        return (f"device {device!r} does not exist: torch sees {torch.cuda.device_count()} "
                f"CUDA device(s)")
    if jpeg_decoder() is None and _state["jpeg_decoder"] != "cpu":
        if _state["jpeg_decoder"] in ("nvjpeg", "nvjpeg-ycbcr"):
            return (f"libnvjpeg does not load: install a CUDA build of torchvision (it bundles "
                    f"libnvjpeg) or nvidia-nvjpeg-cu13 (-cu12 for CUDA 12), or set "
                    f"MINDDATA_NVJPEG_LIBRARY to its path; or set_jpeg_decoder('auto')")
        if _state["jpeg_decoder"] == "nvimgcodec":
            return ("nvImageCodec is not installed (or does not load): pip install "
                    "nvidia-nvimgcodec-cu13[nvjpeg] (or -cu12 for CUDA 12), or "
                    "set_jpeg_decoder('auto')")
        return ("no GPU JPEG decoder loads (libnvjpeg, torchvision or nvImageCodec): install "
                "the CUDA build of torchvision matching torch (it bundles libnvjpeg), "
                "nvidia-nvjpeg-cu13 or nvidia-nvimgcodec-cu13[nvjpeg] (-cu12 for CUDA 12), "
                "to decode JPEG batches on the GPU")
    return None


def torch_device():
    """The torch.device GPU-placed maps run on (call only when ``unavailable()`` is None)."""
    import torch
    return torch.device(_state["device"] or "cuda")


def set_jpeg_decoder(name):
    """The library that decodes JPEG batches on the GPU: "nvjpeg" (nvJPEG called directly on
    the pipeline workers' own streams, no process-wide lock, no wait: nvjpeg_decoder.py),
    "torchvision" (torchvision.io.decode_jpeg: nvJPEG too, one batch at a time in the process,
    waited for), "nvjpeg-ycbcr" (the same, nvJPEG writing each image's planes as coded and one
    kernel a batch converting them to RGB with the CPU path's chroma upsampling and colour
    arithmetic, ycbcr_to_rgb.py, instead of a conversion kernel per image: not yet run on a
    GPU), "nvimgcodec" (NVIDIA nvImageCodec: the hardware JPEG decoders where the GPU
    has them, CUDA otherwise), "cpu" (the host decodes every row with the CPU path's decoder,
    the GPU augments: the CPU path's pixels exactly), or "auto" (the default: the first of
    "nvjpeg", "torchvision", "nvimgcodec" that loads; on the CPU device torchvision's only).
    That order is the measured one on an H200. The direct decoder, first run there on
    2026-11-28, differed from the CPU path on real photos exactly as torchvision's did
    (largest 44 levels, mean 0.586), fed a mixed pipeline of 29,175 images/s against
    torchvision's 24,355 (4 workers) and a ResNet-18 sink at 76.7-80.6% of its synthetic rate
    against 71.2-76.9% (ResNet-50: 89.0-92.4% against 88.7-93.8%, equal within noise);
    torchvision's batched decode measured 25,000-28,000 images/s against nvImageCodec's
    14,400-16,100 (README, "On a GPU")."""
    _set("jpeg_decoder", _checked_choice("jpeg decoder", name, JPEG_DECODERS))


def get_jpeg_decoder():
    """The choice set by ``set_jpeg_decoder`` (default "auto")."""
    return _state["jpeg_decoder"]


def jpeg_decoder():
    """``decode(tensors, device=...)`` -> one (3, H, W) uint8 RGB tensor (or None) per row, with
    a ``name``, as ``set_jpeg_decoder`` chose; None where that decoder does not import or
    "cpu" was chosen (GpuRun then decodes JPEGs with the CPU path's decoder). nvImageCodec
    and the direct nvJPEG decoder serve CUDA devices only."""
    choice = _state["jpeg_decoder"]
    if choice == "cpu":
        return None
    on_cuda = (_state["device"] or "cuda").startswith("cuda")
    if choice == "nvimgcodec":
        return _nvimgcodec_decoder(_state["hardware_share"]) if on_cuda else None
    if choice in ("nvjpeg", "nvjpeg-ycbcr"):
        return _nvjpeg_decoder("rgb" if choice == "nvjpeg" else "ycbcr") if on_cuda else None
    if choice == "torchvision" or not on_cuda:
        return _torchvision_decoder()
    # "auto" on CUDA: the fastest that loads (set_jpeg_decoder); each looked up only if needed
    decoder = _nvjpeg_decoder()
    if decoder is None:
        decoder = _torchvision_decoder()
    if decoder is None:
        decoder = _nvimgcodec_decoder(_state["hardware_share"])
    return decoder


def jpeg_decoder_name():
    """What decodes a GPU batch's JPEGs, in words (for plan() and the GPU checks)."""
    decoder = jpeg_decoder()
    name = getattr(decoder, "name", "the CPU path's decoder")
    if _state["region_decode"] and getattr(decoder, "decodes_regions", False):
        name += ", crop windows only (region decode)"
    return name


@functools.lru_cache(maxsize=None)
def _nvimgcodec_decoder(hardware_share):
    """Looked up once per share: a failing import is not retried per batch."""
    try:
        from .nvimgcodec_decoder import NvImageCodecDecoder
        return NvImageCodecDecoder.create(hardware_share)
    except Exception:    # absent, or its CUDA libraries do not load
        return None


@functools.lru_cache(maxsize=None)
def _nvjpeg_decoder(output="rgb"):
    try:
        from .nvjpeg_decoder import NvJpegDecoder
        return NvJpegDecoder.create(output=output)
    except ValueError:   # MINDDATA_NVJPEG_PITCH_ALIGN set wrong: said, not taken for absent
        raise
    except Exception:    # libnvjpeg absent or not loadable
        return None


@functools.lru_cache(maxsize=None)
def _torchvision_decoder():
    try:
        from torchvision.io import ImageReadMode, decode_jpeg
    except Exception:    # absent, or built for another torch (its operators fail to load)
        return None
    decode = functools.partial(decode_jpeg, mode=ImageReadMode.RGB)
    decode.name = "torchvision decode_jpeg (nvJPEG)"
    return decode


def set_cpu_decode_threads(threads):
    """CPU threads that decode a share of each batch's JPEG rows beside the GPU decoder (the
    share is tuned from the measured rates, minddata/gpu/decode_split.py); 0 (the default): the
    GPU decodes every JPEG. A share pays where cores are idle beside a busy GPU."""
    _set("cpu_decode_threads", _checked_number("threads", threads, int, "an int", 0, 64))


def get_cpu_decode_threads():
    """The CPU decode threads set by ``set_cpu_decode_threads`` (default 0)."""
    return _state["cpu_decode_threads"]


def set_region_decode(enabled):
    """Whether a decoder that can (nvImageCodec 0.7 or later) decodes only each row's crop
    window, drawn before the decode from the JPEG header's size and the row's seed, when the
    map's first op after Decode crops (RandomResizedCrop, CenterCrop, Crop,
    RandomCropDecodeResize). Off by default: on the H200 with nvImageCodec 0.9 and nvJPEG 13.3
    the hardware decoders decoded no region, so every row fell back to the CPU (1,574-1,858
    images/s against 9,699 whole; README, "On a GPU")."""
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled should be a bool, but got {type(enabled).__name__}: "
                        f"{enabled!r}")
    _set("region_decode", enabled)


def get_region_decode():
    """The choice set by ``set_region_decode`` (default False)."""
    return _state["region_decode"]


def set_hardware_decode_share(share):
    """With nvImageCodec: the part of each batch's JPEGs given to the GPU's hardware JPEG
    decoders (A100, H100, H200 have them), the rest decoded by CUDA kernels at the same time
    (nvImageCodec's load hint); "auto": the library moves the split batch by batch to where
    both finish together, from their measured times. 1.0 (the default) leaves the CUDA cores to
    training, as the sink wants; a pipeline measured alone may be fastest with both busy
    (DALI's mixed decoder splits the same way)."""
    if share == "auto":
        _set("hardware_share", share)
        return
    _set("hardware_share", float(_checked_number("share", share, (int, float),
                                                 "a float or 'auto'", 0.0, 1.0)))


def get_hardware_decode_share():
    """The share set by ``set_hardware_decode_share`` (default 1.0)."""
    return _state["hardware_share"]


def set_stream_priority(priority):
    """The CUDA stream priority of the GPU batch node's workers: "normal" (the default, that of
    the training step's stream) or "high". A batch queues a few milliseconds of GPU work (on
    the H200 523 copies and kernels, 2.4-2.6 ms, for 256 JPEGs), each piece small; at the
    step's priority each waits behind the step's queued kernels, so beside a busy GPU a batch
    takes far longer than alone and the sink can wait for data (on the H200 a ResNet-50 sink
    waited 0.8-8.7 ms a step on average). At high priority that work runs as soon as a
    multiprocessor frees, ahead of the step's queued kernels, which lose only its own time.
    Measured on the H200 with torchvision's decoder (8 pairs of sink runs, README "On a GPU"):
    no consistent effect, as that decoder queues the decode on a stream of its own whatever
    this says. With the direct nvJPEG decoder ("auto"'s first choice on CUDA) it governs all
    of a batch's work, but "normal" and "high" have not been compared there (the sink runs of
    its first GPU session all used "high"); hence not yet the default."""
    _set("stream_priority", _checked_choice("priority", priority, STREAM_PRIORITIES))


def get_stream_priority():
    """The priority set by ``set_stream_priority`` (default "normal")."""
    return _state["stream_priority"]


def cuda_stream_priority():
    """The torch.cuda.Stream priority of set_stream_priority's choice (lower is higher: torch
    maps a number beyond the device's range to its highest priority)."""
    return -100 if _state["stream_priority"] == "high" else 0
