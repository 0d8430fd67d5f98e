"""RayService on a loopback Ray cluster: scaling over nodes, and the trainer beside it.

1. Throughput: the train pipeline (MindDataset, Decode, RandomResizedCrop(224),
   RandomHorizontalFlip, Normalize, HWC2CHW, batch 32) run by RayService on one single-CPU Ray
   node, then on two; images/s reaching the trainer and the ratio (target >= 1.6x).
2. Beside a training loop: a Python thread doing what a training step does (many tiny numpy
   calls, benchmarks/training_thread.py) on core 1, the trainer's other threads and one
   single-CPU Ray node on core 0. The thread's iterations/s in windows of a few seconds, alone
   (nothing pulled, the actor idle) and beside the service (batches pulled as fast as it
   delivers them), alternating in one process: each beside window against the alone windows
   either side of it, the median ratio (target >= 95%); and where the thread's time went
   (waiting for the interpreter lock, or for a CPU). As a control, the same alternation beside
   the same pipeline run by a separate process on core 0 (no Ray, no shared interpreter lock):
   what the work itself costs the thread on this machine, whoever does it.

Each measurement runs in a fresh process. Prints the load average before and after: on a shared
machine the figures say as much about the neighbours as about the service.

    python benchmarks/ray_service_bench.py [--seconds 8] [--repeats 1]
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
from beside_training_bench import ensure_file  # noqa: E402
from training_thread import (Pulling, SeparateProcess, TrainingThread,  # noqa: E402
                             alternate, summary)
from minddata.service.ray_service import _DEFAULT_PIECE_ITEMS  # noqa: E402


def train_pipeline(path, batch_size):
    import minddata as ds
    import minddata.vision as vision
    data = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True,
                          num_parallel_workers=1)
    data = data.map([vision.Decode(), vision.RandomResizedCrop(224),
                     vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD),
                     vision.HWC2CHW()], input_columns=["image"], num_parallel_workers=1)
    return data.batch(batch_size, drop_remainder=True)


def next_batch(it):
    """The next batch, across epoch ends (each epoch ends with one StopIteration)."""
    try:
        return next(it)
    except StopIteration:
        return next(it)


def images_per_s(it, seconds, cluster):
    """(images/s, cores used per role) over ``seconds`` after a warm-up."""
    for _ in range(3):       # warm-up: actors started, first pieces done
        next_batch(it)
    before = cpu_snapshot(cluster)
    t0 = time.perf_counter()
    images = 0
    while time.perf_counter() - t0 < seconds:
        images += len(next_batch(it)[0])
    elapsed = time.perf_counter() - t0
    return images / elapsed, cpu_by_role(before, cpu_snapshot(cluster), elapsed)


def _role(proc):
    """What a process of the cluster does, from its command line."""
    cmd = " ".join(proc.cmdline())
    for mark, role in (("ray::PieceWorker", "actors"), ("gcs_server", "gcs"),
                       ("raylet", "raylets"), ("ray::", "other ray workers")):
        if mark in cmd:
            return role
    return "ray agents/monitors"


def _cpu(proc):
    """CPU seconds the process has used so far, or None when it has ended."""
    import psutil
    try:
        t = proc.cpu_times()
    except psutil.Error:
        return None
    return t.user + t.system


def _cpu_seconds(procs):
    """CPU seconds the processes have used so far (an ended one counts as 0)."""
    return sum(_cpu(proc) or 0.0 for proc in procs)


def cpu_snapshot(cluster):
    """{pid: (role, CPU seconds so far)} for this process (the driver) and the cluster's."""
    import psutil
    out = {}
    for proc in [psutil.Process()] + cluster.processes():
        cpu = _cpu(proc)
        if cpu is not None:     # else ended since the listing
            out[proc.pid] = ("driver" if proc.pid == os.getpid() else _role(proc), cpu)
    return out


def cpu_by_role(before, after, seconds):
    """Cores used by each role between two snapshots (a process seen once counts from 0)."""
    cores = {}
    for pid, (role, cpu) in after.items():
        start = before.get(pid, (role, 0.0))[1]
        cores[role] = cores.get(role, 0.0) + (cpu - start) / seconds
    return {role: round(v, 3) for role, v in sorted(cores.items(), key=lambda kv: -kv[1])}


def start_cluster(cluster, tries=2):
    """Start the cluster, again after a start-up time-out (an overloaded machine)."""
    for attempt in range(tries):
        try:
            return cluster.start()
        except RuntimeError:
            if attempt == tries - 1:
                raise


def measure(mode, path, opts):
    """One measurement in this process (a fresh cluster): a dict of figures. ``opts``: seconds,
    batch_size, piece_items, and for "beside" cycles and window (seconds)."""
    seconds, batch_size = opts["seconds"], opts["batch_size"]
    from minddata.service import RayService
    from minddata.service.local_cluster import LocalRayCluster
    if mode == "local-forever":     # the control of "beside": runs until killed
        import ctypes
        # Killed with its parent too, even while stopped (PR_SET_PDEATHSIG).
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)
        it = train_pipeline(path, batch_size).create_tuple_iterator(output_numpy=True,
                                                                    num_epochs=-1)
        while True:
            next_batch(it)
    if mode == "local":     # what one core does without the service (one native thread)
        it = train_pipeline(path, batch_size).create_tuple_iterator(output_numpy=True,
                                                                    num_epochs=-1)
        for _ in range(3):
            next_batch(it)
        cpu0, t0 = time.process_time(), time.perf_counter()
        images = 0
        while time.perf_counter() - t0 < seconds:
            images += len(next_batch(it)[0])
        elapsed = time.perf_counter() - t0
        it.close()
        return {"images_s": images / elapsed,
                "cores": {"driver": round((time.process_time() - cpu0) / elapsed, 3)}}
    nodes = {"1node": 1, "2nodes": 2, "beside": 1}[mode]
    # A single-CPU node is one core: each node's processes (raylet, actor, and the GCS on the
    # head) are pinned to its own. Unpinned, one node's processes used 1.3 of the 2 cores.
    cores = {"1node": ["0"], "2nodes": ["0", "1"], "beside": ["0"]}[mode]
    if mode == "beside":
        os.sched_setaffinity(0, {0})    # the trainer's own threads (Ray's, the producer) too
    cluster = start_cluster(LocalRayCluster(num_nodes=nodes, cpus_per_node=1,
                                            object_store_mb=1024, node_cores=cores))
    svc = RayService(address=cluster.address, num_workers=nodes,
                     piece_items=opts["piece_items"])
    try:
        it = train_pipeline(path, batch_size).create_tuple_iterator(
            output_numpy=True, num_epochs=-1, service=svc)
        result = {}
        if mode == "beside":
            for _ in range(3):
                next_batch(it)
            import psutil
            actors = [p for p in cluster.processes() if _role(p) == "actors"]
            # The control: the same pipeline run by a separate process on core 0, without Ray
            # and without sharing the trainer's interpreter lock.
            control = SeparateProcess(["taskset", "-c", "0", sys.executable,
                                       os.path.abspath(__file__), "--worker", "local-forever",
                                       path, json.dumps(opts)])
            working = actors + [psutil.Process(control.pid)]
            thread = TrainingThread(core=1).start()
            try:
                windows = alternate(
                    thread, {"service": Pulling(lambda: len(next_batch(it)[0])),
                             "local_process": control},
                    lambda: _cpu_seconds(working), opts["cycles"], opts["window"])
            finally:
                thread.stop()
                control.close()
            result = {"thread": summary(windows, "service"),
                      "control": summary(windows, "local_process"), "windows": windows}
        else:
            rate, cores = images_per_s(it, seconds, cluster)
            result = {"images_s": rate, "cores": cores}
        result["workers"] = svc.stats()["workers"]
        # Batches made on another node than the trainer's cross between object stores (the
        # raylets copy them): their share of all batches made.
        import ray
        here = ray.get_runtime_context().get_node_id()
        made = sum(w["items"] for w in result["workers"]) or 1
        result["remote_share"] = round(sum(w["items"] for w in result["workers"]
                                           if w["node"] != here) / made, 3)
        it.close()
        return result
    finally:
        svc.close()
        cluster.stop()


def run_worker(mode, path, opts):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", mode, path,
                          json.dumps(opts)], capture_output=True, text=True,
                         timeout=opts["seconds"] * 10 + opts["cycles"] * opts["window"] * 4 + 400)
    if out.returncode != 0:
        raise RuntimeError(f"{mode} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0,
                        help="each throughput measurement's length")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--piece-items", type=int, default=_DEFAULT_PIECE_ITEMS,
                        help="RayService piece_items (default: RayService's)")
    parser.add_argument("--cycles", type=int, default=15,
                        help="beside: pairs of windows, alone then beside the service")
    parser.add_argument("--window", type=float, default=1.5, help="beside: a window's seconds")
    parser.add_argument("--modes", default="1node,2nodes,beside",
                        help="which measurements (comma-separated)")
    parser.add_argument("--data", default=os.environ.get("MINDDATA_BENCH_DATA", "/tmp/bench-data"))
    args = parser.parse_args(argv)
    path = ensure_file(args.data)
    opts = {"seconds": args.seconds, "batch_size": args.batch_size,
            "piece_items": args.piece_items, "cycles": args.cycles, "window": args.window}
    print(f"load average before: {os.getloadavg()}", flush=True)
    figures = {m: [] for m in args.modes.split(",")}
    for _ in range(args.repeats):
        for mode in figures:
            r = run_worker(mode, path, opts)
            figures[mode].append(r)
            shown = {k: v for k, v in r.items() if k not in ("workers", "windows")}
            if r.get("workers"):
                shown["actor_items_s"] = [w["items_per_s"] for w in r["workers"]]
            print(f"  {mode:7s} {json.dumps(shown)}", flush=True)
    print(f"load average after: {os.getloadavg()}")
    # Ratios within each repeat (measured minutes apart, not hours): the load of a shared
    # machine moves more between repeats than within one.
    if figures.get("1node") and figures.get("2nodes"):
        for one, two in zip(figures["1node"], figures["2nodes"]):
            print(f"train pipeline through RayService: 1 node {one['images_s']:7.1f} img/s, "
                  f"2 nodes {two['images_s']:7.1f} img/s: "
                  f"{two['images_s'] / one['images_s']:.2f}x (target >= 1.6x); cores the "
                  f"run got: {sum(one['cores'].values()):.2f} / {sum(two['cores'].values()):.2f}"
                  f" (2 nodes: {two['cores'].get('raylets', 0):.2f} in the raylets, copying "
                  f"{two['remote_share']:.0%} of the batches between object stores)")
        if len(figures["2nodes"]) > 1:
            ratios = [two["images_s"] / one["images_s"]
                      for one, two in zip(figures["1node"], figures["2nodes"])]
            print(f"median of the {len(ratios)} ratios: {statistics.median(ratios):.2f}x")
    for r in figures.get("beside", []):
        t = r["thread"]
        print(f"training thread beside the service: keeps {t['keeps']:6.1%} of its speed alone "
              f"(target >= 95%; median of {len(t['ratios'])} windows of {args.window:g} s, each "
              f"against the alone windows either side: {min(t['ratios']):.1%} to "
              f"{max(t['ratios']):.1%}); alone {t['it_s']['alone']:,.0f} it/s, beside "
              f"{t['it_s']['beside']:,.0f} it/s while {t['pulled_s']:.0f} img/s arrived; the "
              f"actor used {t['pipeline_cores']['alone']:.2f} cores alone, "
              f"{t['pipeline_cores']['beside']:.2f} beside; the thread waited for the "
              f"interpreter lock {t['gil_or_asleep']['beside']:.1%} of its time (alone "
              f"{t['gil_or_asleep']['alone']:.1%}), for its core "
              f"{t['cpu_taken_by_others']['beside']:.1%} (alone "
              f"{t['cpu_taken_by_others']['alone']:.1%})")
        c = r["control"]
        print(f"  control: beside the same pipeline in a separate process on core 0 (no Ray, no "
              f"shared interpreter lock) the thread keeps {c['keeps']:6.1%} ({min(c['ratios']):.1%}"
              f" to {max(c['ratios']):.1%}): what the work itself costs it on this machine")
    if len(figures.get("beside", [])) > 1:
        pooled = {k: [x for r in figures["beside"] for x in r[k]["ratios"]]
                  for k in ("thread", "control")}
        print(f"over all {len(pooled['thread'])} windows of the {len(figures['beside'])} runs "
              f"(median): beside the service the thread keeps "
              f"{statistics.median(pooled['thread']):.1%}, beside the control "
              f"{statistics.median(pooled['control']):.1%}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        m, p, o = sys.argv[2:5]
        print(json.dumps(measure(m, p, json.loads(o))))
    else:
        main()
