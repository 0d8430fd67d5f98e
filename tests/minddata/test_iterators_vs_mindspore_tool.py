"""tools/iterators_vs_mindspore.py: its plumbing (the reference interpreter's run, case by
case, the comparison of events and callback calls) checked without MindSpore, this package
standing in as the reference, and the comparison's rules on outcomes made here."""
import subprocess
import sys

from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "iterators_vs_mindspore.py"
tool = load_script(TOOL)

ROW = ("row", [("ndarray", "<i8", 0)])
CASE = {"source": {"kind": "numpy", "rows": 3, "columns": ["id"]}, "ops": [], "config": {},
        "iterator": "tuple", "epochs": 1, "numpy": True, "drive": [("create",), ("epoch",)]}


def fails(kind, bases=("Exception",)):
    return ("error", kind, "message", (kind,) + bases)


def outcome(events, hooks=None, compared="in full"):
    return [("events", ("ok", events)), ("hooks", ("ok", hooks or {})), ("synced", ("ok", [])),
            ("compared", ("ok", compared))]


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "25", "--seed", "5",
                           "--mindspore-python", sys.executable, "--reference", "minddata"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith(
        "25 cases, seed 5: 25 same, 0 documented, 0 error type, 0 error elsewhere, "
        "0 MindSpore crashed, 0 different")


def test_cases_repeat_for_a_seed_and_draw_every_op_and_drive():
    first = tool.cases(3, 400)
    assert repr(first) == repr(tool.cases(3, 400)) != repr(tool.cases(4, 400))
    assert {op["op"] for case in first for op in case["ops"]} == {
        "batch", "repeat", "take", "skip", "filter", "project", "map", "sync_wait"}
    assert {action[0] for case in first for action in case["drive"]} == {
        "meta", "create", "epoch", "train epoch", "part", "next", "stop", "second", "for"}
    assert {op["callback"]["kind"] for case in first for op in case["ops"]
            if op.get("callback")} == {"plain", "waited"}


def test_events_compare_one_by_one():
    same = outcome([("created",), ROW, ("end",)])
    assert tool.classify(CASE, same, same) == (None, None, None)
    assert tool.classify(CASE, same, outcome([("created",), ROW]))[:2] == ("different",
                                                                          "events")
    # an error where the other side reads a row is a hard difference
    assert tool.classify(CASE, outcome([("created",), fails("RuntimeError")]),
                         same)[:2] == ("different", "events")
    # at the same event: another type is soft, a subclass of MindSpore's the same
    assert tool.classify(CASE, outcome([("created",), fails("TypeError")]),
                         outcome([("created",), fails("RuntimeError")]))[0] == "error type"
    assert tool.classify(CASE, outcome([("created",), fails("PipelineError",
                                                            ("RuntimeError",))]),
                         outcome([("created",), fails("RuntimeError")])) == (None, None, None)
    # both raise, at other events
    assert tool.classify(CASE, outcome([("created",), ROW, fails("RuntimeError")]),
                         outcome([("created",), fails("RuntimeError")]))[0] == "error elsewhere"
    assert tool.classify(CASE, same, tool.CRASH)[0] == "MindSpore crashed"


def test_hooks_compare_in_full_or_as_far_as_both_went():
    ran = {"ds_step_begin": [(1, 1, 1), (1, 2, 2)]}
    ahead = {"ds_step_begin": [(1, 1, 1), (1, 2, 2), (1, 3, 3)]}
    events = [("created",), ROW]
    assert tool.classify(CASE, outcome(events, ran), outcome(events, ahead))[:2] == (
        "different", "ds_step_begin")
    assert tool.classify(CASE, outcome(events, ran, "as far as both went"),
                         outcome(events, ahead, "as far as both went")) == (None, None, None)
    other = {"ds_step_begin": [(1, 1, 1), (1, 2, 5)]}
    assert tool.classify(CASE, outcome(events, ran, "as far as both went"),
                         outcome(events, other, "as far as both went"))[0] == "different"
    assert tool.classify(CASE, outcome(events, ran, "not"),
                         outcome(events, other, "not")) == (None, None, None)
