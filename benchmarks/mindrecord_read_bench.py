"""MindRecord read throughput through ShardReader (batched read_rows, no transforms), and the
cost of opening a 1,000,000-row file, against MindSpore 2.10's reference figures.

    .venv/bin/python benchmarks/mindrecord_read_bench.py [--data /tmp/bench-data] [--repeats 3]

Writes the ImageNet-like (JPEG bytes + label) and CIFAR-like (image bytes + int32 label)
MindRecord files with mindrecord.FileWriter from ../shared/tools/make_bench_data.py's output
(generated first if missing), then reads every row in batches of --batch ids, twice:
"views" takes the blobs as the zero-copy uint8 views ShardReader returns, "copied" also copies
every blob out of the map (what a consumer that keeps the bytes pays). Prints rows/s and MB/s
(median of the repeats), MindSpore's figure (MindDataset, 2 workers, same data and machine
kind; ../shared/tools/README.md) and the ratio. The open test writes 1,000,000 small rows and
opens them in a fresh process, printing the open time and that process's peak RSS.
Nothing is asserted.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench_data import (cifar_rows, ensure_bench_data, imagenet_rows,  # noqa: E402
                        write_mindrecord)

# MindSpore 2.10.0, MindDataset read, no transforms, 2 workers, shuffle off (rows/s, MB/s)
REFERENCE = {"imagenet": (5725, 327), "cifar": (7764, None)}
OPEN_TARGET = "< 1 s and < 200 MB"


def time_read(path, repeats, batch, copy, min_rows):
    """[(rows/s, MB/s)] per repeat; a repeat opens the file (timed) and reads every row in
    batches, whole passes until at least ``min_rows`` rows."""
    from mindrecord import ShardReader
    results = []
    for _ in range(repeats):
        start = time.perf_counter()
        rows = nbytes = 0
        with ShardReader(path) as reader:
            passes = max(1, -(-min_rows // reader.num_rows))
            for _ in range(passes):
                for first in range(0, reader.num_rows, batch):
                    ids = np.arange(first, min(first + batch, reader.num_rows))
                    got = reader.read_rows(ids)
                    for image, label in zip(got["image"], got["label"]):
                        nbytes += len(image.tobytes() if copy else image) + label.nbytes
                    rows += len(ids)
        elapsed = time.perf_counter() - start
        results.append((rows / elapsed, nbytes / elapsed / 1e6))
    return results


def report(name, mode, results):
    rate = statistics.median(r[0] for r in results)
    mbs = statistics.median(r[1] for r in results)
    ref_rows, ref_mbs = REFERENCE[name]
    ref = f"MindSpore {ref_rows:,} rows/s"
    if ref_mbs:
        ref += f" {ref_mbs} MB/s"
    print(f"ShardReader {name:8s} {mode:6s}: {rate:10,.0f} rows/s {mbs:9,.0f} MB/s  "
          f"({ref}, ratio {rate / ref_rows:.1f}x)", flush=True)


# VmHWM (peak resident set of this process image; ru_maxrss would include the parent's
# pre-exec peak on Linux).
OPEN_SCRIPT = r"""
import sys, time
sys.path.insert(0, sys.argv[2])
import numpy as np
from mindrecord import ShardReader
def hwm_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
base = hwm_mb()
start = time.perf_counter()
reader = ShardReader(sys.argv[1])
opened = time.perf_counter() - start
row = reader.read_row(reader.num_rows - 1)
peak = hwm_mb()
print(reader.num_rows, opened, peak, peak - base)
"""


def time_open(path):
    out = subprocess.run([sys.executable, "-c", OPEN_SCRIPT, path, ROOT], check=True,
                         capture_output=True, text=True).stdout.split()
    rows, opened, peak, delta = int(out[0]), float(out[1]), float(out[2]), float(out[3])
    print(f"open {rows:,}-row file (header + row table + scalar columns + .db check): "
          f"{opened:.3f} s, peak RSS {peak:.0f} MB ({delta:.0f} MB above the interpreter with "
          f"numpy and mindrecord imported); target {OPEN_TARGET}", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="/tmp/bench-data", help="make_bench_data.py output")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch", type=int, default=256, help="row ids per read_rows call")
    parser.add_argument("--min-rows", type=int, default=20000,
                        help="rows read per timed repeat (whole passes)")
    parser.add_argument("--open-rows", type=int, default=1_000_000)
    parser.add_argument("--keep", help="write the MindRecord files here and keep them")
    args = parser.parse_args(argv)
    ensure_bench_data(args.data)
    out = args.keep or tempfile.mkdtemp(prefix="mindrecord-read-bench-")
    os.makedirs(out, exist_ok=True)
    try:
        paths = {"imagenet": os.path.join(out, "imagenet.mindrecord"),
                 "cifar": os.path.join(out, "cifar.mindrecord")}
        write_mindrecord(paths["imagenet"], imagenet_rows(args.data), "ImageNet-like", chunk=10000)
        write_mindrecord(paths["cifar"], cifar_rows(args.data), "CIFAR-like", chunk=10000)
        for name, path in paths.items():
            time_read(path, 1, args.batch, True, 1)  # warm the page cache
            for mode, copy in (("views", False), ("copied", True)):
                report(name, mode, time_read(path, args.repeats, args.batch, copy,
                                             args.min_rows))
        big = os.path.join(out, "million.mindrecord")
        rows = [{"label": i, "name": "r%d" % i, "data": b"%08d" % i}
                for i in range(args.open_rows)]
        write_mindrecord(big, rows, "small rows", chunk=10000,
                         schema={"label": {"type": "int64"}, "name": {"type": "string"},
                                 "data": {"type": "bytes"}})
        del rows
        time_open(big)   # first open warms the page cache
        time_open(big)
    finally:
        if not args.keep:
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
