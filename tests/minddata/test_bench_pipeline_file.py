"""minddata-bench with a YAML or JSON pipeline file."""
import json

import pytest

from minddata.bench import cli
from .test_bench_helpers import make_small_image_folder

YAML = """
name: tiny-train
source:
  type: ImageFolderDataset
  args: {dataset_dir: %s, shuffle: false}
stages:
  - map:
      input_columns: [image]
      operations: [Decode, {Resize: [[16, 16]]}, HWC2CHW]
  - batch: {batch_size: 3, drop_remainder: true}
"""


def test_yaml_pipeline_runs_and_reports(tmp_path):
    folder = make_small_image_folder(tmp_path / "imgs")
    (tmp_path / "p.yaml").write_text(YAML % folder)
    assert cli.main([str(tmp_path / "p.yaml"), "--batches", "2", "--json",
                     str(tmp_path / "o.json"), "--no-progress"]) == 0
    report = json.loads((tmp_path / "o.json").read_text())
    assert report["pipeline"] == "tiny-train" and report["rows"] == 6
    assert [op["op"] for op in report["ops"]] == ["Decode", "Resize", "HWC2CHW"]


def test_json_pipeline_with_data_argument(tmp_path):
    folder = make_small_image_folder(tmp_path / "imgs")
    spec = {"stages": [{"map": {"input_columns": ["image"], "operations": ["Decode"]}},
                       {"batch": {"batch_size": 2}}]}
    (tmp_path / "p.json").write_text(json.dumps(spec))
    assert cli.main([str(tmp_path / "p.json"), folder, "--batches", "3", "--json",
                     str(tmp_path / "o.json"), "--no-progress"]) == 0
    assert json.loads((tmp_path / "o.json").read_text())["rows"] == 6


@pytest.mark.parametrize("text, message", [
    ("stages: [{map: {operations: [NoSuchOp]}}]", "unknown operation 'NoSuchOp'"),
    ("stages: [{fly: {}}]", "unknown stage 'fly'"),
    ("stages: [{map: {operations: []}}]", "non-empty 'operations'"),
    ("stages: {map: 1}", "'stages' must be a list"),
    ("colour: red", "unknown keys"),
    ("stages: [unclosed", "not valid YAML/JSON"),
])
def test_bad_pipeline_files(tmp_path, capsys, text, message):
    folder = make_small_image_folder(tmp_path / "imgs", per_class=1)
    (tmp_path / "p.yaml").write_text(text)
    assert cli.main([str(tmp_path / "p.yaml"), folder, "--batches", "1", "--no-progress"]) == 1
    assert message in capsys.readouterr().err
