"""Perspective and RandomPerspective (transforms_c/vision/perspective.py). Expected pixels were
measured under MindSpore 2.10 (its OpenCV 4 warp for arrays, Pillow for PIL images)."""
import numpy as np
import pytest
from PIL import Image

import minddata as ds
from transforms_c.vision import Inter, Perspective, RandomPerspective
from transforms_c.vision.perspective import random_perspective_points
from transforms_c._rng import Rng

IMG = ((np.arange(8 * 9 * 3).reshape(8, 9, 3) * 37) % 256).astype(np.uint8)
START = [[0, 0], [8, 0], [8, 7], [0, 7]]
END = [[1, 1], [7, 0], [8, 6], [0, 7]]

# measured under MindSpore 2.10: Perspective(START, END, interpolation)(IMG[:, :, 0])
EXPECTED = {
    Inter.NEAREST: [
        [0, 0, 0, 0, 0, 0, 9, 120, 0], [0, 0, 111, 52, 163, 18, 240, 95, 0],
        [0, 206, 172, 27, 138, 249, 79, 45, 0], [0, 181, 147, 2, 113, 199, 54, 165, 0],
        [0, 11, 122, 233, 63, 174, 29, 140, 251], [131, 242, 97, 208, 38, 149, 4, 115, 226],
        [106, 217, 72, 183, 13, 124, 235, 90, 201], [81, 192, 47, 158, 13, 0, 0, 0, 0]],
    Inter.BILINEAR: [
        [0, 0, 0, 0, 33, 43, 34, 120, 0], [0, 0, 150, 96, 156, 60, 189, 111, 2],
        [0, 187, 130, 51, 145, 195, 142, 106, 12], [24, 121, 112, 61, 113, 173, 102, 99, 20],
        [59, 74, 107, 219, 84, 154, 63, 175, 162], [77, 213, 103, 192, 59, 133, 28, 136, 188],
        [85, 205, 64, 163, 34, 135, 176, 99, 201], [81, 160, 45, 96, 15, 63, 86, 28, 34]],
    Inter.BICUBIC: [
        [0, 1, 0, 0, 30, 45, 5, 120, 0], [2, 0, 185, 96, 170, 35, 228, 122, 2],
        [0, 231, 135, 41, 151, 227, 138, 118, 6], [21, 134, 121, 50, 112, 185, 97, 107, 6],
        [68, 69, 91, 250, 74, 166, 43, 197, 195], [66, 254, 96, 195, 50, 141, 0, 148, 203],
        [77, 215, 64, 179, 23, 158, 208, 98, 201], [81, 168, 36, 103, 5, 65, 99, 24, 32]],
}


@pytest.mark.parametrize("interpolation", sorted(EXPECTED))
def test_array_pixels_match_mindspore(interpolation):
    out = Perspective(START, END, interpolation)(IMG[:, :, 0])
    assert out.dtype == np.uint8 and out.shape == (8, 9)
    np.testing.assert_array_equal(out, EXPECTED[interpolation])


def test_area_and_pilcubic_sample_bilinearly_as_mindspore():
    for interpolation in (Inter.AREA, Inter.PILCUBIC):
        np.testing.assert_array_equal(Perspective(START, END, interpolation)(IMG[:, :, 0]),
                                      EXPECTED[Inter.BILINEAR])


def test_rgb_and_float_bicubic_match_mindspore():
    out = Perspective(START, END, Inter.BICUBIC)(IMG)
    # measured under MindSpore 2.10 (rows 2 and 3, first three columns)
    np.testing.assert_array_equal(out[2:4, :3], [[[0, 0, 0], [231, 133, 41], [135, 185, 188]],
                                                 [[21, 27, 20], [134, 178, 192],
                                                  [121, 159, 196]]])
    floats = Perspective(START, END, Inter.BICUBIC)(IMG[:, :, 0].astype(np.float32) / 7)
    assert floats.dtype == np.float32
    np.testing.assert_allclose(floats[3, :4], [3.055708646774292, 19.15262222290039,
                                               17.346651077270508, 7.090044975280762],
                               rtol=0, atol=1e-6)


def test_pil_image_goes_through_pillow():
    out = Perspective(START, END, Inter.BILINEAR)(Image.fromarray(IMG[:, :, 0]))
    assert isinstance(out, Image.Image) and out.mode == "L"
    # measured under MindSpore 2.10 (rows 0 and 7)
    np.testing.assert_array_equal(np.asarray(out)[[0, 7]],
                                  [[0, 0, 0, 0, 152, 102, 61, 111, 0],
                                   [93, 171, 63, 138, 23, 127, 0, 0, 0]])
    with pytest.raises(TypeError, match="not supported with PIL input"):
        Perspective(START, END, Inter.AREA)(Image.fromarray(IMG))
    with pytest.raises(ValueError):     # Pillow's own words for LANCZOS
        Perspective(START, END, Inter.ANTIALIAS)(Image.fromarray(IMG))


def test_arguments_are_checked_with_mindspore_words():
    with pytest.raises(TypeError, match="start_points should be a list or tuple of length 4"):
        Perspective(START[:3], END)
    with pytest.raises(TypeError, match=r"end_points\[1\] should be a list or tuple of length 2"):
        Perspective(START, [[0, 0], [1, 2, 3], [1, 1], [1, 1]])
    with pytest.raises(TypeError, match=r"Argument end_points\[0\]\[0\]"):
        Perspective(START, [[0.5, 0], [1, 1], [1, 1], [1, 1]])
    with pytest.raises(ValueError, match=r"start_points\[0\]\[1\] is not within"):
        Perspective([[0, 2 ** 31], [1, 1], [1, 1], [1, 1]], END)
    with pytest.raises(TypeError, match="interpolation"):
        Perspective(START, END, 2)
    assert Perspective([[0, -1]] + START[1:], END).start_points[0] == (0, -1)


def test_image_errors():
    op = Perspective(START, END)
    with pytest.raises(RuntimeError, match="Expecting tensor in dimension of"):
        op(np.stack([IMG, IMG]))
    with pytest.raises(RuntimeError, match="int8"):
        op(IMG.astype(np.int8))
    with pytest.raises(RuntimeError, match="at most 4 channels"):   # (5 bilinear: MindSpore's)
        Perspective(START, END, Inter.BICUBIC)(np.zeros((8, 9, 5), np.uint8))
    with pytest.raises(TypeError, match="PIL image"):
        Perspective(START, END, Inter.ANTIALIAS)(IMG)
    assert op(IMG.astype(np.uint16)).dtype == np.uint16
    # int8 and int32 images warp with nearest neighbours only, as in MindSpore 2.10 (measured:
    # its pixels), the same pixels as an int16 image's
    nearest = Perspective(START, END, Inter.NEAREST)
    signed = IMG.astype(np.int16) - 128
    for dtype in (np.int8, np.int32):
        out = nearest(signed.astype(dtype))
        assert out.dtype == dtype
        np.testing.assert_array_equal(out, nearest(signed))
    np.testing.assert_array_equal(op(IMG > 100), op((IMG > 100).astype(np.uint8)))
    assert op(np.zeros((8, 9, 4), np.uint8)).shape == (8, 9, 4)


def test_random_perspective_takes_pil_images_only():
    op = RandomPerspective(prob=1.0)
    with pytest.raises(ValueError, match="Pillow image"):
        op(IMG)
    with pytest.raises(ValueError, match="Pillow image"):
        RandomPerspective(prob=0.0)(IMG)
    image = Image.fromarray(IMG)
    out = op(image)
    assert isinstance(out, Image.Image) and out.size == image.size
    assert RandomPerspective(prob=0.0)(image) is image
    with pytest.raises(RuntimeError, match="Unsupported interpolation"):
        RandomPerspective(prob=1.0, interpolation=Inter.AREA)(image)


def test_random_perspective_arguments():
    for kwargs in ({"distortion_scale": 1}, {"prob": 1}, {"prob": True},
                   {"interpolation": 3}):
        with pytest.raises(TypeError):
            RandomPerspective(**kwargs)
    for kwargs in ({"distortion_scale": 1.5}, {"prob": -0.1}):
        with pytest.raises(ValueError, match="not within the required interval"):
            RandomPerspective(**kwargs)


def test_random_points_stay_in_their_corner_ranges_and_prob_holds():
    rng = Rng(3)
    seen = set()
    for _ in range(300):
        start, end = random_perspective_points(30, 20, 0.5, rng)
        assert start == [(0, 0), (29, 0), (29, 19), (0, 19)]
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = end
        assert 0 <= x0 <= 7 and 0 <= y0 <= 5 and 22 <= x1 <= 29 and 0 <= y1 <= 5
        assert 22 <= x2 <= 29 and 14 <= y2 <= 19 and 0 <= x3 <= 7 and 14 <= y3 <= 19
        seen.add(x0)
    assert seen == set(range(8))
    image = Image.fromarray(IMG)
    ds.config.set_seed(5)
    changed = sum(RandomPerspective(0.9, 0.3)(image) is not image for _ in range(400))
    assert 80 < changed < 160


def test_in_a_map_after_topil():
    from minddata import vision as V
    data = ds.NumpySlicesDataset({"image": np.stack([IMG, IMG])}, shuffle=False)
    data = data.map([V.ToPIL(), RandomPerspective(prob=1.0), V.ToTensor()], ["image"])
    shapes = [row["image"].shape for row in data.create_dict_iterator(output_numpy=True)]
    assert shapes == [(3, 8, 9)] * 2
    eager = ds.NumpySlicesDataset({"image": np.stack([IMG])}, shuffle=False)
    rows = eager.map(Perspective(START, END, Inter.BICUBIC), ["image"])
    out = next(rows.create_dict_iterator(output_numpy=True))["image"]
    np.testing.assert_array_equal(out[:, :, 0], EXPECTED[Inter.BICUBIC])


def test_point_errors_come_in_mindspore_order():
    # Measured under MindSpore 2.10: both lists' element types are checked before any length,
    # then start_points' length and points before end_points'.
    with pytest.raises(TypeError, match=r"Argument start_points\[0\] with value 2 is not of type"):
        Perspective([2, 1, 3], [1, 2, 3])
    with pytest.raises(TypeError, match=r"Argument end_points\[0\] with value 1 is not of type"):
        Perspective([[1]] * 4, [1] * 4)
    with pytest.raises(TypeError, match=r"Argument end_points\[0\] with value 1 is not"):
        Perspective([[1, 1]] * 3, [1] * 4)
    with pytest.raises(TypeError, match=r"^start_points\[0\] should be a list or tuple of len"):
        Perspective([[1]] * 4, [[1, 1]] * 3)


def test_random_perspective_range_error_is_mindspore_sentence():
    # MindSpore's own test compares the whole sentence (measured under MindSpore 2.10).
    with pytest.raises(ValueError) as error:
        RandomPerspective(distortion_scale=1.5)
    assert str(error.value) == ("Input distortion_scale is not within the required interval"
                                " of [0.0, 1.0].")
    with pytest.raises(ValueError) as error:
        RandomPerspective(prob=1.2)
    assert str(error.value) == "Input prob is not within the required interval of [0.0, 1.0]."
    with pytest.raises(ValueError):     # MindSpore takes NaN (then never applies): refused here
        RandomPerspective(prob=float("nan"))
