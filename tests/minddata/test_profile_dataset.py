"""Dataset.profile / profile_dataset on users' own pipelines."""
import numpy as np
import pytest

import minddata as ds
from minddata.bench import ProfileReport, profile_dataset


def _pipeline(n=40, batch=4):
    data = ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.float32),
                                  "y": np.arange(n, dtype=np.int64)}, shuffle=False)
    return data.map(lambda x: x * 2, input_columns=["x"]).batch(batch)


def test_dataset_profile_delegates_and_counts_rows():
    report = _pipeline().profile(num_batches=3)
    assert isinstance(report, ProfileReport)
    assert report["batches"] == 3 and report["rows"] == 12
    assert report["bytes"] == 3 * 4 * (4 + 8)
    names = [s["name"] for s in report["stages"]]
    assert names[0] == "NumpySlicesDataset" and names[-1].startswith("Batch")
    assert report["ops"][0]["op"] == "<lambda>"


def test_no_limit_runs_one_epoch():
    report = profile_dataset(_pipeline(n=20, batch=5))
    assert report["rows"] == 20 and report["batches"] == 4


def test_limit_beyond_one_epoch_repeats_epochs():
    report = profile_dataset(_pipeline(n=8, batch=4), num_batches=5)
    assert report["batches"] == 5 and report["rows"] == 20


def test_seconds_limit_stops():
    report = profile_dataset(_pipeline(n=10, batch=2), seconds=0.2, op_breakdown=False)
    assert report["seconds"] >= 0.2 and report["ops"] == []


def test_on_batch_callback_sees_every_output():
    seen = []
    profile_dataset(_pipeline(), num_batches=4, on_batch=lambda b, r, t: seen.append((b, r)))
    assert seen == [(1, 4), (2, 8), (3, 12), (4, 16)]


def test_text_report_mentions_bottleneck_and_stages():
    text = _pipeline().profile(num_batches=2).format()
    assert "bottleneck:" in text and "NumpySlicesDataset" in text and "rows/s" in text


@pytest.mark.parametrize("kwargs", [{"num_batches": 0}, {"num_batches": 1.5},
                                    {"seconds": -1}, {"num_batches": True}])
def test_bad_limits(kwargs):
    with pytest.raises(ValueError):
        profile_dataset(_pipeline(), **kwargs)


def test_empty_output_is_reported_not_hidden():
    data = ds.NumpySlicesDataset({"x": np.arange(3, dtype=np.float32)}, shuffle=False)
    report = data.batch(8, drop_remainder=True).profile(num_batches=2)
    assert report["rows"] == 0 and report["batches"] == 0
    assert "produced no rows" in report.format()


def test_cpu_figures_unavailable_is_reported_not_fatal(monkeypatch):
    import psutil
    from minddata.bench import cpu

    def refuse(self):
        raise psutil.AccessDenied(pid=1)

    monkeypatch.setattr(cpu.CpuSampler, "start", refuse)
    report = _pipeline().profile(num_batches=2)
    assert report["rows"] == 8 and report["cpu"]["process_percent"] is None
    assert "CPU figures unavailable" in report.format()


def test_batch_latency_percentiles_from_arrival_times():
    from minddata.bench.report import batch_latency_ms
    # outputs at 10 ms intervals, one at 110 ms: p50 is the usual gap, max the slow one
    times = [0.0] + [0.01 * i for i in range(1, 100)] + [0.99 + 0.11]
    got = batch_latency_ms(times)
    assert got["p50"] == pytest.approx(10.0) and got["max"] == pytest.approx(110.0)
    assert 10.0 <= got["p99"] <= 110.0
    assert batch_latency_ms([0.0]) is None  # no output: no latency


def test_device_decode_utilisation_sums_the_decoding_stages():
    from minddata.bench.report import device_decode
    stages = [{"device_busy_s": None}, {"device_busy_s": 1.5}, {"device_busy_s": 0.5}]
    assert device_decode(stages, 4.0) == {"busy_s": 2.0, "utilisation": 0.5}
    assert device_decode([{"device_busy_s": None}], 4.0) is None


def test_profile_reports_batch_latency():
    report = profile_dataset(_pipeline(n=40, batch=4), op_breakdown=False)
    latency = report["batch_latency_ms"]
    # outputs handed over together (prefetched) are 0 ms apart: only the slowest is > 0
    assert latency is not None and 0 <= latency["p50"] <= latency["p99"] <= latency["max"]
    assert latency["max"] > 0
    assert "ms p50" in report.format()
