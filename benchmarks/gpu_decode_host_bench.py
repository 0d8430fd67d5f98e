"""The host side of a GPU batch's decode stage (``GpuRun.decode``: the JPEG headers, the bytes
handed to the decoder, the checks of what it gives): the Python work, with the GIL held, that a
training loop in the same process waits behind. The decoder is a stand-in that returns ready
tensors of each row's size, so only GpuRun's own work is timed; the rows are MindRecord rows
(read-only arrays, as the GPU batch node gets them). No GPU needed; nothing is asserted.

    .venv/bin/python benchmarks/gpu_decode_host_bench.py [--batch 256] [--repeats 3]

Prints, for every repeat, the thread's CPU time and the wall time per batch, and the load average.
"""
import argparse
import os
import tempfile
import time

import numpy as np
import torch

from bench_data import ensure_bench_data, imagenet_rows, write_mindrecord
import minddata as ds
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--data", default=None, help="the benchmark data (bench_data.py's default)")
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
    print(f"load average {os.getloadavg()[0]:.2f}; batch of {len(datas)} MindRecord rows")
    for repeat in range(args.repeats):
        figures = {}
        for name, fn in (("stand-in decoder alone", lambda: decoder(tensors)),
                         ("GpuRun.decode", lambda: run.decode(datas))):
            fn()
            cpu, wall = time.thread_time(), time.perf_counter()
            for _ in range(50):
                fn()
            figures[name] = ((time.thread_time() - cpu) / 50 * 1e3,
                             (time.perf_counter() - wall) / 50 * 1e3)
        own = figures["GpuRun.decode"][0] - figures["stand-in decoder alone"][0]
        print(f"run {repeat + 1}: " + "; ".join(f"{name} {c:.3f} ms CPU, {w:.3f} ms wall"
                                                 for name, (c, w) in figures.items())
              + f"; GpuRun's own host time {own:.3f} ms per batch")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
