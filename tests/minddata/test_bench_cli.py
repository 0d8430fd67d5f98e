"""minddata-bench: standard pipelines, JSON figures, PNG plot, worker sweep, errors."""
import json

import pytest

from minddata.bench import cli
from .test_bench_helpers import make_small_image_folder

REPORT_KEYS = {"schema_version", "pipeline", "data", "num_workers", "batches", "rows", "bytes",
               "seconds", "rows_per_s", "batches_per_s", "mb_per_s", "stages", "ops",
               "bottleneck", "cpu", "timeline", "reference", "plan"}
STAGE_KEYS = {"name", "rows_out", "busy_s", "wait_s", "share", "num_workers",
              "queue_capacity", "queue_fill"}


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
    assert set(report["cpu"]) == {"process_percent", "cores", "workers"}
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_eval_pipeline_has_map_and_op_breakdown(folder, tmp_path):
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
    assert report["reference"]["rows_per_s"] == 273.0 and report["reference"]["ratio"] > 0


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
                ["raw-read", folder, "--compare-workers", "1,x"]):
        with pytest.raises(SystemExit) as info:
            cli.main(bad)
        assert info.value.code == 2
