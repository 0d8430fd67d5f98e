"""The prepared GPU check of issue 22: the train pipeline on the CPU, the mixed pipeline
(CPU reads, the GPU decodes and augments: map(..., device="GPU")) and DALI's equivalent
pipeline, side by side on the same data (benchmarks/bench_data.py's ImageNet-like JPEGs).

    python tools/check_gpu_pipeline.py [--batch 256] [--seconds 40] [--cores 4] [--copies N]
                                       [--decoders torchvision,nvjpeg,nvimgcodec]
                                       [--cpu-dry-run]

Pipeline: Decode, RandomResizedCrop(224), RandomHorizontalFlip, Normalize (ImageNet mean/std),
HWC2CHW, batch 256 (DALI: fn.decoders.image_random_crop on "mixed", fn.resize,
fn.crop_mirror_normalize with a coin-flip mirror). For each: images/s, p50/p99 of the time the
consumer waits for each batch, and CPU-seconds per second of the process. The mixed pipeline
and DALI run with the process pinned to --cores CPU cores; the CPU pipeline uses every core.
First the mixed pipeline's batches are compared with the CPU pipeline's (same seed, full
decode on both): the largest and the mean difference in levels, once with the JPEGs decoded on
the host (the GPU's augment alone) and once by the GPU decoder. "mixed" runs with each decoder of
--decoders (the first one's figures are the ones set beside DALI's) at each of --gpu-workers
(the map's workers, --cores by default; a worker waits asleep for its batch on the GPU, so more
workers than cores keep more batches in flight beside a busy GPU), without a CPU decode share;
"variants" once more with 2 CPU decode threads (the CPU
share of gpu.set_cpu_decode_threads). Each decoder of --decoders
(gpu.set_jpeg_decoder) is timed alone and in the mixed pipeline without a CPU decode share,
nvImageCodec once more with region decode (gpu.set_region_decode) and at each of
--hardware-shares (gpu.set_hardware_decode_share: CUDA decodes the rest meanwhile).
"mixed stages" times one batch's decode and crop+resize, with the fused kernel and with torch
operations; "kernels" counts the kernels and copies one batch queues on the GPU with each decoder
and sums their device time (torch's profiler), and counts the C calls the batch's host side
makes, torch's among them (each lets the GIL go and takes it back beside the training loop).

Then the sink's end-to-end training rate of torchvision's ResNet-18 and ResNet-50 (mixed
precision O2, channels_last, SGD), fed by the mixed pipeline on --cores cores, against the same
train step on one synthetic batch already on the GPU (tools/sink_rate.py), for each decoder,
with torch's default SGD and with its fused one (--optimizers; --step-priorities high puts the
steps on a high-priority stream). --training-threads: the
training loop's thread on a core of its own beside the pipeline's (separate, the default: the
pipeline is what is limited to --cores) or on the pipeline's cores (shared; the runs of
2026-11-27 were taken so), or both. "dali-sink" trains the same models on DALI's pipeline (the
same cores, DALI's PyTorch iterator): the reference for the sink's figures. "interference"
runs each model's synthetic step beside one kind of the pipeline's work at a time (the whole
batch, its decode alone, its augment alone, a thread holding the GIL): which of them costs the
step its time.

Each part prints its figures or its failure and the next part runs regardless; the whole run
stays well inside 8 minutes on one H100/H200 (each timed part stops after --seconds). Without
CUDA it prints SKIP and exits 0; --cpu-dry-run runs the same parts on torch's CPU with small
batches (a check of this script on a machine without a GPU). --copies N stores each JPEG N
times (for a data directory holding a subset of the benchmark JPEGs)."""
import argparse
import collections
import gc
import itertools
import os
import resource
import sys
import threading
import time
import traceback

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]
START = time.monotonic()
BUDGET_S = 7 * 60       # parts that would start past this are skipped


def say(line):
    print(f"[{time.monotonic() - START:6.1f}s] {line}", flush=True)


def part(name):
    """Runs one part, printing its failure instead of stopping the check."""
    def wrap(fn):
        def run(*args, **kwargs):
            if time.monotonic() - START > BUDGET_S:
                say(f"{name}: SKIP: past the time budget of {BUDGET_S} s")
                return None
            say(f"{name}: start")
            try:
                return fn(*args, **kwargs)
            except Exception:
                say(f"{name}: FAILED\n{traceback.format_exc()}")
                return None
        return run
    return wrap


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(name, next_batch, batch_size, seconds, warmup=3):
    """Pulls batches for ``seconds`` after ``warmup`` batches; prints and returns the figures."""
    for _ in range(warmup):
        next_batch()
    waits = []
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        t = time.perf_counter()
        next_batch()
        waits.append(time.perf_counter() - t)
    elapsed = time.perf_counter() - t0
    cpu = cpu_seconds() - cpu0
    rate = len(waits) * batch_size / elapsed
    p50, p99 = (float(np.percentile(waits, q)) * 1e3 for q in (50, 99))
    say(f"{name}: {rate:,.0f} img/s over {len(waits)} batches of {batch_size}; batch wait "
        f"p50 {p50:.1f} ms, p99 {p99:.1f} ms; {cpu / elapsed:.2f} CPU-seconds per second")
    return {"rate": rate, "p50_ms": p50, "p99_ms": p99, "cpu_per_s": cpu / elapsed}


def train_ops(vision, size):
    return [vision.Decode(), vision.RandomResizedCrop(size), vision.RandomHorizontalFlip(),
            vision.Normalize(MEAN, STD), vision.HWC2CHW()]


def pipeline(ds, vision, path, batch, workers, size, device=None):
    # No repeat between the source and the map: the GPU path (and the CPU's native batch
    # engine) take Batch(Map(source)) chains; --copies makes epochs long instead.
    data = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True)
    data = data.map(train_ops(vision, size), input_columns=["image"],
                    num_parallel_workers=workers, device=device)
    return data.batch(batch, drop_remainder=True)


def batches_of(dataset):
    """A next_batch() over endless epochs."""
    it = dataset.create_tuple_iterator(num_epochs=-1, output_numpy=False)
    state = {"epoch": iter(it)}

    def next_batch():
        try:
            return next(state["epoch"])
        except StopIteration:
            state["epoch"] = iter(it)
            return next(state["epoch"])
    return it, next_batch


class gpu_settings:
    """minddata.gpu's settings (jpeg_decoder, cpu_decode_threads, region_decode,
    hardware_decode_share) set inside the block, the earlier values back after it."""

    def __init__(self, **settings):
        self.settings = settings

    def __enter__(self):
        from minddata import gpu
        self.saved = {name: getattr(gpu, f"get_{name}")() for name in self.settings}
        for name, value in self.settings.items():
            getattr(gpu, f"set_{name}")(value)

    def __exit__(self, *exc):
        from minddata import gpu
        for name, value in self.saved.items():
            getattr(gpu, f"set_{name}")(value)


class training_core:
    """The sink's placement of threads: with ``separate`` (and a core to spare) the training
    thread gets a core of its own beside the pipeline's ``cores`` (as a training job's loop
    has: the issue's "CPU pipeline limited to 4 cores"), else it shares them."""

    def __init__(self, cores, separate):
        self.pipeline_cores = first_cores(cores)
        spare = sorted(set(os.sched_getaffinity(0)) - self.pipeline_cores)
        self.core = spare[0] if separate and spare else None

    def describe(self):
        return ("training thread on a core of its own" if self.core is not None else
                "training thread on the pipeline's cores")

    def synthetic(self):
        """Around the synthetic step: on the training core when it has one."""
        return pinned({self.core} if self.core is not None else None)

    def callbacks(self):
        """For the sink run, which starts (and so its pipeline's threads) on the pipeline's
        cores: the training thread moves to its core after the first chunk."""
        from sink_rate import MoveTrainingThread
        return [] if self.core is None else [MoveTrainingThread(self.pipeline_cores, self.core)]


class gil_switch_interval:
    """Python's thread switch interval set to ``seconds`` inside the block (None: as it is)."""

    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        self.saved = sys.getswitchinterval()
        if self.seconds is not None:
            sys.setswitchinterval(self.seconds)

    def __exit__(self, *exc):
        sys.setswitchinterval(self.saved)


class gc_pauses:
    """The cyclic garbage collector's collections inside the block, in every thread: they stop
    the training thread too (each runs with the GIL held), so the pipeline's allocations can
    cost the step time this way as well."""

    def __enter__(self):
        self.counts, self.seconds, self.began = collections.Counter(), collections.Counter(), None
        gc.callbacks.append(self._collected)
        return self

    def _collected(self, phase, info):
        if phase == "start":
            self.began = time.perf_counter()
        elif self.began is not None:
            self.counts[info["generation"]] += 1
            self.seconds[info["generation"]] += time.perf_counter() - self.began

    def __exit__(self, *exc):
        gc.callbacks.remove(self._collected)

    def describe(self):
        return ", ".join(f"generation {g} {self.counts[g]}x {self.seconds[g] * 1e3:.1f} ms"
                         for g in sorted(self.counts)) or "none"


class pinned:
    """This thread (and the threads it starts inside the block) on ``cores`` (a set); None:
    as it is."""

    def __init__(self, cores):
        self.cores = cores

    def __enter__(self):
        self.saved = os.sched_getaffinity(0)
        if self.cores:
            os.sched_setaffinity(0, self.cores)

    def __exit__(self, *exc):
        os.sched_setaffinity(0, self.saved)


def first_cores(count):
    """The first ``count`` cores this process may run on (all of them for 0)."""
    available = sorted(os.sched_getaffinity(0))
    return set(available[:count] if count else available)


@part("data")
def prepare_data(args):
    from bench_data import ensure_bench_data, imagenet_files, imagenet_rows, write_mindrecord
    data_dir = ensure_bench_data(args.data)
    path = os.path.join(data_dir, f"gpu_check_x{args.copies}.mindrecord")
    if not os.path.exists(path):
        write_mindrecord(path, imagenet_rows(data_dir) * args.copies, "gpu_check", chunk=500)
    files = [(os.path.join(data_dir, "imagenet", "train", rel), label)
             for rel, label in imagenet_files(data_dir)] * args.copies
    say(f"data: {len(files)} JPEGs ({len(files) // args.copies} distinct), {path}")
    return path, files


@part("agreement (mixed vs CPU, same seed, full decode)")
def agreement(ds, vision, torch, path, args, decoder):
    """The largest and the mean difference between the mixed pipeline's batches (JPEGs decoded
    by ``decoder``: "cpu" isolates the GPU's augment) and the CPU pipeline's."""
    from transforms_c import settings
    approximate = settings.get_approximate_decode()
    settings.set_approximate_decode(False)
    try:
        with gpu_settings(jpeg_decoder=decoder):
            mixed, got = [first_batches(ds, vision, torch, path, args, device)
                          for device in ("GPU", None)]
        worst, total, count = 0.0, 0.0, 0
        std = np.asarray(STD).reshape(1, 3, 1, 1)       # normalized units -> levels
        for a, b in zip(mixed, got):
            levels = np.abs(a.astype(np.float64) - b) * std
            worst, total, count = max(worst, float(levels.max())), total + levels.sum(), \
                count + levels.size
        say(f"agreement, JPEGs decoded by {decoder}: largest difference {worst:.2f} levels, mean "
            f"{total / count:.3f}, over {len(mixed)} batches of 32 (bilinear resize: <= 1; "
            f"another decoder's IDCT and chroma upsampling: more)")
    finally:
        settings.set_approximate_decode(approximate)


def first_batches(ds, vision, torch, path, args, device):
    """The images of the first 3 batches of 32 (seed 5) of the pipeline on ``device``."""
    ds.config.set_seed(5)
    it = pipeline(ds, vision, path, 32, 4, args.size, device).create_tuple_iterator(
        num_epochs=1, output_numpy=False)
    try:
        return [np.asarray(b[0].cpu() if isinstance(b[0], torch.Tensor) else b[0].asnumpy())
                for _, b in zip(range(3), it)]
    finally:
        it.close()


@part("CPU pipeline")
def cpu_pipeline(ds, vision, path, args):
    workers = args.cpu_workers or max(1, (os.cpu_count() or 2) - 1)
    dataset = pipeline(ds, vision, path, args.batch, workers, args.size)
    say(f"CPU pipeline: plan {dataset.plan().nodes}, {workers} workers")
    it, next_batch = batches_of(dataset)
    try:
        return measure("CPU pipeline", next_batch, args.batch, args.seconds)
    finally:
        it.close()


@part("mixed pipeline")
def mixed_pipeline(ds, vision, path, args, decoder="auto", cpu_threads=0, regions=False,
                   share=1.0, workers=None):
    """The mixed pipeline's figures with ``decoder``, ``cpu_threads`` CPU decode threads,
    region decode on or off, nvImageCodec's hardware decode ``share`` and ``workers`` map
    workers (None: gpu_workers(args)[0])."""
    from minddata import gpu
    workers = workers or gpu_workers(args)[0]
    with gpu_settings(jpeg_decoder=decoder, cpu_decode_threads=cpu_threads,
                      region_decode=regions, hardware_decode_share=share):
        what = (f"{gpu.backend.jpeg_decoder_name()}, {cpu_threads} CPU decode threads, "
                f"{workers} workers, {args.cores} cores")
        with pinned(first_cores(args.cores)):
            dataset = pipeline(ds, vision, path, args.batch, workers, args.size, "GPU")
            say(f"mixed pipeline: plan {dataset.plan().nodes}, {what}")
            it, next_batch = batches_of(dataset)
        try:
            return measure(f"mixed pipeline ({what})", next_batch, args.batch, args.seconds)
        finally:
            it.close()


def gpu_workers(args):
    """The map worker counts of the mixed and sink parts (--gpu-workers; --cores by default)."""
    return [int(x) for x in args.gpu_workers.split(",") if x] or [args.cores or 4]


def mixed_runs(ds, vision, path, args, decoders):
    """The mixed pipeline with each decoder at each worker count, no CPU share: {name:
    figures}, the first named "mixed" (the figures set beside DALI's)."""
    results = {}
    for decoder, workers in itertools.product(decoders, gpu_workers(args)):
        name = "mixed" if not results else f"mixed, {decoder} decode, {workers} workers"
        results[name] = mixed_pipeline(ds, vision, path, args, decoder, workers=workers)
    return results


def mixed_variants(ds, vision, path, args, decoders, shares):
    """The mixed pipeline with a CPU decode share, with region decode and at nvImageCodec's
    hardware ``shares`` (each decoder without them: the "mixed" part): {name: figures}."""
    results = {"mixed, 2 CPU decode threads": mixed_pipeline(ds, vision, path, args,
                                                             cpu_threads=2)}
    if "nvimgcodec" in decoders:
        results["mixed, nvimgcodec region decode, no CPU share"] = mixed_pipeline(
            ds, vision, path, args, "nvimgcodec", cpu_threads=0, regions=True)
        for share in shares:
            if share != 1.0:
                what = "adaptive" if share == "auto" else f"{share:.0%}"
                results[f"mixed, nvimgcodec {what} hardware, no CPU share"] = \
                    mixed_pipeline(ds, vision, path, args, "nvimgcodec", cpu_threads=0,
                                   share=share)
    return results


@part("decode alone (batched)")
def decode_alone(torch, files, args, choice, share=1.0):
    from minddata.gpu import backend
    with gpu_settings(jpeg_decoder=choice, hardware_decode_share=share):
        decoder = backend.jpeg_decoder()
    if decoder is None:
        say(f"decode alone: SKIP: no {choice} decoder imports")
        return None
    device = backend.torch_device()
    datas = []
    for path, _ in files[:args.batch]:
        with open(path, "rb") as f:
            datas.append(torch.frombuffer(bytearray(f.read()), dtype=torch.uint8))

    def next_batch():
        decoder(datas, device=device)
        if device.type == "cuda":
            torch.cuda.synchronize()
    return measure(f"decode alone ({decoder.name})", next_batch, len(datas),
                   min(args.seconds, 10.0))


@part("mixed pipeline stages (one batch, synchronized)")
def mixed_stages(torch, vision, files, args):
    """Where a batch's time goes on the device: decode, crop+resize (the fused kernel and the
    torch operations, with their largest difference), the rest."""
    from minddata.gpu import backend, resample_kernel
    from minddata.gpu.batch import GpuRun
    device = backend.torch_device()
    ops = train_ops(vision, args.size)
    datas = encoded_batch(files, args.batch)
    seeds = [list(range(k * 1000, k * 1000 + len(datas))) for k in range(len(ops))]

    def timed(fn):
        if device.type == "cuda":
            torch.cuda.synchronize()
        t = time.perf_counter()
        out = fn()
        if device.type == "cuda":
            torch.cuda.synchronize()
        return out, (time.perf_counter() - t) * 1e3
    crops = {}
    for fused in ([True, False] if resample_kernel.available(device) else [False]):
        run = GpuRun(ops, device, backend.jpeg_decoder(), fused=fused)
        for _ in range(3):      # the first ones warm up nvJPEG, the allocator, the kernel
            images, decode_ms = timed(lambda: run.decode(datas))
            crops[fused], geometry_ms = timed(lambda: run.geometry(ops[1], images, seeds[1]))
            _, total_ms = timed(lambda: run(datas, seeds))
        say(f"mixed stages ({'fused kernel' if fused else 'torch operations'}): batch of "
            f"{len(datas)}: decode {decode_ms:.1f} ms, crop+resize {geometry_ms:.1f} ms, whole "
            f"run {total_ms:.1f} ms ({len(datas) / total_ms * 1e3:,.0f} img/s on one thread)")
    if len(crops) == 2:
        diff = (crops[True].int() - crops[False].int()).abs()
        say(f"mixed stages: fused kernel vs torch operations: largest difference "
            f"{int(diff.max())} levels, {float((diff > 0).float().mean()):.2e} of the values")


def train_model(torch, arch, args, priority="normal", optimizer="sgd", cuda_graph="off"):
    """(Model, synthetic inputs) of torchvision's ``arch``: mixed precision O2, channels_last,
    SGD, the steps on the caller's stream or (``priority`` "high") a high-priority one; None
    where torchvision does not import. ``optimizer`` "sgd-fused": torch's fused SGD on CUDA,
    which takes the loss scaler's overflow flag on the device (no wait for the GPU in each
    step, as torch.amp.GradScaler's check of other optimizers has)."""
    try:
        import torchvision
    except ImportError:
        say(f"sink {arch}: SKIP: torchvision does not import")
        return None
    from training import Model, set_context
    os.environ["TRAINING_CHANNELS_LAST"] = "1"      # read when Model builds the train step
    os.environ["TRAINING_HIGH_PRIORITY_STEP"] = "1" if priority == "high" else "0"
    os.environ["TRAINING_CUDA_GRAPH"] = "1" if cuda_graph == "on" else "0"
    set_context(device_target="GPU")                # the CPU, with a warning, in a dry run
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(0)
    net = getattr(torchvision.models, arch)()
    fused = {"fused": True} if optimizer == "sgd-fused" and device == "cuda" else {}
    sgd = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4, **fused)
    model = Model(net, torch.nn.CrossEntropyLoss(), sgd, amp_level="O2")
    images = torch.randn(args.batch, 3, args.size, args.size, device=device)
    labels = torch.randint(0, 10, (args.batch,), device=device)
    model.predict_network.train(True)
    return model, (images, labels)


def synthetic(model, inputs, placement, args):
    """(images/s, figures) of the train step on the synthetic batch, on the training core."""
    from sink_rate import synthetic_rate
    figures = {}
    with placement.synthetic(), gc_pauses() as collections_seen:
        rate = synthetic_rate(model, inputs, steps=10 if args.cpu_dry_run else 60,
                              figures=figures)
    figures["gc"] = collections_seen.describe()
    return rate, figures


def ms(value):
    return "n/a" if value is None else f"{value:.1f} ms"


class SinkRun(collections.namedtuple(
        "SinkRun", "decoder cpu_threads step_priority placement switch_interval optimizer "
                   "pipeline_priority workers cuda_graph")):
    """One sink configuration: the JPEG decoder (gpu.set_jpeg_decoder), CPU decode threads, the
    step's stream priority ("high": TRAINING_HIGH_PRIORITY_STEP=1), the threads' placement (a
    training_core), Python's GIL switch interval during the run (sys.setswitchinterval, which
    bounds how long the training thread waits for the GIL behind the pipeline's threads; None:
    as it is), the optimizer (train_model) and the pipeline workers' stream priority
    (gpu.set_stream_priority), the map's workers, and whether the train step is replayed as a
    CUDA graph (TRAINING_CUDA_GRAPH; "on" or "off")."""

    def describe(self):
        interval = "" if self.switch_interval is None else \
            f", GIL switch interval {self.switch_interval * 1e3:g} ms"
        return (f"{self.placement.describe()}, {self.decoder} decode, {self.cpu_threads} CPU "
                f"decode threads, {self.step_priority}-priority step, {self.pipeline_priority}"
                f"-priority pipeline streams, {self.workers} pipeline workers{interval}, "
                f"{self.optimizer}{', CUDA graph step' if self.cuda_graph == 'on' else ''}")


@part("sink training")
def sink_training(ds, vision, torch, path, arch, args, run):
    """images/s of torchvision's ``arch`` trained in sink mode from the mixed pipeline
    configured by ``run`` (a SinkRun), and of the same step on a synthetic batch already on the
    GPU."""
    from minddata import gpu
    built = train_model(torch, arch, args, run.step_priority, run.optimizer, run.cuda_graph)
    if built is None:
        return None
    from sink_rate import sink_rate
    model, inputs = built
    rate, alone = synthetic(model, inputs, run.placement, args)
    with gpu_settings(cpu_decode_threads=run.cpu_threads, jpeg_decoder=run.decoder,
                      stream_priority=run.pipeline_priority), \
            pinned(run.placement.pipeline_cores), gil_switch_interval(run.switch_interval):
        dataset = pipeline(ds, vision, path, args.batch, run.workers, args.size, "GPU")
        with gc_pauses() as collections_seen:
            fed, stats = sink_rate(model, dataset, args.batch, chunks=args.sink_chunks,
                                   chunk=args.sink_chunk_steps,
                                   callbacks=run.placement.callbacks())
        name = gpu.backend.jpeg_decoder_name()
    say(f"sink {arch}: {fed:,.0f} img/s fed by the mixed pipeline ({args.cores} cores, "
        f"{run.describe()}; {name}), {rate:,.0f} img/s on a synthetic GPU batch: "
        f"{fed / rate:.1%}; data wait mean {ms(stats.get('data_wait_ms'))}, p50 "
        f"{ms(stats.get('data_wait_p50_ms'))}, p99 {ms(stats.get('data_wait_p99_ms'))}; a step's "
        f"host side {ms(stats.get('host_step_ms'))} (synthetic {ms(alone['host_step_ms'])}), on "
        f"the device {ms(stats.get('device_step_ms'))}; device decode utilisation "
        f"{stats.get('device_decode_utilisation')}; garbage collections "
        f"{collections_seen.describe()} (synthetic {alone['gc']})")
    return {"rate": fed, "synthetic": rate}


def dali_train_pipe(files, args):
    """DALI's equivalent of the train pipeline (decoded on the GPU, "mixed"; on the CPU in a dry
    run), built; None where DALI does not import."""
    try:
        from nvidia.dali import fn, pipeline_def, types
    except ImportError as exc:
        say(f"DALI: SKIP: nvidia-dali-cuda120 does not import ({exc}; pip install "
            f"nvidia-dali-cuda120: its wheel is 424 MB)")
        return None
    paths = [p for p, _ in files]
    labels = [label for _, label in files]
    device = "cpu" if args.cpu_dry_run else "mixed"
    on_gpu = device == "mixed"

    @pipeline_def(batch_size=args.batch, num_threads=args.cores or 4,
                  device_id=0 if on_gpu else None, prefetch_queue_depth=3)
    def train():
        jpegs, label = fn.readers.file(files=paths, labels=labels, random_shuffle=True,
                                       name="reader")
        images = fn.decoders.image_random_crop(jpegs, device=device, output_type=types.RGB,
                                               random_area=[0.08, 1.0],
                                               random_aspect_ratio=[3 / 4, 4 / 3])
        images = fn.resize(images, resize_x=args.size, resize_y=args.size)
        images = fn.crop_mirror_normalize(images, dtype=types.FLOAT, output_layout="CHW",
                                          mean=MEAN, std=STD, mirror=fn.random.coin_flip())
        return images, (label.gpu() if on_gpu else label)

    with pinned(first_cores(args.cores)):
        pipe = train()
        pipe.build()
    return pipe


@part("DALI")
def dali_pipeline(files, args):
    pipe = dali_train_pipe(files, args)
    if pipe is None:
        return None
    return measure(f"DALI ({args.cores} cores)", pipe.run, args.batch, args.seconds)


@part("DALI sink")
def dali_sink(torch, files, arch, args, optimizer="sgd"):
    """The reference for sink_training: the same train step fed by DALI's pipeline on the same
    cores (DALI's PyTorch iterator, the batch on the GPU), the training thread on its own."""
    built = train_model(torch, arch, args, optimizer=optimizer)
    if built is None:
        return None
    model, inputs = built
    placement = training_core(args.cores, separate=True)
    rate, alone = synthetic(model, inputs, placement, args)
    pipe = dali_train_pipe(files, args)
    if pipe is None:
        return None
    from nvidia.dali.plugin.pytorch import DALIGenericIterator, LastBatchPolicy
    from sink_rate import step_loop_rate
    with pinned(placement.pipeline_cores):      # DALI starts its threads at the first batch
        loader = DALIGenericIterator([pipe], ["images", "labels"], reader_name="reader",
                                     auto_reset=True, last_batch_policy=LastBatchPolicy.DROP)
        state = {"epoch": iter(loader)}

    def next_batch():
        try:
            out = next(state["epoch"])
        except StopIteration:
            state["epoch"] = iter(loader)
            out = next(state["epoch"])
        return out[0]["images"], out[0]["labels"].reshape(-1).long()
    steps = args.sink_chunk_steps * (args.sink_chunks - 2)
    with placement.synthetic():
        fed, figures = step_loop_rate(model, next_batch, steps=steps, warm=20)
    say(f"DALI sink {arch}: {fed:,.0f} img/s fed by DALI ({args.cores} cores, "
        f"{placement.describe()}, {optimizer}), {rate:,.0f} img/s on a synthetic GPU batch: "
        f"{fed / rate:.1%}; "
        f"data wait mean {ms(figures['data_wait_ms'])}; a step's host side "
        f"{ms(figures['host_step_ms'])} (synthetic {ms(alone['host_step_ms'])})")
    return {"rate": fed, "synthetic": rate}


def encoded_batch(files, count):
    """The first ``count`` JPEG files' bytes, as 1-D uint8 arrays."""
    datas = []
    for path, _ in files[:count]:
        with open(path, "rb") as f:
            datas.append(np.frombuffer(f.read(), np.uint8))
    return datas


@part("interference")
def interference(torch, vision, files, arch, args):
    """Which of the mixed pipeline's kinds of work slows the training step beside it: the
    synthetic step of ``arch`` (fused SGD, the training thread on its own core) alone, then
    beside one load at a time, run by a thread on the pipeline's cores once per training step
    (the pace the sink asks of the pipeline): "batch" (GpuRun's whole work on a batch of
    JPEGs, on a stream of its own, waited for as the GPU batch node does), "decode" (the
    decoder alone), "augment" (all but the decode: the rows' decoded images are kept on the
    device), "GIL n ms" (a loop holding the GIL that long, no GPU work), "n torch calls" (that
    many calls of a CPU tensor's view(), each letting the GIL go and taking it back, as a
    batch's torch calls and kernel launches do: what each such hand-over of the GIL costs the
    step's host side, apart from the time the GIL is held)."""
    from minddata.gpu import backend
    from minddata.gpu.batch import GpuRun
    from sink_rate import step_loop_rate
    from training_thread import holding_gil, torch_calls
    built = train_model(torch, arch, args, optimizer="sgd-fused")
    if built is None:
        return
    model, inputs = built
    device = backend.torch_device()
    ops = train_ops(vision, args.size)
    datas = encoded_batch(files, args.batch)
    seeds = [list(range(k * 1000, k * 1000 + len(datas))) for k in range(len(ops))]
    decoder = backend.jpeg_decoder()
    if decoder is None and backend.get_jpeg_decoder() != "cpu":
        say(f"interference {arch}: SKIP: no {backend.get_jpeg_decoder()} decoder loads")
        return
    name = backend.jpeg_decoder_name()
    run = GpuRun(ops, device, decoder)
    decoded = run.decode(datas)
    augment = GpuRun(ops, device, lambda tensors, device: decoded)   # the same images again
    cuda = device.type == "cuda"
    stream = torch.cuda.Stream() if cuda else None

    def on_stream(work):
        def once():
            if cuda:
                with torch.cuda.stream(stream):
                    work()
                stream.synchronize()
            else:
                work()
        return once

    loads = {"none": None, "batch": on_stream(lambda: run(datas, seeds)),
             "decode": on_stream(lambda: run.decode(datas)),
             "augment": on_stream(lambda: augment(datas, seeds)),
             "GIL 1 ms": holding_gil(1.0), "GIL 4 ms": holding_gil(4.0),
             "50 torch calls": torch_calls(50), "200 torch calls": torch_calls(200)}
    placement = training_core(args.cores, separate=True)
    steps = 10 if args.cpu_dry_run else 60
    alone = None
    for load_name, load in loads.items():
        due, stop, ready = threading.Semaphore(0), threading.Event(), threading.Event()
        timings, failures = [], []

        def loop():
            try:
                load()      # in this thread: its buffers allocated, kernels compiled, untimed
                ready.set()
                while not stop.is_set():
                    if due.acquire(timeout=0.1):
                        began = time.perf_counter()
                        load()
                        timings.append(time.perf_counter() - began)
            except Exception as exc:        # reported below; the steps go on without it
                failures.append(f"{type(exc).__name__}: {exc}")
            finally:
                ready.set()

        def next_batch():
            due.release()                   # one load per step
            return inputs
        with pinned(placement.pipeline_cores):
            worker = threading.Thread(target=loop, name="interference-load") if load else None
            if worker is not None:
                worker.start()
                ready.wait()
        try:
            with placement.synthetic():
                rate, figures = step_loop_rate(model, next_batch, steps)
        finally:
            stop.set()
            if worker is not None:
                worker.join()
        alone = alone or rate
        took = (f"; the load took {np.median(timings) * 1e3:.1f} ms a time (median of "
                f"{len(timings)})") if timings else ""
        if failures:
            took += f"; the load FAILED: {failures[0]}"
        say(f"interference {arch} ({name}): beside {load_name}: {rate:,.0f} img/s, "
            f"{rate / alone:.1%} of the step alone; a step's host side "
            f"{ms(figures['host_step_ms'])}{took}")


@part("GPU kernels per batch")
def kernels_per_batch(torch, vision, files, args, decoder):
    """What one batch of the mixed pipeline queues on the GPU with ``decoder``: the kernels
    and copies (count, summed device time) of the decode and of the crop-resize-normalize,
    from torch's profiler (CUPTI sees every library's kernels): the GPU time a batch takes
    from the training step beside it."""
    from gpu_profile import queued_work
    from minddata.gpu import backend
    from minddata.gpu.batch import GpuRun
    with gpu_settings(jpeg_decoder=decoder):
        chosen = backend.jpeg_decoder()
    if chosen is None and decoder != "cpu":
        say(f"GPU kernels per batch: SKIP: no {decoder} decoder imports")
        return
    name = backend.jpeg_decoder_name() if chosen is None else chosen.name
    device = backend.torch_device()
    ops = train_ops(vision, args.size)
    datas = encoded_batch(files, args.batch)
    seeds = [list(range(k * 1000, k * 1000 + len(datas))) for k in range(len(ops))]
    run = GpuRun(ops, device, chosen)
    cuda = device.type == "cuda"

    def sync():
        if cuda:
            torch.cuda.synchronize()
    batches = 5
    for stage, work in (("decode", lambda: run.decode(datas)),
                        ("whole batch", lambda: run(datas, seeds))):
        for _ in range(3):
            work()
        sync()
        count, total, top = queued_work(work, sync, batches, cuda, top=4)
        say(f"GPU kernels per batch ({name}, {stage}): {count:,.0f} kernels and copies, "
            f"{total:.2f} ms of device time per batch of {len(datas)}; most: {top}")
        calls, torch_calls, host_ms = host_calls(torch, work, sync)
        say(f"host side per batch ({name}, {stage}): {host_ms:.2f} ms to queue it (counted), {calls} "
            f"calls of C functions, {torch_calls} of them torch's (each lets the GIL go and "
            f"takes it back; ctypes and Cython calls are not counted)")


def host_calls(torch, work, sync):
    """(C function calls, torch's among them, ms) of one call of ``work`` on this thread:
    what a batch costs the GIL (sys.setprofile sees builtin calls, torch's methods among
    them), and the wall time until it is queued; ``sync`` waits for the device after it."""
    counted = [0, 0]

    def count(frame, event, arg):
        if event == "c_call":
            counted[0] += 1
            owner = getattr(arg, "__self__", None)
            if (getattr(arg, "__module__", None) or "").startswith("torch") or (
                    owner is not None and type(owner).__module__.startswith("torch")):
                counted[1] += 1
    began = time.perf_counter()
    sys.setprofile(count)
    try:
        work()
    finally:
        sys.setprofile(None)
    host_ms = (time.perf_counter() - began) * 1e3
    sync()
    return counted[0], counted[1], host_ms


#: main()'s parts, in the order they run
PARTS = ("agreement", "decoders", "stages", "kernels", "cpu", "mixed", "variants", "dali", "sink",
         "dali-sink", "interference")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.environ.get("MINDDATA_BENCH_DATA", "/tmp/bench-data"))
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--seconds", type=float, default=40.0, help="timed seconds per part")
    ap.add_argument("--cores", type=int, default=4, help="CPU cores of the mixed and DALI parts")
    ap.add_argument("--cpu-workers", type=int, default=0, help="CPU pipeline workers (0: all)")
    ap.add_argument("--copies", type=int, default=1, help="times each JPEG is stored")
    ap.add_argument("--sink-chunks", type=int, default=4,
                    help="sink chunks per model (the first 2 are warm-up)")
    ap.add_argument("--sink-chunk-steps", type=int, default=30,
                    help="steps per sink chunk (the sink waits for the GPU at each chunk's end)")
    ap.add_argument("--models", default="resnet50,resnet18",
                    help="torchvision models of the sink part ('' skips it)")
    ap.add_argument("--sink-cpu-threads", default="0",
                    help="CPU decode threads of the sink parts, one run each")
    ap.add_argument("--training-threads", default="separate",
                    help="the sink's training thread: separate (a core of its own beside the "
                         "pipeline's --cores), shared (on the pipeline's cores), or both")
    ap.add_argument("--step-priorities", default="normal",
                    help="the sink's step stream: normal, or high (TRAINING_HIGH_PRIORITY_STEP=1)")
    ap.add_argument("--switch-intervals", default="",
                    help="Python's GIL switch intervals (seconds) of the sink runs, one run each "
                         "('': as it is, 0.005)")
    ap.add_argument("--pipeline-priorities", default="normal",
                    help="the sink runs' pipeline stream priorities (gpu.set_stream_priority), "
                         "one run each: normal, high")
    ap.add_argument("--optimizers", default="sgd,sgd-fused",
                    help="the sink runs' optimizers, one run each: sgd (torch's default, foreach) "
                         "or sgd-fused (fused=True: no wait for the GPU in each step)")
    ap.add_argument("--decoders", default="torchvision,nvjpeg,nvimgcodec",
                    help="JPEG decoders (gpu.set_jpeg_decoder) compared alone, in the pipeline "
                         "without a CPU share and in the sink")
    ap.add_argument("--gpu-workers", default="",
                    help="map workers of the mixed pipeline in the mixed and sink parts, one run "
                         "each ('': --cores); workers wait for their batch on the GPU asleep")
    ap.add_argument("--cuda-graphs", default="off",
                    help="the sink runs' train step, one run each: off (eager) or on "
                         "(TRAINING_CUDA_GRAPH=1: replayed as one CUDA graph, the synthetic "
                         "rate's step too)")
    ap.add_argument("--hardware-shares", default="1.0,0.75,auto",
                    help="nvImageCodec's hardware decode shares (gpu.set_hardware_decode_share) "
                         "timed alone and in the mixed pipeline")
    ap.add_argument("--parts", default=",".join(PARTS),
                    help=f"the parts to run, of {','.join(PARTS)} (e.g. 'mixed,dali' in a "
                         f"process that has DALI's packages first on its path)")
    ap.add_argument("--cpu-dry-run", action="store_true",
                    help="run the parts on torch's CPU with small batches (no GPU needed)")
    args = ap.parse_args(argv)
    choices = {"parts": PARTS, "pipeline_priorities": ("normal", "high"),
               "cuda_graphs": ("off", "on"),
               "optimizers": ("sgd", "sgd-fused"), "training_threads": ("separate", "shared")}
    for name, allowed in choices.items():
        value = getattr(args, name)
        if not set(value.split(",")) <= set(allowed):
            ap.error(f"--{name.replace('_', '-')} takes some of {','.join(allowed)}, not "
                     f"{value!r}")
    try:
        import torch
    except ImportError:
        say("SKIP: torch is not installed (install a CUDA build of torch and torchvision)")
        return 0
    import minddata as ds
    import minddata.vision as vision
    from minddata import gpu
    if args.cpu_dry_run:
        gpu.set_device("cpu")
        args.batch, args.seconds, args.size = min(args.batch, 16), min(args.seconds, 3.0), 64
        args.models, args.sink_chunks = "resnet18" if args.models else "", 3
        args.sink_chunk_steps = min(args.sink_chunk_steps, 5)
        args.sink_cpu_threads, args.step_priorities = "0", "normal"
    elif not torch.cuda.is_available():
        say(f"SKIP: CUDA is not available (torch {torch.__version__}): this check needs an "
            f"NVIDIA GPU and a CUDA build of torch and torchvision")
        return 0
    else:
        say(f"GPU: {torch.cuda.get_device_name(0)}, torch {torch.__version__}, "
            f"{os.cpu_count()} CPU cores; {gpu.unavailable() or 'mixed pipeline available'}")
    data = prepare_data(args)
    if data is None:
        return 1
    path, files = data
    say(f"JPEG decoder: {gpu.backend.jpeg_decoder_name()}")
    if not args.cpu_dry_run:
        try:
            from minddata.gpu.nvimgcodec_decoder import NvImageCodecDecoder
            NvImageCodecDecoder.create()
        except Exception as exc:
            say(f"nvImageCodec does not import: {type(exc).__name__}: {exc}")
    decoders = args.decoders.split(",")
    parts = set(args.parts.split(","))
    if "agreement" in parts:
        for decoder in ["cpu"] + decoders:
            agreement(ds, vision, torch, path, args, decoder)
    shares = [x if x == "auto" else float(x) for x in args.hardware_shares.split(",") if x]
    if "decoders" in parts:
        for decoder in decoders:
            for share in (shares if decoder == "nvimgcodec" else [1.0]):
                decode_alone(torch, files, args, decoder, share)
    if "stages" in parts:
        mixed_stages(torch, vision, files, args)
    if "kernels" in parts:
        for decoder in decoders:
            kernels_per_batch(torch, vision, files, args, decoder)
    results = {}
    if "cpu" in parts:
        results["CPU"] = cpu_pipeline(ds, vision, path, args)
    if "mixed" in parts:
        results.update(mixed_runs(ds, vision, path, args, decoders))
    if "variants" in parts:
        results.update(mixed_variants(ds, vision, path, args, decoders, shares))
    if "dali" in parts:
        results["DALI"] = dali_pipeline(files, args)
    intervals = [float(x) for x in args.switch_intervals.split(",") if x] or [None]
    optimizers = args.optimizers.split(",")
    placements = [training_core(args.cores, separate=where == "separate")
                  for where in args.training_threads.split(",")]
    runs = [SinkRun(*chosen) for chosen in itertools.product(
        decoders, map(int, args.sink_cpu_threads.split(",")), args.step_priorities.split(","),
        placements, intervals, optimizers, args.pipeline_priorities.split(","),
        gpu_workers(args), args.cuda_graphs.split(","))]
    for arch in filter(None, args.models.split(",") if "sink" in parts else []):
        for run in runs:
            results[f"sink {arch}, {run.describe()}"] = sink_training(ds, vision, torch, path,
                                                                      arch, args, run)
    for arch in filter(None, args.models.split(",") if "dali-sink" in parts else []):
        for optimizer in optimizers:
            results[f"DALI sink {arch}, {optimizer}"] = dali_sink(torch, files, arch, args,
                                                                   optimizer)
    for arch in filter(None, args.models.split(",") if "interference" in parts else []):
        for decoder in decoders:
            with gpu_settings(jpeg_decoder=decoder):
                interference(torch, vision, files, arch, args)
    for name, figures in results.items():
        if figures is None:
            say(f"summary: {name}: no figures (see above)")
        elif "synthetic" in figures:
            say(f"summary: {name}: {figures['rate']:,.0f} img/s, synthetic "
                f"{figures['synthetic']:,.0f} img/s: {figures['rate'] / figures['synthetic']:.1%}")
        else:
            say(f"summary: {name}: {figures['rate']:,.0f} img/s, p50 {figures['p50_ms']:.1f} ms,"
                f" p99 {figures['p99_ms']:.1f} ms, {figures['cpu_per_s']:.2f} CPU-s/s")
    for name, figures in results.items():
        if name.startswith("mixed") and figures and results.get("DALI"):
            say(f"summary: {name} / DALI = {figures['rate'] / results['DALI']['rate']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
