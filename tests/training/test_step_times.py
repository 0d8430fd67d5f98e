"""Host and device time per step in Model.last_train_stats and TimeMonitor: a slow step beside a
busy pipeline thread shows up as host step time, not as data wait, and the figures add up.
No assertion on absolute wall-clock figures: only on how the measured parts relate."""
import numpy as np
import pytest

from tests.training.conftest import make_dataset
from training import Model
from training.callbacks import TimeMonitor

torch = pytest.importorskip("torch")


def busy_python(iterations):
    """Many tiny numpy calls, as a training step's kernel launches are; holds the GIL."""
    x = np.zeros(4)
    for _ in range(iterations):
        x = x + 1.0
    return x


class SlowStep(torch.nn.Module):
    """A training cell (Model(cell) with neither loss nor optimizer) whose step is host work."""

    def forward(self, image, label):
        busy_python(6000)
        return torch.zeros(())


def busy_pipeline(num_rows=48, batch_size=4):
    """Rows made by a Python map in the pipeline's thread: it competes for the GIL with the
    step, but makes a batch (4 x 1000 calls) faster than a step uses one (6000 calls)."""
    import minddata as ds
    images = np.zeros((num_rows, 2), np.float32)
    labels = np.arange(num_rows, dtype=np.int64)
    data = ds.NumpySlicesDataset((images, labels), column_names=["image", "label"], shuffle=False)

    def work(image):
        busy_python(1000)
        return image
    return data.map(work, input_columns=["image"]).batch(batch_size)


@pytest.mark.parametrize("sink", [False, True])
def test_slow_step_beside_a_busy_pipeline_is_host_step_time(sink, capsys):
    model = Model(SlowStep())
    reports = []

    class Keep(TimeMonitor):
        def on_train_epoch_end(self, run_context):
            super().on_train_epoch_end(run_context)
            reports.append(dict(self.last_report, steps=run_context.original_args().epoch_steps))

    model.train(2, busy_pipeline(), callbacks=[Keep(data_time=True)], dataset_sink_mode=sink)
    stats = model.last_train_stats
    assert stats["steps"] == 24 and stats["sink"] is sink

    # The batches are ready (after the first): the time goes to the step, not to data wait.
    steady_wait = stats["data_wait_s"] - stats["first_wait_s"]
    assert steady_wait < stats["host_step_s"]
    # Measured separately, the parts never exceed the whole.
    assert stats["data_wait_s"] + stats["host_step_s"] <= stats["total_s"]
    assert stats["other_s"] >= 0
    assert stats["step_s"] == stats["host_step_s"]
    assert stats["host_step_ms"] == pytest.approx(stats["host_step_s"] * 1000 / 24)
    assert stats["data_wait_ms"] == pytest.approx(stats["data_wait_s"] * 1000 / 24)
    # per-batch waits: percentiles of the waits that add up to data_wait_s
    assert 0 <= stats["data_wait_p50_ms"] <= stats["data_wait_p99_ms"]
    assert stats["data_wait_p99_ms"] <= stats["data_wait_s"] * 1000
    assert stats["device_decode_s"] is None and stats["device_decode_utilisation"] is None
    # A CPU backend has no device clock, and says so.
    assert stats["device_step_s"] is None and stats["device_step_ms"] is None
    assert stats["device_timing"].startswith("n/a")

    # TimeMonitor's epochs add up to the run's totals.
    assert len(reports) == 2 and sum(r["steps"] for r in reports) == 24
    host_ms = sum(r["host_step_ms"] * r["steps"] for r in reports)
    wait_ms = sum(r["data_wait_ms"] for r in reports)
    assert host_ms == pytest.approx(stats["host_step_s"] * 1000)
    assert wait_ms == pytest.approx(stats["data_wait_s"] * 1000)
    assert all(r["device_step_ms"] is None for r in reports)
    for r in reports:
        assert r["host_step_ms"] * r["steps"] <= r["epoch_ms"]
    out = capsys.readouterr().out
    assert out.count("host step time:") == 2 and out.count("device step time: n/a") == 2


def test_time_monitor_without_data_time_prints_mindspore_line_only(capsys):
    Model(SlowStep()).train(1, busy_pipeline(num_rows=8), callbacks=[TimeMonitor()])
    out = capsys.readouterr().out
    assert "per step time:" in out and "host step time" not in out


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("sink", [False, True])
def test_cuda_steps_have_a_device_time(sink, capsys):
    from training import set_context
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 256)).astype(np.float32)
    y = rng.integers(0, 4, 64).astype(np.int64)
    set_context(device_target="GPU", device_id=0)
    try:
        net = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(),
                                  torch.nn.Linear(512, 4))
        model = Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), 0.1))
        model.train(2, make_dataset([x, y], 8), callbacks=[TimeMonitor(data_time=True)],
                    dataset_sink_mode=sink)
    finally:
        set_context(device_target="CPU")
    stats = model.last_train_stats
    assert stats["device_timing"] == "cuda events" and stats["steps"] == 16
    assert 0 < stats["device_step_s"] <= stats["total_s"]
    assert stats["device_step_ms"] == pytest.approx(stats["device_step_s"] * 1000 / 16)
    out = capsys.readouterr().out
    assert out.count("device step time: ") == 2 and "device step time: n/a" not in out


def test_device_decode_time_of_the_pipeline_reaches_the_stats():
    """A pipeline whose stages decode on a device (the GPU batch node) reports the device's
    busy time; the sink's stats sum it and divide by the run's wall time."""
    from types import SimpleNamespace

    from training.sink import iterate_epochs

    class Iterator:
        def __init__(self):
            self.rows = iter([(np.zeros(2),), (np.ones(2),)])

        def __iter__(self):
            return self.rows

        def stage_stats(self):
            return [SimpleNamespace(device_busy_s=None), SimpleNamespace(device_busy_s=0.25)]

    dataset = SimpleNamespace(create_tuple_iterator=lambda **kw: Iterator())
    figures = {}
    assert len(list(iterate_epochs(dataset, 1, figures))) == 2
    assert figures == {"device_decode_s": 0.25}
