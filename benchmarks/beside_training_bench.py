"""The pipeline beside a Python training loop, against MindSpore 2.10, side by side.

The train pipeline (MindDataset, Decode, RandomResizedCrop(224), RandomHorizontalFlip, Normalize,
HWC2CHW, batch 32, one map worker) runs on core 0; a Python thread doing what a training step does
on an accelerator (many tiny numpy calls, as kernel launches are: benchmarks/training_thread.py)
runs on core 1, in the same process. Printed for each framework:
- the pipeline's images/s alone and beside the thread, and the share it keeps (fresh processes);
- the share of its speed the thread keeps beside the pipeline: in one process, windows of a few
  seconds alone (nothing pulled, the pipeline idle once its queues are full) and beside (batches
  pulled as fast as they come) alternate; each beside window is compared with the alone windows
  either side of it, and the median ratio is the figure (the speed of a core of this VM drifts
  by 15-35% within minutes, so separate runs would compare moments as much as pipelines).
MindSpore runs from its own venv (--mindspore-python, default /work/msvenv/bin/python) on the same
file, alternating with minddata; it is skipped when that interpreter is absent.

    python benchmarks/beside_training_bench.py [--seconds 6] [--repeats 2] [--cycles 9]
"""
import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from training_thread import Pulling, TrainingThread, alternate, summary  # noqa: E402

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def measure(framework, path, mode, seconds, batch_size, cycles):
    """One measurement in this process. pipeline / both: {'images_s': ...}; alternate: the
    training thread's windows alone and beside the pipeline, summarised."""
    os.sched_setaffinity(0, {0})       # the pipeline's threads are created from here: core 0
    if framework == "mindspore":
        import mindspore.dataset as ds
        import mindspore.dataset.vision as vision
    else:
        sys.path.insert(0, ROOT)
        import minddata as ds
        import minddata.vision as vision
    data = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True,
                          num_parallel_workers=1)
    data = data.map([vision.Decode(), vision.RandomResizedCrop(224),
                     vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD),
                     vision.HWC2CHW()], input_columns=["image"], num_parallel_workers=1)
    data = data.batch(batch_size, drop_remainder=True)
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=-1)

    def pull():
        try:
            return len(next(it)[0])
        except StopIteration:       # an epoch ended; the next one starts
            return 0

    for _ in range(3):       # warm-up
        pull()
    thread = TrainingThread(core=1).start() if mode in ("both", "alternate") else None
    try:
        if mode == "alternate":
            # The pipeline's CPU: the process's, less the training thread's.
            def pipeline_cpu():
                return time.process_time() - thread.snapshot().on_cpu_ns / 1e9
            windows = alternate(thread, {"pipeline": Pulling(pull)}, pipeline_cpu, cycles,
                                seconds)
            return summary(windows, "pipeline")
        t0 = time.perf_counter()
        images = 0
        while time.perf_counter() - t0 < seconds:
            images += pull()
        return {"images_s": images / (time.perf_counter() - t0)}
    finally:
        if thread is not None:
            thread.stop()
        it.stop() if hasattr(it, "stop") else None


def ensure_file(data_dir):
    sys.path.insert(0, HERE)
    from bench_data import ensure_bench_data, imagenet_rows, write_mindrecord
    ensure_bench_data(data_dir)
    path = os.path.join(data_dir, "beside_training.mindrecord")
    if not os.path.exists(path):
        write_mindrecord(path, imagenet_rows(data_dir), "beside_training", chunk=500)
    return path


def run_worker(python, framework, path, mode, seconds, batch_size, cycles):
    from bench_data import run_measurement
    return run_measurement(__file__, framework, python,
                           [path, mode, seconds, batch_size, cycles],
                           timeout=seconds * (10 + 4 * cycles) + 120)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0,
                        help="a throughput run's length; the alternating windows' is a third")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--cycles", type=int, default=9,
                        help="pairs of windows (alone, beside) for the training thread's share")
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
    figures = {name: {"pipeline": [], "both": [], "alternate": []} for name, _ in frameworks}
    for _ in range(args.repeats):
        for mode in ("pipeline", "both", "alternate"):
            seconds = args.seconds / 3 if mode == "alternate" else args.seconds
            for name, python in frameworks:      # alternating, same data, same machine
                figures[name][mode].append(run_worker(python, name, path, mode, seconds,
                                                      args.batch_size, args.cycles))
    print(f"load average after: {os.getloadavg()}")
    med = statistics.median
    rows = {}
    for name, _ in frameworks:
        f = figures[name]
        alone = med([r["images_s"] for r in f["pipeline"]])
        beside = med([r["images_s"] for r in f["both"]])
        rows[name] = beside
        keeps = [r["keeps"] for r in f["alternate"]]
        pooled = med([x for r in f["alternate"] for x in r["ratios"]])
        gil = med([r["gil_or_asleep"]["beside"] for r in f["alternate"]])
        print(f"{name:10s} pipeline alone {alone:8.1f} img/s, beside the loop {beside:8.1f} img/s "
              f"(keeps {beside / alone:6.1%}); the loop keeps "
              f"{' / '.join(f'{k:.1%}' for k in keeps)} of its speed beside the pipeline "
              f"(median of {args.cycles} alternating windows per run; of all the runs' "
              f"windows {pooled:.1%}; it waited for the "
              f"interpreter lock {gil:.1%} of its time)")
    if "mindspore" in rows:
        print(f"beside a training loop: minddata / MindSpore = "
              f"{rows['minddata'] / rows['mindspore']:.2f}x")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        fw, p, m, s, b, c = sys.argv[2:8]
        print(json.dumps(measure(fw, p, m, float(s), int(b), int(c))))
    else:
        main()
