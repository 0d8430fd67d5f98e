"""tools/memory_sources_vs_mindspore.py: its plumbing (the reference interpreter's run, case by
case, the comparison of every item) checked without MindSpore, this package standing in as the
reference, and the comparison's rules on outcomes made here."""

import numpy as np

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "memory_sources_vs_mindspore.py"
tool = load_script(TOOL)

RUNTIME = ("RuntimeError", "Exception", "BaseException", "object")
INT64 = [[("<i8", (), b"\x01" + b"\x00" * 7)]]
FLOAT64 = [[("<f8", (), b"\x00" * 6 + b"\xf0?")]]
PADDED = {"kind": "padded", "kwargs": {}, "samples": [{"a": 1}], "after": None}


def fails(message, kind="RuntimeError"):
    return ("error", kind, message, (kind,) + RUNTIME[1:])


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 80, 5, timeout=120) == no_difference(80, 5)


def test_cases_repeat_for_a_seed_and_draw_every_source_and_form():
    first = tool.cases(3, 200)
    assert repr(first) == repr(tool.cases(3, 200)) != repr(tool.cases(4, 200))
    assert {case["kind"] for case in first} == {"numpy", "generator", "padded"}
    assert {case["after"] for case in first} == {None, "batch", "map", "map on 2 processes"}
    generators = [case for case in first if case["kind"] == "generator"]
    assert {case["form"] for case in generators} == {"function", "random access", "iterable",
                                                     "list"}
    assert {case["shaping"] for case in generators} == {"tuple", "list", "dict", "single",
                                                        "wrong length"}
    assert any("column_types" in case["kwargs"] for case in generators)
    assert any("schema" in case["kwargs"] for case in generators)


def test_the_comparison_flags_what_differs():
    names = ("get_col_names", ("ok", ["a"]))
    same = [names, ("tuple iterator", ("ok", INT64))]
    assert tool.classify(PADDED, same, same) == (None, None, None)
    other = [names, ("tuple iterator", ("ok", FLOAT64))]
    kind, item, why = tool.classify(PADDED, same, other)
    assert (kind, item) == ("different", "tuple iterator") and "in MindSpore" in why
    kind, item, _ = tool.classify(PADDED, same, [names, ("tuple iterator", fails("bad row"))])
    assert (kind, item) == ("different", "tuple iterator")
    # two errors of other types: soft
    assert tool.classify(PADDED, [("build", fails("x", "TypeError"))],
                         [("build", fails("y"))])[0] == "error type"


def test_an_error_at_another_step_and_a_crash_are_counted_apart():
    late = [("get_col_names", ("ok", ["a"]))] + [(label, fails("bad row"))
                                                 for label in tool.ROWS]
    assert tool.case_differences([("build", fails("bad"))], late)[0][0] == "error elsewhere"
    assert tool.case_differences([("tuple iterator", ("ok", INT64))], tool.CRASH)[0][0] == \
        "MindSpore crashed"


def test_values_compare_by_dtype_shape_and_value_dicts_key_by_key():
    assert tool.plain({"b": np.int32(1), "a": [np.array([1.5])]}) == tool.plain(
        {"a": [np.array([1.5])], "b": np.array(1, np.int32)})
    assert tool.plain(np.array(1, np.int32)) != tool.plain(np.array(1, np.int64))
    assert tool.plain("a") != tool.plain(b"a")
    assert tool.plain(None) == tool.plain(None)


def test_documented_rules_name_the_readme_deviation():
    mixed = {"kind": "numpy", "data": [1, 2.5], "kwargs": {}}
    assert "one dtype" in tool.documented(mixed, "output_types", [], [])
    ints = {"kind": "numpy", "data": {"a": [1, 2 ** 63]}, "kwargs": {}}
    assert tool.documented(ints, "output_types", [], []) is None
    typed = {"kind": "generator", "table": [(1,)], "after": None,
             "kwargs": {"column_types": [("numpy", "int64")]}}
    refused = [("build", fails("", "NotImplementedError"))]
    assert "NotImplementedError" in tool.documented(typed, "get_col_names", [], refused)
    assert tool.documented(typed, "get_col_names", [], [("build", fails(""))]) is None
