"""Native steps declare themselves: every op's native_step() names a step its own C++ unit
registered, the plan's output layout comes from the steps, and a bad step fails when the plan is
built, not on a row."""
import numpy as np
import pytest

from transforms_c import _batch, settings
from transforms_c.fusion import run_unfused
from transforms_c.vision import (CenterCrop, Crop, Decode, HorizontalFlip, HWC2CHW, Normalize,
                                 RandomCrop, RandomCropDecodeResize, RandomHorizontalFlip,
                                 RandomResizedCrop, RandomVerticalFlip, Rescale, Resize,
                                 VerticalFlip)

from tests.transforms_c.tc_samples import natural_rgb, sample_jpeg

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]
FLIP = {"kind": "flip", "axis": 0, "prob": 0.5}


def _every_native_op():
    return [Decode(), RandomCropDecodeResize(24), RandomResizedCrop((24, 20)), Resize(30),
            Resize((20, 25)), Crop((2, 3), (10, 12)), CenterCrop(16), RandomCrop(8),
            RandomHorizontalFlip(), RandomVerticalFlip(0.3), HorizontalFlip(), VerticalFlip(),
            Normalize(MEAN, STD), Rescale(1 / 255, -0.5), HWC2CHW()]


@pytest.mark.parametrize("op", _every_native_op(), ids=lambda op: type(op).__name__)
def test_every_native_op_names_a_registered_step(op):
    step = op.native_step()
    assert isinstance(step["kind"], str)
    # Building the plan builds the step from the op's parameters (all of them read).
    assert _batch.row_layout([step], (40, 60, 3)) is not None


@pytest.mark.parametrize("ops", [
    [Resize(30)],
    [Resize(30), CenterCrop(20)],
    [Resize((20, 25)), Rescale(1 / 255, 0.0)],
    [RandomResizedCrop((24, 20)), RandomHorizontalFlip(), Normalize(MEAN, STD), HWC2CHW()],
    [Crop((2, 3), (10, 12)), VerticalFlip()],
    [RandomCrop(8), Rescale(1 / 255, 0.0), Normalize(MEAN, STD), HWC2CHW()],
    [HWC2CHW()],
], ids=lambda ops: "+".join(type(op).__name__ for op in ops))
def test_layout_is_what_the_ops_give(ops):
    img = natural_rgb(41, 63)
    want = run_unfused(ops, [7] * len(ops), img)
    (h, w, c), float_output, chw = _batch.row_layout([op.native_step() for op in ops], img.shape)
    assert want.shape == ((c, h, w) if chw else (h, w, c))
    assert want.dtype == (np.float32 if float_output else np.uint8)


def test_layout_of_encoded_rows_depends_on_the_image_until_a_step_fixes_it():
    assert _batch.row_layout([Decode().native_step(), Resize(30).native_step()], None) is None
    steps = [Decode().native_step(), Resize(30).native_step(), CenterCrop(20).native_step()]
    assert _batch.row_layout(steps, None) == ((20, 20, 3), False, False)


def test_layout_of_a_decode_crop_matches_the_op():
    settings.set_approximate_decode(False)
    try:
        op = RandomCropDecodeResize((24, 20))
        out = run_unfused([op], [3], sample_jpeg())
    finally:
        settings.set_approximate_decode(True)
    assert _batch.row_layout([op.native_step()], None) == (out.shape, False, False)


@pytest.mark.parametrize("steps, error, match", [
    ([{"kind": "no_such_step"}], ValueError, r"'no_such_step': unknown kind \(registered: .*flip"),
    ([{"kind": "flip", "axis": 0}], ValueError, r"'flip': missing parameter 'prob'"),
    ([dict(FLIP, probability=0.5)], ValueError, r"'flip': unknown parameter 'probability'"),
    ([dict(FLIP, axis=0.5)], ValueError, r"'flip': parameter 'axis' is not an int"),
    ([dict(FLIP, prob=1.5)], ValueError, r"'flip': prob must be in \[0, 1\], got 1.5"),
    ([dict(FLIP, prob=float("nan"))], ValueError, r"'prob' is not finite"),
    ([dict(FLIP, prob="half")], TypeError, r"'flip': parameter 'prob' must be a number"),
    ([{"kind": 6}], TypeError, r"'kind' must be a str"),
    ([{"kind": "random_resized_crop", "size_h": 8, "size_w": 8, "interp": 2, "scale": (0.1,),
       "ratio": (0.75, 1.33), "max_attempts": 10, "approximate": True}],
     ValueError, r"'scale' has 1 values, expected 2"),
    ([{"kind": "center_crop", "size_h": 0, "size_w": 8}], ValueError,
     r"'center_crop': size_h must be in \[1, 16777216\], got 0"),
    ([{"kind": "resize", "size_h": 8, "size_w": 8, "interp": 0, "keep_ratio": True}], ValueError,
     r"'resize': interp must be in \[1, 5\], got 0"),
])
def test_a_bad_step_fails_when_the_plan_is_built(steps, error, match):
    with pytest.raises(error, match=match):
        _batch.row_layout(steps, None)
    with pytest.raises(error, match=match):
        _batch.BatchEngineHandle([Decode().native_step()] + steps, _batch.INPUT_ENCODED,
                                 1 << 26, 1)
