"""Values MindSpore 2.10 code compares against: Shuffle's string values and the config
defaults."""
import subprocess
import sys

import minddata as ds


def test_shuffle_values_are_mindspore_strings():
    # MindSpore's members, plus minddata's own BLOCKS (graph/block_shuffle.py).
    assert {s.name: s.value for s in ds.Shuffle} == {
        "FALSE": "false", "ADAPTIVE": "adaptive", "GLOBAL": "global", "PARTIAL": "partial",
        "FILES": "files", "INFILE": "infile", "BLOCKS": "blocks"}
    assert ds.Shuffle("files") is ds.Shuffle.FILES


def test_multiprocessing_timeout_interval_defaults_to_300_seconds():
    # A fresh interpreter: other tests change the setting.
    out = subprocess.run([sys.executable, "-c", "import minddata as ds; "
                          "print(ds.config.get_multiprocessing_timeout_interval())"],
                         capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["300"]
