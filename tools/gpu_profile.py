"""What a piece of GPU work queues, from torch's profiler, for the GPU check tools
(check_gpu_pipeline.py's kernels part, probe_nvjpeg_output_formats.py): CUPTI sees the kernels
and copies of every library in the process, nvJPEG's included."""


def queued_work(work, sync, runs, cuda=True, top=3, width=60):
    """(count, device ms, top) per run of ``work`` (called ``runs`` times, ``sync()`` after):
    the kernels and copies queued (on the CPU, the operators and their CPU time), their summed
    time, and the ``top`` most costly as text ("none" when nothing ran)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA if cuda else ProfilerActivity.CPU]) as prof:
        for _ in range(runs):
            work()
        sync()
    rows = [e for e in prof.key_averages()
            if (getattr(e, "device_type", None) is not None
                and str(e.device_type).endswith("CUDA")) == cuda]
    time_of = "self_device_time_total" if cuda else "self_cpu_time_total"
    rows.sort(key=lambda e: -getattr(e, time_of, 0.0))
    text = "; ".join(f"{e.key[:width]} x{e.count / runs:g} "
                     f"{getattr(e, time_of, 0.0) / runs / 1e3:.3f} ms" for e in rows[:top])
    return (sum(e.count for e in rows) / runs,
            sum(getattr(e, time_of, 0.0) for e in rows) / runs / 1e3, text or "none")
