"""tools/ops_vs_mindspore.py: its plumbing (the reference interpreter's run case by case, the
numpy and torch backends here, the report) checked without MindSpore, this package standing in
as the reference, and its documented rules."""
import os
import subprocess
import sys

import numpy as np

from tests.conftest import PROJECT_ROOT, load_script
from tests.training import faulty_reference

TOOL = PROJECT_ROOT / "tools" / "ops_vs_mindspore.py"
tool = load_script(TOOL)


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "60", "--seed", "5",
                           "--mindspore-python", sys.executable, "--reference", "training"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("0 MindSpore crashed, 0 different"), done.stdout


def test_a_reference_that_crashes_is_counted_and_the_run_goes_on(tmp_path):
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "5", "--seed", "5",
                           "--mindspore-python", faulty_reference.interpreter(tmp_path),
                           "--reference", "training"], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, FAULTY_REFERENCE_CRASH="2"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "case 2: " in done.stdout
    assert done.stdout.strip().endswith("1 MindSpore crashed, 0 different"), done.stdout


def test_cases_repeat_for_a_seed_and_draw_every_kind():
    first = tool.cases(3, 200)
    assert [tool.describe(case) for case in first] == [tool.describe(case) for case in
                                                       tool.cases(3, 200)]
    assert {case[0] for case in first} == {"function", "primitive"}


def test_documented_rules_name_mindspore_bugs_only_where_they_apply():
    roll = ("function", "roll", (), (("__tensor__", np.ones(3, np.float32)), 1), {})
    assert "Roll unregistered" in tool.documented(
        roll, "raises RuntimeError in MindSpore only: The kernel Roll unregistered.")
    assert tool.documented(roll, "largest difference 1") is None
    prod = ("primitive", "ReduceProd", (True,), (("__tensor__", np.ones(3, np.float32)), ()), {})
    assert "ones" in tool.documented(prod, "step 1: element 0: largest difference 2")
    assert tool.documented(prod, "largest difference 2") is None       # the forward
