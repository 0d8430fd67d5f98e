"""Batched JPEG decode with NVIDIA nvImageCodec (``pip install nvidia-nvimgcodec-cu13[nvjpeg]``,
or ``-cu12``), DALI's own decoder: the GPU's hardware JPEG decoders where it has them (A100,
H100, H200), which leave the CUDA cores to training, and nvJPEG's CUDA decode otherwise
(``gpu.set_jpeg_decoder("nvimgcodec")``; the default, "auto", prefers torchvision's decode).

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
        self._local = threading.local()     # a Decoder per thread and device

    @classmethod
    def create(cls, hardware_share=1.0):
        """The decoder, or ImportError where nvImageCodec or torch does not import."""
        import torch
        from nvidia import nvimgcodec
        return cls(nvimgcodec, torch, hardware_share)

    def _decoder(self, device):
        decoders = self._local.__dict__.setdefault("decoders", {})
        index = device.index if device.index is not None else self.torch.cuda.current_device()
        if index not in decoders:
            # The hardware decoders first, then CUDA; no hybrid CPU backend: the host's cores
            # read the rows (and GpuRun's own CPU share decodes beside the GPU). One CPU
            # thread per decoder: each pipeline worker parses its own batch, as torchvision's
            # decode does on the calling thread. The library's default is a pool of a thread per
            # core of the machine for every decoder: 4 workers pinned to 4 of 16 cores had 64
            # threads there. (With that default the mixed pipeline ran at 6,800 images/s on the
            # H200, the decoder alone on every core at 16,100; not yet measured with this.)
            backends = [self.codec.Backend(self.codec.GPU_ONLY)]
            if self.hardware_share == "auto":
                backends.insert(0, self.codec.Backend(
                    self.codec.HW_GPU_ONLY, load_hint=self.ADAPTIVE_START,
                    load_hint_policy=self.codec.LoadHintPolicy.ADAPTIVE_MINIMIZE_IDLE_TIME))
            elif self.hardware_share > 0:
                backends.insert(0, self.codec.Backend(self.codec.HW_GPU_ONLY,
                                                      load_hint=self.hardware_share))
            decoders[index] = self.codec.Decoder(device_id=index, max_num_cpu_threads=1,
                                                 backends=backends)
        return decoders[index]

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
        decoder = self._decoder(device)
        cuda_stream = self.torch.cuda.current_stream(device).cuda_stream
        images = decoder.decode(streams, params=self.params, cuda_stream=cuda_stream)
        if len(images) != len(streams):
            # Some versions leave the rows they could not decode out of the list instead of
            # giving None: which image is which row is then unknown, so decode row by row.
            images = [(decoder.decode([s], params=self.params, cuda_stream=cuda_stream)
                       or [None])[0] for s in streams]
        return [None if image is None else self.torch.from_dlpack(image) for image in images]
