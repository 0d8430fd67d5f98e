"""tools/eager_ops_vs_mindspore.py: its plumbing (the reference interpreter's run, the case-by-case
comparison) checked without MindSpore, this package standing in as the reference, and the
comparison's rules on outcomes made here."""
import subprocess
import sys

import numpy as np

from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "eager_ops_vs_mindspore.py"
tool = load_script(TOOL)


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "80", "--seed", "7",
                           "--mindspore-python", sys.executable, "--reference", "minddata"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "80 same, 0 documented, 0 different (0 of the same raise other exception types)" \
        in done.stdout
    assert done.stdout.strip().endswith("random ops on batches of one image: 14 of 14 draw alike")


def test_batches_are_drawn_for_the_ops_that_take_them():
    made = tool.cases(7, 300)
    batches = [(op[0], inputs[0]) for op, inputs in made
               if len(inputs) == 1 and getattr(inputs[0], "ndim", 0) >= 4]
    assert {value.ndim for _, value in batches} == {4, 5}
    assert all(name in tool.BATCHED and "nhwc" in tool.BATCHED[name] for name, _ in batches)
    # each image of a batch is made of the case's image, with content of its own
    import random
    image = tool.random_image(random.Random(1), "hwc3", (7, 9))
    for kind, shape in (("nhwc", (7, 9, 3)), ("nhw", (7, 9)), ("video", (7, 9, 3))):
        stacked = tool.batch_of(random.Random(2), image, kind)
        images = stacked.reshape((-1,) + shape)
        assert stacked.dtype == np.uint8 and len(images) in (2, 3, 4, 6)
        assert np.array_equal(images[0], image if kind != "nhw" else image[:, :, 0])
        assert all(not np.array_equal(images[0], other) for other in images[1:])


def test_how_a_random_op_draws_for_a_batch_is_compared(capsys):
    image = np.zeros((9, 11, 3), np.uint8)
    ours = tool.independence("minddata", image)
    cases = tool.independence_cases(image)
    # (an image of zeros: a flip changes nothing, a crop only the shape)
    assert ours[cases.index(("RandomHorizontalFlip(0.5,)", "3 x (9, 11, 3)"))][:2] == \
        ("ok", "no change")
    assert ours[cases.index(("RandomCrop(5,)", "3 x (9, 11, 3)"))][:2] == ("ok", "per batch")
    assert tool.draws_alike(image, ours)
    flipped_per_image = [("ok", "per image", outcome[2]) if outcome[0] == "ok" else outcome
                         for outcome in ours]
    assert not tool.draws_alike(image, flipped_per_image)
    assert "per image" in capsys.readouterr().out


def one(array, kind="array"):
    """An outcome of one value given back (``kind``: "array" or "PIL <mode>")."""
    return ("ok", None, [(kind, array)])


def test_the_comparison_flags_what_differs():
    img = np.zeros((2, 3, 3), np.uint8)
    ok = one(np.full((2, 3, 3), 10, np.uint8))
    plus = lambda n: one(ok[2][0][1] + n)       # noqa: E731
    assert tool.difference("Invert", ok, ok) is None
    assert tool.difference("Invert", ok, plus(1)) == "largest difference 1"
    assert tool.difference("Resize", ok, plus(1)) is None     # one level
    assert tool.difference("Resize", ok, plus(2)) == "largest difference 2"
    assert tool.difference("BoundingBoxAugment", ok, plus(1), rounds=True) is None
    error = ("error", "RuntimeError", "Erase: outside")
    assert tool.difference("Erase", error, error) is None
    assert "raises RuntimeError in MindSpore only" in tool.difference("Erase", ok, error)
    assert "float32(2, 3, 3) in MindSpore" in tool.difference(
        "Invert", ok, one(ok[2][0][1].astype(np.float32)))
    assert tool.difference("Invert", ok, one(ok[2][0][1], "PIL RGB")) == \
        "array here, PIL RGB in MindSpore"
    # a random op's outcome: its kind, dtype and shape, not its values
    assert tool.difference("CutOut", ok, plus(9), values=False) is None
    assert tool.documented("Invert", {}, img > 0) == "bool images are refused"
    assert tool.documented("Invert", {}, img) is None
    # the ops nested in a composite op's arguments are looked at too
    nested = ((tool.OP, "Resize", ((3, 4),), {}),)
    assert tool.documented("BoundingBoxAugment", {}, img.astype(np.int8), nested) == \
        "types MindSpore's OpenCV refuses are taken"


def test_tuples_given_back_are_compared_element_by_element():
    crops = [np.full((2, 2, 3), v, np.uint8) for v in range(5)]
    five = ("ok", "tuple", [("array", c) for c in crops])
    assert tool.difference("FiveCrop", five, five) is None
    changed = ("ok", "tuple", [("array", c) for c in crops[:4]] + [("array", crops[4] + 3)])
    assert tool.difference("FiveCrop", five, changed) == "element 4: largest difference 3"
    assert tool.difference("FiveCrop", five, ("ok", "tuple", five[2][:4])) == \
        "tuple of 5 here, tuple of 4 in MindSpore"
    assert tool.difference("FiveCrop", five, ("ok", "list", five[2])) == \
        "tuple of 5 here, list of 5 in MindSpore"
    assert tool.difference("FiveCrop", five, one(crops[0])) == \
        "tuple of 5 here, one value in MindSpore"
    # as made by outcomes(): each element's kind, a PIL image's mode among them
    from PIL import Image
    assert tool.part(Image.fromarray(crops[1]))[0] == "PIL RGB"
    assert tool.part(3)[0] == "int" and tool.part(crops[1])[0] == "array"


def test_cases_repeat_for_a_seed():
    first, again = tool.cases(3, 60), tool.cases(3, 60)
    assert [repr(op) for op, _ in first] == [repr(op) for op, _ in again]     # arrays inside
    pixels = lambda value: np.asarray(getattr(value, "pixels", value))   # noqa: E731 (PIL's)
    assert all(len(a) == len(b) and all(np.array_equal(pixels(x), pixels(y))
                                        for x, y in zip(a, b))
               for (_, a), (_, b) in zip(first, again))
