"""tools/vision_pipelines_vs_mindspore.py: its plumbing (the reference interpreter's run, case by
case, the comparison of every item, this package's own checks: pipeline against eager ops,
seeded runs) checked without MindSpore, this package standing in as the reference, and the
comparison's rules on outcomes made here."""

import numpy as np

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "vision_pipelines_vs_mindspore.py"
tool = load_script(TOOL)


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 24, 4, timeout=240) == no_difference(24, 4)


def test_cases_repeat_for_a_seed_and_draw_every_source_and_path():
    first = tool.cases(3, 300)
    assert repr(first) == repr(tool.cases(3, 300)) != repr(tool.cases(4, 300))
    assert {case["source"]["kind"] for case in first} == {"folder", "mindrecord", "numpy",
                                                          "generator"}
    names = {name for case in first for name, _ in tool.chain_ops(case)}
    assert {"Decode", "ToPIL", "ToTensor", "RandomCropDecodeResize", "RandomResizedCrop",
            "Grayscale", "Normalize", "HWC2CHW", "Rotate", "Compose"} <= names | {
        name for case in first if case["kind"] == "chain" for one in case["maps"]
        for name, _ in one["ops"]}
    assert any(case["kind"] == "seeded" for case in first)
    assert any(len(case.get("maps", ())) > 1 for case in first)


def test_a_fixed_window_draws_no_offset():
    assert tool.fixed_window((30, 60), 2.0) == "whole"
    assert tool.fixed_window((30, 60), 0.5) == "centred"     # no window of ratio 0.5 fits
    assert tool.fixed_window((100, 100), 1.01) is None    # a 99-row window fits: an offset


def rows(*values):
    return ("ok", [[np.array(value, np.uint8), np.array(0, np.int32)] for value in values])


def outcome(found_rows, **extra):
    return [("source bytes", ("ok", "ab")), ("get_dataset_size", ("ok", 1)),
            ("rows", found_rows)] + list(extra.items())


CASE = {"kind": "chain", "source": {"kind": "numpy", "decode": False,
                                    "images": [{"format": "jpeg"}]},
        "maps": [{"ops": [("Decode", {}), ("Resize", {"size": 4})], "workers": 1,
                  "processes": False}], "values": True, "levels": 1, "scale": 1.0}


def test_rows_are_compared_within_one_level_per_resampling_op():
    assert tool.classify(CASE, outcome(rows([10, 20])), outcome(rows([11, 19]))) == (
        None, None, None)
    kind, item, why = tool.classify(CASE, outcome(rows([10, 20])), outcome(rows([12, 20])))
    assert (kind, item) == ("different", "rows") and "largest difference 2" in why
    exact = dict(CASE, levels=0)
    assert tool.classify(exact, outcome(rows([10])), outcome(rows([11])))[0] == "different"
    shapes_only = dict(CASE, values=False)
    assert tool.classify(shapes_only, outcome(rows([10])), outcome(rows([90])))[0] is None
    assert tool.classify(shapes_only, outcome(rows([10])), outcome(rows([1, 2])))[0] == \
        "different"


def test_a_failed_check_of_this_package_is_a_difference_whatever_the_reference():
    failed = ("error", "self", "pipeline against eager ops: row 0 ...", ("self",))
    kind, item, _ = tool.classify(CASE, outcome(rows([1]), **{"self: eager ops one by one":
                                                              failed}), outcome(rows([1])))
    assert (kind, item) == ("different", "self: eager ops one by one")


def test_mindspore_s_refusals_the_readme_documents():
    grey = dict(CASE, maps=[{"ops": [("Decode", {}), ("Grayscale", {})], "workers": 1,
                             "processes": False}])
    refused = ("error", "RuntimeError", "Execute user Python code failed", ("RuntimeError",),
               "TypeError: img should be PIL image. Got <class 'numpy.ndarray'>.")
    kind, _, why = tool.classify(grey, outcome(rows([1])), outcome(refused))
    assert kind == "documented" and "Grayscale" in why
    assert tool.classify(CASE, outcome(rows([1])), outcome(refused))[0] == "different"
