"""tools/mindrecord_vs_mindspore.py: its plumbing (the reference interpreter's sessions and
reads, case by case, the files and every read compared) checked without MindSpore, this package
standing in as the reference, and the comparison's rules on outcomes made here."""

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "mindrecord_vs_mindspore.py"
tool = load_script(TOOL)

RUNTIME = ("RuntimeError", "Exception", "BaseException", "object")
OK = ("ok", None)
CASE = {"ops": [("create", 1, True), ("schema", {"a": {"type": "float64"}}, None),
                ("write", [{"a": 1.0}], False), ("commit",)],
        "fields": {"a": {"type": "float64"}}, "marks": [], "existing": None, "columns": None,
        "num_consumer": 1, "category": 0.0}
CALLS = [("0 create", OK), ("1 schema", OK), ("2 write", OK), ("3 commit", OK)]
ROWS = ("ok", [1, {"a": {"type": "float64"}}, [[("a", ("float", "3ff0000000000000"))]]])
AS_MINDSPORE = ("ok", [1, {"a": {"type": "float64"}}, [[("a", ("int", 1))]]])
FILES = [("files", ("ok", ["set.mindrecord", "set.mindrecord.db"])),
         ("set.mindrecord", ("ok", (100, b"{}", "abc")))]


def fails(message, kind="RuntimeError"):
    return ("error", kind, message, (kind,) + RUNTIME[1:])


def outcome(calls=CALLS, rows=ROWS, files=FILES, theirs=False):
    reads = {writer: [("FileReader", rows)] for writer in tool.WRITERS}
    return (calls, reads) if theirs else (calls, reads, (files, files))


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 40, 5, timeout=150) == no_difference(40, 5)


def test_cases_repeat_for_a_seed_and_draw_every_kind():
    first = tool.cases(3, 300)
    assert repr(first) == repr(tool.cases(3, 300)) != repr(tool.cases(4, 300))
    ops = [op for case in first for op in case["ops"]]
    assert {op[0] for op in ops} == {"create", "size", "schema", "index", "write", "commit",
                                     "append"}
    assert {op[1] for op in ops if op[0] == "create"} >= {1, 2, 3, 4}
    assert {op[2] for op in ops if op[0] == "create"} == {True, False}
    assert {op[2] for op in ops if op[0] == "write"} == {True, False}
    kinds = {spec["type"] for case in first for spec in case["fields"].values()}
    assert kinds == {"int32", "int64", "float32", "float64", "string", "bytes"}
    assert any("shape" in spec for case in first for spec in case["fields"].values())
    marks = {mark for case in first for mark in case["marks"]}
    assert {"wrong order", "missing field", "extra field", "beyond int32", "bytes for str",
            "other dtype", "wrong shape"} <= marks
    assert any(mark.startswith("bad schema") for mark in marks)
    assert {case["existing"] for case in first} == {None, "data", "db", "both"}
    assert any(case["columns"] for case in first) and any(not case["columns"] for case in first)


def test_the_comparison_flags_what_differs():
    assert tool.classify(CASE, outcome(), outcome(theirs=True)) == (None, None, None)
    other = ("ok", [1, {"a": {"type": "float64"}}, [[("a", ("float", "4000000000000000"))]]])
    kind, item, why = tool.classify(CASE, outcome(), outcome(rows=other, theirs=True))
    assert kind == "different" and item.startswith("FileReader") and "in MindSpore" in why
    # the files: another file, other bytes
    changed = [FILES[0], ("set.mindrecord", ("ok", (100, b"{}", "abd")))]
    mine = outcome()
    mine = (mine[0], mine[1], (FILES, changed))
    assert tool.classify(CASE, mine, outcome(theirs=True))[:2] == ("different",
                                                                   "file set.mindrecord")
    # a call that raises on one side only
    refused = CALLS[:2] + [("2 write", fails("no"))] + CALLS[3:]
    assert tool.classify(CASE, outcome(), outcome(calls=refused, theirs=True))[:2] == (
        "different", "call 2 write")
    # both raise, another type: soft
    typed = CALLS[:2] + [("2 write", fails("no", "TypeError"))] + CALLS[3:]
    assert tool.classify(CASE, outcome(calls=typed), outcome(calls=refused, theirs=True))[0] \
        == "error type"


def test_a_crash_and_documented_differences_are_counted_apart():
    assert tool.classify(CASE, outcome(), tool.differential_reference.CRASH)[0] == \
        "MindSpore crashed"
    kind, _, why = tool.classify(CASE, outcome(), outcome(rows=AS_MINDSPORE, theirs=True))
    assert kind == "documented" and "floats as floats" in why
    twice = dict(CASE, ops=CASE["ops"] + [("commit",)])
    calls = CALLS + [("4 commit", OK)]
    kind, item, why = tool.classify(twice, outcome(calls=calls), outcome(
        calls=CALLS + [("4 commit", fails("Failed to seekp file."))], theirs=True))
    assert (kind, item) == ("documented", "call 4 commit") and "no-op" in why


def test_rows_compare_sorted_where_mindspore_deals_rows_to_shards_at_random():
    even = dict(CASE, ops=[("create", 2, True), ("write", [{"a": 1.0}, {"a": 2.0}], False)])
    odd = dict(CASE, ops=[("create", 2, True), ("write", [{"a": 1.0}], False)])
    assert tool.rows_order(CASE) == tool.rows_order(even) == "as read"
    assert tool.rows_order(odd) == "sorted"
    assert tool.first_file("x", odd) == "x0" and tool.first_file("x", CASE) == "x"
