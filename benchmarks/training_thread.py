"""A training loop's Python thread, and how much of its speed a pipeline beside it leaves it.

The thread does what a training step does on an accelerator: many tiny numpy calls, as kernel
launches are. Its progress and where its time went (on a CPU, waiting for one, or neither:
waiting for the interpreter lock) can be read at any moment.

Why windows in alternation (`alternate`): on a virtual machine the speed of a core drifts by
15-35% within minutes, with whatever the host runs. Measuring the thread alone in one process,
then beside the pipeline in another, compares two moments as much as two conditions. Windows a
few seconds long, alone then beside, many times in one process, give one ratio per pair of
neighbouring windows; their median is the figure.
"""
import os
import signal
import statistics
import threading
import time
from collections import namedtuple

Snapshot = namedtuple("Snapshot", "wall iterations on_cpu_ns waiting_ns")


class TrainingThread:
    """The loop on its own core (``core``); ``iterations`` counts its steps of 100 calls."""

    def __init__(self, core):
        self.core = core
        self.iterations = 0
        self._stop = threading.Event()
        self._tid = None
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, name="training-loop", daemon=True)

    def _run(self):
        os.sched_setaffinity(0, {self.core})
        self._tid = threading.get_native_id()
        self._started.set()
        self._loop()

    def _loop(self):
        import numpy as np
        a = np.zeros(16, np.float32)
        b = np.ones(16, np.float32)
        while not self._stop.is_set():
            for _ in range(100):
                np.add(a, b, out=a)
                np.multiply(a, 0.5, out=a)
            self.iterations += 100

    def start(self):
        self._thread.start()
        self._started.wait()
        return self

    def stop(self):
        self._stop.set()
        self._thread.join()

    def snapshot(self):
        """Now: wall time, iterations, and the thread's ns on a CPU and runnable without one."""
        with open(f"/proc/self/task/{self._tid}/schedstat") as f:
            on_cpu, waiting, _ = f.read().split()
        return Snapshot(time.perf_counter(), self.iterations, int(on_cpu), int(waiting))


class TorchStepThread(TrainingThread):
    """The host side of a training step on a GPU: torch operations, each letting the GIL go
    while it dispatches (as a CUDA kernel launch does), a little Python between them; on tiny
    CPU tensors here. numpy's tiny calls (TrainingThread) never let it go."""

    def start(self):
        import torch            # imported before the clock starts, not in the loop's time
        torch.set_num_threads(1)
        return super().start()

    def _loop(self):
        import torch
        a, b = torch.zeros(16), torch.ones(16)
        while not self._stop.is_set():
            for _ in range(100):
                a.add_(b)
                a.mul_(0.5)
            self.iterations += 100


def holding_gil(ms):
    """A load for beside the loop: Python holding the GIL for ``ms`` milliseconds."""
    def work():
        end = time.perf_counter() + ms / 1e3
        while time.perf_counter() < end:
            pass
    return work


def torch_calls(count):
    """A load for beside the loop: ``count`` tiny torch calls (a CPU tensor's view()), each
    letting the GIL go and taking it back, as a GPU batch's torch calls and kernel launches
    do."""
    import torch
    tiny = torch.zeros(16)

    def work():
        for _ in range(count):
            tiny.view(-1)
    return work


def window(before, after):
    """The thread between two snapshots: iterations/s and the shares of its wall time."""
    wall_ns = (after.wall - before.wall) * 1e9
    on_cpu = (after.on_cpu_ns - before.on_cpu_ns) / wall_ns
    waiting = (after.waiting_ns - before.waiting_ns) / wall_ns
    return {"it_s": (after.iterations - before.iterations) * 1e9 / wall_ns,
            "on_cpu": on_cpu, "cpu_taken_by_others": waiting,
            "gil_or_asleep": max(0.0, 1 - on_cpu - waiting)}


def _wait_quiet(pipeline_cpu, poll=0.2, idle_share=0.02, timeout=10.0):
    """Until the pipeline's processes use under ``idle_share`` of a core (its queues full)."""
    t_end = time.perf_counter() + timeout
    last = pipeline_cpu()
    while time.perf_counter() < t_end:
        time.sleep(poll)
        now = pipeline_cpu()
        if now - last < idle_share * poll:
            return
        last = now
    raise RuntimeError(f"the pipeline still used {(now - last) / poll:.2f} cores "
                       f"{timeout:.0f} s after the last item was pulled")


def _measured(thread, pipeline_cpu, seconds, pull=None):
    """One window: the thread's figures, the pipeline's cores, and pull()'s sum per second."""
    t0, cpu0, pulled = thread.snapshot(), pipeline_cpu(), 0
    while time.perf_counter() - t0.wall < seconds:
        if pull is None:
            time.sleep(0.05)
        else:
            pulled += pull()
    t1, cpu1 = thread.snapshot(), pipeline_cpu()
    out = window(t0, t1)
    out["pipeline_cores"] = (cpu1 - cpu0) / (t1.wall - t0.wall)
    out["pulled_s"] = pulled / (t1.wall - t0.wall)
    return out


class Pulling:
    """Beside a pipeline this process pulls from: ``pull()`` returns how many items it got."""

    def __init__(self, pull):
        self.pull = pull

    def begin(self):
        pass

    def end(self):
        pass


class SeparateProcess:
    """Beside a process that works on its own (``args``), stopped between its windows."""

    def __init__(self, args, warm_up=3.0):
        import subprocess
        self.proc = subprocess.Popen(args)
        self.pid = self.proc.pid
        time.sleep(warm_up)
        self.end()

    def begin(self):
        os.kill(self.proc.pid, signal.SIGCONT)

    def pull(self):
        time.sleep(0.05)
        return 0

    def end(self):
        os.kill(self.proc.pid, signal.SIGSTOP)

    def close(self):
        self.proc.kill()
        self.proc.wait()


def alternate(thread, besides, pipeline_cpu, cycles, seconds, settle=0.5):
    """Windows of ``seconds``: alone, then beside each of ``besides`` ({name: Pulling or
    SeparateProcess}) with an alone window between any two, ``cycles`` times, ending alone.

    Alone: from once the pipelines have gone idle (``pipeline_cpu()``, the CPU seconds their
    processes have used so far, stops growing). Beside: ``pull()`` called over and over, from
    ``settle`` seconds before the window. Returns the windows in order, each a dict with "kind"
    ("alone" or the name).
    """
    windows = []

    def alone():
        _wait_quiet(pipeline_cpu)
        windows.append(dict(_measured(thread, pipeline_cpu, seconds), kind="alone"))

    alone()
    for _ in range(cycles):
        for name, beside in besides.items():
            beside.begin()
            try:
                t_settle = time.perf_counter()
                while time.perf_counter() - t_settle < settle:
                    beside.pull()
                windows.append(dict(_measured(thread, pipeline_cpu, seconds, beside.pull),
                                    kind=name))
            finally:
                beside.end()
            alone()
    return windows


def summary(windows, kind):
    """The windows of ``kind`` each against the mean of the alone windows either side of it:
    the median of those ratios and all of them, and the median of every other figure of both."""
    med = statistics.median
    ratios = [w["it_s"] * 2 / (windows[k - 1]["it_s"] + windows[k + 1]["it_s"])
              for k, w in enumerate(windows) if w["kind"] == kind]
    alone = [w for w in windows if w["kind"] == "alone"]
    beside = [w for w in windows if w["kind"] == kind]
    out = {"keeps": med(ratios), "ratios": [round(r, 3) for r in ratios]}
    for key in ("it_s", "on_cpu", "cpu_taken_by_others", "gil_or_asleep", "pipeline_cores"):
        out[key] = {"alone": med([w[key] for w in alone]),
                    "beside": med([w[key] for w in beside])}
    out["pulled_s"] = med([w["pulled_s"] for w in beside])
    return out
