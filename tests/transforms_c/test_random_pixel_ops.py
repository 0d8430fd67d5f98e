"""The random colour ops (transforms_c/vision/random_pixel.py): their probabilities and ranges
(not MindSpore's random streams), the kernels they share with the fixed ops, their images and
argument errors."""
import numpy as np
import pytest
from PIL import Image

import minddata as md
from transforms_c.vision import (AdjustSharpness, AutoContrast, Equalize, Invert, Posterize,
                                 RandomAdjustSharpness, RandomAutoContrast, RandomColor,
                                 RandomEqualize, RandomInvert, RandomLighting, RandomPosterize,
                                 RandomSolarize, Solarize)

from tests.transforms_c.test_adjust_ops import _image

# Measured in MindSpore 2.10: RandomColor((1.7, 1.7)) on _image() (its blend: the image first, a
# float32 factor; one level off on two pixels with AdjustSaturation's order)
_COLOR_1_7 = [
    76, 154, 255, 104, 194, 221, 0, 7, 255, 127, 221, 59, 255, 155, 102, 160, 109, 189, 255,
    130, 171, 59, 184, 142, 255, 0, 68, 255, 142, 0, 0, 241, 18, 111, 196, 45, 52, 111, 121,
    72, 174, 87, 118, 255, 0, 0, 255, 174, 0, 145, 71, 245, 9, 0, 108, 32, 202, 85, 219, 255,
    0, 144, 33, 0, 229, 255, 0, 131, 255, 156, 188, 188, 209, 151, 255, 237, 0, 133, 0, 100,
    154, 76, 217, 255, 83, 255, 41, 247, 120, 255, 42, 178, 151, 255, 0, 64, 216, 68, 255, 130,
    171, 159, 0, 231, 0]


def _fraction_changed(op, img, runs=400):
    return sum(not np.array_equal(op(img), img) for _ in range(runs)) / runs


@pytest.mark.parametrize("op", [RandomInvert(0.3), RandomEqualize(0.3),
                                RandomAutoContrast(prob=0.3), RandomAdjustSharpness(2.0, 0.3)])
def test_probability(op):
    # 400 draws: 0.3 +- 4.5 standard deviations
    assert 0.2 < _fraction_changed(op, _image()) < 0.4


@pytest.mark.parametrize("op, fixed", [
    (RandomInvert(1.0), Invert()), (RandomEqualize(1.0), Equalize()),
    (RandomAutoContrast(5, [3], 1.0), AutoContrast(5, [3])),
    (RandomAdjustSharpness(1.7, 1.0), AdjustSharpness(1.7)),
    (RandomPosterize(3), Posterize(3)), (RandomSolarize((90, 90)), Solarize(90))])
def test_probability_one_is_the_fixed_op(op, fixed):
    img = _image()
    assert np.array_equal(op(img), fixed(img))
    if hasattr(op, "prob"):     # the same op with probability 0 leaves the image as it is
        args = {k: v for k, v in vars(op).items() if not k.startswith("_")}
        assert np.array_equal(type(op)(**dict(args, prob=0.0))(img), img)


def test_random_posterize_draws_every_bit_count_in_range():
    ramp = np.arange(256, dtype=np.uint8).reshape(16, 16)
    seen = set()
    for _ in range(200):
        out = RandomPosterize((2, 6))(ramp)
        masks = {b: ramp & ((0xFF << 8 - b) & 0xFF) for b in range(1, 9)}
        seen.add(next(b for b, mask in masks.items() if np.array_equal(out, mask)))
    assert seen == {2, 3, 4, 5, 6}


def test_random_solarize_inverts_one_range_drawn_inside_its_bounds():
    ramp = np.arange(256, dtype=np.uint8).reshape(16, 16)
    for _ in range(50):
        inverted = np.flatnonzero(RandomSolarize((40, 200))(ramp).ravel() != np.arange(256))
        if inverted.size:
            assert inverted[0] >= 40 and inverted[-1] - inverted[0] + 1 == inverted.size
            assert inverted[-1] <= 200 or inverted[-1] == 255   # equal draws: >= t


def test_random_color_matches_mindspore_and_takes_floats_and_pil():
    img = _image()
    assert np.array_equal(RandomColor((1.7, 1.7))(img), np.array(_COLOR_1_7, np.uint8).reshape(
        img.shape))
    assert np.array_equal(RandomColor((1, 1))(img), img)
    grey = RandomColor((0, 0))(img.astype(np.float32) / 255)
    assert grey.dtype == np.float32 and np.allclose(grey[..., 0], grey[..., 1])
    out = RandomColor()(Image.fromarray(img))
    assert isinstance(out, Image.Image) and out.mode == "RGB"


def test_random_lighting_shifts_each_channel_by_one_amount():
    img = np.full((4, 5, 3), 128, np.uint8)
    out = RandomLighting(0.5)(img).astype(int) - 128
    assert all(len(np.unique(out[..., c])) == 1 for c in range(3))
    assert np.array_equal(RandomLighting(0)(img), img)
    floats = RandomLighting(0.1)(img.astype(np.float32))
    assert floats.dtype == np.float32 and len(np.unique(floats[..., 0])) == 1
    shifts = [RandomLighting(1.0)(img)[0, 0].astype(int) - 128 for _ in range(100)]
    assert np.std([s[0] for s in shifts]) > 5    # a normal draw scaled by 55.46 * alpha
    assert isinstance(RandomLighting()(Image.fromarray(img)), Image.Image)


@pytest.mark.parametrize("op, img, words", [
    (RandomColor(), np.zeros((4, 4), np.uint8), "channel is not 3, got rank: 2"),
    (RandomLighting(), np.zeros((2, 4, 4, 3), np.uint8), "got rank: 4"),
    (RandomInvert(), np.zeros((4, 4, 1), np.uint8), "expected num of channels is 3"),
    (RandomEqualize(), np.zeros((4, 4, 3), np.float32), "not in type of uint8"),
    (RandomAutoContrast(), np.zeros((4, 4, 1), np.uint8), "expected num of channels is 3"),
    (RandomAdjustSharpness(1.0), np.zeros((2, 4, 4, 3), np.uint8), "got rank: 4"),
    (RandomPosterize(2), np.zeros((4, 4, 3), np.float32), "int8 or uint8"),
])
def test_image_errors(op, img, words):
    with pytest.raises(RuntimeError, match=words):
        op(img)


@pytest.mark.parametrize("make, exc, words", [
    (lambda: RandomAdjustSharpness(-1), ValueError, "degree"),
    (lambda: RandomAdjustSharpness(1, 2), ValueError, "prob is not within the required interval"),
    (lambda: RandomAutoContrast(50), ValueError, "cutoff"),
    (lambda: RandomAutoContrast(1, [1, "a"]), TypeError, "item"),
    (lambda: RandomColor(1), TypeError, "degrees must be either a tuple or a list"),
    (lambda: RandomColor((2, 1)), ValueError, "(min,max) format"),
    (lambda: RandomColor((1, 2, 3)), ValueError, "length 2"),
    (lambda: RandomEqualize("a"), TypeError, "prob"),
    (lambda: RandomInvert(-0.1), ValueError, "[0.0, 1.0]"),
    (lambda: RandomPosterize(0), ValueError, "[1, 8]"),
    (lambda: RandomPosterize((5, 4)), ValueError, "[1, 8]"),
    (lambda: RandomPosterize((1, 2, 3)), TypeError, "Size of bits"),
    (lambda: RandomPosterize((1.0, 4)), TypeError, "bits"),
    (lambda: RandomSolarize([0, 255]), TypeError, "<class 'tuple'>"),
    (lambda: RandomSolarize((10, 5)), ValueError, "min max format"),
    (lambda: RandomSolarize((0, 256)), ValueError, "[0, 255]"),
    (lambda: RandomLighting(-1), ValueError, "alpha"),
])
def test_argument_errors(make, exc, words):
    with pytest.raises(exc) as info:
        make()
    assert words in str(info.value)


def test_in_a_pipeline_seeded():
    ops = [RandomColor(), RandomLighting(), RandomSolarize(), RandomPosterize((3, 7)),
           RandomAdjustSharpness(1.5), RandomAutoContrast(), RandomEqualize(), RandomInvert()]

    def rows():
        md.config.set_seed(11)
        data = md.NumpySlicesDataset({"image": np.stack([_image()] * 3)}, shuffle=False)
        data = data.map(operations=ops, input_columns=["image"])
        return [r["image"] for r in data.create_dict_iterator(output_numpy=True)]

    first, second = rows(), rows()
    assert len(first) == 3 and all(np.array_equal(a, b) for a, b in zip(first, second))
    assert all(r.shape == (5, 7, 3) and r.dtype == np.uint8 for r in first)


@pytest.mark.parametrize("bits", [9, 0, (1, 9), (0, 7), (8, 1)])
def test_random_posterize_range_sentence_is_mindspores(bits):
    # MindSpore 2.10's sentence, compared whole by its suite (measured for all five).
    with pytest.raises(ValueError) as error:
        RandomPosterize(bits)
    assert str(error.value) == "Input is not within the required interval of [1, 8]."


def test_mindspore_words_for_bad_input():
    # the sentences MindSpore 2.10's own unit tests compare (measured)
    with pytest.raises(ValueError, match=r"format\. Got \(max,min\)\. degrees is"):
        RandomColor((0.9, 0.1))
    with pytest.raises(RuntimeError, match=r"rank: 1\. You may need to perform Decode first\."):
        RandomEqualize(1.0)(np.zeros(5, np.uint8))
    lighting = RandomLighting(1)
    with pytest.raises(RuntimeError, match=r"RandomLighting: the shape of input tensor does not "
                                           r"match .* <height, width, \.\.\.>\. But got tensor "
                                           r"with dimension 0\."):
        lighting(np.array(0, np.uint8))
    with pytest.raises(RuntimeError, match=r"in type of \[int, float, double\]\. But got type "
                                           r"string\."):
        lighting(np.array([[["a", "b", "c"]]]))
    with pytest.raises(RuntimeError, match=r"Cannot convert from OpenCV type, unknown CV type\. "
                                           r"Currently supported data type: \[int8, uint8, int16, "
                                           r"uint16, int32, float16, float32, float64\]\."):
        lighting(np.zeros((4, 4, 4), np.int64))    # the dtype is checked before the channels
