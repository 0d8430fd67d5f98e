"""tools/converters_vs_mindspore.py: its plumbing (the reference interpreter's run case by case,
the comparison of conversions, files and reads) checked without MindSpore, this package
standing in as the reference, and the comparison's rules on outcomes made here."""
import subprocess
import sys

from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "converters_vs_mindspore.py"
tool = load_script(TOOL)

OK = ("ok", None)
INT64 = {"schema": [("label", {"type": "int64"})], "len": 2,
         "rows": [[("label", ("int", 1))], [("label", ("int", 2))]]}
FIELDS = ("ok", ["label"])


def fails(message, kind="ValueError"):
    return ("error", kind, message, (kind, "Exception", "BaseException", "object"))


def outcome(reads=None, init=OK, done=OK, files=("out/d", "out/d.db")):
    reads = reads if reads is not None else {"out/d": {"rows": ("ok", INT64), "index": FIELDS}}
    return {"init": init, "transform": done, "files": list(files),
            "reads": {"minddata": reads, "mindspore": reads}}


CSV = {"kind": "csv", "perturb": None, "files": {}, "empty_dirs": [], "existing": [],
       "destination": "out/d", "fields": "absent", "columns_list": "absent", "partition": 1}


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "60", "--seed", "5",
                           "--mindspore-python", sys.executable, "--reference", "minddata"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == (
        "60 cases, seed 5: 60 same, 0 documented, 0 error type, 0 error elsewhere, "
        "0 MindSpore crashed, 0 different")


def test_cases_repeat_for_a_seed_and_draw_every_kind():
    first = tool.cases(3, 300)
    assert repr(first) == repr(tool.cases(3, 300)) != repr(tool.cases(4, 300))
    assert {case["kind"] for case in first} == set(tool.CONVERTERS)
    perturbs = {(case["kind"], case["perturb"]) for case in first}
    for kind in tool.CONVERTERS:            # the plain input and most ways to spoil it
        drawn = {perturb for k, perturb in perturbs if k == kind}
        assert None in drawn and len(drawn) >= 8, (kind, drawn)
    assert {case["partition"] for case in first} >= {1, 2, 3, 4, 0, True, None, "absent"}
    assert any(case["existing"] for case in first)
    assert any(isinstance(case["fields"], list) for case in first)
    assert any(isinstance(case["columns_list"], list) for case in first)


def test_the_comparison_flags_what_differs():
    same = outcome()
    assert tool.classify(CSV, same, same) == (None, None, None)
    other = dict(INT64, rows=[[("label", ("int", 1))], [("label", ("int", 3))]])
    theirs = outcome({"out/d": {"rows": ("ok", other), "index": FIELDS}})
    kind, item, why = tool.classify(CSV, same, theirs)
    assert kind == "different" and "out/d rows" in item and "in MindSpore" in why
    # raised on one side only; files left behind on one side
    kind, item, _ = tool.classify(CSV, same, outcome(done=fails("bad")))
    assert (kind, item) == ("different", "conversion")
    assert tool.classify(CSV, outcome(done=fails("x")), outcome(
        done=fails("y"), files=["out/d"]))[:2] == ("documented", "files left")
    # another error type: soft; raised in the constructor here, in transform there
    assert tool.classify(CSV, outcome(done=fails("x")), outcome(
        done=fails("y", "RuntimeError")))[0] == "error type"
    assert tool.classify(CSV, outcome(init=fails("x")), outcome(
        done=fails("y")))[0] == "error elsewhere"
    assert tool.classify(CSV, same, tool.CRASH)[0] == "MindSpore crashed"


def test_relaxations_are_documented_only_where_the_readme_says():
    rows = [[("label", ("int", 1))], [("label", ("int", 2))]]
    split = {"out/d0": {"rows": ("ok", dict(INT64, len=1, rows=rows[:1])), "index": FIELDS},
             "out/d1": {"rows": ("ok", dict(INT64, len=1, rows=rows[1:])), "index": FIELDS}}
    moved = {"out/d0": {"rows": ("ok", dict(INT64, len=2, rows=rows)), "index": FIELDS},
             "out/d1": {"rows": ("ok", dict(INT64, len=0, rows=[])), "index": FIELDS}}
    kind, _, why = tool.classify(CSV, outcome(split), outcome(moved))
    assert kind == "documented" and "random in MindSpore" in why
    swapped = {"out/d": {"rows": ("ok", dict(INT64, rows=rows[::-1])), "index": FIELDS}}
    assert tool.classify(CSV, outcome(), outcome(swapped))[0] == "different"
    folders = dict(CSV, kind="imagenet", files={"in/img/n01/a.JPEG": b"", "in/img/n01/b.JPEG": b""})
    assert tool.classify(folders, outcome(), outcome(swapped))[0] == "documented"
    as_float = {"out/d": {"rows": ("ok", dict(INT64, rows=[[("label", ("float", "1.0"))],
                                                           [("label", ("float", "2.0"))]])),
                          "index": FIELDS}}
    # MindSpore's reader gives ints (of both libraries' files)
    kind, item, why = tool.classify(CSV, outcome(as_float), outcome())
    assert kind == "documented" and "floats stay floats" in why


def test_documented_rules_name_the_readme_deviation():
    mnist = dict(CSV, kind="mnist", perturb="wrong magic")
    refused = outcome(done=fails("in/src/x.gz: idx magic number 0, expected 2051",
                                 "ConversionError"))
    assert "idx headers" in tool.classify(mnist, refused, outcome())[2]
    assert tool.classify(dict(mnist, kind="cifar10"), refused, outcome())[0] == "different"
    spaces = dict(CSV, kind="imagenet", perturb="tab")
    assert "whitespace" in tool.classify(spaces, outcome(), outcome(
        done=fails("list index out of range", "IndexError")))[2]
