"""compile_operations: which runs fuse, and fused output == unfused output with the same seeds."""
import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

import transforms_c
from transforms_c import settings
from transforms_c._rng import derive_seed
from transforms_c.fusion import FusedPlan, run_unfused
from transforms_c.transforms import Compose
from transforms_c.vision import (CenterCrop, Crop, Decode, HWC2CHW, Inter, Normalize, Pad,
                                 RandomColorAdjust, RandomCrop, RandomCropDecodeResize,
                                 RandomHorizontalFlip, RandomResizedCrop, RandomVerticalFlip,
                                 Rescale, Resize)

from tests.transforms_c.tc_samples import jpeg_bytes, natural_rgb, sample_jpeg

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


@pytest.fixture
def exact_decode():
    settings.set_approximate_decode(False)
    yield
    settings.set_approximate_decode(True)


def train_ops(interp=Inter.BILINEAR):
    return [Decode(), RandomResizedCrop(48, interpolation=interp), RandomHorizontalFlip(),
            Normalize(MEAN, STD), HWC2CHW()]


def eval_ops(interp=Inter.BILINEAR):
    return [Decode(), Resize(64, interp), CenterCrop(48), Normalize(MEAN, STD), HWC2CHW()]


def _plan(ops):
    compiled = transforms_c.compile_operations(ops)
    assert len(compiled) == 1 and isinstance(compiled[0], FusedPlan)
    return compiled[0]


def _assert_same(ops, data, seeds):
    plan = _plan(ops)
    for seed in seeds:
        fused = plan.apply((data,), seed)[0]
        unfused = run_unfused(ops, plan.seeds(seed), data)
        assert fused.shape == unfused.shape and fused.dtype == unfused.dtype
        if fused.dtype == np.float32:
            np.testing.assert_allclose(fused, unfused, atol=1e-5, rtol=0)
        else:
            assert np.abs(fused.astype(int) - unfused).max() <= 1


def test_train_and_eval_runs_compile_to_one_plan():
    assert len(transforms_c.compile_operations(train_ops())) == 1
    assert len(transforms_c.compile_operations(eval_ops())) == 1


def test_non_native_op_splits_runs():
    ops = [Decode(), Resize(32), RandomColorAdjust(0.4), CenterCrop(24), HWC2CHW()]
    compiled = transforms_c.compile_operations(ops)
    assert isinstance(compiled[0], FusedPlan) and compiled[1] is ops[2]
    assert isinstance(compiled[2], FusedPlan)


def test_single_ops_are_kept():
    ops = [Resize(10)]
    assert transforms_c.compile_operations(ops) == ops
    assert transforms_c.compile_operations([]) == []


def test_out_of_order_ops_do_not_fuse_together():
    ops = [Normalize(MEAN, STD), Resize(10)]
    assert transforms_c.compile_operations(ops) == ops
    pad_crop = [Decode(), RandomCrop(32, padding=4)]
    assert transforms_c.compile_operations(pad_crop) == pad_crop


@pytest.mark.parametrize("interp", [Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA])
def test_train_fused_equals_unfused(exact_decode, interp):
    _assert_same(train_ops(interp), sample_jpeg(123, 157), range(12))


@pytest.mark.parametrize("interp", [Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC])
def test_eval_fused_equals_unfused(interp):
    _assert_same(eval_ops(interp), sample_jpeg(123, 157), [0])


def test_eval_is_deterministic_and_exact_with_approximation_on():
    assert settings.get_approximate_decode()
    _assert_same(eval_ops(), sample_jpeg(200, 150), [0, 1])


def test_uint8_output_without_normalize(exact_decode):
    ops = [Decode(), RandomResizedCrop((30, 40)), RandomVerticalFlip(0.5)]
    _assert_same(ops, sample_jpeg(), range(10))


def test_array_input_plans():
    img = natural_rgb(123, 157)
    _assert_same([RandomResizedCrop(32), RandomHorizontalFlip(), Normalize(MEAN, STD),
                  HWC2CHW()], img, range(10))
    _assert_same([Resize((50, 60)), Crop((3, 4), (20, 30)), Rescale(1 / 255, 0)], img, [0])
    _assert_same([RandomCrop(40), RandomHorizontalFlip(), HWC2CHW()], img, range(10))
    _assert_same([CenterCrop(50), Resize(20), HWC2CHW()], img, [0])


def test_gray_array_plan_keeps_2d():
    gray = natural_rgb()[..., 0].copy()
    ops = [RandomResizedCrop(20), RandomHorizontalFlip(), Normalize([100.0], [50.0]), HWC2CHW()]
    _assert_same(ops, gray, range(5))
    assert _plan(ops).apply((gray,), 1)[0].shape == (20, 20)


def test_float_input_falls_back_to_unfused():
    img = natural_rgb().astype(np.float32)
    _assert_same([Resize(20), CenterCrop(16), HWC2CHW()], img, [0])


def test_unfoldable_row_falls_back():
    # CenterCrop larger than the resized image pads: the plan runs the ops one by one.
    _assert_same([Decode(), Resize(40), CenterCrop(60), HWC2CHW()], sample_jpeg(), [0])
    _assert_same([Resize(40), Resize(30), HWC2CHW()], natural_rgb(), [0])


def test_png_through_decode_plan(exact_decode):
    from tests.transforms_c.tc_samples import encoded
    _assert_same(train_ops(), encoded(natural_rgb(), ".png"), range(5))


def test_approximate_decode_stays_close_to_area_resize():
    import cv2
    from transforms_c._rng import Rng
    big = jpeg_bytes(natural_rgb(480, 640))
    full = Decode()(big)
    rrc = RandomResizedCrop(64, scale=(0.6, 1.0))
    plan = _plan([Decode(), rrc, HWC2CHW()])
    for seed in range(5):
        approx = plan.apply((big,), seed)[0]
        top, left, ch, cw = rrc.window(480, 640, Rng(plan.seeds(seed)[1]))
        ref = cv2.resize(full[top:top + ch, left:left + cw], (64, 64),
                         interpolation=cv2.INTER_AREA).transpose(2, 0, 1)
        assert approx.shape == ref.shape
        assert np.abs(approx.astype(int) - ref).mean() < 6


def test_op_level_switch_overrides_setting():
    big = jpeg_bytes(natural_rgb(480, 640))
    rrc = RandomResizedCrop(64, scale=(0.6, 1.0))
    rrc.approximate_decode = False
    ops = [Decode(), rrc, HWC2CHW()]
    plan = _plan(ops)
    assert np.array_equal(plan.apply((big,), 3)[0], run_unfused(ops, plan.seeds(3), big))


def test_compose_fuses_with_the_same_seeds(exact_decode):
    ops = train_ops()
    compose = Compose(ops)
    data = sample_jpeg()
    for seed in range(5):
        seeds = [derive_seed(seed, i) for i in range(len(ops))]
        np.testing.assert_array_equal(compose.apply((data,), seed)[0],
                                      run_unfused(ops, seeds, data))


def test_plan_protocol():
    plan = _plan(train_ops())
    assert plan.is_random
    assert not _plan(eval_ops()).is_random
    assert plan(sample_jpeg()).shape == (3, 48, 48)
    with pytest.raises(RuntimeError, match="1 input column"):
        plan.apply((sample_jpeg(), sample_jpeg()), 0)


def test_plan_rejects_non_fusable_ops():
    with pytest.raises(ValueError):
        FusedPlan([Resize(10), Pad(2)])


def test_crop_decode_resize_plan(exact_decode):
    ops = [RandomCropDecodeResize(32), RandomHorizontalFlip(), Normalize(MEAN, STD), HWC2CHW()]
    _assert_same(ops, sample_jpeg(), range(8))


def test_decode_crop_without_resize_uses_region_decode():
    data = sample_jpeg(123, 157)
    _assert_same([Decode(), CenterCrop((40, 50)), Normalize(MEAN, STD), HWC2CHW()], data, [0])
    _assert_same([Decode(), Crop((3, 100), (60, 57)), RandomHorizontalFlip()], data, range(4))
    _assert_same([Decode(), RandomCrop((30, 20)), RandomVerticalFlip(), HWC2CHW()], data,
                 range(6))


def test_decode_resize_then_crop_window(exact_decode):
    data = sample_jpeg(123, 157)
    _assert_same([Decode(), Resize((300, 200)), Crop((250, 150), (50, 50)), HWC2CHW()], data,
                 [0])
    _assert_same([Decode(), RandomResizedCrop(64), CenterCrop(33), Rescale(1 / 255, 0)], data,
                 range(6))


@pytest.mark.parametrize("interp", [Inter.AREA, Inter.BICUBIC, Inter.NEAREST, Inter.BILINEAR])
def test_enlarging_resize_then_window(interp):
    # The output window needs only part of the source: the plan decodes a trimmed region.
    data = sample_jpeg(123, 157)
    _assert_same([Decode(), Resize((300, 400), interp), CenterCrop((100, 120)), HWC2CHW()],
                 data, [0])
    _assert_same([Decode(), Resize((90, 400), interp), Crop((10, 300), (60, 90))], data, [0])


def test_large_region_takes_the_temporary_buffer_path(exact_decode):
    # A region above the per-thread scratch limit (16 MB) is decoded into a temporary array.
    gradient = np.linspace(0, 255, 2400, dtype=np.float32)
    img = np.dstack([np.add.outer(gradient, gradient) / 2] * 3).astype(np.uint8)
    data = jpeg_bytes(img, quality=70)
    ops = [Decode(), RandomResizedCrop(32, scale=(1.0, 1.0), ratio=(1.0, 1.0)), HWC2CHW()]
    _assert_same(ops, data, [0])


@hsettings(deadline=None, max_examples=60)
@given(height=st.integers(1, 40), width=st.integers(1, 40), seed=st.integers(0, 2 ** 64 - 1),
       out=st.integers(1, 30), interp=st.sampled_from([Inter.BILINEAR, Inter.NEAREST,
                                                        Inter.BICUBIC, Inter.AREA]))
def test_fused_equals_unfused_on_tiny_jpegs(height, width, seed, out, interp):
    settings.set_approximate_decode(False)
    try:
        rng = np.random.default_rng(height * 100 + width)
        data = jpeg_bytes(rng.integers(0, 256, (height, width, 3), dtype=np.uint8))
        _assert_same([Decode(), RandomResizedCrop(out, interpolation=interp),
                       RandomHorizontalFlip(), Normalize(MEAN, STD), HWC2CHW()], data, [seed])
        _assert_same([Decode(), Resize(out, interp), CenterCrop(max(1, out // 2)), HWC2CHW()],
                     data, [seed])
    finally:
        settings.set_approximate_decode(True)


@hsettings(deadline=None, max_examples=40)
@given(height=st.integers(16, 300), width=st.integers(16, 300), seed=st.integers(0, 2 ** 64 - 1),
       out=st.integers(1, 24), interp=st.sampled_from([Inter.BILINEAR, Inter.NEAREST,
                                                       Inter.BICUBIC, Inter.AREA]))
def test_approximate_decode_shapes_on_random_sizes(height, width, seed, out, interp):
    gradient = np.add.outer(np.arange(height), np.arange(width)) % 256
    data = jpeg_bytes(np.dstack([gradient] * 3).astype(np.uint8))
    (plan,) = transforms_c.compile_operations(
        [Decode(), RandomResizedCrop((out, out + 1), interpolation=interp), HWC2CHW()])
    result = plan.apply((data,), seed)[0]
    assert result.shape == (3, out, out + 1) and result.dtype == np.uint8



# Measured in MindSpore 2.10 on a 40x50 JPEG: a map's Decode then Resize((41000, 30)) raises
# RuntimeError "Resize: the resizing width or height is too big, it's 1000 times bigger than the
# original image, got output height: 41000, width: 30, and original image size:40, 50"
# (40000 passes); Decode then RandomResizedCrop((45000, 30)) raises CropAndResize's words, and
# RandomCropDecodeResize((45000, 20)) Resize's words on its window. The fused runs checked
# nothing and allocated the whole output first (with 100000 pixels a side: MemoryError).
_RESIZE_WORDS = ("Resize: the resizing width or height is too big, it's 1000 times bigger "
                 "than the original image, got output height: ")


def test_fused_resize_refuses_a_too_big_output():
    data = sample_jpeg(40, 50)
    plan = _plan([Decode(), Resize((41000, 30))])
    with pytest.raises(RuntimeError) as info:
        plan.apply((data,), 0)
    assert str(info.value) == _RESIZE_WORDS + "41000, width: 30, and original image size:40, 50"
    with pytest.raises(RuntimeError, match="original image size:40, 50"):
        _plan([Decode(), Resize((30, 51000)), RandomHorizontalFlip()]).apply((data,), 0)
    image = Decode()(data)      # the same limit for a plan over decoded images
    with pytest.raises(RuntimeError, match="original image size:40, 50"):
        _plan([Resize((41000, 30)), HWC2CHW()]).apply((image,), 0)
    out = _plan([Decode(), Resize((40000, 30))]).apply((data,), 0)[0]
    assert out.shape == (40000, 30, 3)


def test_fused_random_resized_crop_refuses_too_big_output():
    data = sample_jpeg(40, 50)
    for seed in (0, 1, 2):
        with pytest.raises(RuntimeError, match=r"^CropAndResize: the resizing width or height 1\) "
                                               r"is too big, it's up to 1000 times the original "
                                               r"image; 2\) can not be 0\. Detail info is: "
                                               r"crop_height: \d+, crop_width: \d+, "
                                               r"target_height: 45000, target_width: 30$"):
            _plan([Decode(), RandomResizedCrop((45000, 30))]).apply((data,), seed)


def test_random_crop_decode_resize_refuses_too_big_output_in_resizes_words():
    data = sample_jpeg(40, 50)
    with pytest.raises(RuntimeError, match=r"^" + _RESIZE_WORDS + r"45000, width: 20, and "
                                           r"original image size:\d+, \d+"):
        RandomCropDecodeResize((45000, 20))(data)
    import minddata as ds
    dataset = ds.NumpySlicesDataset([data], ["image"], shuffle=False).map(
        [RandomCropDecodeResize((45000, 20))], input_columns=["image"])
    with pytest.raises(RuntimeError, match="resizing width or height is too big"):
        next(dataset.create_tuple_iterator(output_numpy=True))
