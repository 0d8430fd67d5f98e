"""Native transforms (transforms_c) and the PIL path: images/s of the image pipelines.

    .venv/bin/python benchmarks/transforms_bench.py [--data /tmp/bench-data] [--images 1000]
                                                    [--repeats 3] [--skip-e2e]

Data: the ImageNet-like JPEGs of ../shared/tools/make_bench_data.py (generated first if missing).
Part 1, per core: each op chain run directly on one thread over the in-memory JPEG bytes, as the
engine runs it (transforms_c.compile_operations, then apply per row):
  - full decode only (libjpeg-turbo),
  - train: Decode, RandomResizedCrop(224), RandomHorizontalFlip, Normalize, HWC2CHW,
  - the same with RandomCropDecodeResize(224),
  - eval: Decode, Resize(256), CenterCrop(224), Normalize, HWC2CHW,
  - py_transforms train: Decode, RandomResizedCrop(224), RandomHorizontalFlip, ToTensor,
    Normalize (Pillow).
Part 2, end to end (when the minddata engine is importable): MindDataset (a MindRecord file of the
same JPEGs, written once into a temporary folder) and ImageFolderDataset, map with 2 workers,
batch(128), one epoch; and the PIL pipeline with 2 process workers.
Figures are medians of the repeats, printed with MindSpore 2.10's figures on the same machine kind
(../shared/tools/README.md) and the ratios. Nothing is asserted. The machine is shared: run it
when it is otherwise idle, or compare within one run.
"""
import argparse
import glob
import os
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench_data import ensure_bench_data, imagenet_rows, write_mindrecord  # noqa: E402

# MindSpore 2.10.0 on this machine kind, 2 vCPU, medians of 3 (../shared/tools/README.md).
MS = {
    "train": 297,          # Decode, RandomResizedCrop, flip, Normalize, HWC2CHW, batch 128
    "train_rcdr": 459,     # same with RandomCropDecodeResize
    "train_pil": 198,      # py_transforms, 2 process workers
    "imagefolder": 288,    # ImageFolderDataset + the train pipeline
    "eval": 273,           # Decode, Resize(256), CenterCrop(224), Normalize, HWC2CHW
    "decode_core": 661,    # full JPEG decode, one core, libjpeg-turbo via simplejpeg
}
TARGETS = {"train": 3.0, "train_rcdr": 2.0, "imagefolder": 3.0, "eval": 2.0, "train_pil": 1.5}
MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def pipelines():
    import transforms_c.vision as V
    from minddata.transforms import py_transforms as PT
    from minddata.vision import py_transforms as P
    return {
        "decode": [V.Decode()],
        "train": [V.Decode(), V.RandomResizedCrop(224), V.RandomHorizontalFlip(),
                  V.Normalize(MEAN, STD), V.HWC2CHW()],
        "train_rcdr": [V.RandomCropDecodeResize(224), V.RandomHorizontalFlip(),
                       V.Normalize(MEAN, STD), V.HWC2CHW()],
        "eval": [V.Decode(), V.Resize(256), V.CenterCrop(224), V.Normalize(MEAN, STD),
                 V.HWC2CHW()],
        "train_pil": [PT.Compose([P.Decode(), P.RandomResizedCrop(224),
                                  P.RandomHorizontalFlip(), P.ToTensor(),
                                  P.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])],
    }


def time_chain(ops, datas, repeats):
    """(images per wall second, images per CPU second) of the compiled op chain on one thread
    (medians of repeats). On a shared, loaded machine the CPU-second figure is the steadier
    per-core estimate."""
    import transforms_c
    compiled = transforms_c.compile_operations(ops)
    rates, cpu_rates = [], []
    for r in range(repeats):
        start, cpu_start = time.perf_counter(), time.thread_time()
        for i, data in enumerate(datas):
            row = (data,)
            for k, op in enumerate(compiled):
                row = op.apply(row, (r << 32) + i * 16 + k)
        rates.append(len(datas) / (time.perf_counter() - start))
        cpu_rates.append(len(datas) / max(time.thread_time() - cpu_start, 1e-9))
    return statistics.median(rates), statistics.median(cpu_rates)


def ratio_text(name, value):
    ref = MS.get(name)
    if ref is None:
        return ""
    text = f"MindSpore {ref:>5} img/s   ratio {value / ref:5.2f}x"
    if name in TARGETS:
        text += f" (target {TARGETS[name]:.1f}x)"
    return text


def part1(datas, repeats):
    print(f"\n== op chains, one thread ({len(datas)} images, median of {repeats}) ==")
    print(f"{'chain':<12} {'wall img/s':>10} {'img/CPU-s':>10}")
    results = {}
    for name, ops in pipelines().items():
        rate, cpu_rate = time_chain(ops, datas, repeats)
        results[name] = cpu_rate
        extra = ratio_text("decode_core", cpu_rate) if name == "decode" else ""
        print(f"{name:<12} {rate:10.1f} {cpu_rate:10.1f}   {extra}")
    print(f"train / full decode per core (CPU time): {results['train'] / results['decode']:.2f} "
          f"(aim > 1: only region and scaled decode get there)")
    for name in ("train", "train_rcdr", "eval", "train_pil"):
        two = 2 * results[name]
        print(f"two idle cores, projected from CPU time: {name:<11} {two:8.1f} img/s   "
              f"{ratio_text(name, two)}")
    return results


def time_dataset(make, repeats):
    """(images per wall second, images per CPU second of this process) over one epoch."""
    rates, cpu_rates = [], []
    for _ in range(repeats):
        dataset = make()
        count = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        for batch in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
            count += batch[0].shape[0]
        rates.append(count / (time.perf_counter() - start))
        cpu_rates.append(count / max(time.process_time() - cpu_start, 1e-9))
    return statistics.median(rates), statistics.median(cpu_rates)


def part2(data_dir, repeats):
    print(f"\n== end to end: map with 2 workers, batch(128), one epoch, median of {repeats} ==")
    try:
        import minddata as ds
        import minddata.vision as vision
    except Exception as exc:  # the engine is another package; report, do not fail
        print(f"skipped: minddata not importable ({exc})")
        return
    pipes = pipelines()
    folder = os.path.join(data_dir, "imagenet", "train")
    tmp = tempfile.mkdtemp(prefix="transforms_bench_")
    try:
        cases = []
        try:
            mr_path = os.path.join(tmp, "imagenet.mindrecord")
            write_mindrecord(mr_path, imagenet_rows(data_dir), "imagenet", chunk=500)
            cases.append(("train", lambda: ds.MindDataset(mr_path, num_parallel_workers=2,
                                                          shuffle=True), pipes["train"]))
            cases.append(("train_rcdr", lambda: ds.MindDataset(
                mr_path, num_parallel_workers=2, shuffle=True), pipes["train_rcdr"]))
            cases.append(("eval", lambda: ds.MindDataset(mr_path, num_parallel_workers=2,
                                                         shuffle=False), pipes["eval"]))
        except Exception as exc:
            print(f"MindDataset cases skipped: {type(exc).__name__}: {exc}")
        cases.append(("imagefolder", lambda: ds.ImageFolderDataset(
            folder, num_parallel_workers=2, shuffle=True), pipes["train"]))
        for name, source, ops in cases:
            def make(source=source, ops=ops):
                return source().map(ops, input_columns=["image"],
                                    num_parallel_workers=2).batch(128, drop_remainder=True)
            try:
                rate, cpu_rate = time_dataset(make, repeats)
                print(f"{name:<12} {rate:8.1f} img/s   {ratio_text(name, rate)}   "
                      f"[{cpu_rate:.0f} img/CPU-s: {2 * cpu_rate:.0f} img/s on two idle cores]")
            except Exception as exc:
                print(f"{name:<12} failed: {type(exc).__name__}: {exc}")

        def make_pil():
            return ds.ImageFolderDataset(folder, num_parallel_workers=2, shuffle=True).map(
                pipes["train_pil"], input_columns=["image"], num_parallel_workers=2,
                python_multiprocessing=True).batch(128, drop_remainder=True)
        try:
            rate, _ = time_dataset(make_pil, repeats)  # CPU time is in the worker processes
            print(f"{'train_pil':<12} {rate:8.1f} img/s   {ratio_text('train_pil', rate)}")
        except Exception as exc:
            print(f"train_pil    failed: {type(exc).__name__}: {exc}")
        del vision
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="/tmp/bench-data")
    parser.add_argument("--images", type=int, default=1000,
                        help="images for the per-core chains (default 1000)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-e2e", action="store_true", help="only the per-core chains")
    args = parser.parse_args(argv)
    ensure_bench_data(args.data)
    files = sorted(glob.glob(os.path.join(args.data, "imagenet", "train", "*", "*.JPEG")))
    if not files:
        sys.exit(f"no JPEGs under {args.data}/imagenet/train")
    datas = [np.fromfile(f, np.uint8) for f in files[:args.images]]
    print(f"transforms_bench: {len(files)} JPEGs in {args.data}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    part1(datas, args.repeats)
    if not args.skip_e2e:
        part2(args.data, args.repeats)


if __name__ == "__main__":
    main()
