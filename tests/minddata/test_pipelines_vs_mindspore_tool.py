"""tools/pipelines_vs_mindspore.py: its plumbing (the reference interpreter's run, case by
case, the comparison of every item) checked without MindSpore, this package standing in as the
reference, and the comparison's rules on outcomes made here."""
import subprocess
import sys

from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "pipelines_vs_mindspore.py"
tool = load_script(TOOL)

ROWS = ("ok", [[[("<i4", (), b"\x01\x00\x00\x00")]]])
FAILS = ("error", "RuntimeError", "map failed", ("RuntimeError", "Exception"))


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "40", "--seed", "5",
                           "--mindspore-python", sys.executable, "--reference", "minddata"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("0 MindSpore crashed, 0 different")
    same = int(done.stdout.split("seed 5: ")[1].split(" same")[0])
    assert same == 40


def first(ours, theirs):
    found = tool.case_differences(ours, theirs)
    return found[0] if found else (None, None, None)


def test_the_comparison_flags_what_differs():
    size = ("get_dataset_size", ("ok", 3))
    assert first([size, ("tuple iterator", ROWS)], [size, ("tuple iterator", ROWS)]) == \
        (None, None, None)
    other = ("ok", [[[("<i8", (), b"\x01" + b"\x00" * 7)]]])
    kind, item, why = first([size, ("tuple iterator", ROWS)], [size, ("tuple iterator", other)])
    assert (kind, item) == ("different", "tuple iterator") and "in MindSpore" in why
    kind, item, why = first([("tuple iterator", ROWS)], [("tuple iterator", FAILS)])
    assert kind == "different" and "raises RuntimeError in MindSpore only" in why
    # our PipelineError is a RuntimeError: the same error
    ours = ("error", "PipelineError", "map failed", ("PipelineError", "RuntimeError"))
    assert tool.difference(ours, FAILS) == (None, None)
    assert tool.difference(("error", "TypeError", "x", ("TypeError",)), FAILS)[0] == \
        "error type"


def test_an_error_at_another_step_and_a_crash_are_counted_apart():
    built_late = [("get_col_names", ("ok", ["a"]))] + [(label, FAILS)
                                                       for label in tool.ITERATIONS]
    assert first([("build", FAILS)], built_late)[0] == "error elsewhere"
    assert first([("build", FAILS)], [("tuple iterator", ROWS)])[0] == "different"
    crashed = [("crash", ("error", "crash", "killed by a signal"))]
    assert first([("tuple iterator", ROWS)], crashed)[0] == "MindSpore crashed"
    # a crash in output_shapes alone: the other items are still compared
    partly = [("output_shapes", tool.CRASHED), ("tuple iterator", ROWS)]
    assert first([("output_shapes", ("ok", [[]])), ("tuple iterator", ROWS)], partly)[0] == \
        "MindSpore crashed"
    assert first([("output_shapes", ("ok", [[]])), ("tuple iterator", FAILS)], partly)[0] == \
        "different"


EMPTY_SOURCE = {"source": {"kind": "generator", "kwargs": {}, "columns": [[]]},
                "ops": [("shuffle", 2)]}


def test_a_case_is_different_if_any_hard_difference_is_undocumented():
    empty = [("output_types", ("ok", [])), ("tuple iterator", ("ok", [[]]))]
    refused = [("output_types", FAILS), ("tuple iterator", FAILS)]
    assert tool.classify(EMPTY_SOURCE, empty, refused)[0] == "documented"   # empty here
    wrong = [("output_types", FAILS), ("tuple iterator", ROWS)]
    assert tool.classify(EMPTY_SOURCE, empty, wrong)[:2] == ("different", "tuple iterator")


def test_documented_rules_name_the_readme_deviation():
    empty = [("tuple iterator", ("ok", [[]]))]
    refused = [("tuple iterator", FAILS)]
    assert tool.documented(EMPTY_SOURCE, "tuple iterator", empty, refused) == \
        "a pipeline with no rows iterates as empty"
    assert tool.documented(EMPTY_SOURCE, "tuple iterator", [("tuple iterator", ROWS)],
                           refused) is None


def test_cases_repeat_for_a_seed():
    assert repr(tool.cases(3, 30)) == repr(tool.cases(3, 30))
    assert repr(tool.cases(3, 30)) != repr(tool.cases(4, 30))


def test_rows_are_compared_in_order_only_where_the_order_is_fixed():
    for case in tool.cases(7, 300):
        names = [name for name, _ in case["ops"]]
        if "shuffle" in names:      # only ops on single rows after it: sorted rows compare
            after = names[names.index("shuffle") + 1:]
            assert set(after) <= set(tool.ROW_WISE) and tool.order(case) == "sorted"
        kwargs = case["source"]["kwargs"]
        if kwargs.get("shuffle") is True and case["source"]["kind"] in \
                tool.file_sources.FILE_KINDS:
            assert tool.order(case) == ("counted" if "num_samples" in kwargs else "sorted")
    kinds = {case["source"]["kind"] for case in tool.cases(7, 300)}
    assert set(tool.file_sources.FILE_KINDS) <= kinds


def test_a_filter_over_csv_rows_in_file_order_counts_other_rows():
    # measured in MindSpore 2.10: TextFileDataset over files of 5 rows and 1 row, num_samples 2,
    # then a filter keeping even lengths: size 1 there (rows 'beta', 'ζ' interleaved), 2 here
    case = {"source": {"kind": "text", "files": [["beta"] * 5, ["ζ"]],
                       "kwargs": {"shuffle": False, "num_samples": 2}},
            "ops": [("filter", {"predicate": "keep_even", "column": None})]}
    ours = [("get_dataset_size", ("ok", 2)), ("tuple iterator", ROWS)]
    theirs = [("get_dataset_size", ("ok", 1)), ("tuple iterator", ROWS)]
    assert tool.documented(case, "get_dataset_size", ours, theirs) == \
        "CSV/TextFile rows come in file order (MindSpore interleaves the files)"
    case["ops"] = [("repeat", 2)]
    assert tool.documented(case, "get_dataset_size", ours, theirs) is None
