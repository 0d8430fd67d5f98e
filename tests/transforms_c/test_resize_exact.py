"""Resize gives MindSpore's bits: cv2.resize's (OpenCV without IPP, as MindSpore builds it) for
NEAREST, BILINEAR, BICUBIC and AREA, Pillow's two-pass bicubic for PILCUBIC. The fused pass's
windows, flips and trimmed source regions give the same window of the whole resize."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from transforms_c import _native
from transforms_c.vision import Inter, Resize

from tests.transforms_c.resize_reference import CV2, opencv_resize, pillow_bicubic
from tests.transforms_c.tc_samples import natural_rgb

NATIVE = {Inter.NEAREST: _native.INTERP_NEAREST, Inter.BILINEAR: _native.INTERP_LINEAR,
          Inter.BICUBIC: _native.INTERP_CUBIC, Inter.AREA: _native.INTERP_AREA}


def random_image(rng, height, width, channels):
    return rng.integers(0, 256, (height, width, channels), dtype=np.uint8)


def cv2_scale(src, dst):
    return 1.0 / (dst / src)


# Output sizes: any size, or an integer fraction of the source (OpenCV's integer-factor area
# kernel, which INTER_LINEAR also takes for exact halving).
@st.composite
def geometries(draw, max_side=64):
    h, w = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    if draw(st.booleans()):
        oh, ow = draw(st.integers(1, 2 * max_side)), draw(st.integers(1, 2 * max_side))
    else:
        fy, fx = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        oh, ow = max(1, h // fy), max(1, w // fx)
    return h, w, oh, ow, draw(st.integers(1, 4))


@settings(deadline=None, max_examples=120)
@given(geometry=geometries(), interp=st.sampled_from(list(CV2)), seed=st.integers(0, 2**32 - 1))
def test_every_interpolation_matches_opencv_bit_exactly(geometry, interp, seed):
    h, w, oh, ow, channels = geometry
    img = random_image(np.random.default_rng(seed), h, w, channels)
    assert np.array_equal(Resize((oh, ow), interp)(img), opencv_resize(img, oh, ow, interp))


@pytest.mark.parametrize("interp", list(CV2))
def test_many_random_sizes_up_and_down(interp):
    rng = np.random.default_rng(int(interp) + 100)
    for _ in range(60):
        h, w = (int(v) for v in rng.integers(1, 260, 2))
        oh, ow = (int(v) for v in rng.integers(1, 300, 2))
        img = random_image(rng, h, w, int(rng.integers(1, 5)))
        out = Resize((oh, ow), interp)(img)
        assert np.array_equal(out, opencv_resize(img, oh, ow, interp)), (h, w, oh, ow)


@pytest.mark.parametrize("interp", list(CV2))
@pytest.mark.parametrize("size", [(224, 224), (256, 341), (112, 150), (61, 79), (500, 700)])
def test_photo_sizes(interp, size):
    img = natural_rgb(375, 500)
    assert np.array_equal(Resize(size, interp)(img), opencv_resize(img, *size, interp))


def window_of(full, win_x, win_y, out_w, out_h, hflip, vflip):
    window = full[win_y:win_y + out_h, win_x:win_x + out_w]
    if hflip:
        window = window[:, ::-1]
    if vflip:
        window = window[::-1]
    return window


@settings(deadline=None, max_examples=150)
@given(geometry=geometries(48), interp=st.sampled_from(list(CV2)), data=st.data())
def test_window_flip_and_trimmed_region_equal_the_whole_resize(geometry, interp, data):
    """What a fused plan runs: a trimmed region of the box (offset -lo), a window of the
    resized image, flips."""
    h, w, oh, ow, channels = geometry
    img = random_image(np.random.default_rng(h * 7919 + w), h, w, channels)
    win_x, win_y = data.draw(st.integers(0, ow - 1)), data.draw(st.integers(0, oh - 1))
    out_w, out_h = data.draw(st.integers(1, ow - win_x)), data.draw(st.integers(1, oh - win_y))
    hflip, vflip = data.draw(st.booleans()), data.draw(st.booleans())
    scale_x, scale_y = cv2_scale(w, ow), cv2_scale(h, oh)
    # The region holds every tap of the window with a margin, as the fusion plan trims it.
    lo_x = max(0, math.floor(win_x * scale_x) - 3)
    hi_x = min(w, math.ceil((win_x + out_w) * scale_x) + 4)
    lo_y = max(0, math.floor(win_y * scale_y) - 3)
    hi_y = min(h, math.ceil((win_y + out_h) * scale_y) + 4)
    out = np.empty((out_h, out_w, channels), np.uint8)
    _native.resample(img[lo_y:hi_y, lo_x:hi_x], out, ow, oh, NATIVE[interp], scale_x, scale_y,
                     -float(lo_x), -float(lo_y), win_x, win_y, hflip, vflip)
    full = opencv_resize(img, oh, ow, interp)
    assert np.array_equal(out, window_of(full, win_x, win_y, out_w, out_h, hflip, vflip))


def test_gray_strided_and_contiguous_agree():
    img = natural_rgb(123, 157)
    view = img[7:110, 3:150]
    for interp in CV2:
        assert np.array_equal(Resize((45, 61), interp)(view),
                              opencv_resize(np.ascontiguousarray(view), 45, 61, interp))
        gray = np.ascontiguousarray(view[..., 1])
        assert np.array_equal(Resize((45, 61), interp)(gray), opencv_resize(gray, 45, 61, interp))


# ---- PILCUBIC ------------------------------------------------------------------------------------

@settings(deadline=None, max_examples=80)
@given(h=st.integers(1, 70), w=st.integers(1, 70), oh=st.integers(1, 110), ow=st.integers(1, 110),
       seed=st.integers(0, 2**32 - 1))
def test_pilcubic_matches_pillow_bit_exactly(h, w, oh, ow, seed):
    img = random_image(np.random.default_rng(seed), h, w, 3)
    assert np.array_equal(Resize((oh, ow), Inter.PILCUBIC)(img), pillow_bicubic(img, oh, ow))


@pytest.mark.parametrize("size", [(224, 224), (256, 341), (40, 700), (600, 90), (375, 500)])
def test_pilcubic_photo_sizes(size):
    img = natural_rgb(375, 500)
    assert np.array_equal(Resize(size, Inter.PILCUBIC)(img), pillow_bicubic(img, *size))


def test_pilcubic_window_and_flips_equal_the_whole_resize():
    img = random_image(np.random.default_rng(3), 97, 83, 3)
    full = pillow_bicubic(img, 41, 130)
    out = np.empty((20, 50, 3), np.uint8)
    _native.resample(img, out, 130, 41, _native.INTERP_PILCUBIC, 0.0, 0.0, 0.0, 0.0, 70, 13,
                     True, True)
    assert np.array_equal(out, window_of(full, 70, 13, 50, 20, True, True))


@pytest.mark.parametrize("shape", [(20, 30), (20, 30, 1), (20, 30, 4)])
def test_pilcubic_needs_three_channels_as_mindspore(shape):
    with pytest.raises(RuntimeError, match="PILCUBIC only supports image with 3 channels"):
        Resize((10, 10), Inter.PILCUBIC)(np.zeros(shape, np.uint8))


def test_pilcubic_float_input_uses_opencv_cubic():
    img = natural_rgb(60, 70).astype(np.float32)
    out = Resize((33, 41), Inter.PILCUBIC)(img)
    assert out.dtype == np.float32 and out.shape == (33, 41, 3)


def test_invalid_scale_is_refused():
    out = np.empty((4, 4, 3), np.uint8)
    with pytest.raises(ValueError, match="scale"):
        _native.resample(np.zeros((8, 8, 3), np.uint8), out, 4, 4, _native.INTERP_LINEAR,
                         -2.0, 2.0)


@pytest.mark.parametrize("interp", list(CV2))
def test_fused_jpeg_crop_resize_flip_equals_opencv_resize_of_the_crop(interp):
    """The fused plan decodes only a trimmed region of the JPEG; its output still equals
    cv2.resize of the decoded crop, flipped."""
    import transforms_c
    from transforms_c._rng import Rng
    from transforms_c.vision import Decode, HorizontalFlip, RandomResizedCrop

    from tests.transforms_c.tc_samples import jpeg_bytes

    data = jpeg_bytes(natural_rgb(240, 320))
    full = Decode()(data)
    crop = RandomResizedCrop((57, 83), scale=(0.2, 0.9), interpolation=interp)
    crop.approximate_decode = False
    [plan] = transforms_c.compile_operations([Decode(), crop, HorizontalFlip()])
    for seed in range(6):
        top, left, height, width = crop.window(240, 320, Rng(plan.seeds(seed)[1]))
        box = np.ascontiguousarray(full[top:top + height, left:left + width])
        expected = opencv_resize(box, 57, 83, interp)[:, ::-1]
        assert np.array_equal(plan.apply((data,), seed)[0], expected)
