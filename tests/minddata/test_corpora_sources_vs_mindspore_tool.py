"""tools/corpora_sources_vs_mindspore.py: its plumbing checked without MindSpore, this package
standing in as the reference, and its own rules on outcomes made here."""

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "corpora_sources_vs_mindspore.py"
tool = load_script(TOOL)


def text(value):
    return [("str", (), value)]


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 40, 5, timeout=120) == no_difference(40, 5)


def test_cases_repeat_for_a_seed_and_draw_every_corpus():
    first = tool.cases(3, 200)
    assert first == tool.cases(3, 200)
    assert {case["name"] for case in first} == set(tool.USAGES)


def test_files_read_follow_the_usage_and_mindsporess_order():
    files = [("train.csv", b"1\n"), ("test.csv", b"2\n")]
    assert [name for name, _ in tool.files_read(
        {"name": "AGNewsDataset", "files": files, "kwargs": {}})] == ["test.csv", "train.csv"]
    assert [name for name, _ in tool.files_read(
        {"name": "YelpReviewDataset", "files": files, "kwargs": {}})] == ["train.csv", "test.csv"]
    assert [name for name, _ in tool.files_read(
        {"name": "DBpediaDataset", "files": files, "kwargs": {"usage": "test"}})] == ["test.csv"]


def test_index_skipping_as_mindspore_reads_sst2_test():
    assert tool.index_skipped(b"index\tsentence\n0\ta b\n1\tc\n") == b"sentence\na b\nc\n"
    # a line without a tab skips on into the next line's first field
    assert tool.index_skipped(b"index\tsentence\n0\n1\tc\n") == b"sentence\nc\n"
    assert tool.index_skip_reads_otherwise(b"index\tsentence\n0\t\n")
    assert not tool.index_skip_reads_otherwise(b"index\tsentence\n0\ta\n")


def test_enwik9_size_rule_counts_non_empty_lines():
    case = {"name": "EnWik9Dataset", "files": [("enwik9", b"x\n\ny\n\n")],
            "kwargs": {"shuffle": False}}
    assert tool.nonempty_line_sizes(case) == [2]
    ours = [("get_dataset_size", ("ok", [4])), ("rows", ("ok", [text("x")] * 4))]
    theirs = [("get_dataset_size", ("ok", [2])), ("rows", ("ok", [text("x")] * 4))]
    assert tool.classify(case, ours, theirs)[0] == "documented"
    assert tool.classify(case, ours, [("get_dataset_size", ("ok", [3])),
                                      theirs[1]])[0] == "different"


def test_tedlium_zero_waveforms_of_mindspore_are_documented_alone():
    case = {"name": "TedliumDataset", "files": [("dev/stm/T.stm", b"T 1 T 0 1 <x> hi\n")],
            "kwargs": {"shuffle": False}, "args": ["release1"]}
    row = [("<f4", (1, 2), b"\x01\x00\x00\x00" * 2)] + text("hi")
    zero = [("<f4", (1, 2), bytes(8))] + text("hi")
    assert tool.classify(case, [("rows", ("ok", [row]))], [("rows", ("ok", [zero]))])[0] == \
        "documented"
    other = [("<f4", (1, 2), bytes(8))] + text("ho")
    assert tool.classify(case, [("rows", ("ok", [row]))], [("rows", ("ok", [other]))])[0] == \
        "different"
