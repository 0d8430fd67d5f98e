"""tools/mint_vs_mindspore.py: its plumbing (the reference interpreter's run case by case, the
numpy and torch backends here, the report) checked without MindSpore, this package standing in
as the reference, and its documented rules."""
import subprocess
import sys

import numpy as np

from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "mint_vs_mindspore.py"
tool = load_script(TOOL)


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "40", "--seed", "5",
                           "--mindspore-python", sys.executable, "--reference", "training"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("0 MindSpore crashed, 0 different"), done.stdout


def test_cases_repeat_for_a_seed_and_reach_mint_and_its_functional():
    first = tool.cases(3, 200)
    assert [tool.describe(case) for case in first] == [tool.describe(case) for case in
                                                       tool.cases(3, 200)]
    names = {case[1] for case in first}
    assert len(names) > 50 and any(n.startswith("nn.functional.") for n in names)
    assert {"Linear", "GroupNorm", "PReLU", "nn.ReLU", "nn.NLLLoss"} <= names   # layers too


def test_documented_rules_apply_where_they_say():
    x = ("__tensor__", np.ones((2, 3), np.float32))
    topk = ("function", "topk", (), (x, 2), {})
    assert "CPU build lacks" in tool.documented(
        topk, "raises RuntimeError in MindSpore only: The kernel TopkExt unregistered.")
    assert tool.documented(topk, "raises RuntimeError here only: boom") is None
    add = ("function", "add", (), (x, x), {})
    assert tool.documented(add, "step 0: largest difference 1") is None
