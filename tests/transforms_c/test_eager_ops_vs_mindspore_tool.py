"""tools/eager_ops_vs_mindspore.py: its plumbing (the reference interpreter's run, the case-by-case
comparison) checked without MindSpore, this package standing in as the reference, and the
comparison's rules on outcomes made here."""
import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np

TOOL = Path(__file__).resolve().parents[2] / "tools" / "eager_ops_vs_mindspore.py"
spec = importlib.util.spec_from_file_location("eager_ops_vs_mindspore", TOOL)
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "80", "--seed", "7",
                           "--mindspore-python", sys.executable, "--reference", "minddata"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("0 different")
    same = int(done.stdout.split("seed 7: ")[1].split(" same")[0])
    assert same == 80


def test_the_comparison_flags_what_differs():
    img = np.zeros((2, 3, 3), np.uint8)
    ok = ("ok", np.full((2, 3, 3), 10, np.uint8))
    assert tool.difference("Invert", img, ok, ok) is None
    assert tool.difference("Invert", img, ok, ("ok", ok[1] + 1)) == "largest difference 1"
    assert tool.difference("Resize", img, ok, ("ok", ok[1] + 1)) is None     # one level
    assert tool.difference("Resize", img, ok, ("ok", ok[1] + 2)) == "largest difference 2"
    error = ("error", "RuntimeError", "Erase: outside")
    assert tool.difference("Erase", img, error, error) is None
    assert "raises RuntimeError in MindSpore only" in tool.difference("Erase", img, ok, error)
    assert "float32(2, 3, 3) in MindSpore" in tool.difference(
        "Invert", img, ok, ("ok", ok[1].astype(np.float32)))
    assert tool.documented("Invert", {}, img > 0) == "bool images are refused"
    assert tool.documented("Invert", {}, img) is None


def test_cases_repeat_for_a_seed():
    first, again = tool.cases(3, 20), tool.cases(3, 20)
    assert [repr(op) for op, _ in first] == [repr(op) for op, _ in again]     # arrays inside
    pixels = lambda img: getattr(img, "pixels", img)        # noqa: E731  (a PIL image's)
    assert all(np.array_equal(pixels(a), pixels(b)) for (_, a), (_, b) in zip(first, again))
