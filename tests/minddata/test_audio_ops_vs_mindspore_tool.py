"""tools/audio_ops_vs_mindspore.py: its plumbing checked without MindSpore, this package
standing in as the reference, and the comparison's rules on outcomes made here."""
import numpy as np

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "audio_ops_vs_mindspore.py"
tool = load_script(TOOL)
CASE = {"op": "Gain", "kwargs": {}, "input": np.zeros(3, np.float32)}


def ok(values):
    return [("build", ("ok",)), ("out", ("ok", [(str(values.dtype), values.shape, values)]))]


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 30, 5, timeout=120) == no_difference(30, 5)


def test_cases_repeat_for_a_seed():
    assert repr(tool.cases(3, 50)) == repr(tool.cases(3, 50)) != repr(tool.cases(4, 50))


def test_the_comparison_flags_what_differs():
    values = np.array([0.5, 1.0], np.float32)
    assert tool.classify(CASE, ok(values), ok(values + 1e-5)) == (None, None, None)
    assert tool.classify(CASE, ok(values), ok(values + 0.1))[:2] == ("different", "out")
    assert tool.classify(CASE, ok(values), ok(values.astype(np.float64)))[0] == "different"
    failed = [("build", ("error", "ValueError", "bad"))]
    assert tool.classify(CASE, failed, ok(values))[:2] == ("different", "build")
    assert tool.classify(CASE, failed, [("build", ("error", "TypeError", "bad"))])[0] == (
        "error type")


def test_lfcc_of_float64_with_log_lf_is_a_documented_difference():
    values = np.array([0.5, 1.0], np.float32)
    lfcc = {"op": "LFCC", "kwargs": {"log_lf": True}, "input": np.zeros(300)}
    assert tool.classify(lfcc, ok(values), ok(values * np.nan))[0] == "documented"
    on_float32 = dict(lfcc, input=np.zeros(300, np.float32))
    assert tool.classify(on_float32, ok(values), ok(values * np.nan))[0] == "different"
