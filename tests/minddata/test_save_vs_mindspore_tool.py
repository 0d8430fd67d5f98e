"""The Dataset.save differential tool, with this package on both sides (no MindSpore needed):
every case the same, and its pieces on a known case."""
import argparse
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import save_vs_mindspore as tool  # noqa: E402


def test_self_check_finds_no_difference():
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "save_vs_mindspore.py"),
                           "--seed", "5", "--cases", "25", "--reference", "minddata",
                           "--mindspore-python", sys.executable],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 different" in done.stdout and "25 same" in done.stdout


def test_cases_are_reproducible_and_varied():
    first, again = tool.cases(3, 40), tool.cases(3, 40)
    assert repr(first) == repr(again)
    assert {c["kind"] for c in first} == {"numpy", "generator"}
    assert {c["num_files"] for c in first} == {1, 2, 3}


def test_differences_and_documented():
    case = {"names": ["c0"], "table": [(np.zeros(0, np.int8),)], "after": None,
            "num_files": 1}
    same = (("ok", None), {"minddata": ("ok", 1), "mindspore": ("ok", 1)})
    assert tool.differences(same, same) == []
    garbage = (("ok", None), {"minddata": ("ok", 1), "mindspore": ("ok", 2)})
    found = tool.differences(same, garbage)
    assert [kind for kind, _, _ in found] == ["different", "different"]   # reader and file
    assert tool.classify(case, same, garbage)[0] == "documented"
    assert tool.differences(same, tool.differential_reference.CRASH)[0][0] == "MindSpore crashed"
    failed = (("error", "RuntimeError", "x", ("RuntimeError",)), same[1])
    assert [item for _, item, _ in tool.differences(failed, same)] == ["save"]


def test_a_first_case_that_kills_the_reference_is_a_crash(tmp_path):
    # (seed 2014 of the MindRecord tool: MindSpore 2.10 segfaulted in its first session, and
    # the run ended as if MindSpore were missing)
    script = tmp_path / "dies.py"
    script.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    reference = tool.differential_reference
    args = argparse.Namespace(mindspore_python=sys.executable, reference="json")
    assert reference.reference_outcomes(str(script), args, 1, lambda path: []) == [
        reference.CRASH]
    args.reference = "no_such_library_here"
    with pytest.raises(SystemExit, match="cannot import no_such_library_here"):
        reference.reference_outcomes(str(script), args, 1, lambda path: [])
