"""Resize of images of the types cv2.resize does not compute in (int8, int32, int64, uint32,
uint64, float16): their values kept exactly where no interpolation rounds them."""
import cv2
import numpy as np
import pytest

import minddata.vision as vision


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint32, np.uint64,
                                   np.float16])
def test_nearest_picks_opencvs_source_pixels_exactly(dtype):
    rng = np.random.default_rng(3)
    img = rng.integers(0, 100, (7, 9, 3)).astype(dtype)
    if np.dtype(dtype).itemsize == 8:
        img = img + np.array(2 ** 60 + 1).astype(dtype)   # past float64's exact integers
    out = vision.Resize((12, 5), vision.Inter.NEAREST)(img)
    # the same pixels OpenCV picks, found through an image of their indices
    where = np.arange(63, dtype=np.float32).reshape(7, 9)
    picked = cv2.resize(where, (5, 12), interpolation=cv2.INTER_NEAREST).astype(int)
    expected = img.reshape(63, 3)[picked]
    assert out.dtype == img.dtype and np.array_equal(out, expected)


def test_int32_values_past_float32_keep_their_precision():
    img = np.full((4, 4), 100_000_007, np.int32)
    for interpolation in (vision.Inter.BILINEAR, vision.Inter.BICUBIC, vision.Inter.AREA):
        out = vision.Resize((7, 3), interpolation)(img)
        assert out.dtype == np.int32 and (out == 100_000_007).all()   # float32 gives ..008


def test_a_two_dimensional_int64_image():
    img = np.arange(6, dtype=np.int64).reshape(2, 3) * (2 ** 55)
    out = vision.Resize((4, 6), vision.Inter.NEAREST)(img)
    assert out.shape == (4, 6) and np.array_equal(out, np.repeat(np.repeat(img, 2, 0), 2, 1))
