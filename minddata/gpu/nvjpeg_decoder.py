"""Batched JPEG decode with NVIDIA nvJPEG called directly (through ctypes), on the caller's CUDA
stream: ``gpu.set_jpeg_decoder("nvjpeg")``, and "auto"'s first choice on CUDA devices.

Why: torchvision's batched ``decode_jpeg`` (the default before it) takes a process-wide lock,
queues the batch on a stream of its own at normal priority and waits for that stream before it
returns. Beside a training step that fills the GPU, a batch's per-image colour conversions then
wait behind the step's kernels while the lock keeps the other workers from decoding (on the
H200 one batch of 256 took 84 ms beside ResNet-18, about 10 alone; README, "On a GPU"). Here
each call queues its batch on the calling worker's stream (at ``gpu.set_stream_priority``'s
priority), holds no lock while the GPU works (the library handle is shared and each
concurrent call has a decode state of its own, from a pool, as nvJPEG's thread-safety rules
ask) and does not wait: the GPU batch node waits for its stream when the batch is complete.
A state's buffers are in use until its batch has run on the GPU (the copy of the files to the
device reads them), so each state carries a CUDA event recorded after its batch and is taken
again only once that event has passed; while every state is busy a new one is made, up to
``MAX_STATES``, and past that the call waits for the oldest. With the hardware backend each new
state gets nvJPEG's memory pool (``nvjpegDecodeBatchedPreAllocate``, where the library has it)
so batches after the first allocate no device memory: a cudaFree stalls the whole GPU.
GpuRun hands it the whole staged batch in one call (``decode_batch``: a buffer and the rows'
offsets in, one buffer of decoded rows out) and the headers are read in one native loop, so a
batch costs the GIL no per-row work and three re-takes, not one per image.

The decode itself is nvJPEG's batched decode (``nvjpegDecodeBatched``) with the hardware
backend where the GPU has JPEG engines (A100, H100, H200), its default (CUDA) backend
otherwise or where asked (``hardware=False``), writing planar RGB into one device buffer per
batch. The size each image is allocated comes from nvJPEG's own reading of its header
(``nvjpegGetImageInfo``), so nvJPEG never writes past an image; GpuRun then checks it against
the header's size. When the hardware backend refuses a batch, the images it does not take
(progressive JPEGs, for one: ``nvjpegDecodeBatchedSupported``) are left to the CPU path's
decoder and the rest decoded in one batch again; a batch refused otherwise raises
RuntimeError, and GpuRun decodes its rows one by one.

Asked for ``output="ycbcr"`` (``set_jpeg_decoder("nvjpeg-ycbcr")``) nvJPEG writes each image's
planes as coded (NVJPEG_OUTPUT_YUV: Y, then Cb and Cr at the size the header's subsampling
gives, as nvjpegGetImageInfo reports it) and one kernel converts the whole batch to the same
planar RGB buffer (ycbcr_to_rgb.py: libjpeg-turbo's upsampling and colour arithmetic), instead
of nvJPEG's conversion kernel per image; gray files are decoded in a second call asking for
their Y plane alone (NVJPEG_OUTPUT_Y) into the same buffer, files of another layout (an unusual
subsampling, four components) go to the CPU path's decoder. Not yet run on a GPU.

The library: the ``libnvjpeg`` that CUDA builds of torchvision bundle (``torchvision.libs``),
the ``nvidia-nvjpeg-cu13`` / ``-cu12`` wheels, the system's, or the file named by
``MINDDATA_NVJPEG_LIBRARY``.

First run on a GPU on 2026-11-28: an H200 (libnvjpeg 13.3.2 from the nvidia-nvjpeg wheel,
torch 2.11.0+cu130), hardware backend. Its pixels differed from the CPU path on real photos
exactly as torchvision's (largest 44 levels, mean 0.586); the mixed pipeline ran at 29,175
images/s against torchvision's 24,355 (4 workers, 4 cores), a ResNet-18 sink at 76.7-80.6% of
its synthetic rate against 71.2-76.9% (ResNet-50 89.0-92.4% against 88.7-93.8%: equal within
noise); hence "auto" takes it first. The CUDA backend, forced there (``hardware=False``), passed
the same GPU tests (tests/minddata/test_gpu_nvjpeg_decoder_on_devices.py) but has not been
measured in a pipeline. On the CPU the decoder is tested against a stand-in library that
follows nvJPEG's documented calls.
"""
import ctypes
import ctypes.util
import glob
import importlib.util
import os
import threading
import types
import warnings

import numpy as np

from transforms_c._native import nvjpeg_image_sizes

from . import ycbcr_to_rgb
from .decoded_batch import DecodedBatch
from .nvjpeg_layout import image_table, plane_bytes, plane_table, takes_ycbcr, ycbcr_layout

#: nvjpegBackend_t, nvjpegOutputFormat_t and nvjpegStatus_t values (nvjpeg.h)
BACKEND_DEFAULT, BACKEND_HARDWARE = 0, 3
OUTPUT_YUV, OUTPUT_Y, OUTPUT_RGB = 1, 2, 3
_FORMATS = {"rgb": OUTPUT_RGB, "ycbcr": OUTPUT_YUV}     # the decoder's outputs as nvJPEG's
CSS_444 = 0                     # nvjpegChromaSubsampling_t: the pool's hint (any image fits)
#: every nvjpegOutputFormat_t by name (nvJPEG 13.3's nvjpeg.h); the decoder asks for RGB or YUV
OUTPUT_NAMES = {0: "UNCHANGED", 1: "YUV", 2: "Y", 3: "RGB", 4: "BGR", 5: "RGBI", 6: "BGRI",
                7: "UNCHANGEDI_U16", 8: "NV12", 9: "YUY2", 10: "UNCHANGEDI"}
#: nvjpegChromaSubsampling_t by name, as nvjpegGetImageInfo reports an image's subsampling
CSS_NAMES = {0: "4:4:4", 1: "4:2:2", 2: "4:2:0", 3: "4:4:0", 4: "4:1:1", 5: "4:1:0", 6: "GRAY",
             7: "4:1:0V", -1: "UNKNOWN"}
STATUS_NAMES = {0: "SUCCESS", 1: "NOT_INITIALIZED", 2: "INVALID_PARAMETER", 3: "BAD_JPEG",
                4: "JPEG_NOT_SUPPORTED", 5: "ALLOCATOR_FAILURE", 6: "EXECUTION_FAILED",
                7: "ARCH_MISMATCH", 8: "INTERNAL_ERROR", 9: "IMPLEMENTATION_NOT_SUPPORTED",
                10: "INCOMPLETE_BITSTREAM"}
#: decode states per GPU (one per batch in flight; past this a call waits for the oldest)
MAX_STATES = 16


class NvJpegError(RuntimeError):
    """An nvJPEG call that did not return NVJPEG_STATUS_SUCCESS (``status``)."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


#: statuses of a batch refused for its output format rather than its files: INVALID_PARAMETER,
#: IMPLEMENTATION_NOT_SUPPORTED
FORMAT_REFUSALS = frozenset({2, 9})


def library_candidates():
    """The libnvjpeg files to try, in order: MINDDATA_NVJPEG_LIBRARY, torchvision's bundled copy,
    the nvidia-nvjpeg wheels', the system's."""
    found = []
    explicit = os.environ.get("MINDDATA_NVJPEG_LIBRARY")
    if explicit:
        found.append(explicit)
    spec = importlib.util.find_spec("torchvision")
    if spec is not None and spec.origin:
        site = os.path.dirname(os.path.dirname(spec.origin))
        found += sorted(glob.glob(os.path.join(site, "torchvision.libs", "libnvjpeg*.so*")))
        for sub in ("nvjpeg", "cu13", "cu12"):
            found += sorted(glob.glob(os.path.join(site, "nvidia", sub, "lib",
                                                   "libnvjpeg.so*")))
    system = ctypes.util.find_library("nvjpeg")
    if system:
        found.append(system)
    return found


def load_library():
    """The calls of the first candidate that loads, with their C signatures; ImportError
    naming what to install where none does."""
    tried = []
    for path in library_candidates():
        try:
            return bind(path)
        except (OSError, AttributeError) as exc:   # not loadable, or too old a version
            tried.append(f"{path}: {exc}")
    where = "; ".join(tried) if tried else "none found"
    raise ImportError(f"libnvjpeg does not load ({where}): install a CUDA build of torchvision "
                      f"(it bundles libnvjpeg) or nvidia-nvjpeg-cu13 (-cu12 for CUDA 12), or "
                      f"set MINDDATA_NVJPEG_LIBRARY to its path")


def pitch_align_from_environment():
    """MINDDATA_NVJPEG_PITCH_ALIGN (default 1: no padding): the YCbCr output's rows padded to
    a multiple of that many bytes, for a process that measures it (tools/check_gpu_sink.sh)
    before a default is chosen. ValueError naming the variable for anything but an int in
    [1, 512]."""
    text = os.environ.get("MINDDATA_NVJPEG_PITCH_ALIGN", "1")
    try:
        align = int(text)
    except ValueError:
        align = 0
    if not 1 <= align <= 512:
        raise ValueError(f"MINDDATA_NVJPEG_PITCH_ALIGN should be an int in [1, 512], but got "
                         f"{text!r}")
    return align


_P, _I = ctypes.c_void_p, ctypes.c_int
#: the C calls used, with their argument types (each returns an nvjpegStatus_t)
SIGNATURES = {
    "nvjpegCreateEx": [_I, _P, _P, ctypes.c_uint, _P],
    "nvjpegJpegStateCreate": [_P, _P],
    "nvjpegGetImageInfo": [_P, _P, ctypes.c_size_t, _P, _P, _P, _P],
    "nvjpegDecodeBatchedInitialize": [_P, _P, _I, _I, _I],
    "nvjpegDecodeBatched": [_P, _P, _P, _P, _P, _P],
    "nvjpegJpegStreamCreate": [_P, _P],
    "nvjpegJpegStreamParseHeader": [_P, _P, ctypes.c_size_t, _P],
    "nvjpegDecodeBatchedSupported": [_P, _P, _P],
}
#: calls used where the library has them (nvJPEG 11.x added them)
OPTIONAL_SIGNATURES = {
    "nvjpegDecodeBatchedPreAllocate": [_P, _P, _I, _I, _I, _I, _I],
}
#: Calls made once per image that take microseconds, where the hardware refuses a batch: made
#: with the GIL held (ctypes.PyDLL). Letting go of it and taking it back around each would,
#: beside a training loop in the same process, wait up to Python's switch interval (5 ms) each
#: time. (nvjpegGetImageInfo, once per image of every batch, runs in a native loop instead.)
HELD_CALLS = frozenset({"nvjpegJpegStreamParseHeader", "nvjpegDecodeBatchedSupported"})


def bind(path):
    """The calls of the library at ``path`` with their signatures, as attributes: those of
    HELD_CALLS with the GIL held, the others (the batch's decode) with it released.
    OSError where it does not load, AttributeError where it lacks one of SIGNATURES."""
    released, held = ctypes.CDLL(path), ctypes.PyDLL(path)
    calls = {}
    for name, argtypes in {**SIGNATURES, **OPTIONAL_SIGNATURES}.items():
        fn = getattr(held if name in HELD_CALLS else released, name, None)
        if fn is None:
            if name in SIGNATURES:
                raise AttributeError(f"{path} has no {name}")
            continue
        fn.argtypes, fn.restype = argtypes, ctypes.c_int
        calls[name] = fn
    return types.SimpleNamespace(path=path, **calls)


class NvJpegDecoder:
    decodes_regions = False

    def __init__(self, lib, torch, hardware=True, output="rgb", pitch_align=1):
        """``hardware``: try the hardware backend first (False: the CUDA backend only).
        ``pitch_align``: for YCbCr output, each plane's rows padded to a multiple of this many
        bytes (1: none; tools/probe_nvjpeg_output_formats.py --pitch-align measures whether
        the JPEG engines want it).
        ``output``: "rgb" (nvJPEG converts each image), or "ycbcr" (nvJPEG writes the planes as
        coded and one kernel a batch converts them with the CPU path's arithmetic:
        ycbcr_to_rgb.py; a file of another layout, of an unusual subsampling or four
        components, is left to the CPU path's decoder)."""
        if output not in ("rgb", "ycbcr"):
            raise ValueError(f"output should be 'rgb' or 'ycbcr', but got {output!r}")
        if isinstance(pitch_align, bool) or not isinstance(pitch_align, int) \
                or not 1 <= pitch_align <= 512:
            raise ValueError(f"pitch_align should be an int in [1, 512], but got "
                             f"{pitch_align!r}")
        self.lib, self.torch, self.hardware, self.output = lib, torch, hardware, output
        self.pitch_align = pitch_align
        self._ycbcr_decoded = False     # a YCbCr batch has decoded: the library takes it
        self._serves_gray = True        # False once nvJPEG refused Y output for gray files
        self._lock = threading.Lock()
        self._handles = {}      # device index -> (handle, backend name)
        self._free = {}         # device index -> [_Slot not in use], oldest batch first
        self._made = {}         # device index -> number of slots made

    @property
    def name(self):
        if self.output == "rgb":
            return "nvJPEG (direct, on the pipeline's streams)"
        padded = f", rows padded to {self.pitch_align} bytes" if self.pitch_align > 1 else ""
        return (f"nvJPEG (direct, on the pipeline's streams; YCbCr planes{padded}, one "
                f"conversion kernel)")

    @classmethod
    def create(cls, hardware=True, output="rgb"):
        """The decoder, or ImportError where torch or libnvjpeg does not load; YCbCr output
        padded as MINDDATA_NVJPEG_PITCH_ALIGN says (pitch_align_from_environment)."""
        import torch
        return cls(load_library(), torch, hardware, output,
                   pitch_align_from_environment() if output == "ycbcr" else 1)

    def _check(self, status, call):
        if status != 0:
            raise NvJpegError(f"nvJPEG: {call} returned {STATUS_NAMES.get(status, status)}",
                              status)

    def _handle(self, index):
        """The library handle of GPU ``index``: the hardware backend where the GPU has JPEG
        engines (and ``hardware``), the default (CUDA) one otherwise."""
        with self._lock:
            if index not in self._handles:
                handle = ctypes.c_void_p()
                backends = [(BACKEND_HARDWARE, "hardware")] if self.hardware else []
                for code, backend in backends + [(BACKEND_DEFAULT, "CUDA")]:
                    status = self.lib.nvjpegCreateEx(code, None, None, 0, ctypes.byref(handle))
                    if status == 0:     # else ARCH_MISMATCH and the like: no JPEG engines
                        break
                self._check(status, "nvjpegCreateEx")
                self._handles[index] = (handle, backend)
                self._free[index], self._made[index] = [], 0
            return self._handles[index][0]

    def backend(self, index=0):
        """The backend the decoder of GPU ``index`` uses ("hardware" or "CUDA"), once made."""
        return self._handles.get(index, (None, None))[1]

    def _slot(self, index, handle):
        """A decode state and JPEG stream for one call (nvJPEG's thread-safety rules want both
        per thread; pooled, so threads that come and go do not leak them): one whose last
        batch has run; else, with MAX_STATES made, the oldest free one once its batch has run;
        else a new one (so at most MAX_STATES, or as many as calls at once where more)."""
        with self._lock:
            free = self._free[index]
            slot = next((slot for slot in free if slot.idle()), None)
            if slot is None and free and self._made[index] >= MAX_STATES:
                slot = free[0]                  # the oldest batch: the first to finish
            if slot is not None:
                free.remove(slot)
            else:
                self._made[index] += 1
        if slot is not None:
            slot.wait()
            return slot
        try:
            return self._new_slot(index, handle)
        except BaseException:
            with self._lock:
                self._made[index] -= 1
            raise

    def _new_slot(self, index, handle):
        state, jpeg_stream = ctypes.c_void_p(), ctypes.c_void_p()
        self._check(self.lib.nvjpegJpegStateCreate(handle, ctypes.byref(state)),
                    "nvjpegJpegStateCreate")
        self._check(self.lib.nvjpegJpegStreamCreate(handle, ctypes.byref(jpeg_stream)),
                    "nvjpegJpegStreamCreate")
        preallocate = getattr(self.lib, "nvjpegDecodeBatchedPreAllocate", None)
        if preallocate is not None and self.backend(index) == "hardware":
            # Any hint turns the hardware decoder's memory pool on (nvImageCodec makes this
            # call without a size hint too): the smallest. Only a speed-up: a refusal is
            # not an error.
            preallocate(handle, state, 1, 1, 1, CSS_444, _FORMATS[self.output])
        return _Slot(state, jpeg_stream)

    def _release(self, index, slot, stream):
        """Gives ``slot`` back, busy until what was queued on ``stream`` so far has run."""
        slot.fence = stream.record_event()
        with self._lock:
            self._free[index].append(slot)

    def __call__(self, tensors, device):
        """Decodes ``tensors`` (1-D uint8 CPU tensors of JPEG files, page-locked for the copies
        to run as DMA) into (3, H, W) uint8 tensors on the CUDA ``device``, queued on its
        current stream: views of one buffer, None for a row left to the CPU (decode_on)."""
        index, stream = self._cuda(device)
        with self.torch.cuda.device(index):
            return self.decode_on(tensors, device, index, stream)

    def decode_batch(self, buffer, offsets, device):
        """The rows ``buffer[offsets[k]:offsets[k + 1]]`` (``buffer``: a 1-D uint8 CPU tensor,
        page-locked; ``offsets``: (N + 1,) int64) decoded on the CUDA ``device``, queued on its
        current stream, without a Python object per row: (flat, hw, taken), the taken rows'
        (3, H, W) images one after another in ``flat``, ``hw`` (N, 2) int64 each row's (H, W)
        as nvJPEG reads its header, ``taken`` (N,) bool (False: left to the CPU, as in
        decode_on). GpuRun's crop-resize reads ``flat`` in place."""
        index, stream = self._cuda(device)
        with self.torch.cuda.device(index):
            return self.decode_batch_on(buffer, offsets, device, index, stream)

    def decode_batch_on(self, buffer, offsets, device, index, stream):
        """decode_batch's body, queued on ``stream`` (as decode_on)."""
        offsets = np.asarray(offsets, np.int64)
        data = np.uint64(buffer.data_ptr()) + offsets[:-1].astype(np.uint64)
        lengths = np.diff(offsets).astype(np.uint64)
        return self._decode_pointers(data, lengths, device, index, stream)

    def _cuda(self, device):
        if device.type != "cuda":
            raise RuntimeError(f"nvJPEG decodes on CUDA devices, not on {device}")
        index = device.index if device.index is not None else self.torch.cuda.current_device()
        return index, self.torch.cuda.current_stream(index)

    def decode_on(self, tensors, device, index, stream):
        """The list call's body: the batch decoded into one buffer allocated on ``device``
        (for the current stream), queued on ``stream`` (a torch.cuda.Stream: its
        ``cuda_stream`` handle, its ``record_event()`` marking when the state is free again);
        a (3, H, W) view of that buffer per row, or None for a row the hardware backend does
        not take (progressive JPEGs, for one), which GpuRun then decodes on the CPU."""
        if not tensors:
            return []
        lengths = np.array([t.numel() for t in tensors], np.uint64)
        data = np.array([t.data_ptr() for t in tensors], np.uint64)
        flat, hw, taken = self._decode_pointers(data, lengths, device, index, stream)
        return DecodedBatch(flat, hw[taken]).by_row(taken)

    def _decode_pointers(self, data, lengths, device, index, stream):
        """(flat, hw, taken) of decode_batch for the images at host addresses ``data`` of
        ``lengths`` bytes. A batch the hardware backend refuses is decoded again without the
        rows it does not take, instead of row by row; refused for another reason, NvJpegError
        (GpuRun then goes row by row). Where the library refuses YCbCr output itself (before any
        YCbCr batch has decoded), the decoder turns to RGB output for good, with a warning."""
        handle = self._handle(index)
        info = self._info(handle, data, lengths)
        output = self.output
        try:
            return self._decode_as(output, index, handle, data, lengths, info, device, stream)
        except NvJpegError as exc:
            if output == "rgb" or exc.status not in FORMAT_REFUSALS or self._ycbcr_decoded:
                raise
            self._turn_to_rgb(exc)
        return self._decode_as("rgb", index, handle, data, lengths, info, device, stream)

    def _turn_to_rgb(self, exc):
        with self._lock:
            if self.output == "rgb":
                return              # another call did
            self.output = "rgb"
        warnings.warn(f"{exc} for YCbCr output (NVJPEG_OUTPUT_YUV): this nvJPEG and backend do "
                      f"not give it, so the decoder asks for RGB from now on (nvJPEG's own "
                      f"conversion, a kernel per image)", RuntimeWarning, stacklevel=4)

    def _decode_as(self, output, index, handle, data, lengths, info, device, stream):
        """_decode_pointers with ``output``."""
        try:
            return self._decode_taken(output, index, handle, data, lengths, info, device, stream)
        except _GrayRefused:        # decoded again, the gray files left to the CPU now
            return self._decode_taken(output, index, handle, data, lengths, info, device, stream)

    def _decode_taken(self, output, index, handle, data, lengths, info, device, stream):
        """_decode_as's batch: the rows the output serves, those the hardware refuses left."""
        taken = np.ones(len(info), bool) if output == "rgb" else \
            takes_ycbcr(info, gray=self._serves_gray)
        if taken.any():
            try:
                return self._decode_rows(output, index, handle, data, lengths, info, taken,
                                         device, stream), info[:, :2], taken
            except NvJpegError:
                if self.backend(index) != "hardware":
                    raise
                rows = np.flatnonzero(taken)
                supported = self._in_slot(index, handle, stream, lambda slot: self._supported(
                    handle, slot.jpeg_stream, data[rows], lengths[rows]))
                if supported.all():
                    raise               # refused for another reason: GpuRun goes row by row
                taken[rows] = supported
        flat = self._decode_rows(output, index, handle, data, lengths, info, taken, device,
                                 stream)
        return flat, info[:, :2], taken

    def _decode_rows(self, output, index, handle, data, lengths, info, taken, device, stream):
        """The ``taken`` rows decoded into one new device buffer, their planar RGB one after
        another: one nvjpegDecodeBatched call for RGB output; for YCbCr output one for the
        colour files (NVJPEG_OUTPUT_YUV) and one for the gray ones (NVJPEG_OUTPUT_Y: their
        luma plane only), each with a decode state of its own, then one conversion kernel."""
        rows = np.flatnonzero(taken)
        if not len(rows):
            return self.torch.empty(0, dtype=self.torch.uint8, device=device)
        if output == "rgb":
            heights, widths = info[rows, 0], info[rows, 1]
            out = self.torch.empty(int((3 * heights * widths).sum()), dtype=self.torch.uint8,
                                   device=device)
            table = image_table(out.data_ptr(), heights, widths)
            self._in_slot(index, handle, stream, lambda slot: self._decode_into(
                handle, slot.state, data[rows], lengths[rows], table, OUTPUT_RGB, stream))
            return out
        align = self.pitch_align
        layout = ycbcr_layout(info[rows], align)
        buffer = self.torch.empty(int(plane_bytes(layout).sum()) + align - 1,
                                  dtype=self.torch.uint8, device=device)
        planes = buffer[-buffer.data_ptr() % align:]         # from an aligned address
        table = plane_table(planes.data_ptr(), layout)
        gray = layout[:, 2] == 0
        for part, output_format in ((~gray, OUTPUT_YUV), (gray, OUTPUT_Y)):
            if not part.any():
                continue
            picked = rows[part]
            try:
                self._in_slot(index, handle, stream, lambda slot: self._decode_into(
                    handle, slot.state, data[picked], lengths[picked], table[part],
                    output_format, stream))
            except NvJpegError as exc:
                if output_format == OUTPUT_Y and exc.status in FORMAT_REFUSALS:
                    self._refuse_gray(exc)
                    raise _GrayRefused() from exc
                raise
            if output_format == OUTPUT_YUV:
                self._ycbcr_decoded = True
        return ycbcr_to_rgb.to_rgb(self.torch, planes, layout, device)

    def _refuse_gray(self, exc):
        with self._lock:
            if not self._serves_gray:
                return              # another call did
            self._serves_gray = False
        warnings.warn(f"{exc} for the gray files' Y output (NVJPEG_OUTPUT_Y): gray JPEGs are "
                      f"decoded by the CPU path's decoder from now on", RuntimeWarning,
                      stacklevel=6)

    def _in_slot(self, index, handle, stream, work):
        """``work(slot)`` with a slot of its own, given back busy until ``stream`` has run
        what was queued so far (even after a failure: a refused batch may have queued
        copies)."""
        slot = self._slot(index, handle)
        try:
            return work(slot)
        finally:
            self._release(index, slot, stream)

    def _decode_into(self, handle, state, data, lengths, table, output_format, stream):
        """One nvjpegDecodeBatched call of the images at ``data`` into the places ``table``
        (their nvjpegImage_t rows) says, in ``output_format``, queued on ``stream``."""
        table = np.ascontiguousarray(table, np.uint64)
        self._check(self.lib.nvjpegDecodeBatchedInitialize(handle, state, len(data), 1,
                                                           output_format),
                    "nvjpegDecodeBatchedInitialize")
        self._check(self.lib.nvjpegDecodeBatched(
            handle, state, data.ctypes.data, lengths.ctypes.data, table.ctypes.data,
            ctypes.c_void_p(stream.cuda_stream)), "nvjpegDecodeBatched")

    def _supported(self, handle, jpeg_stream, data, lengths):
        """Which images the hardware backend's batched decode takes (bool array)."""
        taken = np.zeros(len(data), bool)
        answer = ctypes.c_int()
        for k, (ptr, length) in enumerate(zip(data.tolist(), lengths.tolist())):
            if self.lib.nvjpegJpegStreamParseHeader(handle, ctypes.c_void_p(ptr), length,
                                                    jpeg_stream) != 0:
                continue
            status = self.lib.nvjpegDecodeBatchedSupported(handle, jpeg_stream,
                                                           ctypes.byref(answer))
            taken[k] = status == 0 and answer.value == 0     # 0: supported
        return taken

    def _info(self, handle, data, lengths):
        """(N, 6) int64, each image's height, width, components, chroma subsampling and
        chroma plane's height and width as nvJPEG reads its header (what it will write);
        NvJpegError for one it cannot read. One native loop over the images, the GIL
        released once (a release and re-take per image could wait for a training loop's GIL
        each time)."""
        out = np.zeros((len(data), 6), np.int64)
        address = ctypes.cast(self.lib.nvjpegGetImageInfo, ctypes.c_void_p).value
        failed, status = nvjpeg_image_sizes(address, handle.value, data, lengths, out)
        if failed >= 0:
            self._check(status, f"nvjpegGetImageInfo (row {failed})")
        if (out[:, :2] <= 0).any():
            raise NvJpegError("nvJPEG: an image of no pixels")
        return out


class _GrayRefused(Exception):
    """nvJPEG refused Y output for a batch's gray files: the batch is decoded again without
    them."""


class _Slot:
    """A decode state and its JPEG stream, with the event after their last batch (None before
    the first)."""

    def __init__(self, state, jpeg_stream):
        self.state, self.jpeg_stream, self.fence = state, jpeg_stream, None

    def idle(self):
        return self.fence is None or self.fence.query()

    def wait(self):
        """Until its last batch has run."""
        if not self.idle():
            self.fence.synchronize()


__all__ = ["NvJpegDecoder", "NvJpegError", "bind", "library_candidates", "load_library"]
