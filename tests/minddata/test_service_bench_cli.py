"""minddata-bench --service: the benchmarked pipeline runs in RayService actors on a two-node
loopback cluster; the text report and the JSON show per-actor throughput and the trainer's
queue depth."""
import json

import pytest

from minddata.bench import cli
from .service_helpers import cluster  # noqa: F401 (fixture; skips the module without ray)
from .test_bench_helpers import make_small_image_folder


def test_bench_through_the_service(cluster, tmp_path, capsys):  # noqa: F811
    folder = make_small_image_folder(tmp_path / "imgs")
    out_json = tmp_path / "s.json"
    code = cli.main(["imagenet-eval", folder, "--batches", "5", "--batch-size", "2",
                     "--service", cluster.address, "--service-workers", "2",
                     "--json", str(out_json), "--no-progress", "--no-op-breakdown"])
    assert code == 0
    text = capsys.readouterr().out
    assert f"RayService at {cluster.address}: trainer queue depth" in text
    assert text.count("items/s") == 2          # one line per actor
    assert "bottleneck: none" in text or "more actors (RayService num_workers" in text
    report = json.loads(out_json.read_text())
    assert report["batches"] == 5 and report["rows"] == 10
    svc = report["service"]
    assert svc["address"] == cluster.address and svc["num_workers"] == 2
    assert len(svc["workers"]) == 2
    # Every batch the trainer took came from an actor (pieces run ahead may add more).
    assert sum(w["items"] for w in svc["workers"]) >= 5
    assert any(w["items_per_s"] > 0 for w in svc["workers"])
    assert svc["queue_depth_mean"] >= 0 and isinstance(svc["queue_depth"], int)
    # The trainer runs only the node that receives the actors' batches.
    assert report["plan"]["nodes"] == ["RayService"]
    assert [s["name"] for s in report["stages"]] == ["RayService"]


def test_service_workers_needs_service(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["raw-read", "x", "--service-workers", "2"])
    assert exc.value.code == 2
    assert "--service-workers needs --service" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["raw-read", "x", "--service", "local", "--service-workers", "0"])


def test_a_pipeline_the_service_cannot_ship_fails_cleanly(tmp_path, capsys):
    spec = tmp_path / "p.json"
    spec.write_text(json.dumps({"stages": [{"shuffle": {"buffer_size": 4}},
                                           {"batch": {"batch_size": 2}}]}))
    code = cli.main([str(spec), make_small_image_folder(tmp_path / "imgs"), "--batches", "2",
                     "--service", "local", "--no-progress", "--no-op-breakdown"])
    assert code == 1
    # Refused before any Ray instance starts: the shuffle buffer cannot run in pieces.
    assert "ShuffleDataset" in capsys.readouterr().err
