"""Dataset cache: the eval pipeline with a cache after the map, epoch 2 cached vs uncached.

    .venv/bin/python benchmarks/cache_bench.py [--data /tmp/bench-data] [--repeats 1]

Pipeline (MindSpore's reference workload): ImageFolderDataset over the ImageNet-like folder from
../shared/tools/make_bench_data.py (generated first if missing), map(Decode, Resize(256),
CenterCrop(224), Normalize, HWC2CHW, num_parallel_workers=2, cache=...), batch(128). Each run
times two epochs of one iterator; the cached run uses a fresh session in a temporary cache root
under /dev/shm (removed at exit), so epoch 1 fills the cache and epoch 2 reads it.
Prints images/s per epoch (median of the repeats), MindSpore 2.10's figures on the same data and
machine kind, and the ratios. Nothing is asserted.
"""
import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_data import DEFAULT_DIR, ensure_bench_data  # noqa: E402 (after the path set-up)

# MindSpore 2.10.0, 2 vCPU, medians of 3 (../shared/tools/README.md): eval pipeline with a cache
# after the map, epoch 2 (and the same pipeline's uncached epoch 2).
MS_CACHED_EPOCH2 = 813
MS_UNCACHED_EPOCH2 = 267
MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def eval_pipeline(folder, cache):
    import minddata as ds
    try:
        from minddata.vision import c_transforms as vision
    except ImportError:  # the re-export module is not there yet: same classes
        import transforms_c.vision as vision
    data = ds.ImageFolderDataset(folder, num_parallel_workers=2, shuffle=False)
    ops = [vision.Decode(), vision.Resize(256), vision.CenterCrop(224),
           vision.Normalize(mean=MEAN, std=STD), vision.HWC2CHW()]
    data = data.map(ops, input_columns=["image"], num_parallel_workers=2, cache=cache)
    return data.batch(128)


def _cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def time_two_epochs(folder, cache):
    """[(images/s, images per CPU-second)] of epoch 1 and epoch 2 of one iterator. The CPU
    figure (all threads of this process) shows the cost per image whatever else the shared
    machine runs."""
    data = eval_pipeline(folder, cache)
    iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    rates = []
    for _ in range(2):
        start, cpu = time.perf_counter(), _cpu_seconds()
        images = 0
        for batch in iterator:
            images += batch[0].shape[0]
        rates.append((images / (time.perf_counter() - start),
                      images / max(_cpu_seconds() - cpu, 1e-9)))
    return rates, images


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=DEFAULT_DIR)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    ensure_bench_data(args.data)
    folder = os.path.join(args.data, "imagenet", "train")

    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    cache_root = tempfile.mkdtemp(prefix="cache-bench-", dir=base)
    spill = tempfile.mkdtemp(prefix="cache-bench-spill-")
    os.environ["MINDDATA_CACHE_DIR"] = cache_root
    os.environ["MINDDATA_CACHE_SPILL_DIR"] = spill
    import minddata as ds
    from minddata.cache import destroy_session, generate_session
    uncached, cached, fills = [], [], []
    try:
        for _ in range(args.repeats):
            ((u1, _), (u2, u2_cpu)), n = time_two_epochs(folder, None)
            uncached.append((u2, u2_cpu))
            sid = generate_session()
            try:
                ((c1, c1_cpu), (c2, c2_cpu)), _ = time_two_epochs(folder, ds.DatasetCache(sid))
                stat = ds.DatasetCache(sid).get_stat()
            finally:
                destroy_session(sid)
            fills.append((c1, c1_cpu))
            cached.append((c2, c2_cpu))
            print(f"  repeat: uncached epochs {u1:.0f} / {u2:.0f} images/s; cached epochs "
                  f"{c1:.0f} (fill) / {c2:.0f} images/s; {stat.rows} rows, "
                  f"{stat.bytes_in_memory / 2**20:.0f} MiB in memory; load average "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
    finally:
        shutil.rmtree(cache_root, ignore_errors=True)
        shutil.rmtree(spill, ignore_errors=True)
    (u2, u2_cpu), (c1, c1_cpu), (c2, c2_cpu) = (
        (statistics.median(r for r, _ in x), statistics.median(c for _, c in x))
        for x in (uncached, fills, cached))
    print(f"eval pipeline, {n} images, batch 128, 2 workers (median of {args.repeats}):")
    print(f"  uncached epoch 2:        {u2:8.0f} images/s ({u2_cpu:6.0f} per CPU-s)   "
          f"MindSpore {MS_UNCACHED_EPOCH2} -> ratio {u2 / MS_UNCACHED_EPOCH2:.2f}")
    print(f"  cached epoch 1 (fill):   {c1:8.0f} images/s ({c1_cpu:6.0f} per CPU-s)")
    print(f"  cached epoch 2:          {c2:8.0f} images/s ({c2_cpu:6.0f} per CPU-s)   "
          f"MindSpore {MS_CACHED_EPOCH2} -> ratio {c2 / MS_CACHED_EPOCH2:.2f} (target >= 2)")
    print(f"  cached / uncached epoch 2: {c2 / u2:.2f}x (target >= 5)")


if __name__ == "__main__":
    main()
