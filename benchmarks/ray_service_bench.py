"""RayService on a loopback Ray cluster: scaling over nodes, and the trainer beside it.

1. Throughput: the train pipeline (MindDataset, Decode, RandomResizedCrop(224),
   RandomHorizontalFlip, Normalize, HWC2CHW, batch 32) run by RayService on one single-CPU Ray
   node, then on two; images/s reaching the trainer and the ratio (target >= 1.6x).
2. Beside a training loop: a Python thread doing what a training step does (many tiny numpy
   calls, as in benchmarks/beside_training_bench.py) on core 1, the trainer's other threads and
   one single-CPU Ray node on core 0; the thread's iterations/s while the service delivers
   batches, against alone with core 0 kept busy by an unrelated spinning process (target >=
   95%); and where the thread's time went (waiting for the interpreter lock, or for a CPU).

Each measurement runs in a fresh process. Prints the load average before and after: on a shared
machine the figures say as much about the neighbours as about the service.

    python benchmarks/ray_service_bench.py [--seconds 8] [--repeats 1]
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
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
from beside_training_bench import busy_loop, ensure_file  # noqa: E402
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


def _schedstat():
    """(ns on the CPU, ns runnable but waiting for a CPU) of the calling thread."""
    with open("/proc/thread-self/schedstat") as f:
        on_cpu, waiting, _ = f.read().split()
    return int(on_cpu), int(waiting)


def timed_busy_loop(stop, times):
    """busy_loop, and where its wall time went: on a CPU, waiting for one (other processes
    had it: a shared machine), or neither (asleep: waiting for the interpreter lock)."""
    counter = []
    t0, (cpu0, wait0) = time.perf_counter(), _schedstat()
    busy_loop(stop, counter)
    wall_ns = (time.perf_counter() - t0) * 1e9
    cpu1, wait1 = _schedstat()
    times.update(it_s=round(counter[0] * 1e9 / wall_ns),
                 on_cpu=round((cpu1 - cpu0) / wall_ns, 3),
                 cpu_taken_by_others=round((wait1 - wait0) / wall_ns, 3),
                 gil_or_asleep=round(1 - (cpu1 - cpu0 + wait1 - wait0) / wall_ns, 3))


def start_busy_thread():
    """The training thread (on core 1): (thread, stop event, its iterations/s and time split,
    filled when it stops)."""
    stop, times = threading.Event(), {}
    t = threading.Thread(target=timed_busy_loop, args=(stop, times), daemon=True)
    t.start()
    return t, stop, times


def _role(proc):
    """What a process of the cluster does, from its command line."""
    cmd = " ".join(proc.cmdline())
    for mark, role in (("ray::PieceWorker", "actors"), ("gcs_server", "gcs"),
                       ("raylet", "raylets"), ("ray::", "other ray workers")):
        if mark in cmd:
            return role
    return "ray agents/monitors"


def cpu_snapshot(cluster):
    """{pid: (role, CPU seconds so far)} for this process (the driver) and the cluster's."""
    import psutil
    out = {}
    for proc in [psutil.Process()] + cluster.processes():
        try:
            t = proc.cpu_times()
            role = "driver" if proc.pid == os.getpid() else _role(proc)
            out[proc.pid] = (role, t.user + t.system)
        except psutil.Error:
            pass        # ended since the listing
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


def measure(mode, path, seconds, batch_size, piece_items):
    """One measurement in this process (a fresh cluster): a dict of figures."""
    from minddata.service import RayService
    from minddata.service.local_cluster import LocalRayCluster
    if mode == "busy":
        os.sched_setaffinity(0, {0})
        # Core 0 kept busy by a process that shares nothing with the thread: on a virtual
        # machine, the speed of core 1 depends on whether core 0 idles.
        spinner = subprocess.Popen(["taskset", "-c", "0", sys.executable, "-c",
                                    "while True: pass"])
        try:
            t, stop, times = start_busy_thread()
            time.sleep(seconds)
            stop.set()
            t.join()
        finally:
            spinner.kill()
            spinner.wait()
        return {"busy_it_s": times.pop("it_s"), "busy_thread": times}
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
    cores = ["0"] if mode == "beside" else None
    if mode == "beside":
        os.sched_setaffinity(0, {0})    # the trainer's own threads (Ray's, the producer) too
    cluster = start_cluster(LocalRayCluster(num_nodes=nodes, cpus_per_node=1,
                                            object_store_mb=1024, node_cores=cores))
    svc = RayService(address=cluster.address, num_workers=nodes, piece_items=piece_items)
    try:
        it = train_pipeline(path, batch_size).create_tuple_iterator(
            output_numpy=True, num_epochs=-1, service=svc)
        result = {}
        if mode == "beside":
            for _ in range(3):
                next_batch(it)
            # The thread runs only while batches are pulled (the snapshots take the
            # interpreter lock for a while).
            before, t_before = cpu_snapshot(cluster), time.perf_counter()
            t, stop, times = start_busy_thread()
            t0 = time.perf_counter()
            images = 0
            while time.perf_counter() - t0 < seconds:
                images += len(next_batch(it)[0])
            elapsed = time.perf_counter() - t0
            stop.set()
            t.join()
            window = time.perf_counter() - t_before
            result = {"images_s": images / elapsed, "busy_it_s": times.pop("it_s"),
                      "busy_thread": times,
                      "cores": cpu_by_role(before, cpu_snapshot(cluster), window)}
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


def run_worker(mode, path, seconds, batch_size, piece_items):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", mode, path,
                          str(seconds), str(batch_size), str(piece_items)],
                         capture_output=True, text=True, timeout=seconds * 10 + 400)
    if out.returncode != 0:
        raise RuntimeError(f"{mode} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--piece-items", type=int, default=_DEFAULT_PIECE_ITEMS,
                        help="RayService piece_items (default: RayService's)")
    parser.add_argument("--modes", default="1node,2nodes,busy,beside",
                        help="which measurements (comma-separated)")
    parser.add_argument("--data", default=os.environ.get("MINDDATA_BENCH_DATA", "/tmp/bench-data"))
    args = parser.parse_args(argv)
    path = ensure_file(args.data)
    print(f"load average before: {os.getloadavg()}", flush=True)
    figures = {m: [] for m in args.modes.split(",")}
    for _ in range(args.repeats):
        for mode in figures:
            r = run_worker(mode, path, args.seconds, args.batch_size, args.piece_items)
            figures[mode].append(r)
            shown = {k: v for k, v in r.items() if k != "workers"}
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
    if figures.get("busy") and figures.get("beside"):
        def unpreempted(r):     # iterations per second that no other process had its core
            return r["busy_it_s"] / max(1e-9, 1 - r["busy_thread"]["cpu_taken_by_others"])
        for alone, beside in zip(figures["busy"], figures["beside"]):
            print(f"training thread: alone {alone['busy_it_s']:10.0f} it/s, beside the service "
                  f"({beside['images_s']:.1f} img/s) {beside['busy_it_s']:10.0f} it/s: keeps "
                  f"{beside['busy_it_s'] / alone['busy_it_s']:6.1%} (target >= 95%), "
                  f"{unpreempted(beside) / unpreempted(alone):6.1%} over the time no other "
                  f"process had its core; its time "
                  f"waiting for the interpreter lock {beside['busy_thread']['gil_or_asleep']:.1%}"
                  f" (alone {alone['busy_thread']['gil_or_asleep']:.1%}), its core taken by "
                  f"other processes {beside['busy_thread']['cpu_taken_by_others']:.1%} (alone "
                  f"{alone['busy_thread']['cpu_taken_by_others']:.1%})")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        m, p, s, b, k = sys.argv[2:7]
        print(json.dumps(measure(m, p, float(s), int(b), int(k))))
    else:
        main()
