"""The profile report: figures of one pipeline run, the bottleneck inferred from them, and the
text/JSON forms ``minddata-bench`` prints and writes.

JSON schema (``ProfileReport.to_dict()``; ``SCHEMA_VERSION`` changes when it does):

    {"schema_version": 4, "pipeline": str, "data": str|null, "num_workers": int|null,
     "batches": int, "rows": int, "bytes": int, "seconds": float,
     "rows_per_s": float, "batches_per_s": float, "mb_per_s": float,
     "batch_latency_ms": {"p50", "p99", "max"} | null,    # time between consecutive outputs
     "device_decode": {"busy_s", "utilisation"} | null,   # a stage decoding on a GPU
     "stages": [{"name", "rows_out", "busy_s", "wait_s", "share", "num_workers",
                 "queue_capacity", "queue_fill", "device_busy_s"}],  # source first
     "ops": [{"stage", "op", "ms_per_row", "share"}],        # per-op sample timing
     "bottleneck": {"stage": str|null, "reason": str},
     "cpu": {"process_percent", "cores", "workers": [{"name", "kind", "cpu_s", "percent"}]},
     "timeline": [[t_seconds, rows_done], ...],
     "reference": {"workload", "rows_per_s", "ratio", ...} | null,  # MindSpore's run
     "plan": {"nodes": [str], "rewrites": [str]},           # the planned tree (engine/plan.py)
     "service": {"address", "num_workers", "queue_depth", "queue_depth_mean", "pieces_redone",
                 "actors_replaced", "workers": [{"worker", "alive", "node", "pid", "pieces",
                 "items", "busy_s", "items_per_s"}]}}     # only when run through a RayService
"""
import json

import numpy as np

SCHEMA_VERSION = 4


def stage_rows(stats):
    """JSON-ready rows for a list of StageStats (source first)."""
    total_busy = sum(max(s.busy_s, 0.0) for s in stats) or 1e-12
    out = []
    for s in stats:
        capacity = getattr(s, "queue_capacity", None)
        samples = getattr(s, "queue_samples", 0)
        fill = None
        if capacity and samples:
            fill = round(s.queue_occupancy_sum / samples / capacity, 4)
        out.append({"name": s.name, "rows_out": int(s.rows_out),
                    "busy_s": round(max(s.busy_s, 0.0), 6), "wait_s": round(s.wait_s, 6),
                    "share": round(max(s.busy_s, 0.0) / total_busy, 4),
                    "num_workers": int(getattr(s, "num_workers", 1) or 1),
                    "queue_capacity": capacity, "queue_fill": fill,
                    "device_busy_s": getattr(s, "device_busy_s", None)})
    return out


def batch_latency_ms(arrival_times):
    """p50/p99/max of the time between consecutive outputs (the first counts from the start),
    in milliseconds; None without outputs. This is the latency a training loop sees per batch,
    start-up included in the first."""
    if len(arrival_times) < 2:
        return None
    gaps = np.diff(np.asarray(arrival_times, np.float64)) * 1000.0
    return {"p50": round(float(np.percentile(gaps, 50)), 3),
            "p99": round(float(np.percentile(gaps, 99)), 3), "max": round(float(gaps.max()), 3)}


def device_decode(stages, seconds):
    """{"busy_s", "utilisation"} of the stages that decode on a device, or None: busy time on
    the device's own clock over the run's wall time (1.0 = a decoder busy all the run)."""
    busy = [s["device_busy_s"] for s in stages if s.get("device_busy_s") is not None]
    if not busy:
        return None
    return {"busy_s": round(sum(busy), 6),
            "utilisation": round(sum(busy) / max(seconds, 1e-9), 4)}


def infer_bottleneck(stages, seconds):
    """(stage name, reason) for the stage that limits throughput.

    Each stage's busy time is time the stage itself spent producing rows (its children's time
    excluded), as seen by its consumer; the stage with the largest busy time per unit of wall
    time holds the consumer up most. Queue fill refines the story: an output queue that is
    mostly empty means its consumer waits on it; mostly full means the consumer is slower.
    """
    if not stages:
        return None, "no stage statistics were recorded"
    worst = max(stages, key=lambda s: s["busy_s"])
    wall = max(seconds, 1e-9)
    load = worst["busy_s"] / wall
    reason = (f"{worst['name']} takes {worst['share']:.0%} of the pipeline's busy time "
              f"({worst['busy_s']:.2f} s of {wall:.2f} s wall")
    reason += f", {worst['num_workers']} worker(s))" if worst["num_workers"] > 1 else ")"
    if worst["queue_fill"] is not None:
        reason += f"; its queue was {worst['queue_fill']:.0%} full on average"
    if load < 0.2:
        return None, ("no pipeline stage is busy most of the time: the consumer (the loop "
                      "reading the batches) or start-up dominates")
    name = worst["name"].lower()
    if name == "rayservice":
        reason += ("; the trainer waits on the service's actors: more actors (RayService "
                   "num_workers, --service-workers) on more nodes, or cheaper/fusable ops, "
                   "would help")
    elif name.startswith(("nativebatch", "processbatch")):
        reason += ("; the planned batch node reads, decodes and augments every row: more "
                   "num_parallel_workers for the map (its threads or processes, up to the "
                   "cores), or cheaper/fusable ops (see the per-op times), would help")
    elif name.startswith("map"):
        reason += ("; more num_parallel_workers for the map, or cheaper/fusable ops (see the "
                   "per-op times), would help")
    elif name.startswith("batch"):
        reason += "; batching copies rows: num_parallel_workers or per_batch_map cost"
    elif worst is stages[0]:
        reason += "; reading is the limit: more source workers, or faster storage"
    return worst["name"], reason


class ProfileReport:
    """Figures of one run. ``to_dict()`` is the JSON form; ``format()`` the text table."""

    def __init__(self, **fields):
        self.fields = fields

    def __getitem__(self, key):
        return self.fields[key]

    def __getattr__(self, key):
        try:
            return self.__dict__["fields"][key]
        except KeyError:
            raise AttributeError(key) from None

    def to_dict(self):
        return dict(self.fields)

    def to_json(self, path=None):
        text = json.dumps(self.to_dict(), indent=1, sort_keys=False)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        return text

    def format(self):
        f = self.fields
        lines = [f"pipeline  {f['pipeline']}" + (f"   data {f['data']}" if f.get("data") else ""),
                 f"ran       {f['batches']:,} batches, {f['rows']:,} rows in {f['seconds']:.2f} s",
                 f"rate      {f['rows_per_s']:,.1f} rows/s   {f['batches_per_s']:,.2f} batches/s"
                 f"   {f['mb_per_s']:,.1f} MB/s"]
        latency = f.get("batch_latency_ms")
        if latency:
            lines.append(f"latency   {latency['p50']:,.2f} ms p50   {latency['p99']:,.2f} ms p99   "
                         f"{latency['max']:,.2f} ms max (between outputs)")
        decode = f.get("device_decode")
        if decode:
            lines.append(f"GPU decode busy {decode['utilisation']:.0%} of the run "
                         f"({decode['busy_s']:.3f} s on the device's clock)")
        if not f["rows"]:
            lines.append("warning   the pipeline produced no rows (an empty source, or fewer "
                         "rows than one batch with drop_remainder?)")
        ref = f.get("reference")
        if ref:
            ratio = "-" if ref.get("ratio") is None else f"{ref['ratio']:.2f}x"
            lines.append(f"MindSpore {ref['rows_per_s']:,.1f} rows/s ({ref['workload']}); "
                         f"ratio {ratio}")
        plan = f.get("plan")
        if plan:
            lines.append("")
            lines.append("plan      " + " <- ".join(plan["nodes"]))
            lines.extend(f"          {r}" for r in plan["rewrites"])
        lines.append("")
        lines.append(f"{'stage':<28}{'workers':>8}{'busy s':>10}{'share':>8}{'wait s':>10}"
                     f"{'queue fill':>12}{'rows out':>10}")
        for s in f["stages"]:
            fill = "-" if s["queue_fill"] is None else f"{s['queue_fill']:.0%}"
            lines.append(f"{s['name'][:27]:<28}{s['num_workers']:>8}{s['busy_s']:>10.3f}"
                         f"{s['share']:>8.0%}{s['wait_s']:>10.3f}{fill:>12}{s['rows_out']:>10,}")
        if f.get("ops"):
            lines.append("")
            lines.append(f"{'op (sampled, one thread)':<40}{'ms/row':>10}{'share':>8}")
            for op in f["ops"]:
                lines.append(f"{(op['stage'] + ': ' + op['op'])[:39]:<40}"
                             f"{op['ms_per_row']:>10.3f}{op['share']:>8.0%}")
        svc = f.get("service")
        if svc:
            lines.append("")
            where = f" at {svc['address']}" if svc.get("address") else ""
            lines.append(f"RayService{where}: trainer queue depth "
                         f"{svc['queue_depth_mean']:.1f} items on average "
                         f"({svc['queue_depth']} at the end), pieces redone "
                         f"{svc['pieces_redone']}, actors replaced {svc['actors_replaced']}")
            for w in svc["workers"]:
                lines.append(f"  actor {w['worker']:<3} pid {str(w['pid']):>8} "
                             f"{w['pieces']:>6} pieces {w['items']:>8,} items "
                             f"{w['items_per_s']:>9.1f} items/s")
        b = f["bottleneck"]
        lines.append("")
        lines.append(f"bottleneck: {b['stage'] or 'none'}: {b['reason']}")
        cpu = f.get("cpu")
        if cpu and cpu.get("process_percent") is None:
            lines.append(f"cpu: {cpu.get('error', 'unavailable')}")
        elif cpu:
            lines.append(f"cpu: process {cpu['process_percent']:.0f}% of one core "
                         f"({cpu['cores']} cores)")
            for w in cpu["workers"][:12]:
                lines.append(f"  {w['name'][:40]:<42}{w['percent']:>6.0f}%  ({w['cpu_s']:.2f} s)")
        return "\n".join(lines)

    def __repr__(self):
        return self.format()
