"""tools/data_ops_vs_mindspore.py: its plumbing (the reference interpreter's run, case by case
and again after a crash, the comparison) checked without MindSpore, this package standing in as
the reference, and the comparison's rules on outcomes made here."""
import subprocess
import sys

import numpy as np

from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "data_ops_vs_mindspore.py"
tool = load_script(TOOL)


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "150", "--seed", "7",
                           "--mindspore-python", sys.executable, "--reference", "minddata"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("0 documented, 0 different")
    assert "150 same" in done.stdout


def test_a_reference_that_dies_on_a_case_goes_on_after_it(tmp_path):
    # a stand-in reference interpreter that aborts on every case whose op is Unique
    wrapper = tmp_path / "dies_on_unique.py"
    wrapper.write_text(
        "import importlib.util, os, sys\n"
        f"spec = importlib.util.spec_from_file_location('tool', {str(TOOL)!r})\n"
        "tool = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(tool)\n"
        "outcome = tool.outcome\n"
        "def dying(library, spec, value):\n"
        "    if spec[1] == 'Unique':\n"
        "        os.abort()\n"
        "    return outcome(library, spec, value)\n"
        "tool.outcome = dying\n"
        "sys.argv = sys.argv[1:]\n"
        "sys.exit(tool.main())\n")
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\nexec {sys.executable} {wrapper} \"$@\"\n")
    python.chmod(0o755)
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "40", "--seed", "7",
                           "--mindspore-python", str(python), "--reference", "minddata"],
                          capture_output=True, text=True, timeout=120)
    unique_cases = sum(op[1] == "Unique" for op, _ in tool.cases(7, 40))
    dies = [line for line in done.stdout.splitlines() if "interpreter dies" in line]
    assert unique_cases and all(line.startswith("Unique()") for line in dies), done.stdout
    counts = done.stdout.strip().splitlines()[-1].split(": ")[1].split(", ")
    assert sum(int(c.split()[0]) for c in counts) == 40
    assert int(counts[0].split()[0]) == 40 - unique_cases      # every other case compared


def test_the_comparison_flags_what_differs():
    ok = ("ok", "ndarray", [np.array([1, 2], np.int64)])
    assert tool.difference(ok, ok) is None
    assert tool.difference(ok, ("ok", "ndarray", [np.array([1, 3])])).startswith("values differ")
    assert "int32(2,) in MindSpore" in tool.difference(
        ok, ("ok", "ndarray", [np.array([1, 2], np.int32)]))
    assert "1 outputs (ndarray) here, 2 (tuple)" in tool.difference(
        ok, ("ok", "tuple", ok[2] * 2))
    # strings by kind and value: widths may differ
    assert tool.difference(("ok", "ndarray", [np.array(["a"], "<U1")]),
                           ("ok", "ndarray", [np.array(["a"], "<U5")])) is None
    assert tool.difference(("ok", "ndarray", [np.array(["a"])]),
                           ("ok", "ndarray", [np.array([b"a"])])) is not None
    nan = ("ok", "ndarray", [np.array([np.nan])])
    assert tool.difference(nan, nan) is None
    error = ("error", "RuntimeError", "Slice: out of bounds")
    assert tool.difference(error, ("error", "TypeError", "x")) is None     # counted apart
    assert "raises RuntimeError in MindSpore only" in tool.difference(ok, error)
    assert "dies" in tool.difference(ok, ("crash", "exit status -11", ""))


def test_documented_rules_read_each_op_input():
    one_hot = tool.op("OneHot", 3)
    assert tool.documented(one_hot, np.array([-1, 2])).startswith("OneHot refuses negative")
    assert tool.documented(one_hot, np.array([0, 2])) is None
    # the second op's input is the first's output: one-hot rows, 1-D, for Unique
    chain = tool.op("Compose", [tool.op("OneHot", 3), tool.op("Unique")])
    assert tool.documented(chain, np.array(1)).startswith("Unique takes 1-D")
    assert tool.documented(tool.op("Unique"), np.arange(6).reshape(2, 3)) is None
    assert tool.slice_refused(slice(1, None)) and not tool.slice_refused(slice(None, 3))
    assert tool.slice_mindspore_wrong(slice(-2, 2, 2), 5)
    assert not tool.slice_mindspore_wrong(slice(0, 3), 5)
    assert tool.float32_rounds(2.7, np.dtype(np.float64))
    assert not tool.float32_rounds(2.7, np.dtype(np.uint8))


def test_cases_repeat_for_a_seed():
    first, again = tool.cases(3, 30), tool.cases(3, 30)
    assert [tool.describe(op) for op, _ in first] == [tool.describe(op) for op, _ in again]
    assert all(tool.describe_input(a) == tool.describe_input(b)
               for (_, a), (_, b) in zip(first, again))
