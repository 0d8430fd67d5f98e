"""Profiling a pipeline: run it, time it, and build a :class:`ProfileReport`.

``Dataset.profile(num_batches=None, seconds=None)`` delegates here. The run reads the
per-stage :class:`~minddata.engine.stats.StageStats` the iterator nodes keep (busy and wait time,
queue occupancy), samples CPU time per worker thread/process with psutil, records throughput over
time, and times each map operation alone on a few sample rows (``op_timing``), since a fused
native plan hides the split between its ops.
"""
import time

from .cpu import CpuSampler
from .op_timing import time_map_ops, walk_graph
from .report import SCHEMA_VERSION, ProfileReport, batch_latency_ms, device_decode, \
    infer_bottleneck, stage_rows
from .side_by_side import limited

_TIMELINE_POINTS = 400


def has_batch(dataset):
    return any(getattr(d, "kind", None) == "Batch"
               for d in walk_graph(dataset))


def _row_stats(row, batched):
    nbytes = sum(int(getattr(a, "nbytes", 0)) for a in row)
    if batched and row and getattr(row[0], "ndim", 0) >= 1:
        return int(row[0].shape[0]), nbytes
    return 1, nbytes


def _thin(timeline):
    if len(timeline) <= _TIMELINE_POINTS:
        return timeline
    step = len(timeline) / _TIMELINE_POINTS
    out = [timeline[int(i * step)] for i in range(_TIMELINE_POINTS)]
    out[-1] = timeline[-1]
    return out


def _check_limit(value, name, kind):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, kind) or value <= 0:
        raise ValueError(f"{name} must be a positive number or None, got {value!r}")
    return value


def profile(dataset, num_batches=None, seconds=None, on_batch=None, op_breakdown=True,
            pipeline_name=None, data=None, num_workers=None, reference=None, service=None):
    """Run ``dataset`` and return a :class:`ProfileReport`.

    Args:
        dataset: any minddata Dataset.
        num_batches (int): stop after this many outputs (batches, or rows when unbatched).
        seconds (float): stop after this much time. With neither, one full epoch runs; with
            both, whichever comes first. Epochs repeat until the limit is reached.
        on_batch (callable): called as ``on_batch(batches_done, rows_done, elapsed_s)``
            after every output (progress bars).
        op_breakdown (bool): also time each map operation alone on a few sample rows.
        pipeline_name, data, num_workers, reference: labels copied into the report
            (``reference``: ``{"workload", "rows_per_s"}``, a figure measured side by side
            with this run, e.g. MindSpore's on the same machine and data; the report adds the
            ratio to it).
        service: a ``minddata.service.RayService`` to run the pipeline through; the report
            then holds its ``stats()`` (per-actor throughput, the trainer's queue depth).
    """
    num_batches = _check_limit(num_batches, "num_batches", int)
    seconds = _check_limit(seconds, "seconds", (int, float))
    batched = has_batch(dataset)
    forever = num_batches is not None or seconds is not None
    cpu = CpuSampler()
    batches = rows = nbytes = 0
    timeline = [(0.0, 0)]
    try:
        cpu.start()
    except Exception:   # noqa: BLE001 - reported as unavailable by cpu.stop below
        pass
    # The clock starts before the iterator exists: pipeline start-up (threads, worker
    # processes, opening files) is part of what a user waits for.
    start = time.perf_counter()
    iterator = dataset.create_tuple_iterator(num_epochs=-1 if forever else 1, output_numpy=True,
                                             service=service)
    try:
        for row, now in limited(iterator, num_batches, seconds, start):
            n, b = _row_stats(row, batched)
            batches += 1
            rows += n
            nbytes += b
            timeline.append((round(now, 5), rows))
            if batches == 1:
                cpu.note_threads()      # workers are running now: learn their names
            if on_batch is not None:
                on_batch(batches, rows, now)
        wall = time.perf_counter() - start
        try:
            cpu_report = cpu.stop(wall)
        except Exception as exc:   # noqa: BLE001 - psutil may be refused /proc access
            cpu_report = {"process_percent": None, "cores": None, "workers": [],
                          "error": f"CPU figures unavailable: {exc}"}
        stats = iterator.stage_stats() if hasattr(iterator, "stage_stats") else []
        # With a service, the report also holds its actors' figures (an extra key).
        extra = {}
        if service is not None:
            extra["service"] = {"address": service.address, "num_workers": service.num_workers,
                                **service.stats()}
        if hasattr(iterator, "plan_report"):
            plan = iterator.plan_report()
            extra["plan"] = {"nodes": plan.nodes, "rewrites": [repr(r) for r in plan.rewrites]}
    finally:
        close = getattr(iterator, "close", None)
        if close is not None:
            close()
    stages = stage_rows(stats)
    bottleneck, reason = infer_bottleneck(stages, wall)
    ops = []
    if op_breakdown:
        try:
            ops = time_map_ops(dataset)
        except Exception as exc:   # noqa: BLE001 - the breakdown is an extra; say why it is absent
            ops = [{"stage": "-", "op": f"unavailable: {exc}", "ms_per_row": 0.0, "share": 0.0}]
    wall_div = max(wall, 1e-9)
    ref = None
    if reference:
        ref = dict(reference)
        ref["ratio"] = round(rows / wall_div / reference["rows_per_s"], 3)
    return ProfileReport(
        schema_version=SCHEMA_VERSION, pipeline=pipeline_name or _describe(dataset), data=data,
        num_workers=num_workers, batches=batches, rows=rows, bytes=nbytes,
        seconds=round(wall, 4), rows_per_s=round(rows / wall_div, 2),
        batches_per_s=round(batches / wall_div, 3), mb_per_s=round(nbytes / wall_div / 1e6, 3),
        batch_latency_ms=batch_latency_ms([t for t, _ in timeline]),
        device_decode=device_decode(stages, wall), stages=stages, ops=ops, bottleneck={"stage": bottleneck, "reason": reason},
        cpu=cpu_report, timeline=[list(p) for p in _thin(timeline)], reference=ref, **extra)


def _describe(dataset):
    names = [d.display_name() for d in walk_graph(dataset)]
    return " <- ".join(names)


# The brief's name for the same function; Dataset.profile calls ``profile``.
profile_dataset = profile
