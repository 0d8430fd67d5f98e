"""The cost of the PyTorch adapter: images/s of the train pipeline read through
minddata.pytorch.to_torch + torch DataLoader(num_workers=0, batch_size=None), against the same
pipeline's plain minddata iterator.

    .venv/bin/python benchmarks/torch_adapter_bench.py [--data /tmp/bench-data] [--images 1000]
                                                       [--batch 128] [--repeats 5]

Pipeline: MindDataset (a MindRecord file of the ImageNet-like JPEGs of
../shared/tools/make_bench_data.py, written once into a temporary folder), map(Decode,
RandomResizedCrop(224), RandomHorizontalFlip, Normalize, HWC2CHW) with 2 workers, batch,
one epoch per run. The two readers alternate (which goes first alternates too), so a change of
machine load hits both alike. Prints the median images/s of each, images per CPU second of
this process, the adapter/plain ratio of the medians and the median of the per-repeat ratios,
and the load average before and after. The target is a ratio >= 0.95; nothing is asserted.
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

from bench_data import ensure_bench_data, imagenet_rows, write_mindrecord  # noqa: E402

MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def train_pipeline(path, batch):
    import minddata as ds
    import minddata.vision as vision
    data = ds.MindDataset(path, num_parallel_workers=2, shuffle=True)
    data = data.map([vision.Decode(), vision.RandomResizedCrop(224), vision.RandomHorizontalFlip(),
                     vision.Normalize(MEAN, STD), vision.HWC2CHW()], input_columns=["image"],
                    num_parallel_workers=2)
    return data.batch(batch, drop_remainder=True)


def read_plain(dataset):
    count = 0
    for image, _label in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
        count += image.shape[0]
    return count


def read_torch(dataset):
    import torch
    from minddata.pytorch import to_torch
    loader = torch.utils.data.DataLoader(to_torch(dataset), batch_size=None, num_workers=0)
    count = 0
    for image, _label in loader:
        count += image.shape[0]
    return count


def timed(read, dataset):
    """(images per wall second, images per CPU second of this process) of one epoch."""
    start, cpu_start = time.perf_counter(), time.process_time()
    count = read(dataset)
    return count / (time.perf_counter() - start), count / (time.process_time() - cpu_start)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="benchmark data folder (made if missing)")
    parser.add_argument("--images", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    data_dir = ensure_bench_data(args.data) if args.data else ensure_bench_data()
    import torch
    torch.set_num_threads(1)  # the loop does no torch compute; keep torch's pool out of the way
    tmp = tempfile.mkdtemp(prefix="torch_adapter_bench_")
    try:
        path = os.path.join(tmp, "imagenet.mindrecord")
        write_mindrecord(path, imagenet_rows(data_dir)[:args.images], "imagenet", chunk=500)
        load_before = os.getloadavg()
        readers = {"plain": read_plain, "to_torch": read_torch}
        rates = {name: [] for name in readers}
        cpu_rates = {name: [] for name in readers}
        read_plain(train_pipeline(path, args.batch))  # warm the page cache and the code paths
        for repeat in range(args.repeats):
            order = list(readers) if repeat % 2 == 0 else list(reversed(readers))
            for name in order:
                rate, cpu_rate = timed(readers[name], train_pipeline(path, args.batch))
                rates[name].append(rate)
                cpu_rates[name].append(cpu_rate)
            print(f"repeat {repeat + 1}: plain {rates['plain'][-1]:7.1f} img/s, to_torch "
                  f"{rates['to_torch'][-1]:7.1f} img/s", flush=True)
        load_after = os.getloadavg()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    med = {name: statistics.median(values) for name, values in rates.items()}
    cpu = {name: statistics.median(values) for name, values in cpu_rates.items()}
    pairwise = statistics.median(t / p for t, p in zip(rates["to_torch"], rates["plain"]))
    print(f"\ntrain pipeline, {args.images} images, batch {args.batch}, 2 map workers, "
          f"median of {args.repeats} alternating runs:")
    for name in readers:
        print(f"  {name:<9} {med[name]:8.1f} img/s   {cpu[name]:8.1f} img/CPU-s")
    ratio = med["to_torch"] / med["plain"]
    print(f"  to_torch / plain: {ratio:.3f} (medians), {pairwise:.3f} (median of per-repeat "
          f"ratios), CPU: {cpu['to_torch'] / cpu['plain']:.3f}   target >= 0.95: "
          f"{'met' if min(ratio, pairwise) >= 0.95 else 'NOT met'}")
    print(f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
