"""tools/resume_vs_mindspore.py: its plumbing (the reference interpreter's run, case by case,
the exactness rule, the comparison of events) checked without MindSpore, this package standing
in as the reference, and the comparison's rules on outcomes made here."""

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "resume_vs_mindspore.py"
tool = load_script(TOOL)

RUN = {"source": {"kind": "numpy", "rows": 4, "shuffle": False}, "ops": [],
       "init": {"kind": "inside", "fraction": 0.5, "epoch": 1, "extra": 0, "on": "pipeline"},
       "fast_recovery": True, "seed": 1, "alternative": [(1, False)] * 4, "shuffled": False,
       "epochs": 2}
START = [("set_init_step", "ok"), ("get_init_step", "2"), ("get_dataset_size", "4"),
         ("created",)]


def fails(kind):
    return ("error", kind, "message", (kind, "Exception", "BaseException", "object"))


def outcome(*events, exact=None):
    return [("events", ("ok", START + list(events))), ("exact", ("ok", exact))]


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 40, 5, timeout=150) == no_difference(40, 5)


def test_cases_repeat_for_a_seed_and_draw_every_kind_of_init_step_and_run():
    first = tool.cases(3, 300)
    assert repr(first) == repr(tool.cases(3, 300)) != repr(tool.cases(4, 300))
    kinds = {case["init"]["kind"] for case in first}
    assert {"none", "zero", "inside", "epoch end", "later", "past", "resume"} | set(
        tool.WRONG_STEPS) == kinds
    assert any("train" in case and case["train"]["sink"] for case in first)
    assert any(case["shuffled"] for case in first) and any(case.get("epochs") == -1
                                                           for case in first)


def test_init_steps_are_drawn_from_the_dataset_s_size():
    assert tool.init_value(RUN, 4) == 2
    assert tool.init_value(dict(RUN, init=dict(RUN["init"], kind="later")), 4) == 6
    assert tool.init_value(dict(RUN, init=dict(RUN["init"], kind="past", extra=1)), 4) == 9
    resume = dict(RUN, init=dict(RUN["init"], kind="resume"),
                  train={"epochs": 3, "initial": 2, "sink": True, "sink_size": 3})
    assert tool.init_value(resume, 4) == 6


def test_the_comparison_flags_what_differs():
    rows = ("epoch", [[2], [3]])
    same = outcome(rows, ("epoch", [[0], [1], [2], [3]]))
    assert tool.classify(RUN, same, same) == (None, None, None)
    other = outcome(("epoch", [[1], [2], [3]]), ("epoch", [[0], [1], [2], [3]]))
    assert tool.classify(RUN, same, other)[:2] == ("different", "events")
    # an error at another event than MindSpore's: soft
    late = outcome(rows, fails("RuntimeError"))
    assert tool.classify(RUN, outcome(fails("RuntimeError")), late)[0] == "error elsewhere"
    # a resume that is not the uninterrupted run's tail is wrong whatever MindSpore does
    assert tool.classify(RUN, outcome(rows, exact="other rows"), same)[:2] == (
        "different", "exact")
    # a shuffled case is compared with this package's own run only
    shuffled = dict(RUN, shuffled=True)
    assert tool.classify(shuffled, same, other) == (None, None, None)
    assert tool.classify(RUN, same, tool.differential_reference.CRASH)[0] == "MindSpore crashed"


def test_mindspore_s_refusal_of_an_endless_iterator_s_init_step_is_documented():
    endless = dict(RUN, epochs=-1)
    theirs = [("events", ("ok", START[:3] + [(
        "error", "RuntimeError", "Cannot reset the pipeline, reset step must be less than "
        "dataset_size * num_epochs. step: 2, dataset_size: 4, num_epochs: -1",
        ("RuntimeError", "Exception", "BaseException", "object"))]))]
    assert tool.classify(endless, outcome(("epoch", [[2], [3]])), theirs)[0] == "documented"
