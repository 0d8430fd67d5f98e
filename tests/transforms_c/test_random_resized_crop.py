"""RandomResizedCrop / RandomCropDecodeResize: window bounds, shapes, seeding, arguments."""
import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from transforms_c import compile_operations, settings as tc_settings
from transforms_c._rng import Rng
from transforms_c.vision import (Decode, Inter, RandomCropDecodeResize, RandomResizedCrop,
                                 Resize)
from transforms_c.vision.resized_crop import random_resized_crop_box

from tests.transforms_c.tc_samples import max_abs_diff, natural_rgb, sample_jpeg


@settings(deadline=None, max_examples=200)
@given(h=st.integers(1, 600), w=st.integers(1, 600), seed=st.integers(0, 2 ** 64 - 1))
def test_window_inside_image_and_within_bounds(h, w, seed):
    scale, ratio = (0.08, 1.0), (3 / 4, 4 / 3)
    top, left, ch, cw = random_resized_crop_box(h, w, scale, ratio, 10, Rng(seed))
    assert 0 <= top and 0 <= left and top + ch <= h and left + cw <= w and ch > 0 and cw > 0


def test_accepted_windows_respect_scale_and_ratio():
    scale, ratio = (0.2, 0.5), (0.5, 2.0)
    for seed in range(300):
        top, left, ch, cw = random_resized_crop_box(400, 500, scale, ratio, 10, Rng(seed))
        # Rounding to whole pixels moves area and ratio a little.
        assert scale[0] * 0.97 <= ch * cw / (400 * 500) <= scale[1] * 1.03
        assert ratio[0] * 0.97 <= cw / ch <= ratio[1] * 1.03


def test_fallback_is_centred_and_ratio_clamped():
    # A very wide image and ratios it cannot meet at any sampled scale.
    top, left, ch, cw = random_resized_crop_box(10, 1000, (0.9, 1.0), (1.0, 2.0), 3, Rng(1))
    assert ch == 10 and cw == 20 and left == (1000 - 20) // 2


def test_output_shape_and_dtype():
    img = natural_rgb()
    assert RandomResizedCrop((40, 50))(img).shape == (40, 50, 3)
    assert RandomResizedCrop(24)(img[..., 0].copy()).shape == (24, 24)
    out = RandomResizedCrop(24)(img.astype(np.float32))
    assert out.dtype == np.float32 and out.shape == (24, 24, 3)


def test_equals_crop_then_resize():
    img = natural_rgb()
    op = RandomResizedCrop(32, interpolation=Inter.BICUBIC)
    top, left, ch, cw = op.window(img.shape[0], img.shape[1], Rng(42))
    expect = Resize((32, 32), Inter.BICUBIC)(img[top:top + ch, left:left + cw])
    assert np.array_equal(op.apply((img,), 42)[0], expect)


def test_seeded_runs_repeat_and_differ_across_seeds():
    img = natural_rgb()
    op = RandomResizedCrop(32)
    assert np.array_equal(op.apply((img,), 3)[0], op.apply((img,), 3)[0])
    outs = {op.apply((img,), s)[0].tobytes() for s in range(10)}
    assert len(outs) > 5


@pytest.mark.parametrize("kwargs,exc", [
    (dict(size=0), ValueError), (dict(size=32, scale=(0.5, 0.1)), ValueError),
    (dict(size=32, scale=(-1, 1)), ValueError), (dict(size=32, ratio=(0, 1)), ValueError),
    (dict(size=32, ratio=(2, 1)), ValueError), (dict(size=32, max_attempts=0), ValueError),
    (dict(size=32, scale=0.5), TypeError), (dict(size=32, interpolation=2), TypeError),
    (dict(size=32, max_attempts=1.5), TypeError)])
def test_argument_errors(kwargs, exc):
    with pytest.raises(exc):
        RandomResizedCrop(**kwargs)
    with pytest.raises(exc):
        RandomCropDecodeResize(**kwargs)


def test_crop_decode_resize_exact_equals_decode_then_rrc():
    data = sample_jpeg(123, 157)
    op = RandomCropDecodeResize((40, 30))
    op.approximate_decode = False
    rrc = RandomResizedCrop((40, 30))
    for seed in range(20):
        expect = rrc.apply((Decode()(data),), seed)[0]
        assert np.array_equal(op.apply((data,), seed)[0], expect)


def test_crop_decode_resize_approximate_decode_uses_scaled_window():
    import cv2
    from tests.transforms_c.tc_samples import jpeg_bytes
    img = natural_rgb(480, 640)
    data = jpeg_bytes(img)
    full = Decode()(data)
    op = RandomCropDecodeResize(32, scale=(0.5, 1.0))
    assert tc_settings.get_approximate_decode()
    for seed in range(5):
        approx = op.apply((data,), seed)[0]
        top, left, ch, cw = op.window(480, 640, Rng(seed))
        # A DCT-scaled decode averages like an area resize of the same window.
        ref = cv2.resize(full[top:top + ch, left:left + cw], (32, 32),
                         interpolation=cv2.INTER_AREA)
        assert approx.shape == ref.shape
        assert np.abs(approx.astype(int) - ref).mean() < 6
    exact = RandomResizedCrop(32, scale=(0.5, 1.0))
    tc_settings.set_approximate_decode(False)
    try:
        assert max_abs_diff(op.apply((data,), 0)[0], exact.apply((full,), 0)[0]) == 0
    finally:
        tc_settings.set_approximate_decode(True)


def test_crop_decode_resize_png_input():
    from tests.transforms_c.tc_samples import encoded
    data = encoded(natural_rgb(), ".png")
    out = RandomCropDecodeResize(20).apply((data,), 1)[0]
    ref = RandomResizedCrop(20).apply((natural_rgb(),), 1)[0]
    assert np.array_equal(out, ref)


def test_area_scale_statistics():
    areas = []
    for seed in range(400):
        _, _, ch, cw = random_resized_crop_box(300, 300, (0.08, 1.0), (3 / 4, 4 / 3), 10,
                                               Rng(seed))
        areas.append(ch * cw / 90000)
    assert 0.45 < np.mean(areas) < 0.6  # uniform area in [0.08, 1] truncated by the bounds
    assert min(areas) < 0.15 and max(areas) > 0.9
    assert not math.isnan(np.std(areas))


@pytest.mark.parametrize("height, width, rows, top", [(25, 26, 19, 3), (124, 62, 46, 39)])
def test_fallback_window_takes_the_ratio_as_a_c_float(height, width, rows, top):
    """MindSpore 2.10's kernel holds the ratio bounds as C floats: no window of ratio 4/3 fits
    at scale 1, and the centred fallback of a 26-wide image is 26 / float32(4/3) = 19.4999...
    -> 19 rows (the double 19.5 gave 20), of a 62-wide one 46 (not 47). Measured in MindSpore
    2.10: the output of the window's own size is rows 3..21, and 39..84. The eager op, a fused
    plan (its native step) and the native batch draws (windows) take the same window."""
    img = np.zeros((height, width, 3), np.uint8)
    img[:, :, 0] = np.arange(height)[:, None]
    img[:, :, 1] = np.arange(width)[None, :]
    op = RandomResizedCrop((rows, width), scale=(1.0, 1.0), ratio=(4 / 3, 4 / 3))
    np.testing.assert_array_equal(op(img), img[top:top + rows])
    png = cv2.imencode(".png", img[:, :, ::-1])[1]
    plan = compile_operations([Decode(), op])[0]
    np.testing.assert_array_equal(plan.apply((png,), 5)[0], img[top:top + rows])
    boxes = op.windows(np.array([height]), np.array([width]), np.array([5], np.uint64))
    assert boxes.tolist() == [[top, 0, rows, width]]
