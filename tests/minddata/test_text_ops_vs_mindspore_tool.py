"""tools/text_ops_vs_mindspore.py: its plumbing (the reference interpreter's run, case by case,
the comparison of every item) checked without MindSpore, this package standing in as the
reference, and the comparison's rules on outcomes made here."""

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "text_ops_vs_mindspore.py"
tool = load_script(TOOL)

IDS = ("ok", [("<i4", (2,), b"\x01\x00\x00\x00\x02\x00\x00\x00")])
OTHER_IDS = ("ok", [("<i4", (2,), b"\x01\x00\x00\x00\x03\x00\x00\x00")])
CASE = {"kind": "Lookup"}


def fails(message, kind="RuntimeError"):
    return ("error", kind, message, (kind, "Exception", "BaseException", "object"))


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 30, 5, timeout=120) == no_difference(30, 5)


def test_cases_repeat_for_a_seed_and_draw_every_op_and_builder():
    first = tool.cases(3, 400)
    assert repr(first) == repr(tool.cases(3, 400)) != repr(tool.cases(4, 400))
    assert set(tool.OPS) | {"vocab"} <= {case["kind"] for case in first}
    assert {case["how"] for case in first if case["kind"] == "vocab"} == {
        "from_list", "from_dict", "from_file", "from_dataset"}


def test_the_comparison_flags_what_differs():
    same = [("build", ("ok", None)), ("eager", IDS), ("map", IDS)]
    assert tool.classify(CASE, same, same) == (None, None, None)
    other = [("build", ("ok", None)), ("eager", OTHER_IDS), ("map", IDS)]
    assert tool.classify(CASE, other, same)[:2] == ("different", "eager")
    assert tool.classify(CASE, [("build", fails("bad", "TypeError"))], same)[:2] == (
        "different", "build")
    assert tool.classify(CASE, [("build", fails("x", "TypeError"))],
                         [("build", fails("x", "ValueError"))])[0] == "error type"
    assert tool.classify(CASE, same, tool.differential_reference.CRASH)[0] == \
        "MindSpore crashed"
