"""The host side of a GPU batch (``GpuRun``): the Python work, with the GIL held, that a
training loop in the same process waits behind (ResNet-18's step on an H200 is bound by its
own host side, so every millisecond counts). Two figures per repeat:
- the decode stage (``GpuRun.decode``: the JPEG headers, the bytes handed to the decoder, the
  checks of what it gives), with a stand-in decoder that returns ready tensors of each row's
  size, less that stand-in's own time;
- the whole train batch (Decode, RandomResizedCrop(224), RandomHorizontalFlip, Normalize,
  HWC2CHW) as the direct nvJPEG decoder feeds it (the staged batch decoded in one call into
  one buffer, which the crop-resize reads in place: no tensor object per row), the fused
  kernel's launch replaced by returning a ready output: the staging, the size checks, the
  windows, flips, metadata and their one copy.
The train batch is timed twice: the decoder given the whole staged batch in one call
(``decode_batch``) and through the list call (a tensor per row, a view back per row, as the
direct decoder's Python does for it). Then, with two cores, how much of its speed a torch
step loop on the other core (training_thread.TorchStepThread: a GPU step's host side) keeps
beside one train batch every 15 ms (about ResNet-18's step on an H200), each way, alternating
windows alone and beside (``--cycles``). The rows are MindRecord rows (read-only arrays, as the
GPU batch node gets them). No GPU needed; nothing is asserted.

    .venv/bin/python benchmarks/gpu_decode_host_bench.py [--batch 256] [--repeats 3] [--cycles 6]

Prints, for every repeat, the thread's CPU time and the wall time per batch, and the load average.
"""
import argparse
import os
import statistics
import tempfile
import time

import numpy as np
import torch

from bench_data import ensure_bench_data, imagenet_rows, write_mindrecord
from training_thread import TorchStepThread, window
import minddata as ds
import minddata.vision as vision
from minddata.gpu import resample_kernel
from minddata.gpu.batch import GpuRun
from transforms_c.vision.decode import Decode, jpeg_size


class StandInDecoder:
    """decode_jpeg's interface: a ready (3, H, W) tensor per row, looked up by the row's bytes."""
    name = "stand-in"

    def __init__(self, datas):
        self.images = {}
        for data in datas:
            width, height = jpeg_size(data.view(np.uint8))
            self.images[data.tobytes()[-64:]] = torch.zeros((3, height, width), dtype=torch.uint8)

    def __call__(self, tensors, device=None):
        return [self.images[t.numpy().tobytes()[-64:]] for t in tensors]


class OneBufferDecoder(StandInDecoder):
    """As the direct nvJPEG decoder gives a batch: its images one after another in one buffer,
    as a view per row (the list call) or, through decode_batch, the whole staged batch in one
    call with no object per row (the benchmark's rows, in order)."""

    def __init__(self, datas):
        super().__init__(datas)
        shapes = [img.shape for img in self.images.values()]
        self.hw = np.array([shape[1:] for shape in shapes], np.int64)
        self.flat = torch.zeros(int((3 * self.hw[:, 0] * self.hw[:, 1]).sum()),
                                dtype=torch.uint8)
        for key, piece, shape in zip(self.images, self.flat.split(
                [3 * h * w for h, w in self.hw.tolist()]), shapes):
            self.images[key] = piece.view(shape)

    def decode_batch(self, buffer, offsets, device=None):
        return self.flat, self.hw, np.ones(len(self.hw), bool)


class ListCall:
    """The same decoder offering only the list call, with the direct decoder's own work per
    row for it (each row's address and length read, the buffer split into a view per row)."""

    def __init__(self, decoder):
        self.decoder, self.name = decoder, decoder.name
        self.sizes = (3 * decoder.hw[:, 0] * decoder.hw[:, 1]).tolist()

    def __call__(self, tensors, device=None):
        np.array([t.numel() for t in tensors], np.uint64)
        np.array([t.data_ptr() for t in tensors], np.uint64)
        return [piece.view(3, h, w) for piece, (h, w) in
                zip(self.decoder.flat.split(self.sizes), self.decoder.hw.tolist())]


def train_batch(datas, decoder):
    """A callable running the whole train batch with the kernel's launch stubbed."""
    ops = [vision.Decode(), vision.RandomResizedCrop(224), vision.RandomHorizontalFlip(),
           vision.Normalize([123.675, 116.28, 103.53], [58.395, 57.12, 57.375]),
           vision.HWC2CHW()]
    ready = torch.empty((len(datas), 3, 224, 224), dtype=torch.float32)
    resample_kernel.resample = lambda *args, **kwargs: ready     # the launch, not the work
    run = GpuRun(ops, torch.device("cpu"), decoder, fused=True)
    seeds = [np.arange(len(datas), dtype=np.uint64) + 1000 * k for k in range(len(ops))]
    return lambda: run(datas, seeds)


def beside_a_step_loop(ways, cycles, period=0.015, seconds=1.0):
    """{way: [share]}: how much of its speed a step loop on core 1 (TorchStepThread) keeps
    while this thread, on core 0, runs one train batch every ``period`` seconds (about
    ResNet-18's step on an H200), each window beside compared with the windows alone either
    side of it (a core's speed drifts on a VM)."""
    loop = TorchStepThread(core=1).start()

    def rate(work=None):
        before, due = loop.snapshot(), time.perf_counter()
        while time.perf_counter() - before.wall < seconds:
            if work is not None and time.perf_counter() >= due:
                work()
                due += period
            else:
                time.sleep(0.0005)
        return window(before, loop.snapshot())["it_s"]
    try:
        shares = {name: [] for name in ways}
        for _ in range(cycles):
            for name, work in ways.items():
                alone_before, beside, alone_after = rate(), rate(work), rate()
                shares[name].append(beside / ((alone_before + alone_after) / 2))
        return shares
    finally:
        loop.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--data", default=None, help="the benchmark data (bench_data.py's default)")
    ap.add_argument("--cycles", type=int, default=6,
                    help="alternations of the step loop alone and beside each call (0: none)")
    args = ap.parse_args()
    rows = imagenet_rows(ensure_bench_data(*[args.data] if args.data else []))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "decode_host.mindrecord")
        write_mindrecord(path, rows[:args.batch], "decode_host", chunk=500)
        it = ds.MindDataset(path, columns_list=["image"], shuffle=False).create_tuple_iterator(
            num_epochs=1, output_numpy=True)
        datas = [row[0] for row in it]
    decoder = StandInDecoder(datas)
    # the lookup's own cost, to take off GpuRun's figure
    tensors = [torch.from_numpy(d.view(np.uint8).copy()) for d in datas]
    run = GpuRun([Decode()], torch.device("cpu"), decoder)
    one_buffer = OneBufferDecoder(datas)
    listed, whole = train_batch(datas, ListCall(one_buffer)), train_batch(datas, one_buffer)
    print(f"load average {os.getloadavg()[0]:.2f}; batch of {len(datas)} MindRecord rows")
    for repeat in range(args.repeats):
        figures = {}
        for name, fn in (("stand-in decoder alone", lambda: decoder(tensors)),
                         ("GpuRun.decode", lambda: run.decode(datas)),
                         ("train batch, list call", listed),
                         ("train batch, one call", whole)):
            fn()
            cpu, wall = time.thread_time(), time.perf_counter()
            for _ in range(50):
                fn()
            figures[name] = ((time.thread_time() - cpu) / 50 * 1e3,
                             (time.perf_counter() - wall) / 50 * 1e3)
        # GpuRun.decode's stand-in looks its rows up (the alone figure, taken off); the
        # train batch's stand-ins do what the direct decoder does in Python, nothing more
        own = {"decode": figures["GpuRun.decode"][0] - figures["stand-in decoder alone"][0],
               "train batch, list call": figures["train batch, list call"][0],
               "train batch, one call": figures["train batch, one call"][0]}
        print(f"run {repeat + 1}: " + "; ".join(f"{name} {c:.3f} ms CPU, {w:.3f} ms wall"
                                                 for name, (c, w) in figures.items()))
        print("  GpuRun's own host time per batch: " + "; ".join(
            f"{name} {ms:.3f} ms" for name, ms in own.items()))
    if args.cycles and len(os.sched_getaffinity(0)) >= 2:
        os.sched_setaffinity(0, {0})
        shares = beside_a_step_loop({"list call": listed, "one call": whole}, args.cycles)
        for name, share in shares.items():
            print(f"a torch step loop on another core keeps {statistics.median(share):.1%} of "
                  f"its speed beside a train batch ({name}) every 15 ms; cycles: "
                  + ", ".join(f"{x:.1%}" for x in share))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
