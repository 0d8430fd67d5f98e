"""tools/samplers_vs_mindspore.py: its plumbing (the reference interpreter's run, case by case,
the comparison of every item, what random sampling is compared by) checked without MindSpore,
this package standing in as the reference."""

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "samplers_vs_mindspore.py"
tool = load_script(TOOL)

RUNTIME = ("RuntimeError", "Exception", "BaseException", "object")
NUMPY = {"source": {"kind": "numpy", "rows": 4, "seed": 1, "labels": [0, 1, 0, 1]},
         "mode": "kwargs", "kwargs": {"shuffle": False}, "seed": 1}


def row(i, label=0):
    return (("id", ("<i8", (), 100 + i)), ("label", ("<i4", (), label)))


def fails(message, kind="RuntimeError"):
    return ("error", kind, message, (kind,) + RUNTIME[1:])


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 120, 5, timeout=300) == no_difference(120, 5)


def test_cases_repeat_for_a_seed_and_draw_every_kind():
    first = tool.cases(3, 400)
    assert repr(first) == repr(tool.cases(3, 400)) != repr(tool.cases(4, 400))
    assert {case["source"]["kind"] for case in first} == {
        "numpy", "generator", "mindrecord", "images", "padded", "mnist", "manifest", "cifar10"}
    assert {case["mode"] for case in first} == {"kwargs", "use_sampler", "add_sampler",
                                                "concat", "split"}
    assert {case["source"].get("form") for case in first} >= {"random access", "iterable",
                                                              "function"}
    specs = [spec for case in first for top in (case.get("kwargs", {}).get("sampler"),
                                                case.get("sampler"))
             for spec in tool.chain(top)]
    assert {spec[0] for spec in specs} == {
        "SequentialSampler", "DistributedSampler", "SubsetSampler", "SubsetRandomSampler",
        "RandomSampler", "WeightedRandomSampler", "PKSampler", "ids", "invalid"}
    assert any(spec[2] and spec[2][2] for spec in specs)            # two levels of children
    indices = [spec[1] if spec[0] == "ids" else spec[1]["indices"] for spec in specs
               if spec[0] in ("ids", "SubsetSampler", "SubsetRandomSampler")]
    assert {form for form, _ in indices} == {"list", "tuple", "array", "generator", "odd"}
    kwargs = [case.get("kwargs", {}) for case in first]
    assert any("num_padded" in k for k in kwargs) and any("shard_id" in k for k in kwargs)
    assert {str(k.get("shuffle")) for k in kwargs} >= {"None", "True", "False",
                                                       "('Shuffle', 'GLOBAL')"}


def test_deterministic_rows_compare_in_order_random_ones_by_what_must_hold():
    epochs = [[row(2), row(0)], [row(2), row(0)]]
    assert tool.view(NUMPY, epochs, [row(i) for i in range(4)]) == ("rows", epochs)
    shuffled = dict(NUMPY, kwargs={})
    kind, found = tool.view(shuffled, epochs, [row(i) for i in range(4)])
    assert kind == "properties" and dict(found)["sorted"] == [[row(0), row(2)]] * 2
    assert dict(found)["distinct"] == [True, True]
    drawn = dict(NUMPY, kwargs={"sampler": ("RandomSampler", {"replacement": True}, None)})
    found = dict(tool.view(drawn, [[row(1), row(1)]], [row(i) for i in range(4)])[1])
    assert "distinct" not in found and "sorted" not in found
    assert found["rows per epoch"] == [2] and found["of the allowed rows"] is True
    weighted = dict(NUMPY, kwargs={"sampler": ("WeightedRandomSampler",
                                               {"weights": [0, 1.0]}, None)})
    found = dict(tool.view(weighted, [[row(0)]], [row(i) for i in range(4)])[1])
    assert found["of the allowed rows"] is False


def test_the_comparison_flags_what_differs():
    size = ("get_dataset_size", ("ok", 2))
    same = [size, ("rows", ("ok", ("rows", [[row(0), row(1)]])))]
    assert tool.classify(NUMPY, same, same) == (None, None, None)
    other = [size, ("rows", ("ok", ("rows", [[row(1), row(0)]])))]
    kind, item, why = tool.classify(NUMPY, same, other)
    assert (kind, item) == ("different", "rows") and "in MindSpore" in why
    kind, item, _ = tool.classify(NUMPY, same, [size, ("rows", fails("bad id"))])
    assert (kind, item) == ("different", "rows")
    # two errors of other types: soft; an error at another step; a crash
    assert tool.classify(NUMPY, [("build", fails("x", "TypeError"))],
                         [("build", fails("y"))])[0] == "error type"
    assert tool.classify(NUMPY, [("sampler", fails("x", "ValueError"))],
                         [size, ("build", fails("y"))])[0] == "error elsewhere"
    assert tool.classify(NUMPY, same, tool.CRASH)[0] == "MindSpore crashed"


def test_documented_rules_name_the_readme_deviation():
    pk = dict(NUMPY, kwargs={"sampler": ("PKSampler", {"num_val": 2}, None)})
    size = ("get_dataset_size", ("ok", 2))
    ours = [size, ("rows", ("ok", ("rows", [[row(0), row(2)]])))]
    theirs = [size, ("rows", ("ok", ("rows", [[row(2), row(2)]])))]
    assert tool.classify(pk, ours, theirs)[0] == "documented"
    assert "PKSampler" in tool.documented(pk, "rows", ours, theirs)
    assert tool.documented(NUMPY, "rows", ours, theirs) is None
