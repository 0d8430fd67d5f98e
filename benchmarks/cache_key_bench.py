"""Cache keys: what fingerprinting a pipeline's in-memory data and operations costs when a
cached stage opens (minddata/cache/fingerprint.py).

    .venv/bin/python benchmarks/cache_key_bench.py [--mb 256] [--repeats 3]

Prints the hashing rate of a contiguous and of a strided uint8 array (GB/s, median of the
repeats), and the time to fingerprint the eval pipeline's five native ops and a lambda reading
a global array. Nothing is asserted; the figures depend on the machine and its load (printed).
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from minddata.cache.fingerprint import fingerprint, fingerprint_arrays  # noqa: E402

TABLE = np.arange(1 << 20, dtype=np.float32)


def _median_seconds(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=256, help="array size in MB")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    data = np.random.default_rng(0).integers(0, 255, size=(args.mb, 1 << 20), dtype=np.uint8)
    for name, array in (("contiguous", data), ("strided (every other column)", data[:, ::2])):
        seconds = _median_seconds(lambda a=array: fingerprint_arrays([a]), args.repeats)
        print(f"{name:30s} {array.nbytes / seconds / 1e9:6.2f} GB/s")

    import transforms_c.vision as vision
    ops = [vision.Decode(), vision.Resize(256), vision.CenterCrop(224),
           vision.Normalize(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375]),
           vision.HWC2CHW()]
    seconds = _median_seconds(lambda: [fingerprint(op) for op in ops], args.repeats)
    print(f"{'eval pipeline ops (5)':30s} {seconds * 1e3:6.2f} ms")
    seconds = _median_seconds(lambda: fingerprint(lambda x: x * TABLE[0]), args.repeats)
    print(f"{'lambda reading a 4 MB global':30s} {seconds * 1e3:6.2f} ms")


if __name__ == "__main__":
    main()
