"""tools/op_arguments_vs_mindspore.py: its plumbing (the reference interpreter's run, case by
case, the comparison of every item) checked without MindSpore, this package standing in as the
reference, and the comparison's rules on outcomes made here."""

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "op_arguments_vs_mindspore.py"
tool = load_script(TOOL)

ROWS = ("ok", [[("<i8", (), b"\x01" + b"\x00" * 7)]])
OTHER_ROWS = ("ok", [[("<i8", (), b"\x02" + b"\x00" * 7)]])
OP = {"kind": "op", "op": "take", "args": {"count": 1}, "wrong": []}


def fails(message, kind="RuntimeError"):
    return ("error", kind, message, (kind, "Exception", "BaseException", "object"))


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 40, 5, timeout=120) == (
        no_difference(40, 5) + ", 0 error words")


def test_cases_repeat_for_a_seed_and_draw_every_op_and_setter():
    first = tool.cases(3, 600)
    assert repr(first) == repr(tool.cases(3, 600)) != repr(tool.cases(4, 600))
    assert {case["op"] for case in first if case["kind"] == "op"} == set(tool.OPS)
    assert {case["setter"] for case in first if case["kind"] == "config"} == set(tool.SETTINGS)
    assert any(case["wrong"] for case in first) and any(not case["wrong"] for case in first)


def test_the_comparison_flags_what_differs():
    same = [("build", ("ok", None)), ("rows", ROWS), ("size", ("ok", 1))]
    assert tool.classify(OP, same, same) == (None, None, None)
    other = [("build", ("ok", None)), ("rows", OTHER_ROWS), ("size", ("ok", 1))]
    assert tool.classify(OP, same, other)[:2] == ("different", "rows")
    # raising where the other side does not is a hard difference
    assert tool.classify(OP, [("build", fails("bad", "TypeError"))], same)[:2] == (
        "different", "build")
    # another type of error, or the error at iteration rather than when built: soft
    assert tool.classify(OP, [("build", fails("x", "TypeError"))],
                         [("build", fails("x", "ValueError"))])[0] == "error type"
    late = [("build", ("ok", None)), ("rows", fails("x")), ("size", fails("x"))]
    assert tool.classify(OP, [("build", fails("x"))], late)[0] == "error elsewhere"
    assert tool.classify(OP, same, tool.CRASH)[0] == "MindSpore crashed"


def test_an_error_without_mindspore_s_key_words_is_counted_apart():
    ours = [("build", fails("count must be positive", "ValueError"))]
    theirs = [("build", fails("Input count is not within the required interval of "
                              "[-1, 2147483647].", "ValueError"))]
    kind, item, why = tool.classify(OP, ours, theirs)
    assert (kind, item) == ("error words", "build") and "2147483647" in why
    worded = [("build", fails("Input count is not within the required interval of "
                              "[-1, 2147483647], got 0", "ValueError"))]
    assert tool.classify(OP, worded, theirs) == (None, None, None)


def test_a_setter_s_read_back_value_is_compared():
    config = {"kind": "config", "setter": "set_seed", "value": 1, "wrong": False}
    assert tool.classify(config, [("set", ("ok", None)), ("get", ("ok", 1))],
                         [("set", ("ok", None)), ("get", ("ok", 2))])[:2] == ("different", "get")
    assert tool.classify(config, [("set", ("ok", None))],
                         [("set", fails("bad", "ValueError"))])[:2] == ("different", "set")
