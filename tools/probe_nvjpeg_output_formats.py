"""Which output formats nvJPEG's batched decode takes with the hardware backend, and what each
queues on the GPU: a prepared probe for one short run on a GPU machine (about a minute on an
H200).

Why: asking nvjpegDecodeBatched for planar RGB (NVJPEG_OUTPUT_RGB, what the direct decoder of
minddata/gpu/nvjpeg_decoder.py asks for), the hardware backend queues per batch of 256 JPEGs
256 host-to-device copies and 256 small colour-conversion kernels
(``nvjpeg::rgba2rgb<(nvjpegOutputFormat_t)3, ...>``); beside a training step that fills the GPU
they slow the step or wait behind it. If another output format (YUV, Y, RGBI, UNCHANGED, NV12)
comes out of the JPEG engines without a kernel per image, the colour conversion can be done by
the crop-resize kernel (minddata/gpu/resample_kernel.py), one launch a batch.

    python tools/probe_nvjpeg_output_formats.py --data DIR [--formats 3,5,1,2,0]
        [--backends hardware[,cuda]] [--batch 256] [--seconds 2] [--budget 90]
        [--pitch-align 1]

DIR: a folder tree of .jpg/.jpeg files (repeated where fewer than --batch). --formats:
nvjpegOutputFormat_t values (0 UNCHANGED, 1 YUV, 2 Y, 3 RGB, 4 BGR, 5 RGBI, 6 BGRI, 8 NV12,
9 YUY2, 10 UNCHANGEDI). For each backend and format: the status of the batched decode (a
refusal is a finding: its nvJPEG status is printed), the kernels and copies one batch queues
(torch's profiler: count, device time, the top 3), the wall time of one batch alone (median of
5 after 2 warm-ups, its stream synchronized) and beside a training loop (torchvision's
ResNet-18, batch 256, 224x224, float16 autocast, channels_last, fused SGD, in a thread of its
own) with the decodes on a high-priority stream, one batch per training step (the sink's
pace), and the loop's steps/s alone and beside. Also the YUV planes' sizes of one image per
chroma subsampling seen, and a pixel check: the YUV output of one image turned into RGB (JFIF
full range, chroma upsampled by nearest) against the RGB output, and the other formats against
RGB or YUV. One line "summary: <backend> <FORMAT>: ..." per backend and format. Parts that
would start past --budget seconds are skipped. Without torch, CUDA or libnvjpeg it prints SKIP
and exits 0.
"""
import argparse
import collections
import ctypes
import os
import statistics
import sys
import threading
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from minddata.gpu.nvjpeg_decoder import (BACKEND_DEFAULT, BACKEND_HARDWARE,  # noqa: E402
                                         CSS_444, CSS_NAMES, OUTPUT_NAMES, STATUS_NAMES,
                                         load_library)
from minddata.gpu.nvjpeg_layout import MAX_COMPONENT                      # noqa: E402

FORMATS = {name: code for code, name in OUTPUT_NAMES.items()}
BACKENDS = {"hardware": BACKEND_HARDWARE, "cuda": BACKEND_DEFAULT}
#: calls of the probe alone (the decoder never releases its states nor asks for the engines)
EXTRA_SIGNATURES = {"nvjpegJpegStateDestroy": [ctypes.c_void_p],
                    "nvjpegDestroy": [ctypes.c_void_p],
                    "nvjpegGetHardwareDecoderInfo": [ctypes.c_void_p] * 3}

Info = collections.namedtuple("Info", "components subsampling widths heights")
START = time.monotonic()
#: bytes past the last image in each output buffer: should a format write more than the planes
#: nvjpegGetImageInfo's sizes give (rows padded to whole blocks, say), it stays in the buffer
SLACK = 1 << 20


def say(line):
    print(line, flush=True)


def status_name(status):
    return STATUS_NAMES.get(status, f"status {status}")


def plane_shapes(fmt, components, widths, heights):
    """[(rows, pitch in bytes)] of each nvjpegImage_t channel that output format ``fmt`` writes
    for an image of ``components`` components, component c widths[c] x heights[c] (as
    nvjpegGetImageInfo reports them), in channel order. A grayscale image's YUV chroma planes
    (nvJPEG reports no size for them) are sized as its luma: whatever nvJPEG writes there fits."""
    w, h = int(widths[0]), int(heights[0])
    half_w, half_h = (w + 1) // 2, (h + 1) // 2
    own = [(int(heights[c]), int(widths[c])) for c in range(components)]
    name = OUTPUT_NAMES[fmt]
    if name in ("RGB", "BGR"):
        return [(h, w)] * 3
    if name == "YUV":
        return own[:3] if components >= 3 else [(h, w)] * 3
    shapes = {"UNCHANGED": own, "Y": [(h, w)], "RGBI": [(h, 3 * w)], "BGRI": [(h, 3 * w)],
              "NV12": [(h, w), (half_h, 2 * half_w)], "YUY2": [(h, 4 * half_w)],
              "UNCHANGEDI": [(h, components * w)],
              "UNCHANGEDI_U16": [(h, 2 * components * w)]}
    return shapes[name]


def batch_layout(shapes, align=1):
    """(offsets, pitches, size) of a batch whose image k has the channels ``shapes[k]``
    (plane_shapes), laid out one after another in one buffer: offsets (N, MAX_COMPONENT) int64,
    each channel's first byte (-1: no channel), pitches likewise (0: none), size in bytes. With
    ``align``, each channel starts and each of its rows is padded to a multiple of ``align``
    bytes (whether the JPEG engines then write the output without a copy kernel is a question
    the probe answers)."""
    offsets = np.full((len(shapes), MAX_COMPONENT), -1, np.int64)
    pitches = np.zeros((len(shapes), MAX_COMPONENT), np.int64)
    size = 0
    for k, planes in enumerate(shapes):
        for c, (rows, width) in enumerate(planes):
            size = -(-size // align) * align
            pitch = -(-width // align) * align
            offsets[k, c], pitches[k, c] = size, pitch
            size += rows * pitch
    return offsets, pitches, size


def image_table(base, offsets, pitches):
    """The nvjpegImage_t array (N, 2 * MAX_COMPONENT) uint64 of batch_layout's images in the
    buffer at device address ``base``: the channel pointers (null where none), the pitches."""
    table = np.zeros((len(offsets), 2 * MAX_COMPONENT), np.uint64)
    present = offsets >= 0
    table[:, :MAX_COMPONENT][present] = np.uint64(base) + offsets[present].astype(np.uint64)
    table[:, MAX_COMPONENT:] = pitches.astype(np.uint64)
    return table


def image_infos(lib, handle, pointers, lengths):
    """Info of each image at host address ``pointers[k]`` (``lengths[k]`` bytes), from
    nvjpegGetImageInfo (the decoder's native loop keeps only the first component's size)."""
    components, subsampling = ctypes.c_int(), ctypes.c_int()
    widths, heights = (ctypes.c_int * MAX_COMPONENT)(), (ctypes.c_int * MAX_COMPONENT)()
    infos = []
    for k, (ptr, length) in enumerate(zip(pointers.tolist(), lengths.tolist())):
        status = lib.nvjpegGetImageInfo(handle, ctypes.c_void_p(ptr), length,
                                        ctypes.byref(components), ctypes.byref(subsampling),
                                        widths, heights)
        if status:
            raise RuntimeError(f"nvjpegGetImageInfo (image {k}) returned {status_name(status)}")
        infos.append(Info(components.value, subsampling.value, tuple(widths), tuple(heights)))
    return infos


def jpeg_files(root):
    """The .jpg/.jpeg files under ``root`` (any case), sorted."""
    found = []
    for folder, _, names in os.walk(root):
        found += [os.path.join(folder, n) for n in names
                  if os.path.splitext(n)[1].lower() in (".jpg", ".jpeg")]
    return sorted(found)


def yuv_to_rgb(torch, y, cb, cr):
    """(3, H, W) uint8 RGB of planes Y (H, W), Cb and Cr (at their subsampled size): JFIF's
    full-range formula, the chroma upsampled by nearest."""
    h, w = y.shape
    rows = torch.arange(h, device=y.device) * cb.shape[0] // h
    cols = torch.arange(w, device=y.device) * cb.shape[1] // w
    u = cb[rows][:, cols].float() - 128.0
    v = cr[rows][:, cols].float() - 128.0
    luma = y.float()
    rgb = torch.stack([luma + 1.402 * v, luma - 0.344136 * u - 0.714136 * v, luma + 1.772 * u])
    return rgb.round().clamp(0, 255).to(torch.uint8)


class Refused(Exception):
    def __init__(self, call, status):
        super().__init__(f"{call} returned {status_name(status)}")


class Format:
    """One (backend, output format): its buffers, decode state and figures."""

    def __init__(self, backend, fmt, status="not run", align=1):
        self.backend, self.fmt, self.name, self.align = backend, fmt, OUTPUT_NAMES[fmt], align
        self.status, self.state = status, None
        self.kernels = self.device_ms = self.alone_ms = self.beside_ms = None

    def allocate(self, torch, infos, device="cuda"):
        """The output buffer of the batch of ``infos`` and its nvjpegImage_t table."""
        self.shapes = [plane_shapes(self.fmt, i.components, i.widths, i.heights) for i in infos]
        self.offsets, self.pitches, size = batch_layout(self.shapes, self.align)
        self.out = torch.empty(size + SLACK + self.align, dtype=torch.uint8, device=device)
        base = -(-self.out.data_ptr() // self.align) * self.align
        self.start = base - self.out.data_ptr()          # the buffer's aligned first byte
        self.table = image_table(base, self.offsets, self.pitches)

    def prepare(self, torch, lib, handle, infos, pointers, lengths, stream, device="cuda"):
        """allocate, a decode state, and ``work``: one batched decode queued on ``stream``."""
        self.allocate(torch, infos, device)
        state = ctypes.c_void_p()
        status = lib.nvjpegJpegStateCreate(handle, ctypes.byref(state))
        if status:
            raise Refused("nvjpegJpegStateCreate", status)
        self.state = state
        preallocate = getattr(lib, "nvjpegDecodeBatchedPreAllocate", None)
        if preallocate is not None and self.backend == "hardware":   # as the decoder does
            status = preallocate(handle, state, 1, 1, 1, CSS_444, self.fmt)
            if status:
                say(f"{self.backend} {self.name}: nvjpegDecodeBatchedPreAllocate returned "
                    f"{status_name(status)} (only a hint)")
        args = (handle, state, pointers.ctypes.data, lengths.ctypes.data, self.table.ctypes.data,
                ctypes.c_void_p(stream.cuda_stream))

        def work():
            status = lib.nvjpegDecodeBatchedInitialize(handle, state, len(infos), 1, self.fmt)
            if status:
                raise Refused("nvjpegDecodeBatchedInitialize", status)
            status = lib.nvjpegDecodeBatched(*args)
            if status:
                raise Refused("nvjpegDecodeBatched", status)
        self.work = work

    def run(self, torch, lib, handle, infos, pointers, lengths, stream, device="cuda"):
        """Decodes the batch: its status, then its time alone and what it queues."""
        label = f"{self.backend} {self.name}"
        try:
            self.prepare(torch, lib, handle, infos, pointers, lengths, stream, device)
            self.work()
            stream.synchronize()
            self.status = "SUCCESS"
            self.alone_ms = wall_ms(self.work, stream)
        except Refused as exc:          # SUCCESS before: refused in a later batch
            self.status = f"{exc}{' after a first SUCCESS' if self.status == 'SUCCESS' else ''}"
            say(f"{label}: refused: {self.status}")
            return
        except Exception as exc:        # a CUDA error, say: the next formats still run
            self.status = f"FAILED {type(exc).__name__}"
            say(f"{label}: FAILED: {type(exc).__name__}: {exc}")
            return
        say(f"{label}: SUCCESS; a batch alone {self.alone_ms:.2f} ms")
        try:
            self.kernels, self.device_ms, top = queued(self.work, stream)
        except Exception as exc:
            say(f"{label}: the profiler FAILED: {type(exc).__name__}: {exc}")
            return
        say(f"{label}: queues {self.kernels:g} kernels and copies a batch, {self.device_ms:.3f} "
            f"ms of device time; most: {top}")

    def example(self, k):
        """Image ``k``'s channels as (rows, row bytes) views of the output."""
        return [self.out[self.start + o:self.start + o + rows * pitch].view(rows, pitch)[:, :width]
                for o, pitch, (rows, width) in zip(self.offsets[k].tolist(),
                                                   self.pitches[k].tolist(), self.shapes[k])]

    def summary(self):
        def ms(value, unit="ms"):
            return "n/a" if value is None else f"{value:.2f} {unit}"
        kernels = "n/a" if self.kernels is None else f"{self.kernels:g}"
        return (f"summary: {self.backend} {self.name}: {self.status}, kernels {kernels}, "
                f"device {ms(self.device_ms, 'ms/batch')}, alone {ms(self.alone_ms)}, "
                f"beside {ms(self.beside_ms)}")


def wall_ms(work, stream, repeats=5, warm=2):
    """Median wall time of ``work`` and its stream, in ms, after ``warm`` untimed runs."""
    for _ in range(warm):
        work()
        stream.synchronize()
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        work()
        stream.synchronize()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1e3


def queued(work, stream, batches=3):
    """(count, device ms, top 3) of the kernels and copies one run of ``work`` queues."""
    from gpu_profile import queued_work
    return queued_work(work, stream.synchronize, batches, width=70)


class TrainingLoop:
    """torchvision's ResNet-18 train step on one synthetic batch (float16 autocast with a loss
    scaler, channels_last, fused SGD), run by a thread of its own on the default stream; the
    host time each step was queued (the queue is full in steady state, so its pace is the
    GPU's)."""

    def __init__(self, torch, torchvision, batch, size=224):
        torch.backends.cudnn.benchmark = True
        net = torchvision.models.resnet18().cuda().to(memory_format=torch.channels_last)
        sgd = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, fused=True)
        scaler = torch.amp.GradScaler("cuda")
        images = torch.randn(batch, 3, size, size, device="cuda").to(
            memory_format=torch.channels_last)
        labels = torch.randint(0, 1000, (batch,), device="cuda")
        loss_fn = torch.nn.CrossEntropyLoss()

        def step():
            sgd.zero_grad(set_to_none=True)
            with torch.autocast("cuda", dtype=torch.float16):
                loss = loss_fn(net(images), labels)
            scaler.scale(loss).backward()
            scaler.step(sgd)
            scaler.update()
        for _ in range(15):         # cuDNN's autotuning, untimed
            step()
        torch.cuda.synchronize()
        self.step, self.times, self.failure = step, [], None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="probe-training", daemon=True)
        self._thread.start()

    def _run(self):
        try:
            while not self._stop.is_set():
                self.step()
                self.times.append(time.perf_counter())
        except Exception as exc:        # reported by rate()
            self.failure = exc

    def rate(self, began, ended):
        """Steps a second queued between ``began`` and ``ended``."""
        if self.failure is not None:
            raise RuntimeError(f"the training loop failed: {self.failure!r}")
        return sum(began <= t < ended for t in list(self.times)) / (ended - began)

    def alone(self, seconds):
        began = time.perf_counter()
        time.sleep(seconds)
        return self.rate(began, time.perf_counter())

    def stop(self, torch):
        self._stop.set()
        self._thread.join()
        torch.cuda.synchronize()


def beside(loop, work, stream, period, seconds, least=5):
    """(median ms of a batch, batches, steps/s of ``loop``) with ``work`` run once every
    ``period`` seconds (its stream synchronized) for ``seconds``, at least ``least`` times."""
    times = []
    began = due = time.perf_counter()
    while len(times) < least or time.perf_counter() - began < seconds:
        start = time.perf_counter()
        work()
        stream.synchronize()
        times.append(time.perf_counter() - start)
        due = max(due + period, time.perf_counter())     # behind: the next one at once
        time.sleep(max(0.0, due - time.perf_counter()))
    return statistics.median(times) * 1e3, len(times), loop.rate(began, time.perf_counter())


def load_batch(torch, files, batch):
    """(host buffer, pointers, lengths): ``batch`` files (repeated where fewer) in one
    page-locked buffer, as the pipeline stages them."""
    datas = []
    for k in range(batch):
        with open(files[k % len(files)], "rb") as f:
            datas.append(np.frombuffer(f.read(), np.uint8))
    lengths = np.array([len(d) for d in datas], np.uint64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.uint64)
    host = torch.empty(int(lengths.sum()), dtype=torch.uint8).pin_memory()
    flat = host.numpy()
    for start, data in zip(starts.tolist(), datas):
        flat[start:start + len(data)] = data
    return host, np.uint64(host.data_ptr()) + starts, lengths


def describe_layouts(infos):
    """Per chroma subsampling seen: how many images, and one example's planes in YUV."""
    seen = collections.Counter(i.subsampling for i in infos)
    for css, count in sorted(seen.items()):
        info = next(i for i in infos if i.subsampling == css)
        planes = plane_shapes(FORMATS["YUV"], info.components, info.widths, info.heights)
        sizes = ", ".join(f"{label} {w}x{h}" for label, (h, w) in zip(("Y", "Cb", "Cr"), planes))
        say(f"layout: {CSS_NAMES.get(css, css)}: {count} images, {info.components} components; "
            f"e.g. {info.widths[0]}x{info.heights[0]} (WxH): YUV planes {sizes} "
            f"(nvjpegGetImageInfo widths {list(info.widths)} heights {list(info.heights)})")


def check_pixels(torch, probes, infos):
    """Each format's output of one 4:4:4 or 4:2:0 image against RGB's (YUV through
    yuv_to_rgb) or YUV's, per backend."""
    k = next((k for k, i in enumerate(infos) if i.components == 3 and i.subsampling in (0, 2)),
             None)
    if k is None:
        say("pixels: SKIP: no 3-component 4:4:4 or 4:2:0 image in the batch")
        return
    info = infos[k]
    w, h = info.widths[0], info.heights[0]
    say(f"pixels: image {k} ({w}x{h}, {CSS_NAMES[info.subsampling]})")
    for backend in dict.fromkeys(p.backend for p in probes):
        done = {p.name: p.example(k) for p in probes
                if p.backend == backend and p.status == "SUCCESS"}
        rgb, yuv = done.get("RGB"), done.get("YUV")
        pairs = []
        if rgb is not None:
            rgb = torch.stack(rgb)
            if yuv is not None:
                pairs.append(("YUV to RGB (JFIF) vs RGB", yuv_to_rgb(torch, *yuv), rgb))
            if "RGBI" in done:
                pairs.append(("RGBI vs RGB", done["RGBI"][0].reshape(h, w, 3).permute(2, 0, 1), rgb))
            if "BGR" in done:
                pairs.append(("BGR vs RGB", torch.stack(done["BGR"]).flip(0), rgb))
        if yuv is not None:
            if "Y" in done:
                pairs.append(("Y vs YUV's Y", done["Y"][0], yuv[0]))
            if "UNCHANGED" in done:
                pairs += [(f"UNCHANGED[{c}] vs YUV[{c}]", a, b)
                          for c, (a, b) in enumerate(zip(done["UNCHANGED"], yuv))]
            if "NV12" in done and info.subsampling == 2:
                uv = done["NV12"][1]
                pairs += [("NV12 Y vs YUV's Y", done["NV12"][0], yuv[0]),
                          ("NV12 U,V vs YUV's Cb,Cr", uv.reshape(uv.shape[0], -1, 2).permute(2, 0, 1),
                           torch.stack(yuv[1:]))]
        if not pairs:
            say(f"pixels {backend}: nothing to compare (needs RGB or YUV among the formats)")
        for label, a, b in pairs:
            diff = (a.int() - b.int()).abs().float()
            say(f"pixels {backend}: {label}: mean {float(diff.mean()):.3f} levels, "
                f"largest {int(diff.max())}")


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(ROOT, ".devdata", "imagenet"),
                    help="a folder tree of .jpg/.jpeg files")
    ap.add_argument("--formats", default="3,5,1,2,0",
                    help="nvjpegOutputFormat_t values, comma-separated")
    ap.add_argument("--backends", default="hardware", help="hardware and/or cuda")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="each window of the training loop, alone or beside one format")
    ap.add_argument("--budget", type=float, default=90.0,
                    help="seconds: the parts that would start later are skipped")
    ap.add_argument("--pitch-align", type=int, default=1,
                    help="bytes: each output channel and row starts at a multiple of this")
    args = ap.parse_args(argv)
    try:
        args.formats = [int(f) for f in args.formats.split(",")]
    except ValueError:
        args.formats = [None]
    args.backends = args.backends.split(",")
    for fmt in args.formats:
        if fmt not in OUTPUT_NAMES:
            ap.error(f"--formats: nvjpegOutputFormat_t values, of {OUTPUT_NAMES}")
    for backend in args.backends:
        if backend not in BACKENDS:
            ap.error(f"--backends: {backend!r} is none of {sorted(BACKENDS)}")
    if args.pitch_align < 1:
        ap.error("--pitch-align: a positive number of bytes")
    return args


def main(argv=None):
    args = parse_args(argv)
    files = jpeg_files(args.data)
    if not files:
        say(f"no .jpg/.jpeg file under {args.data}")
        return 2
    say(f"{len(files)} JPEG files under {args.data}; batches of {args.batch}; formats "
        f"{', '.join(OUTPUT_NAMES[f] for f in args.formats)}; backends {', '.join(args.backends)}")
    try:
        import torch
    except ImportError:
        say("SKIP: torch does not import")
        return 0
    if not torch.cuda.is_available():
        say("SKIP: no CUDA device")
        return 0
    try:
        lib = load_library()
    except ImportError as exc:
        say(f"SKIP: {exc}")
        return 0
    raw = ctypes.CDLL(lib.path)
    for name, argtypes in EXTRA_SIGNATURES.items():
        if hasattr(raw, name):
            getattr(raw, name).argtypes = argtypes
            getattr(raw, name).restype = ctypes.c_int
    say(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}; {lib.path}")
    host, pointers, lengths = load_batch(torch, files, args.batch)   # host: alive till the end
    stream = torch.cuda.Stream(priority=-1)
    probes, handles, infos = [], [], None
    for backend in args.backends:
        handle = ctypes.c_void_p()
        status = lib.nvjpegCreateEx(BACKENDS[backend], None, None, 0, ctypes.byref(handle))
        if status:
            say(f"{backend}: nvjpegCreateEx returned {status_name(status)}")
            for fmt in args.formats:
                probes.append(Format(backend, fmt, f"nvjpegCreateEx {status_name(status)}"))
            continue
        handles.append(handle)
        if backend == "hardware" and hasattr(raw, "nvjpegGetHardwareDecoderInfo"):
            engines, cores = ctypes.c_uint(), ctypes.c_uint()
            status = raw.nvjpegGetHardwareDecoderInfo(handle, ctypes.byref(engines),
                                                       ctypes.byref(cores))
            say(f"hardware: {engines.value} JPEG engines, {cores.value} cores each" if not status
                else f"hardware: nvjpegGetHardwareDecoderInfo returned {status_name(status)}")
        if infos is None:
            infos = image_infos(lib, handle, pointers, lengths)
            describe_layouts(infos)
        for fmt in args.formats:
            probe = Format(backend, fmt, align=args.pitch_align)
            probes.append(probe)
            if time.monotonic() - START > args.budget:
                probe.status = "SKIP (past --budget)"
                continue
            probe.run(torch, lib, handle, infos, pointers, lengths, stream)
    decoded = [p for p in probes if p.status == "SUCCESS"]
    if decoded:
        check_pixels(torch, decoded, infos)
        run_beside(torch, decoded, stream, args)
    else:
        say("no format decoded: no pixel check, no run beside training")
    torch.cuda.synchronize()
    for probe in probes:
        if probe.state is not None and hasattr(raw, "nvjpegJpegStateDestroy"):
            raw.nvjpegJpegStateDestroy(probe.state)
    for handle in handles:
        if hasattr(raw, "nvjpegDestroy"):
            raw.nvjpegDestroy(handle)
    for probe in probes:
        say(probe.summary())
    return 0


def run_beside(torch, decoded, stream, args):
    """Each decoded format's batch beside the training loop, one batch per step."""
    try:
        import torchvision
    except ImportError:
        say("beside training: SKIP: torchvision does not import")
        return
    try:
        loop = TrainingLoop(torch, torchvision, args.batch)
    except Exception as exc:
        say(f"beside training: FAILED to build the loop: {type(exc).__name__}: {exc}")
        return
    try:
        alone = loop.alone(args.seconds)
        say(f"beside training: the loop alone: {alone:.2f} steps/s ({1e3 / alone:.1f} ms a "
            f"step); then one batch per step on a high-priority stream")
        for probe in decoded:
            if time.monotonic() - START > args.budget:
                say(f"beside training: {probe.backend} {probe.name}: SKIP (past --budget)")
                continue
            probe.beside_ms, count, rate = beside(loop, probe.work, stream, 1.0 / alone,
                                                  args.seconds)
            say(f"beside training: {probe.backend} {probe.name}: a batch {probe.beside_ms:.2f} "
                f"ms (median of {count}; alone {probe.alone_ms:.2f}); the loop {rate:.2f} "
                f"steps/s against {alone:.2f} alone ({1e3 / rate - 1e3 / alone:+.2f} ms a step)")
        say(f"beside training: the loop alone again: {loop.alone(args.seconds):.2f} steps/s")
    except Exception as exc:
        say(f"beside training: FAILED: {type(exc).__name__}: {exc}")
    finally:
        loop.stop(torch)


if __name__ == "__main__":
    sys.exit(main())
