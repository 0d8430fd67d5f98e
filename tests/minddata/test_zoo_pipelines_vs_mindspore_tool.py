"""tools/zoo_pipelines_vs_mindspore.py: its plumbing (every recipe built and read here, the
reference interpreter's run case by case, the comparison of every item) checked without
MindSpore, this package standing in as the reference, and the comparison's rules on outcomes
made here."""

import numpy as np

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "zoo_pipelines_vs_mindspore.py"
tool = load_script(TOOL)


def batches(*images, names=("image", "label")):
    """The outcome of an iterator: one epoch of one batch per image, its label 0."""
    return ("ok", [[[(names[0], tool.pipelines.plain(image)),
                     (names[1], tool.pipelines.plain(np.zeros(1, np.int32)))]
                    for image in images]])


def outcomes(rows, size=1):
    return [("inputs", ("ok", [1, 2])), ("build", ("ok", None)),
            ("get_col_names", ("ok", ["image", "label"])), ("get_dataset_size", ("ok", size)),
            ("dict iterator", rows), ("tuple iterator", rows)]


def fails(message, kind="RuntimeError"):
    return ("error", kind, message, (kind, "Exception", "BaseException", "object"))


IMAGE = np.linspace(-2, 2, 12, dtype=np.float32).reshape(1, 3, 2, 2)
CASE = {"recipe": "crnn", "seed": 1, "tolerance": {"image": 1 / 127.5 + 1e-5}, "train": True}


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 12, 5, timeout=300) == (
        no_difference(12, 5) + ", 0 within tolerance")


def test_cases_repeat_for_a_seed_and_draw_every_recipe():
    first = tool.cases(3, 300)
    assert repr(first) == repr(tool.cases(3, 300)) != repr(tool.cases(4, 300))
    assert {case["recipe"] for case in first} == set(tool.recipes.RECIPES)
    assert any(case["mistake"] for case in first) and any(case.get("shards") for case in first)


def test_the_comparison_flags_what_differs():
    same = outcomes(batches(IMAGE))
    assert tool.classify(CASE, same, same) == (None, None, None)
    # a value off by more than the case's tolerance, or in a column it does not name
    off = outcomes(batches(IMAGE + np.float32(0.5)))
    assert tool.classify(CASE, off, same)[:2] == ("different", "dict iterator")
    labels = outcomes(batches(IMAGE, names=("image", "label2")))
    assert tool.classify(CASE, labels, same)[:2] == ("different", "dict iterator")
    # one interpolation level apart: counted apart
    close = outcomes(batches(IMAGE + np.float32(1 / 127.5)))
    assert tool.classify(CASE, close, same)[0] == "within tolerance"
    # another number of batches, another shape, another size
    assert tool.classify(CASE, outcomes(batches(IMAGE, IMAGE)), same)[0] == "different"
    assert tool.classify(CASE, outcomes(batches(IMAGE[:, :1])), same)[0] == "different"
    assert tool.classify(CASE, outcomes(batches(IMAGE), 2), same)[:2] == (
        "different", "get_dataset_size")
    # raising where the other side does not, crashes, errors of other types or steps
    assert tool.classify(CASE, outcomes(fails("bad")), same)[0] == "different"
    assert tool.classify(CASE, same, tool.differential_reference.CRASH)[0] == \
        "MindSpore crashed"
    built = [("inputs", ("ok", [1, 2])), ("build", fails("x", "TypeError"))]
    assert tool.classify(CASE, built, [("inputs", ("ok", [1, 2])), (
        "build", fails("x", "ValueError"))])[0] == "error type"
    late = outcomes(fails("x"))
    late[2:4] = [("get_col_names", fails("x")), ("get_dataset_size", fails("x"))]
    assert tool.classify(CASE, built[:1] + [("build", fails("x"))], late)[0] == \
        "error elsewhere"
    # the inputs (Pillow's files) must be the same for the rest to mean anything
    other_inputs = [("inputs", ("ok", [3]))] + same[1:]
    assert tool.classify(CASE, other_inputs, same)[:2] == ("different", "inputs")


def test_documented_differences():
    approximate = dict(CASE, recipe="imagenet", pil=False, height=20, width=24, size=8)
    off = outcomes(batches(IMAGE + np.float32(0.5)))
    kind, _, why = tool.classify(approximate, off, outcomes(batches(IMAGE)))
    assert kind == "documented" and "approximate" in why
    # a window smaller than twice the output is decoded whole: no rule
    assert tool.classify(dict(approximate, size=12), off, outcomes(batches(IMAGE)))[0] == \
        "different"
    empty = [("inputs", ("ok", [1, 2])), ("build", fails(
        "There are no samples in the dataset number 0.", "ValueError"))]
    assert tool.classify(dict(CASE, recipe="transformer"), outcomes(("ok", [[]]), 0),
                         empty)[0] == "documented"
