"""``--plot``: a PNG with throughput over time and the per-stage / per-op breakdown."""


def rate_series(timeline, window_s=0.5):
    """(times, rows/s) from cumulative (t, rows) points, averaged over ``window_s`` windows."""
    times, rates = [], []
    j = 0
    for i, (t, rows) in enumerate(timeline):
        while j < i and t - timeline[j][0] > window_s:
            j += 1
        t0, r0 = timeline[j] if j < i else timeline[max(i - 1, 0)]
        if t > t0:
            times.append(t)
            rates.append((rows - r0) / (t - t0))
    return times, rates


def write_plot(report, path):
    """Write the PNG; ``report`` is a ProfileReport (or its dict), or a list of them for a
    worker sweep (one throughput line each)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    reports = [r if isinstance(r, dict) else r.to_dict()
               for r in (report if isinstance(report, list) else [report])]
    main = reports[-1]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4.8))
    for r in reports:
        times, rates = rate_series(r["timeline"])
        label = f"{r['num_workers']} worker(s)" if r.get("num_workers") else "throughput"
        ax1.plot(times, rates, label=f"{label}: {r['rows_per_s']:,.0f} rows/s")
    ax1.set_ylim(bottom=0)
    ax1.set_xlabel("time (s)")
    ax1.set_ylabel("rows/s")
    ax1.set_title(f"throughput: {main['pipeline']}"[:70])
    ax1.grid(alpha=0.3)
    ax1.legend(loc="lower right", fontsize=8)

    labels = [s["name"] for s in main["stages"]]
    shares = [s["share"] * 100 for s in main["stages"]]
    colors = ["tab:blue"] * len(labels)
    for op in main.get("ops") or []:
        if op["ms_per_row"] > 0:
            labels.append(f"{op['stage']}: {op['op']}")
            shares.append(op["share"] * 100)
            colors.append("tab:orange")
    y = list(range(len(labels)))
    ax2.barh(y, shares, color=colors)
    ax2.set_yticks(y)
    ax2.set_yticklabels(labels, fontsize=8)
    ax2.invert_yaxis()
    ax2.set_xlabel("% of busy time (blue: stages; orange: ops within their map, sampled)")
    ax2.set_title(f"bottleneck: {main['bottleneck']['stage'] or 'none'}")
    ax2.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
