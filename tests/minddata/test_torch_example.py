"""examples/train_resnet18_torch.py runs end to end (tiny settings, in this process so torch is
not imported again): demo data made, the pipeline fed through to_torch and a DataLoader worker,
a few optimizer steps."""

import pytest

from tests.conftest import load_script

pytest.importorskip("torch")


def test_example_trains_a_few_steps(tmp_path, capsys):
    example = load_script("examples/train_resnet18_torch.py")
    data = tmp_path / "demo" / "demo.mindrecord0"
    assert example.main(["--data", str(data), "--images", "24", "--steps", "3", "--batch-size",
                         "4", "--size", "32", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "epoch 0 step 3: loss" in out
    assert "3 steps, 12 images" in out
    assert data.exists()
