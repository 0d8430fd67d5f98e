"""The host-side draws of one GPU batch (the GPU batch node's Python work with the GIL held, which a
training loop in the same process waits behind): the rows' seeds, RandomResizedCrop's windows and
a random flip's draws for a batch, row by row (the ops' own rules) and for the whole batch at
once (minddata.seeds.row_seeds, RandomResizedCrop.windows, RandomHorizontalFlip.draws). No GPU
needed; nothing is asserted.

    .venv/bin/python benchmarks/gpu_batch_draws_bench.py [--batch 256] [--repeats 3]

Prints each figure in ms per batch, for every repeat, and the load average.
"""
import argparse
import os
import time

import numpy as np

from minddata import seeds
from transforms_c._rng import Rng
from transforms_c.vision.flip import RandomHorizontalFlip
from transforms_c.vision.resized_crop import RandomResizedCrop


def ms_per_call(fn, calls=200):
    fn()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    n = args.batch
    sizes = np.random.default_rng(0).integers(300, 500, (n, 2)).astype(np.int64)
    crop, flip = RandomResizedCrop(224), RandomHorizontalFlip()
    base = seeds.stage_base(1, 0, 1)
    row_seeds = seeds.row_seeds(base, 0, n)
    as_ints = [int(s) for s in row_seeds]
    cases = {
        "seeds": (lambda: [seeds.row_seed(base, i) for i in range(n)],
                  lambda: seeds.row_seeds(base, 0, n)),
        "RandomResizedCrop windows": (
            lambda: [crop.window(int(h), int(w), Rng(s)) for (h, w), s in zip(sizes, as_ints)],
            lambda: crop.windows(sizes[:, 0], sizes[:, 1], row_seeds)),
        "RandomHorizontalFlip draws": (lambda: [flip.draw(Rng(s)) for s in as_ints],
                                       lambda: flip.draws(row_seeds)),
    }
    print(f"load average {os.getloadavg()[0]:.2f}; batch of {n}")
    for repeat in range(args.repeats):
        for name, (by_row, by_batch) in cases.items():
            print(f"run {repeat + 1}: {name}: row by row {ms_per_call(by_row):.3f} ms, whole batch "
                  f"{ms_per_call(by_batch):.3f} ms")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
