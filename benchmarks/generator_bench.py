"""GeneratorDataset throughput over a random-access numpy CIFAR-like source, against MindSpore
2.10's reference figures.

    .venv/bin/python benchmarks/generator_bench.py [--data /tmp/bench-data] [--repeats 3]

Source: ``cifar/images.npy`` and ``cifar/labels.npy`` from ../shared/tools/make_bench_data.py
(10,000 rows used) when present, else 10,000 random 32x32x3 uint8 rows with int32 labels.
Pipeline: ``GeneratorDataset(source, ["image", "label"], num_parallel_workers=2,
python_multiprocessing=<mode>, shuffle=False).batch(256)``, iterated with
``create_tuple_iterator(output_numpy=True)``. Prints rows/s (median of the repeats, one epoch
each, pipeline start included), MindSpore's figure and the ratio. Nothing is asserted.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import minddata as ds  # noqa: E402
from bench_data import cifar_arrays  # noqa: E402

# MindSpore 2.10.0, 2 vCPU, batch 256, medians of 3 (../shared/tools/README.md)
REFERENCE = {"processes": 1254, "threads": 1239}
N_ROWS = 10000


class CifarSource:
    """Random-access source: one (image, label) row per index."""

    def __init__(self, images, labels):
        self.images = images
        self.labels = labels

    def __getitem__(self, i):
        return self.images[i], self.labels[i]

    def __len__(self):
        return len(self.images)


def load(data_dir):
    d = os.path.join(data_dir, "cifar")
    if os.path.exists(os.path.join(d, "images.npy")):
        images, labels = cifar_arrays(data_dir)
        images, labels = images[:N_ROWS], labels[:N_ROWS].astype(np.int32)
        return images, labels, f"{d} ({len(images)} rows)"
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(N_ROWS, 32, 32, 3), dtype=np.uint8)
    labels = rng.integers(0, 10, size=N_ROWS, dtype=np.int32)
    return images, labels, f"random arrays ({N_ROWS} rows)"


def run_once(source, multiprocessing):
    t0 = time.perf_counter()
    data = ds.GeneratorDataset(source, ["image", "label"], num_parallel_workers=2,
                               python_multiprocessing=multiprocessing, shuffle=False)
    data = data.batch(256)
    rows = 0
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    for image, label in it:
        rows += image.shape[0]
    it.close()
    return rows, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="/tmp/bench-data")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args(argv)
    images, labels, what = load(a.data)
    source = CifarSource(images, labels)
    print(f"GeneratorDataset, random-access numpy CIFAR-like source: {what}; 2 workers, "
          f"batch 256")
    for mode, mp in (("processes", True), ("threads", False)):
        rates = []
        for _ in range(a.repeats):
            rows, secs = run_once(source, mp)
            assert rows == len(images), (rows, len(images))
            rates.append(rows / secs)
        med = statistics.median(rates)
        ref = REFERENCE[mode]
        print(f"  {mode:9s}: {med:10,.0f} rows/s   MindSpore 2.10: {ref:,} rows/s   "
              f"ratio {med / ref:.2f}x (target >= 3x)")


if __name__ == "__main__":
    main()
