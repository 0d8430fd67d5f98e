"""Batched JPEG decode with NVIDIA nvImageCodec (``pip install nvidia-nvimgcodec-cu13[nvjpeg]``,
or ``-cu12``), DALI's own decoder: the GPU's hardware JPEG decoders where it has them (A100,
H100, H200), which take the decode itself off the CUDA cores (on the H200 the library still
queued CUDA work per batch: README, "On a GPU"), and nvJPEG's CUDA decode otherwise
(``gpu.set_jpeg_decoder("nvimgcodec")``; the default, "auto", takes it only where neither
the direct nvJPEG decoder nor torchvision's loads).

The output is what torchvision's ``decode_jpeg`` gives, so GpuRun takes either: one planar RGB
``(3, H, W)`` uint8 tensor on the device per row, or None for a row the library could not
decode, also with versions that drop such rows from their output (GpuRun then decodes that
row on the CPU, which raises the CPU op's error for a broken file). EXIF orientation is not
applied, as on the CPU path.
"""
import threading


class NvImageCodecDecoder:
    #: the adaptive split's first share (nvImageCodec then moves it to where both backends
    #: finish together, from their measured times)
    ADAPTIVE_START = 0.75

    def __init__(self, codec, torch, hardware_share=1.0):
        """``hardware_share``: the part of each batch given to the hardware JPEG decoders
        (nvImageCodec's load hint), or "auto" (the library adapts it batch by batch to the
        measured times); CUDA decodes the rest, and whatever the hardware refuses."""
        self.codec, self.torch = codec, torch
        self.hardware_share = hardware_share
        if hardware_share == "auto":
            self.name = "nvImageCodec (hardware and CUDA decode, split by their measured times)"
        elif hardware_share == 1.0:
            self.name = "nvImageCodec"
        else:
            self.name = (f"nvImageCodec ({hardware_share:.0%} of each batch to the hardware "
                         f"decoders)")
        # region decode (nvImageCodec 0.7 and later): a sub-code-stream of the crop window
        self.decodes_regions = hasattr(codec.CodeStream, "get_sub_code_stream")
        self.params = codec.DecodeParams(apply_exif_orientation=False,
                                         color_spec=codec.ColorSpec.SRGB,
                                         sample_format=codec.P_RGB)
        self._lock = threading.Lock()
        self._devices = {}      # device index -> _DeviceDecoders

    @classmethod
    def create(cls, hardware_share=1.0):
        """The decoder, or ImportError where nvImageCodec or torch does not import."""
        import torch
        from nvidia import nvimgcodec
        return cls(nvimgcodec, torch, hardware_share)

    def _on(self, device):
        index = device.index if device.index is not None else self.torch.cuda.current_device()
        with self._lock:
            if index not in self._devices:
                self._devices[index] = _DeviceDecoders(self, index)
            return self._devices[index]

    def __call__(self, tensors, device, regions=None):
        """Decodes ``tensors`` (1-D uint8 CPU tensors of JPEG files) on the CUDA ``device``, in
        order on its current stream; ``regions``: for each row, the window (top, left, height,
        width) to decode alone, or None for the whole image."""
        if device.type != "cuda":
            raise RuntimeError(f"nvImageCodec decodes on CUDA devices, not on {device}")
        streams = [self.codec.CodeStream(t.numpy()) for t in tensors]
        if regions is not None:
            if not self.decodes_regions:
                raise RuntimeError("this nvImageCodec has no region decode (0.7 or later has)")
            streams = [stream if r is None else stream.get_sub_code_stream(
                region=self.codec.Region(r[0], r[1], r[0] + r[2], r[1] + r[3]))
                for stream, r in zip(streams, regions)]
        cuda_stream = self.torch.cuda.current_stream(device).cuda_stream
        images = self._on(device).decode(streams, self.params, cuda_stream)
        return [None if image is None else self.torch.from_dlpack(image) for image in images]


class _DeviceDecoders:
    """The nvImageCodec decoders of one GPU, shared by the pipeline's workers, one batch at a
    time. Measured on the H200 (README, "On a GPU"): one thread decoding on the hardware
    decoders alone gave 18,800 images/s, four threads each with its own decoder 13,100
    together, and the 4-worker pipeline with a decoder per worker 6,900-7,200 (9,700 with this
    one): the decoders contend for the hardware engines, so the workers take turns instead
    (each waits with the GIL released). Share 1.0 decodes on the hardware decoders alone (one
    decoder holding both the hardware and the CUDA backend gave 10,100 on one thread) and
    redoes only the rows they refuse with a CUDA decoder; a share below 1.0, or "auto", needs
    both backends in one decoder (the load hint splits between them). One CPU thread per
    decoder: the library's default is a pool of a thread per machine core for every decoder."""

    def __init__(self, adapter, index):
        self.adapter, self.index = adapter, index
        self.lock = threading.Lock()
        codec, share = adapter.codec, adapter.hardware_share
        hardware = None
        if share == "auto":
            adaptive = codec.LoadHintPolicy.ADAPTIVE_MINIMIZE_IDLE_TIME
            hardware = codec.Backend(codec.HW_GPU_ONLY, load_hint=adapter.ADAPTIVE_START,
                                     load_hint_policy=adaptive)
        elif 0 < share < 1:
            hardware = codec.Backend(codec.HW_GPU_ONLY, load_hint=share)
        self.first = self.cuda = None
        self.cuda_failed = False
        if hardware is not None:
            self.first = self._make([hardware, codec.Backend(codec.GPU_ONLY)])
        elif share == 1.0:
            try:
                self.first = self._make([codec.Backend(codec.HW_GPU_ONLY)])
            except RuntimeError:        # a GPU without hardware JPEG decoders: CUDA decodes all
                self.first = None
        if self.first is None:
            self.cuda = self._make([codec.Backend(codec.GPU_ONLY)])
            self.first = self.cuda

    def _make(self, backends):
        return self.adapter.codec.Decoder(device_id=self.index, max_num_cpu_threads=1,
                                          backends=backends)

    def _cuda(self):
        """The CUDA decoder for the rows the hardware refused; None where it cannot be made
        (those rows are left to the CPU)."""
        if self.cuda is None and not self.cuda_failed:
            try:
                self.cuda = self._make([self.adapter.codec.Backend(self.adapter.codec.GPU_ONLY)])
            except RuntimeError:
                self.cuda_failed = True
        return self.cuda

    def decode(self, streams, params, cuda_stream):
        """One image (or None) per stream, in order."""
        with self.lock:
            images = self._decode(self.first, streams, params, cuda_stream)
            refused = [i for i, image in enumerate(images) if image is None]
            cuda = self._cuda() if refused and self.first is not self.cuda else None
            if cuda is not None:
                again = self._decode(cuda, [streams[i] for i in refused], params, cuda_stream)
                for i, image in zip(refused, again):
                    images[i] = image
            return images

    @staticmethod
    def _decode(decoder, streams, params, cuda_stream):
        images = list(decoder.decode(streams, params=params, cuda_stream=cuda_stream))
        if len(images) != len(streams):
            # Some versions leave the rows they could not decode out of the list instead of
            # giving None: which image is which row is then unknown, so decode row by row.
            images = [(decoder.decode([s], params=params, cuda_stream=cuda_stream)
                       or [None])[0] for s in streams]
        return images
