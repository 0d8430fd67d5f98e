"""Resize: numerics against OpenCV for every interpolation, dtypes, shapes, arguments (the
exhaustive bit-exactness suite is test_resize_exact.py)."""
import cv2
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from transforms_c.vision import Inter, Resize
from transforms_c.vision.resize import resized_shape

from tests.transforms_c.resize_reference import CV2, opencv_resize
from tests.transforms_c.tc_samples import natural_rgb


@pytest.mark.parametrize("interp", list(CV2))
@pytest.mark.parametrize("size", [(64, 80), (224, 224), (300, 411), (61, 78), (1, 1)])
def test_uint8_matches_opencv_exactly(interp, size):
    img = natural_rgb(123, 157)
    out = Resize(size, interp)(img)
    ref = opencv_resize(img, size[0], size[1], interp)
    assert out.shape == ref.shape and out.dtype == np.uint8
    assert np.array_equal(out, ref)


@pytest.mark.parametrize("interp", [Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC])
def test_float_input_matches_opencv(interp):
    img = natural_rgb(60, 70).astype(np.float32) / 255
    out = Resize((33, 91), interp)(img)
    ref = cv2.resize(img, (91, 33), interpolation=CV2[interp])
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, ref, atol=1e-6)


def test_gray_2d_stays_2d():
    gray = natural_rgb()[..., 1].copy()
    out = Resize((50, 40))(gray)
    assert out.shape == (50, 40)
    assert np.array_equal(out, opencv_resize(gray, 50, 40, Inter.BILINEAR))


def test_int_size_resizes_shorter_side():
    img = natural_rgb(123, 157)
    assert Resize(64)(img).shape == (64, 81, 3)
    assert Resize(64)(np.ascontiguousarray(img.transpose(1, 0, 2))).shape == (81, 64, 3)


def test_strided_view_input():
    img = natural_rgb(123, 157)
    view = img[10:100, 20:140]
    assert np.array_equal(Resize((40, 50))(view), Resize((40, 50))(view.copy()))


def test_four_channels():
    img = np.dstack([natural_rgb(), natural_rgb()[..., :1]])
    out = Resize((30, 40))(img)
    assert out.shape == (30, 40, 4)
    assert np.array_equal(out, opencv_resize(img, 30, 40, Inter.BILINEAR))


@settings(deadline=None, max_examples=40)
@given(h=st.integers(1, 80), w=st.integers(1, 80), oh=st.integers(1, 120),
       ow=st.integers(1, 120),
       interp=st.sampled_from([Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA]))
def test_native_kernel_property_vs_opencv(h, w, oh, ow, interp):
    rng = np.random.default_rng(h * 1000 + w)
    img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    out = Resize((oh, ow), interp)(img)
    assert np.array_equal(out, opencv_resize(img, oh, ow, interp))


@pytest.mark.parametrize("size", [0, -3, (0, 5), (5, 16777217)])
def test_size_out_of_range_is_value_error(size):
    with pytest.raises(ValueError):
        Resize(size)


@pytest.mark.parametrize("size", ["10", 2.5, (1, 2, 3), None])
def test_size_wrong_type_is_type_error(size):
    with pytest.raises(TypeError):
        Resize(size)


def test_interpolation_must_be_inter():
    with pytest.raises(TypeError):
        Resize(10, interpolation="bilinear")


def test_bad_rank_raises_runtime_error():
    # <..., H, W, C> batches are resized image by image (tests/transforms_c/test_batched_input.py)
    with pytest.raises(RuntimeError, match="should have at least two dimensions"):
        Resize(10)(np.zeros((5,), np.uint8))


def test_resized_shape_rule():
    assert resized_shape(403, 474, 256) == (256, 301)
    assert resized_shape(474, 403, 256) == (301, 256)
    assert resized_shape(10, 10, (3, 4)) == (3, 4)
