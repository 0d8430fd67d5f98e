"""Dataset Profiling as MindSpore 2.x drives it: ``mindspore._c_dataengine.GlobalContext
.profiling_manager()`` (``MANAGER`` here) with ``init()``, ``start()``, ``stop()`` and
``save(dir)``. mindspore.Profiler calls these; MindSpore's tests call them directly.

After ``init()`` the manager watches the first pipeline iterated (a later one, while it
records, gets MindSpore's warning and runs unwatched). Between ``start()`` and ``stop()`` it
records (each ``start()`` a new recording, as in MindSpore; a pipeline may start before or
after ``start()``), from the counters the engine keeps for every stage (engine/stats.py) and
from the items the consumer takes:

- a sample every ``ds.config.get_monitor_sampling_interval()`` milliseconds (as set when the
  recording began) while items flow, and one at ``stop()`` (or when the run ends first);
- each item: when it was asked for, how long it took, the prefetch queue's fill.

``save(dir)`` writes the last recording, for ``DEVICE_ID`` (``RANK_ID`` when unset, else 0);
nothing when no pipeline ran while recording:

- ``pipeline_profiling_<id>.json``: ``{"sampling_interval", "op_info": [{"op_id", "op_type",
  "num_workers", "children", "metrics"}]}``, op ids root first, op types as MindSpore names them
  (``EpochCtrlOp`` on top when more than one epoch was asked for). ``metrics`` is null for the
  ops MindSpore runs inline (zip, concat, rename, skip, take, repeat, project, epoch control),
  otherwise ``{"output_queue": {"size": [...], "length": capacity, "throughput": [...]}}``, per
  sample the queue's mean fill over the sample's interval (the run's mean when no item left
  the queue in it) and the rows per second; empty lists and length 0 for an op the engine
  folds into another stage (e.g. a map run inside a native batch);
- ``minddata_cpu_utilization_<id>.json``: ``{"sampling_interval", "cpu_processor_num",
  "time_stamp", "process_info": {"user_utilization", "sys_utilization"}, "op_info": [{"op_id",
  "op_type", "metrics": {"busy_utilization"}}], "process_memory_info": {"pss_mbytes",
  "rss_mbytes", "vss_mbytes"}, "system_memory_info": {"total_sys_memory_mbytes",
  "available_sys_memory_mbytes", "used_sys_memory_mbytes"}}``, one value per sample (RSS
  stands in for PSS where /proc does not give it); percentages of one core; an op's busy
  utilization is the time its stage spent producing rows (its workers' CPU is not told apart
  from the process's);
- ``dataset_iterator_profiling_<id>.txt``: four lines per item taken, ``<type> <name> <step>
  <value> <time_us>``: ``0 get_next_us`` (time inside the iterator's next), ``1
  consumer_gap_us`` (time since the previous item was handed over), ``2 queue_depth`` (chunks
  of items waiting in the prefetch queue after it: the producer hands items over in small
  chunks), ``3 queue_capacity`` (in chunks).

MindSpore's ``minddata_pipeline_raw_<id>.csv`` is written by its Profiler's analyser from these
files, and ``device_queue_profiling_<id>.txt`` only in sink mode on a device: neither here.
"""
import json
import os
import threading
import time
import weakref

import psutil

from . import config
from .compat_layout.iterator_registry import add_watcher
from .pipeline_watch import INLINE_OPS, RunWatch, device_id, match_stats, op_tree, warn

_MB = 1024 * 1024


class ProfileWatch(RunWatch):
    """What the manager records of the pipeline it watches."""

    def __init__(self, iterator, interval_ms):
        super().__init__(iterator)
        self._iterator_ref = weakref.ref(iterator)
        self.ops = op_tree(self.dataset, self.num_epochs)
        self.stats = match_stats(self.ops, self.stage_stats)
        # The manager keeps its last watch until the next init(): it must not keep the
        # pipeline (its data, sources, operations) alive that long.
        self.dataset = None
        for entry in self.ops:
            entry.pop("node")
        self.capacity = self._queue.maxsize if self._queue is not None else 0
        self._wall_offset = time.time() - time.perf_counter()
        self._proc = psutil.Process(os.getpid())
        self._lock = threading.Lock()
        self.recording = False
        self.items = []
        self.samples = []
        self.interval_ms = interval_ms
        if interval_ms is not None:
            self.begin(interval_ms)
            # The run's counters started at zero when it was built (its threads may have
            # produced rows before this watch was attached): the first sample counts from there.
            self._last["ops"] = {i: (0, 0.0, 0, 0) for i in self.stats}

    def begin(self, interval_ms):
        """Start a new recording, sampling every ``interval_ms`` (what an earlier recording
        holds is dropped, as in MindSpore)."""
        self.items = []             # (t_start, t_end, queue depth), perf_counter seconds
        self.samples = []
        self.interval_ms = interval_ms
        self._last = self._snapshot(time.perf_counter())
        self.recording = self.running()

    def is_for(self, iterator):
        return self._iterator_ref() is iterator

    def on_item(self, item, t_start, t_end):
        if not self.recording:
            return
        if item is None:        # an epoch's end: not an item handed to the consumer
            return
        self.items.append((t_start, t_end, self.queue_depth()))
        if t_end - self._last["t"] >= self.interval_ms / 1000.0:
            self.sample(t_end)

    def on_close(self):
        if self.recording:
            self.sample(time.perf_counter())

    def finish(self):
        """Stop recording, with a last sample when the run is still going."""
        if self.recording and self.running():
            self.sample(time.perf_counter())
        self.recording = False

    def _snapshot(self, now):
        return {"t": now, "cpu": self._proc.cpu_times(),
                "ops": {i: (st.rows_out, st.busy_s, st.queue_occupancy_sum, st.queue_samples)
                        for i, st in self.stats.items()}}

    def sample(self, now):
        with self._lock:
            prev, cur = self._last, self._snapshot(now)
            self._last = cur
        dt = max(cur["t"] - prev["t"], 1e-9)
        ops = {}
        for i, (rows, busy, occ, n) in cur["ops"].items():
            rows0, busy0, occ0, n0 = prev["ops"][i]
            st = self.stats[i]
            fill = (occ - occ0) / (n - n0) if n > n0 else st.mean_queue_occupancy()
            ops[i] = {"size": round(fill, 3), "throughput": round((rows - rows0) / dt, 3),
                      "busy": round(100.0 * (busy - busy0) / dt, 3)}
        try:
            mem = self._proc.memory_full_info()
            pss = mem.pss
        except psutil.Error:    # /proc/<pid>/smaps may be denied: RSS stands in for PSS
            mem = self._proc.memory_info()
            pss = mem.rss
        system = psutil.virtual_memory()
        self.samples.append({
            "time_stamp": int(time.time() * 1e6),
            "user": round(100.0 * (cur["cpu"].user - prev["cpu"].user) / dt, 3),
            "sys": round(100.0 * (cur["cpu"].system - prev["cpu"].system) / dt, 3),
            "ops": ops,
            "pss": round(pss / _MB, 3), "rss": round(mem.rss / _MB, 3),
            "vss": round(mem.vms / _MB, 3), "total": round(system.total / _MB, 3),
            "available": round(system.available / _MB, 3),
            "used": round((system.total - system.available) / _MB, 3),
        })

    # -- files -------------------------------------------------------------------------------
    def pipeline_json(self):
        op_info = []
        for entry in self.ops:
            metrics = None
            if entry["op_type"] not in INLINE_OPS:
                st = self.stats.get(entry["op_id"])
                series = [s["ops"][entry["op_id"]] for s in self.samples] if st else []
                metrics = {"output_queue": {
                    "size": [s["size"] for s in series],
                    "length": (st.queue_capacity or 0) if st else 0,
                    "throughput": [s["throughput"] for s in series]}}
            st = self.stats.get(entry["op_id"])
            workers = entry["num_workers"]
            if st is not None and entry["op_type"] not in INLINE_OPS:
                workers = st.num_workers
            op_info.append({"op_id": entry["op_id"], "op_type": entry["op_type"],
                            "num_workers": workers, "metrics": metrics,
                            "children": entry["children"]})
        return {"sampling_interval": self.interval_ms, "op_info": op_info}

    def cpu_json(self):
        samples = self.samples
        op_info = [{"op_id": e["op_id"], "op_type": e["op_type"], "metrics": {
            "busy_utilization": [s["ops"][e["op_id"]]["busy"] for s in samples
                                 if e["op_id"] in s["ops"]]}} for e in self.ops]
        return {
            "sampling_interval": self.interval_ms, "cpu_processor_num": os.cpu_count(),
            "time_stamp": [s["time_stamp"] for s in samples],
            "process_info": {"user_utilization": [s["user"] for s in samples],
                             "sys_utilization": [s["sys"] for s in samples]},
            "op_info": op_info,
            "process_memory_info": {"pss_mbytes": [s["pss"] for s in samples],
                                    "rss_mbytes": [s["rss"] for s in samples],
                                    "vss_mbytes": [s["vss"] for s in samples]},
            "system_memory_info": {
                "total_sys_memory_mbytes": [s["total"] for s in samples],
                "available_sys_memory_mbytes": [s["available"] for s in samples],
                "used_sys_memory_mbytes": [s["used"] for s in samples]},
        }

    def iterator_lines(self):
        lines = []
        previous_end = None
        for step, (t0, t1, depth) in enumerate(self.items, 1):
            stamp = int((t1 + self._wall_offset) * 1e6)     # microseconds since the epoch
            gap = 0 if previous_end is None else int((t0 - previous_end) * 1e6)
            lines += [f"0 get_next_us {step} {int((t1 - t0) * 1e6)} {stamp}",
                      f"1 consumer_gap_us {step} {gap} {stamp}",
                      f"2 queue_depth {step} {depth} {stamp}",
                      f"3 queue_capacity {step} {self.capacity} {stamp}"]
            previous_end = t1
        return lines


class ProfilingManager:
    """MindSpore's MindData profiling manager (module docstring). After ``init()`` it watches
    the first pipeline iterated; ``start()`` and ``stop()`` begin and end a recording of it
    (each ``start()`` a new one), ``save()`` writes the last recording."""

    _NEW, _RUNNING, _STOPPED = "not initialized", "running", "stopped"

    def __init__(self):
        self._state = self._NEW
        self._started = False       # start() was called since init()
        self._watch = None
        self._interval_ms = None    # the sampling interval of the recording (from start())

    def init(self):
        """Get ready to profile the next pipeline iterated (forgets what was recorded)."""
        if _live_autotune():
            raise RuntimeError("Unexpected error. Stop MD Autotune before initializing the MD "
                               "Profiler.")
        if self._state == self._RUNNING:
            raise RuntimeError("MD ProfilingManager is already running; call stop() before "
                               "init().")
        self._state = self._STOPPED
        self._started = False
        self._watch = None
        add_watcher(self._watch_iterator, first=True)

    def start(self):
        """Start recording the watched pipeline (or the next one iterated)."""
        if self._state == self._NEW:
            raise RuntimeError("MD ProfilingManager has not been initialized: call init() "
                               "before start().")
        if self._state == self._RUNNING:
            raise RuntimeError("MD ProfilingManager is already running.")
        self._state = self._RUNNING
        self._started = True
        self._interval_ms = config.get_monitor_sampling_interval()
        if self._watch is not None:
            self._watch.begin(self._interval_ms)

    def stop(self):
        """Stop recording (with a last sample of the watched pipeline)."""
        if not self._started:
            # MindSpore's sentence first, as its suite matches it.
            raise RuntimeError("MD ProfilingManager has not started yet. Call start() before "
                               "stop().")
        if self._state != self._RUNNING:
            warn("MD ProfilingManager had already stopped.")
            return
        self._state = self._STOPPED
        if self._watch is not None:
            self._watch.finish()

    def is_running(self):
        return self._state == self._RUNNING

    def save(self, profile_data_path):
        """Write the profiling files (module docstring) into the directory
        ``profile_data_path``; nothing when no pipeline ran while recording."""
        if not isinstance(profile_data_path, str):
            raise TypeError(f"profile_data_path must be of type str, but got "
                            f"{type(profile_data_path).__name__}")
        if self._state == self._RUNNING:
            raise RuntimeError("MD ProfilingManager is still running: call stop() before "
                               "save().")
        if not os.path.isdir(profile_data_path):
            raise RuntimeError(f"MD ProfilingManager: the directory <{profile_data_path}> to "
                               f"save the profiling files in does not exist.")
        watch = self._watch
        if watch is None or not watch.samples:      # nothing ran while recording
            return
        dev = device_id()
        with open(os.path.join(profile_data_path, f"pipeline_profiling_{dev}.json"), "w",
                  encoding="utf-8") as f:
            json.dump(watch.pipeline_json(), f, indent=4)
        with open(os.path.join(profile_data_path, f"minddata_cpu_utilization_{dev}.json"), "w",
                  encoding="utf-8") as f:
            json.dump(watch.cpu_json(), f, indent=4)
        with open(os.path.join(profile_data_path, f"dataset_iterator_profiling_{dev}.txt"), "w",
                  encoding="utf-8") as f:
            f.writelines(line + "\n" for line in watch.iterator_lines())

    def claim_of(self, iterator):
        """'this' when the manager records ``iterator``'s pipeline, 'other' when it records
        another one, None when it is not recording."""
        if self._state != self._RUNNING or self._watch is None:
            return None
        return "this" if self._watch.is_for(iterator) else "other"

    def _watch_iterator(self, iterator):
        if self._state == self._NEW:
            return
        if self._watch is None:
            recording = self._state == self._RUNNING
            self._watch = ProfileWatch(iterator, self._interval_ms if recording else None)
        elif self._state == self._RUNNING:
            warn("Dataset Profiling is already enabled for a different data pipeline.")


def _live_autotune():
    import sys
    autotune = sys.modules.get("minddata.autotune")
    return autotune is not None and autotune.any_running()


MANAGER = ProfilingManager()
