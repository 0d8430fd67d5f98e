"""tools/text_sources_vs_mindspore.py: its plumbing (the reference interpreter's run, case by
case, the comparison of every item) checked without MindSpore, this package standing in as the
reference, and the comparison's rules on outcomes made here."""

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "text_sources_vs_mindspore.py"
tool = load_script(TOOL)

RUNTIME = ("RuntimeError", "Exception", "BaseException", "object")


def ok(value):
    return ("ok", value)


def fails(message, kind="RuntimeError"):
    return ("error", kind, message, (kind,) + RUNTIME[1:])


def text(value):
    return [("str", (), value)]


CSV = {"kind": "csv", "files": [("part0.csv", b"x\n1\n")], "glob": False,
       "kwargs": {"column_names": ["a"], "column_defaults": [0], "shuffle": False,
                  "num_parallel_workers": 1}}


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 60, 5, timeout=120) == no_difference(60, 5)


def test_cases_repeat_for_a_seed_and_draw_every_source():
    first, again = tool.cases(3, 60), tool.cases(3, 60)
    assert first == again
    assert {case["kind"] for case in first} == {"csv", "text", "clue"}
    assert {tool.order(case) for case in first} == {"as read", "sorted", "counted"}


def test_the_comparison_flags_what_differs():
    size = ("get_dataset_size", ok([1]))
    rows = ("rows", ok([text("a")]))
    assert tool.case_differences([size, rows], [size, rows]) == []
    kind, item, why = tool.case_differences([size, rows], [size, ("rows", ok([text("b")]))])[0]
    assert (kind, item) == ("different", "rows") and "in MindSpore" in why
    kind, item, why = tool.case_differences([size, rows], [size, ("rows", fails("bad"))])[0]
    assert kind == "different" and "raises RuntimeError in MindSpore only" in why
    # a size that raises on one side only where both fail to iterate: counted apart
    both_fail = [("get_dataset_size", fails("bad")), ("rows", fails("bad"))]
    assert tool.case_differences(both_fail, [size, ("rows", fails("worse"))])[0][0] == \
        "error elsewhere"
    # an error when built stands for that error in every item
    assert [found[:2] for found in tool.case_differences([("build", fails("bad"))],
                                                         [size, rows])] == \
        [("different", "get_dataset_size"), ("different", "rows")]
    assert tool.case_differences([size, rows], tool.CRASH)[0][0] == "MindSpore crashed"


def test_documented_rules_read_the_case_and_both_outcomes():
    # MindSpore reads the number at the start of '1e3' in an int column: 1
    ours = [("rows", fails("Invalid csv, csv file: t.csv parse failed at data line 1, type does "
                           "not match: column 'a' holds '1e3', which is not a number of type "
                           "int32 (its column_defaults entry is 0)."))]
    theirs = [("rows", ok([[("<i4", (), b"\x01\x00\x00\x00")]]))]
    assert tool.classify(CSV, ours, theirs)[0] == "documented"
    ours_abc = [("rows", fails(ours[0][1][2].replace("'1e3'", "'abc'")))]
    assert tool.classify(CSV, ours_abc, theirs)[0] == "different"
    # TextFile: MindSpore keeps the CR of a CRLF
    case = {"kind": "text", "files": [("part0.txt", b"a\r\nb\n")], "glob": False,
            "kwargs": {"shuffle": False, "num_parallel_workers": 1}}
    mine = [("rows", ok([text("a"), text("b")]))]
    assert tool.classify(case, mine, [("rows", ok([text("a\r"), text("b")]))])[0] == \
        "documented"
    assert tool.classify(case, mine, [("rows", ok([text("a"), text("c")]))])[0] == "different"
    # a one-field last line without a line break: MindSpore drops it
    unended = dict(CSV, files=[("part0.csv", b"1\n2")])
    assert tool.drop_unended_field(unended)["files"] == [("part0.csv", b"1\n")]
    assert tool.drop_unended_field(dict(CSV, files=[("part0.csv", b"1\n2,3")])) is None
    one = [("<i4", (), b"\x01\x00\x00\x00")]
    assert tool.same_as_ours(tool.mindspore_drops(unended, ""), "rows", {"rows": ok([one])})
    assert not tool.same_as_ours(tool.mindspore_drops(unended, ""), "rows",
                                 {"rows": ok([one, one])})
    quoted = dict(CSV, files=[("part0.csv", b"1\n"), ("part1.csv", b'1"2\n3\n')])
    message = ("Invalid file, failed to parse csv file: /t/part1.csv at line 1. Error message: "
               "Invalid csv file, a quote that does not enclose a whole field")
    assert tool.mindspore_drops(quoted, message)["files"] == [("part0.csv", b"1\n")]
    assert tool.mindspore_drops(quoted, "") is None
    assert tool.header_quirk(b"a,b\rc,d\n") == "lone CR"
    assert tool.header_quirk(b'"a",b\n') == "quote" and tool.header_quirk(b"a,b\n") is None
