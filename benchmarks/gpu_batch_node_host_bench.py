"""The host side of the GPU batch node (source + map(device="GPU") + batch): what its worker
threads spend per batch of 256 around the GPU's work, with the rows read as columns (what the
node does where the source offers it: with ``--source mindrecord`` the images' bytes where they
lie in the file's map, with ``--source folder``, an ImageFolderDataset, the batch's files read by
one native call; the labels as one array indexed by the batch's ids) and, for comparison, one by
one (read_rows: an object per row and field, a file opened and read per row, the labels
stacked). The GPU's work is stubbed: the
decoder reads the staged batch's headers natively and returns a ready buffer, as the direct
nvJPEG decoder's Python does around the library, and the fused kernel's launch returns a ready
output. The train ops: Decode, RandomResizedCrop(224), RandomHorizontalFlip, Normalize,
HWC2CHW, batch 256, on torch's CPU device. Then, with two cores, how much of its speed a torch
step loop on the other core (training_thread.TorchStepThread: a GPU step's host side) keeps
beside the node delivering one batch every 15 ms (about ResNet-18's step on an H200), each way,
alternating windows alone and beside (``--cycles``). No GPU needed; nothing is asserted.

    .venv/bin/python benchmarks/gpu_batch_node_host_bench.py [--repeats 3] [--copies 5]
        [--cycles 6] [--source mindrecord|folder]

Prints, for every repeat and way, the process's CPU time and the wall time per batch of an
epoch with one worker, the step loop's share for every cycle, and the load average.
"""
import argparse
import os
import statistics
import tempfile
import time

import numpy as np
import torch

from bench_data import ensure_bench_data, imagenet_rows, write_mindrecord
from gpu_decode_host_bench import beside_a_step_loop
import minddata as ds
import minddata.vision as vision
from minddata import gpu
from minddata.engine import gpu_batch
from minddata.gpu import backend, resample_kernel
from transforms_c.vision.decode import EncodedRows, jpeg_batch_sizes

BATCH = 256


class StubDecoder:
    """decode_batch as the direct nvJPEG decoder offers it: the staged batch's sizes read from
    its headers natively, a ready buffer of decoded rows returned."""
    name = "stub"

    def __init__(self, largest):
        self.flat = torch.zeros(BATCH * 3 * largest, dtype=torch.uint8)

    def __call__(self, tensors, device=None):
        raise RuntimeError("the stub takes whole batches only")

    def decode_batch(self, buffer, offsets, device=None):
        offsets = np.asarray(offsets, np.int64)
        rows = EncodedRows(np.uint64(buffer.data_ptr()) + offsets[:-1].astype(np.uint64),
                           np.diff(offsets), owner=buffer)
        hw = jpeg_batch_sizes(rows)
        return self.flat, hw, np.ones(len(hw), bool)


def pipeline(path, ops, repeats=1):
    if os.path.isdir(path):
        d = ds.ImageFolderDataset(path, shuffle=True)
    else:
        d = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True)
    d = d.map(ops, input_columns=["image"], num_parallel_workers=1, device="GPU")
    return d.batch(BATCH, drop_remainder=True).repeat(repeats)


def write_folder(root, rows):
    """The rows as an image folder: a class folder per label, a JPEG file per row."""
    for i, row in enumerate(rows):
        folder = os.path.join(root, f"class{row['label']:02d}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"img{i:06d}.JPEG"), "wb") as f:
            f.write(row["image"])
    return root


def epoch(path, ops):
    it = pipeline(path, ops).create_tuple_iterator(num_epochs=1)
    try:
        return sum(1 for _ in it)
    finally:
        it.close()


def endless(path, ops, way):
    """An iterator of the pipeline's batches, built with ``way`` of reading the rows."""
    gpu_batch.GpuBatchIter._as_columns = way
    it = pipeline(path, ops, repeats=100000).create_tuple_iterator(num_epochs=1)
    next(it)        # built: the way is taken
    return it


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--copies", type=int, default=5, help="times each JPEG is stored")
    ap.add_argument("--data", default=None, help="the benchmark data (bench_data.py's default)")
    ap.add_argument("--cycles", type=int, default=6,
                    help="alternations of the step loop alone and beside each way (0: none)")
    ap.add_argument("--source", choices=("mindrecord", "folder"), default="mindrecord")
    args = ap.parse_args()
    rows = imagenet_rows(ensure_bench_data(*[args.data] if args.data else []))
    largest = max(h * w for h, w in jpeg_batch_sizes(
        [np.frombuffer(r["image"], np.uint8) for r in rows]).tolist())
    ready = torch.empty((BATCH, 3, 224, 224), dtype=torch.float32)
    resample_kernel.resample = lambda *a, **k: ready          # the launch, not the work
    resample_kernel.available = lambda device: True
    stub = StubDecoder(largest)
    backend.jpeg_decoder = lambda: stub
    gpu.set_device("cpu")
    ops = [vision.Decode(), vision.RandomResizedCrop(224), vision.RandomHorizontalFlip(),
           vision.Normalize([123.675, 116.28, 103.53], [58.395, 57.12, 57.375]),
           vision.HWC2CHW()]
    as_columns = gpu_batch.GpuBatchIter._as_columns
    ways = {"as columns": as_columns,
            "row by row": lambda self, src, column: (None, None)}
    with tempfile.TemporaryDirectory() as tmp:
        if args.source == "folder":
            path = write_folder(os.path.join(tmp, "folder"), rows * args.copies)
        else:
            path = os.path.join(tmp, "node_host.mindrecord")
            write_mindrecord(path, rows * args.copies, "node_host", chunk=500)
        print(f"load average {os.getloadavg()[0]:.2f}; {len(rows) * args.copies} rows "
              f"({args.source}), batches of {BATCH}, one worker")
        for repeat in range(args.repeats):
            figures = []
            for name, way in ways.items():
                gpu_batch.GpuBatchIter._as_columns = way
                epoch(path, ops)
                cpu, wall = time.process_time(), time.perf_counter()
                batches = epoch(path, ops)
                figures.append(f"{name} {(time.process_time() - cpu) / batches * 1e3:.2f} ms "
                               f"CPU, {(time.perf_counter() - wall) / batches * 1e3:.2f} ms wall")
            print(f"run {repeat + 1}, per batch: " + "; ".join(figures))
        if args.cycles and len(os.sched_getaffinity(0)) >= 2:
            os.sched_setaffinity(0, {0})        # the node's threads, made from here on
            iterators = {name: endless(path, ops, way) for name, way in ways.items()}
            try:
                shares = beside_a_step_loop({name: lambda it=it: next(it)
                                             for name, it in iterators.items()}, args.cycles)
            finally:
                for it in iterators.values():
                    it.close()
            for name, share in shares.items():
                print(f"a torch step loop on another core keeps {statistics.median(share):.1%} "
                      f"of its speed beside a batch read {name} every 15 ms; cycles: "
                      + ", ".join(f"{x:.1%}" for x in share))
        gpu_batch.GpuBatchIter._as_columns = as_columns
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
