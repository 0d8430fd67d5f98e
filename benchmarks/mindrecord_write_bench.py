#!/usr/bin/env python
"""FileWriter throughput on the shared benchmark data (../shared/tools/make_bench_data.py).

    .venv/bin/python benchmarks/mindrecord_write_bench.py [--data /tmp/bench-data]
        [--out /tmp/mr-write-bench] [--repeat 3] [--batch 256]

Workloads (rows held in memory beforehand; the clock covers FileWriter(...) to commit()):
  imagenet  2,000 JPEGs as {"file_name": str, "label": int32, "data": bytes}, shard_num 1 and 4
  cifar     CIFAR-like rows {"data": 32x32x3 image as bytes, "label": int32}
Prints rows/s, MB/s, cores (process CPU time / wall time; well below 1 means the machine
is busy with other work) and rows per CPU-second of the median of --repeat runs, MindSpore 2.10's reference figure on this
machine kind (../shared/tools/README.md) and the ratio. Nothing is asserted.
"""
import argparse
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_data import cifar_arrays, imagenet_files, read_imagenet_file  # noqa: E402
from mindrecord import FileWriter  # noqa: E402

REFERENCE = {  # MindSpore 2.10 FileWriter rows/s (shared/tools/README.md)
    ("imagenet", 1): 3945, ("imagenet", 4): 3871, ("cifar", 1): 8219,
}


def load_imagenet(root):
    rows = [{"file_name": os.path.basename(rel), "label": label,
             "data": read_imagenet_file(root, rel)} for rel, label in imagenet_files(root)]
    schema = {"file_name": {"type": "string"}, "label": {"type": "int32"},
              "data": {"type": "bytes"}}
    return rows, schema


def load_cifar(root):
    images, labels = cifar_arrays(root)
    rows = [{"data": images[i].tobytes(), "label": int(labels[i])} for i in range(len(images))]
    return rows, {"data": {"type": "bytes"}, "label": {"type": "int32"}}


def write_once(out_dir, rows, schema, shard_num, batch, parallel):
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    name = os.path.join(out_dir, "bench.mindrecord")
    start = time.perf_counter()
    cpu = time.process_time()
    writer = FileWriter(name, shard_num=shard_num, overwrite=True)
    writer.add_schema(schema, "bench")
    for i in range(0, len(rows), batch):
        writer.write_raw_data(rows[i:i + batch], parallel_writer=parallel)
    writer.commit()
    return time.perf_counter() - start, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="/tmp/bench-data")
    parser.add_argument("--out", default="/tmp/mr-write-bench")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args()
    if not os.path.isdir(args.data):
        sys.exit(f"benchmark data not found at {args.data}; run "
                 f"../shared/tools/make_bench_data.py {args.data} first")

    workloads = []
    rows, schema = load_imagenet(args.data)
    workloads += [("imagenet", rows, schema, 1), ("imagenet", rows, schema, 4)]
    rows_c, schema_c = load_cifar(args.data)
    workloads.append(("cifar", rows_c, schema_c, 1))

    print(f"{'workload':<10} {'shards':>6} {'parallel':>8} {'rows':>6} {'rows/s':>9} "
          f"{'MB/s':>7} {'cores':>5} {'rows/cpu-s':>10} {'MindSpore':>9} {'ratio':>6}")
    for name, rows, schema, shards in workloads:
        nbytes = sum(len(r["data"]) for r in rows)
        for parallel in (False, True):
            runs = sorted(write_once(args.out, rows, schema, shards, args.batch, parallel)
                          for _ in range(args.repeat))
            t, cpu = runs[len(runs) // 2]          # median by wall time
            rate = len(rows) / t
            ref = REFERENCE[(name, shards)]
            print(f"{name:<10} {shards:>6} {str(parallel):>8} {len(rows):>6} {rate:>9,.0f} "
                  f"{nbytes / t / 1e6:>7.0f} {cpu / t:>5.2f} {len(rows) / cpu:>10,.0f} {ref:>9,} "
                  f"{rate / ref:>5.1f}x", flush=True)
    shutil.rmtree(args.out, ignore_errors=True)


if __name__ == "__main__":
    main()
