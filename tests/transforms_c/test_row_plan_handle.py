"""The per-row path runs the C++ row plan as a batch of one (_batch.RowPlanHandle): a fused plan
of native ops is folded by the C++ steps only, gives the unfused ops' bits, and leaves the rows
the plan does not take (None) to the ops one by one."""
import pickle

import numpy as np
import pytest

from minddata.vision import py_transforms as P
from transforms_c import _batch, settings
from transforms_c.contract import FusionDefaults
from transforms_c.fusion import FusedPlan, compile_operations, run_unfused
from transforms_c.vision import (HWC2CHW, CenterCrop, Crop, Decode, HorizontalFlip, Normalize,
                                 RandomCropDecodeResize, RandomHorizontalFlip, RandomResizedCrop,
                                 RandomVerticalFlip, Rescale, Resize)
from transforms_c.enums import Inter

from tests.transforms_c.tc_samples import encoded, jpeg_bytes, natural_rgb

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def _train():
    crop = RandomResizedCrop(24)
    crop.approximate_decode = False     # the unfused ops' exact pixels
    return [Decode(), crop, RandomHorizontalFlip(), Normalize(MEAN, STD), HWC2CHW()]


def _steps(ops):
    return [op.native_step() for op in ops]


def test_run_row_gives_the_unfused_bits_for_jpeg_rows():
    ops = _train()
    handle = _batch.RowPlanHandle(_steps(ops), _batch.INPUT_ENCODED, 1 << 28)
    for seed in range(8):
        data = jpeg_bytes(natural_rgb(60 + seed, 80, seed))
        seeds = [seed * 7 + k for k in range(len(ops))]
        out = handle.run_row(data, seeds)
        assert out.dtype == np.float32 and out.shape == (3, 24, 24)
        assert np.array_equal(out, run_unfused(ops, seeds, data))
        # The header's size given by the caller, or read by the handle: the same row.
        assert np.array_equal(handle.run_row(data, seeds, image_size=(80, 60 + seed)), out)


def test_run_row_on_images_writes_into_out_and_keeps_2d_images_2d():
    ops = [Resize((10, 12)), HorizontalFlip(), Rescale(0.5, 1.0)]
    handle = _batch.RowPlanHandle(_steps(ops), _batch.INPUT_IMAGE, 1 << 28)
    img = natural_rgb(30, 40)
    assert handle.output_layout(30, 40, 3) == ((10, 12, 3), True, False)
    out = np.empty((10, 12, 3), np.float32)
    assert handle.run_row(img[:, ::-1][:, ::-1], [0, 0, 0], out=out) is out
    assert np.array_equal(out, run_unfused(ops, [0, 0, 0], img))
    gray = np.ascontiguousarray(img[:, :, 0])
    flat = handle.run_row(gray, [0, 0, 0])
    assert flat.shape == (10, 12) and np.array_equal(flat, run_unfused(ops, [0, 0, 0], gray))
    with pytest.raises(ValueError, match="out must be"):
        handle.run_row(img, [0, 0, 0], out=np.empty((10, 12, 3), np.uint8))
    with pytest.raises(ValueError, match="expected 3 seeds"):
        handle.run_row(img, [0])


def test_rows_the_plan_does_not_take_give_none():
    data = jpeg_bytes(natural_rgb(40, 50))
    pads = _batch.RowPlanHandle(_steps([Decode(), CenterCrop(64)]), _batch.INPUT_ENCODED, 1 << 28)
    assert pads.run_row(data, [0, 0]) is None                        # ROW_FALLBACK
    png = encoded(natural_rgb(40, 50), ".png")
    assert pads.run_row(png, [0, 0], image_size=(50, 40)) is None    # not a JPEG
    crop = _batch.RowPlanHandle(_steps([Decode(), Crop((0, 0), 8)]), _batch.INPUT_ENCODED, 1 << 28)
    assert crop.run_row(data[:len(data) // 2].copy(), [0, 0]) is None   # ROW_ERROR
    assert crop.run_row(np.frombuffer(b"\xff\xd8\xffjunk", np.uint8), [0, 0]) is None
    with pytest.raises(ValueError, match="input_kind"):
        _batch.RowPlanHandle(_steps([Decode(), Crop((0, 0), 8)]), _batch.INPUT_FILE, 1 << 28)


def test_native_ops_have_no_python_fold():
    for op in _train() + [Crop((0, 0), 4), CenterCrop(4), Resize(4), Rescale(1, 0),
                          RandomVerticalFlip(), HorizontalFlip(), RandomCropDecodeResize(4)]:
        assert type(op).fold is FusionDefaults.fold, op


def test_a_fused_plan_of_native_ops_runs_the_cpp_plan(monkeypatch):
    plan, = compile_operations(_train())
    calls = []
    real = _batch.RowPlanHandle

    class Counting:
        def __init__(self, *args):
            self.handle = real(*args)

        def run_row(self, *args, **kwargs):
            calls.append(1)
            return self.handle.run_row(*args, **kwargs)

    monkeypatch.setattr(_batch, "RowPlanHandle", Counting)
    data = jpeg_bytes(natural_rgb(50, 70))
    seeds = [1, 2, 3, 4, 5]
    assert np.array_equal(plan.apply_seeds((data,), seeds)[0], run_unfused(plan.ops, seeds, data))
    assert calls == [1]


@pytest.mark.parametrize("kind", ["jpeg", "png", "gray"])
def test_fused_rows_equal_the_unfused_ops_whatever_path_takes_them(kind):
    ops = [Decode(), Resize(30), CenterCrop(20), Rescale(1 / 255, 0), Normalize([0.5], [0.25]),
           HWC2CHW()]
    plan, = compile_operations(ops)
    for seed in range(4):
        img = natural_rgb(40 + seed, 60, seed)
        data = (jpeg_bytes(img) if kind == "jpeg" else encoded(img, ".png") if kind == "png"
                else jpeg_bytes(np.ascontiguousarray(img[:, :, 0])))
        seeds = [seed + k for k in range(len(ops))]
        assert np.array_equal(plan.apply_seeds((data,), seeds)[0],
                              run_unfused(ops, seeds, data))
    # A crop larger than the image pads: the plan leaves the row to the ops.
    data = jpeg_bytes(natural_rgb(12, 14))
    assert np.array_equal(plan.apply_seeds((data,), [0] * 6)[0], run_unfused(ops, [0] * 6, data))


def test_a_setting_changed_after_the_first_row_is_followed():
    crop = RandomResizedCrop(16, scale=(0.9, 1.0))
    plan, = compile_operations([Decode(), crop, HWC2CHW()])
    data = jpeg_bytes(natural_rgb(200, 240))
    approximate = plan.apply_seeds((data,), [0, 5, 0])[0]
    crop.approximate_decode = False
    exact = plan.apply_seeds((data,), [0, 5, 0])[0]
    assert np.array_equal(exact, run_unfused(plan.ops, [0, 5, 0], data))
    assert not np.array_equal(exact, approximate)
    previous = settings.get_max_image_pixels()
    settings.set_max_image_pixels(100)
    try:
        with pytest.raises(RuntimeError, match="Decode"):
            plan.apply_seeds((data,), [0, 5, 0])
    finally:
        settings.set_max_image_pixels(previous)


def test_plans_and_ops_pickle_the_same_after_use():
    plan, = compile_operations(_train())
    op = RandomCropDecodeResize(16)
    before = pickle.dumps(plan), pickle.dumps(op)
    data = jpeg_bytes(natural_rgb(50, 70))
    first = plan.apply((data,), 3)[0], op.apply((data,), 3)[0]
    assert (pickle.dumps(plan), pickle.dumps(op)) == before
    again = pickle.loads(pickle.dumps(plan)).apply((data,), 3)[0]
    assert np.array_equal(again, first[0])
    assert np.array_equal(pickle.loads(pickle.dumps(op)).apply((data,), 3)[0], first[1])


def test_ops_without_a_native_step_run_by_themselves():
    # Inter.PILCUBIC has no native kernel: the op is not fused (native ops fold in C++ only).
    pilcubic = Resize((10, 10), Inter.PILCUBIC)
    units = compile_operations([Decode(), pilcubic, HWC2CHW()])
    assert units[:2] == [units[0], pilcubic] and not isinstance(units[1], FusedPlan)
    rcdr = RandomCropDecodeResize(12, interpolation=Inter.PILCUBIC)
    data = jpeg_bytes(natural_rgb(50, 70))
    assert np.array_equal(rcdr.apply((data,), 9)[0], rcdr.apply_unfused(data, 9))


def test_native_and_python_folded_ops_never_share_a_run():
    ops = [P.Decode(), Resize((8, 8)), HWC2CHW()]
    units = compile_operations(ops)
    assert units[0] is ops[0] and isinstance(units[1], FusedPlan) and units[1].ops == ops[1:]
    data = jpeg_bytes(natural_rgb(30, 40))
    out = data
    for unit in units:
        out = unit.apply((out,), 0)[0]
    assert np.array_equal(out, run_unfused(ops, [0, 0, 0], data))
