"""minddata-bench: standard pipelines, JSON figures, PNG plot, worker sweep, errors, and the
ratio to MindSpore only from a MindSpore run of the same invocation."""
import json
import os
import sys

import pytest

from minddata.bench import cli
from .test_bench_helpers import make_small_image_folder

REPORT_KEYS = {"schema_version", "pipeline", "data", "num_workers", "batches", "rows", "bytes",
               "seconds", "rows_per_s", "batches_per_s", "mb_per_s", "stages", "ops",
               "bottleneck", "cpu", "timeline", "reference", "plan", "batch_latency_ms",
               "device_decode"}
STAGE_KEYS = {"name", "rows_out", "busy_s", "wait_s", "share", "num_workers",
              "queue_capacity", "queue_fill", "device_busy_s"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return make_small_image_folder(tmp_path_factory.mktemp("imgs"))


def test_raw_read_json_schema_and_png(folder, tmp_path, capsys):
    out_json, out_png = tmp_path / "r.json", tmp_path / "r.png"
    code = cli.main(["raw-read", folder, "--batches", "8", "--json", str(out_json),
                     "--plot", str(out_png), "--no-progress"])
    assert code == 0
    text = capsys.readouterr().out
    assert "rows/s" in text and "bottleneck:" in text
    report = json.loads(out_json.read_text())
    assert set(report) == REPORT_KEYS
    assert report["batches"] == 8 and report["rows"] == 8 and report["bytes"] > 0
    assert report["rows_per_s"] > 0 and report["mb_per_s"] > 0
    assert report["stages"] and all(set(s) == STAGE_KEYS for s in report["stages"])
    assert abs(sum(s["share"] for s in report["stages"]) - 1.0) < 0.01
    assert report["timeline"][-1][1] == 8
    latency = report["batch_latency_ms"]
    assert 0 <= latency["p50"] <= latency["p99"] <= latency["max"] and latency["max"] > 0
    assert report["device_decode"] is None  # nothing decoded on a GPU
    assert "ms p50" in text and "ms p99" in text
    assert set(report["cpu"]) == {"process_percent", "cores", "workers"}
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_eval_pipeline_has_map_and_op_breakdown(folder, tmp_path, capsys):
    out_json = tmp_path / "e.json"
    assert cli.main(["imagenet-eval", folder, "--batches", "2", "--batch-size", "4",
                     "--json", str(out_json), "--no-progress"]) == 0
    report = json.loads(out_json.read_text())
    assert report["rows"] == 8 and report["batches"] == 2
    names = [s["name"] for s in report["stages"]]
    # The planner runs Batch(Map(Source)) of native ops as one native batch node.
    assert names == ["NativeBatch(ImageFolderDataset+Map+Batch)"]
    assert report["plan"]["nodes"] == names
    assert any(r.startswith("native_batch on Batch: fired") for r in report["plan"]["rewrites"])
    assert [op["op"] for op in report["ops"]] == ["Decode", "Resize", "CenterCrop",
                                                  "Normalize", "HWC2CHW"]
    # No MindSpore run in this invocation: no MindSpore figure, no ratio (a figure measured
    # on another machine on another day compares nothing).
    assert report["reference"] is None
    text = capsys.readouterr().out
    assert "MindSpore" not in text and "ratio" not in text


def fake_mindspore_python(tmp_path):
    """An interpreter whose ``mindspore`` is this project, through the import hook."""
    path = tmp_path / "mindspore-python"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m training.compat "$@"\n')
    path.chmod(0o755)
    return str(path)


def test_mindspore_runs_the_same_pipeline_side_by_side(folder, tmp_path, capsys):
    out_json = tmp_path / "m.json"
    python = fake_mindspore_python(tmp_path)
    assert cli.main(["imagenet-eval", folder, "--batches", "2", "--batch-size", "4",
                     "--json", str(out_json), "--no-progress", "--no-op-breakdown",
                     "--mindspore-python", python]) == 0
    report = json.loads(out_json.read_text())
    ref = report["reference"]
    assert ref["python"] == python and "in this invocation" in ref["workload"]
    assert ref["rows"] == report["rows"] == 8 and ref["batches"] == 2      # the same limits
    assert ref["ratio"] == pytest.approx(report["rows_per_s"] / ref["rows_per_s"], rel=0.01)
    text = capsys.readouterr().out
    assert f"MindSpore {ref['rows_per_s']:,.1f} rows/s" in text and "ratio" in text


def test_compare_workers_side_by_side(folder, tmp_path, capsys):
    assert cli.main(["raw-read", folder, "--batches", "3", "--compare-workers", "1,2",
                     "--no-progress", "--no-op-breakdown",
                     "--mindspore-python", fake_mindspore_python(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(k for k, ln in enumerate(lines) if ln.lstrip().startswith("workers"))
    assert "MindSpore rows/s" in lines[head] and "ratio" in lines[head]
    for ln, workers in zip(lines[head + 1:head + 3], ("1", "2")):
        cells = ln.split()
        assert cells[0] == workers and cells[5].endswith("x")


def test_a_failed_mindspore_run_exits_1(folder, tmp_path, capsys):
    failing = tmp_path / "broken-python"
    failing.write_text("#!/bin/sh\necho 'No module named mindspore' >&2\nexit 1\n")
    failing.chmod(0o755)
    assert cli.main(["raw-read", folder, "--batches", "2", "--no-progress",
                     "--mindspore-python", str(failing)]) == 1
    err = capsys.readouterr().err
    assert "--mindspore-python" in err and "No module named mindspore" in err


def test_compare_workers(folder, tmp_path, capsys):
    out_json = tmp_path / "c.json"
    assert cli.main(["raw-read", folder, "--batches", "5", "--compare-workers", "1,2",
                     "--json", str(out_json), "--plot", str(tmp_path / "c.png"),
                     "--no-progress", "--no-op-breakdown"]) == 0
    report = json.loads(out_json.read_text())
    assert [r["workers"] for r in report["compare_workers"]] == [1, 2]
    assert all(r["rows"] == 5 for r in report["compare_workers"])
    assert (tmp_path / "c.png").stat().st_size > 1000


def test_seconds_limit_with_progress_bar(folder, capsys):
    assert cli.main(["raw-read", folder, "--seconds", "0.3"]) == 0
    assert "raw-read w=2" in capsys.readouterr().err


def test_errors_exit_1_with_message(folder, tmp_path, capsys):
    assert cli.main(["no-such-pipeline", folder, "--no-progress"]) == 1
    assert "unknown pipeline 'no-such-pipeline'" in capsys.readouterr().err
    assert cli.main(["raw-read", str(tmp_path / "missing"), "--no-progress"]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert cli.main(["raw-read", "--no-progress"]) == 1
    assert "needs DATA" in capsys.readouterr().err


def test_usage_errors_exit_2(folder):
    for bad in (["raw-read", folder, "--batches", "0"],
                ["raw-read", folder, "--compare-workers", "1,x"],
                ["raw-read", folder, "--mindspore-python", os.devnull],
                ["raw-read", folder, "--mindspore-python", "/no/such/python"]):
        with pytest.raises(SystemExit) as info:
            cli.main(bad)
        assert info.value.code == 2
