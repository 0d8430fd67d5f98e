"""minddata-bench --service (no Ray needed): its options are checked, and a pipeline the
service cannot run in pieces is refused before any Ray instance starts. The run through a
cluster is in test_service_ray.py (it shares that module's cluster)."""
import json

import pytest

from minddata.bench import cli
from .test_bench_helpers import make_small_image_folder


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
