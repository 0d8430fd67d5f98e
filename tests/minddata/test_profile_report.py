"""The profile report's pure parts: stage rows, bottleneck inference, rate series."""
from types import SimpleNamespace

from minddata.bench.plot import rate_series
from minddata.bench.report import infer_bottleneck, stage_rows


def _stats(name, busy, wait=0.0, cap=None, occ=0, samples=0, workers=1):
    return SimpleNamespace(name=name, rows_out=10, busy_s=busy, wait_s=wait,
                           queue_capacity=cap, queue_occupancy_sum=occ, queue_samples=samples,
                           num_workers=workers)


def test_stage_rows_shares_and_queue_fill():
    rows = stage_rows([_stats("Src", 1.0), _stats("Map", 3.0, cap=8, occ=8, samples=4)])
    assert [r["share"] for r in rows] == [0.25, 0.75]
    assert rows[1]["queue_fill"] == 0.25 and rows[0]["queue_fill"] is None


def test_bottleneck_is_the_busiest_stage_with_advice():
    rows = stage_rows([_stats("MindDataset", 0.5), _stats("Map", 4.0, workers=2),
                       _stats("Batch", 0.5)])
    stage, reason = infer_bottleneck(rows, seconds=5.0)
    assert stage == "Map" and "80%" in reason and "per-op" in reason


def test_source_bottleneck_advice():
    rows = stage_rows([_stats("MindDataset", 4.0), _stats("Batch", 0.2)])
    stage, reason = infer_bottleneck(rows, seconds=5.0)
    assert stage == "MindDataset" and "reading" in reason


def test_planned_batch_node_advice():
    rows = stage_rows([_stats("NativeBatch(MindDataset+Map+Batch)", 4.0, workers=2)])
    stage, reason = infer_bottleneck(rows, seconds=5.0)
    assert stage.startswith("NativeBatch") and "num_parallel_workers for the map" in reason
    assert "reading is the limit" not in reason


def test_idle_pipeline_blames_the_consumer():
    rows = stage_rows([_stats("Src", 0.01)])
    stage, reason = infer_bottleneck(rows, seconds=10.0)
    assert stage is None and "consumer" in reason


def test_rate_series_constant_rate():
    timeline = [(0.1 * i, 10 * i) for i in range(30)]
    times, rates = rate_series(timeline, window_s=0.5)
    assert len(times) == 29 and all(abs(r - 100.0) < 1e-6 for r in rates)
