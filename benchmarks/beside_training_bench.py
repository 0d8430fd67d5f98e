"""The pipeline beside a Python training loop, against MindSpore 2.10, side by side.

The train pipeline (MindDataset, Decode, RandomResizedCrop(224), RandomHorizontalFlip, Normalize,
HWC2CHW, batch 32, one map worker) runs on core 0; a Python thread doing what a training step does
on an accelerator (many tiny numpy calls, as kernel launches are) runs on core 1, in the same
process. Printed for each framework: the pipeline's images/s alone and beside the busy thread
(and the share it keeps), the busy thread's iterations/s alone and beside the pipeline, and, as
the machine's ceiling, beside a plain shell loop busy on core 0 (no Python, no interpreter lock:
on a VM whose two vCPUs share hardware, or with other load, no pipeline can do better).
MindSpore runs from its own venv (--mindspore-python, default /work/msvenv/bin/python) on the same
file, alternating with minddata; it is skipped when that interpreter is absent.

    python benchmarks/beside_training_bench.py [--seconds 6] [--repeats 2]
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def busy_loop(stop, counter):
    """A training step's Python side: many tiny numpy calls."""
    import numpy as np
    os.sched_setaffinity(0, {1})
    a = np.zeros(16, np.float32)
    b = np.ones(16, np.float32)
    n = 0
    while not stop.is_set():
        for _ in range(100):
            np.add(a, b, out=a)
            np.multiply(a, 0.5, out=a)
        n += 100
    counter.append(n)


def measure(framework, path, mode, seconds, batch_size):
    """One measurement in this process: {'images_s': ..., 'busy_it_s': ...}."""
    os.sched_setaffinity(0, {0})       # the pipeline's threads are created from here: core 0
    if framework == "mindspore":
        import mindspore.dataset as ds
        import mindspore.dataset.vision as vision
    else:
        sys.path.insert(0, ROOT)
        import minddata as ds
        import minddata.vision as vision
    result = {}
    stop, counter = threading.Event(), []
    busy = None
    if mode in ("busy", "both", "hog"):
        busy = threading.Thread(target=busy_loop, args=(stop, counter), daemon=True)
    if mode in ("pipeline", "both"):
        data = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True,
                              num_parallel_workers=1)
        data = data.map([vision.Decode(), vision.RandomResizedCrop(224),
                         vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD),
                         vision.HWC2CHW()], input_columns=["image"], num_parallel_workers=1)
        data = data.batch(batch_size, drop_remainder=True)
        it = data.create_tuple_iterator(output_numpy=True, num_epochs=-1)
        for _ in range(3):       # warm-up
            next(it)
        if busy is not None:
            busy.start()
        t0 = time.perf_counter()
        images = 0
        while time.perf_counter() - t0 < seconds:
            try:
                batch = next(it)
            except StopIteration:       # an epoch ended; the next one starts
                continue
            images += len(batch[0])
        elapsed = time.perf_counter() - t0
        result["images_s"] = images / elapsed
        stop.set()
        if busy is not None:
            busy.join()
            result["busy_it_s"] = counter[0] / elapsed
        it.stop() if hasattr(it, "stop") else None
    else:
        hog = None
        if mode == "hog":   # the ceiling: any process busy on core 0, no Python, no GIL
            hog = subprocess.Popen(["taskset", "-c", "0", "sh", "-c", "while :; do :; done"])
            time.sleep(0.3)
        busy.start()
        time.sleep(seconds)
        stop.set()
        busy.join()
        if hog is not None:
            hog.kill()
            hog.wait()
        result["busy_it_s"] = counter[0] / seconds
    return result


def ensure_file(data_dir):
    sys.path.insert(0, HERE)
    from bench_data import ensure_bench_data, imagenet_rows, write_mindrecord
    ensure_bench_data(data_dir)
    path = os.path.join(data_dir, "beside_training.mindrecord")
    if not os.path.exists(path):
        write_mindrecord(path, imagenet_rows(data_dir), "beside_training", chunk=500)
    return path


def run_worker(python, framework, path, mode, seconds, batch_size):
    from bench_data import run_measurement
    return run_measurement(__file__, framework, python, [path, mode, seconds, batch_size],
                           timeout=seconds * 10 + 120)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--data", default=os.environ.get("MINDDATA_BENCH_DATA", "/tmp/bench-data"))
    parser.add_argument("--mindspore-python", default="/work/msvenv/bin/python")
    args = parser.parse_args(argv)
    path = ensure_file(args.data)
    frameworks = [("minddata", sys.executable)]
    if os.path.exists(args.mindspore_python):
        frameworks.append(("mindspore", args.mindspore_python))
    else:
        print(f"MindSpore interpreter {args.mindspore_python} absent: minddata only")
    print(f"load average before: {os.getloadavg()}")
    figures = {name: {"pipeline": [], "busy": [], "both": [], "hog": []}
               for name, _ in frameworks}
    for _ in range(args.repeats):
        for mode in ("pipeline", "busy", "both", "hog"):
            for name, python in frameworks:      # alternating, same data, same machine
                figures[name][mode].append(run_worker(python, name, path, mode, args.seconds,
                                                      args.batch_size))
    print(f"load average after: {os.getloadavg()}")
    med = lambda xs: sorted(xs)[len(xs) // 2]    # noqa: E731
    rows = {}
    for name, _ in frameworks:
        f = figures[name]
        alone = med([r["images_s"] for r in f["pipeline"]])
        beside = med([r["images_s"] for r in f["both"]])
        busy_alone = med([r["busy_it_s"] for r in f["busy"]])
        busy_beside = med([r["busy_it_s"] for r in f["both"]])
        rows[name] = beside
        print(f"{name:10s} pipeline alone {alone:8.1f} img/s, beside the loop {beside:8.1f} img/s "
              f"(keeps {beside / alone:6.1%}); loop alone {busy_alone:10.0f} it/s, beside the "
              f"pipeline {busy_beside:10.0f} it/s (keeps {busy_beside / busy_alone:6.1%}; "
              f"beside a non-Python CPU hog on core 0 it keeps "
              f"{med([r['busy_it_s'] for r in f['hog']]) / busy_alone:6.1%})")
    if "mindspore" in rows:
        print(f"beside a training loop: minddata / MindSpore = "
              f"{rows['minddata'] / rows['mindspore']:.2f}x")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        fw, p, m, s, b = sys.argv[2:7]
        print(json.dumps(measure(fw, p, m, float(s), int(b))))
    else:
        main()
