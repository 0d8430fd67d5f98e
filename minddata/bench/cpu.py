"""CPU time per worker thread and worker process over a run (psutil)."""
import os
import threading

import psutil


def _thread_names():
    return {t.native_id: t.name for t in threading.enumerate() if t.native_id is not None}


class CpuSampler:
    """Snapshot CPU times at ``start()``; ``stop()`` returns the per-worker figures.

    Threads are named from Python's ``threading`` (engine workers have descriptive names);
    child processes (``python_multiprocessing=True`` workers) are listed by pid.
    """

    def __init__(self):
        self.proc = psutil.Process(os.getpid())
        self._threads0 = {}
        self._children0 = {}
        self._cpu0 = None
        self.names = {}

    def start(self):
        self._cpu0 = self.proc.cpu_times()
        self._threads0 = {t.id: t.user_time + t.system_time for t in self.proc.threads()}
        self._children0 = self._children_times()
        self.names = _thread_names()

    def note_threads(self):
        """Remember the names of threads alive now (call while the pipeline runs)."""
        self.names.update(_thread_names())

    def _children_times(self):
        times = {}
        for child in self.proc.children(recursive=True):
            try:
                t = child.cpu_times()
                times[child.pid] = t.user + t.system
            except psutil.Error:
                pass
        return times

    def stop(self, wall_s):
        """{"process_percent", "cores", "workers": [{"name", "cpu_s", "percent"}]}."""
        self.note_threads()
        cpu1 = self.proc.cpu_times()
        process_s = (cpu1.user + cpu1.system) - (self._cpu0.user + self._cpu0.system)
        workers = []
        main_id = threading.main_thread().native_id
        for t in self.proc.threads():
            used = t.user_time + t.system_time - self._threads0.get(t.id, 0.0)
            if used <= 0.0005:
                continue
            name = self.names.get(t.id) or ("main" if t.id == main_id else f"thread-{t.id}")
            workers.append({"name": name, "kind": "thread", "cpu_s": round(used, 4)})
        children0 = self._children0
        for pid, total in self._children_times().items():
            used = total - children0.get(pid, 0.0)
            if used > 0.0005:
                workers.append({"name": f"process-{pid}", "kind": "process",
                                "cpu_s": round(used, 4)})
                process_s += used
        wall = max(wall_s, 1e-9)
        for w in workers:
            w["percent"] = round(100.0 * w["cpu_s"] / wall, 1)
        workers.sort(key=lambda w: -w["cpu_s"])
        return {"process_percent": round(100.0 * process_s / wall, 1),
                "cores": psutil.cpu_count() or 1, "workers": workers}
