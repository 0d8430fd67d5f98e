"""MindDataset read throughput, no transforms, against MindSpore 2.10's reference figures.

    .venv/bin/python benchmarks/minddataset_bench.py [--data /tmp/bench-data] [--repeats 3]

Writes the ImageNet-like (JPEG bytes + label) and CIFAR-like (image bytes + int32 label)
MindRecord files with mindrecord.FileWriter from ../shared/tools/make_bench_data.py's output
(generated first if missing), then iterates ``MindDataset(num_parallel_workers=2)`` with
``create_tuple_iterator(output_numpy=True)`` and prints rows/s and MB/s (median of the repeats),
MindSpore's figure on the same data and machine kind, and the ratio. Nothing is asserted.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench_data import (cifar_rows, ensure_bench_data, imagenet_rows,  # noqa: E402
                        write_mindrecord)

# MindSpore 2.10.0, 2 vCPU, medians of 3 (../shared/tools/README.md)
REFERENCE = {
    ("imagenet", False): 5725,
    ("imagenet", True): 6713,
    ("cifar", False): 7764,
}


def time_read(path, shuffle, repeats, min_rows):
    """[(rows/s, MB/s)] per repeat. A repeat builds a fresh dataset and iterator (their start-up
    is timed too) and reads whole epochs until at least ``min_rows`` rows, so a 2,000-row file
    is not timed over a few milliseconds."""
    import minddata as ds
    results = []
    for r in range(repeats):
        ds.config.set_seed(r)
        start = time.perf_counter()
        data = ds.MindDataset(path, num_parallel_workers=2, shuffle=shuffle)
        epochs = max(1, -(-min_rows // data.get_dataset_size()))
        rows = nbytes = 0
        iterator = data.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
        for _ in range(epochs):          # as in MindSpore, each pass over the iterator is an epoch
            for image, label in iterator:
                rows += 1
                nbytes += image.nbytes + label.nbytes
        elapsed = time.perf_counter() - start
        results.append((rows / elapsed, nbytes / elapsed / 1e6))
    return results


def report(name, shuffle, results):
    rate = statistics.median(r[0] for r in results)
    mbs = statistics.median(r[1] for r in results)
    ref = REFERENCE.get((name, shuffle))
    ref_text = f"MindSpore {ref:,} rows/s, ratio {rate / ref:.2f}x" if ref else "no MindSpore figure"
    print(f"MindDataset {name:8s} shuffle={str(shuffle):5s} 2 workers: {rate:10,.0f} rows/s "
          f"{mbs:8,.0f} MB/s  ({ref_text})", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="/tmp/bench-data", help="make_bench_data.py output")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--min-rows", type=int, default=50000,
                        help="rows read per timed repeat (whole epochs)")
    parser.add_argument("--keep", help="write the MindRecord files here and keep them")
    args = parser.parse_args(argv)
    ensure_bench_data(args.data)
    out = args.keep or tempfile.mkdtemp(prefix="minddataset-bench-")
    os.makedirs(out, exist_ok=True)
    try:
        imagenet = os.path.join(out, "imagenet.mindrecord")
        cifar = os.path.join(out, "cifar.mindrecord")
        write_mindrecord(imagenet, imagenet_rows(args.data), "ImageNet-like JPEG bytes")
        write_mindrecord(cifar, cifar_rows(args.data), "CIFAR-like image bytes")
        for name, path, shuffles in (("imagenet", imagenet, (False, True)),
                                     ("cifar", cifar, (False, True))):
            for shuffle in shuffles:
                time_read(path, shuffle, 1, 1)       # warm the page cache and imports
                report(name, shuffle, time_read(path, shuffle, args.repeats, args.min_rows))
    finally:
        if not args.keep:
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
