"""tools/numpy_vs_mindspore.py: its plumbing (the reference interpreter's run case by case, the
numpy and torch backends here, the report) checked without MindSpore, this package standing in
as the reference, and its documented rules."""
import subprocess
import sys

import numpy as np

from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "numpy_vs_mindspore.py"
tool = load_script(TOOL)


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "60", "--seed", "5",
                           "--mindspore-python", sys.executable, "--reference", "training"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("0 MindSpore crashed, 0 different"), done.stdout


def test_cases_repeat_for_a_seed_and_call_mindspore_numpy_names():
    first = tool.cases(3, 200)
    assert [tool.describe(case) for case in first] == [tool.describe(case) for case in
                                                       tool.cases(3, 200)]
    assert len({case[1] for case in first}) > 60


def test_documented_rules_apply_where_they_say():
    flip = ("function", "flip", (), (("__tensor__", np.ones(4, np.float32)), 0), {})
    assert "zeros to some elements" in tool.documented(
        flip, "step 1: element 0: largest difference 1")
    assert tool.documented(flip, "largest difference 1") is None       # the forward
    multiply = ("function", "multiply", (), (("__tensor__", np.ones(3, np.float32)), 2.5), {})
    assert "Python numbers" in tool.documented(
        multiply, "raises TypeError in MindSpore only: For 'Mul' ...")
    assert tool.documented(multiply, "float64(3,) here, float32(3,) in MindSpore") is None
