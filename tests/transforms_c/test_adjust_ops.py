"""The Adjust* ops, Posterize and Solarize (transforms_c/vision/adjust.py): pixels against values
measured under MindSpore 2.10, the images each op takes, its PIL path, and its argument errors."""
import json

import numpy as np
import pytest
from PIL import Image

import minddata as md
from minddata.serialization import _decode, _encode
from transforms_c.vision import (AdjustBrightness, AdjustContrast, AdjustGamma, AdjustHue,
                                 AdjustSaturation, AdjustSharpness, Posterize, RandomColorAdjust,
                                 Solarize)
from transforms_c.vision.color import adjust_contrast


def _image():
    """The 5x7 RGB image the literals below were measured on."""
    return np.random.RandomState(3).randint(0, 256, (5, 7, 3)).astype(np.uint8)


# Measured in MindSpore 2.10 (mindspore.dataset.vision, eager calls on _image()):
# AdjustBrightness(1.3), AdjustHue(-0.37), AdjustGamma(0.5), AdjustGamma(2.0, 0.8),
# AdjustSharpness(1.7), Solarize((50, 150)); AdjustGamma(0.5) of the image as a PIL image gives
# the same pixels as _GAMMA_0_5.
_BRIGHTNESS_1_3 = [
    138, 198, 255, 170, 239, 255, 0, 27, 255, 191, 255, 139, 255, 220, 179, 194, 155, 216, 255,
    192, 224, 121, 217, 185, 255, 34, 105, 255, 195, 86, 3, 248, 78, 168, 233, 117, 90, 135,
    143, 126, 204, 138, 198, 255, 81, 9, 255, 222, 43, 160, 103, 229, 48, 26, 122, 64, 194,
    165, 255, 255, 36, 155, 70, 0, 250, 255, 23, 151, 248, 214, 239, 239, 255, 214, 255, 226,
    43, 147, 1, 110, 152, 155, 255, 255, 161, 255, 129, 255, 187, 255, 104, 208, 187, 255, 23,
    98, 238, 125, 255, 183, 214, 205, 62, 246, 43]
_HUE_MINUS_0_37 = [
    180, 249, 106, 198, 200, 131, 71, 253, 0, 202, 107, 165, 148, 138, 249, 119, 166, 140, 148,
    185, 224, 167, 128, 93, 26, 125, 248, 123, 66, 218, 191, 20, 2, 179, 90, 144, 110, 108, 69,
    157, 97, 99, 251, 62, 187, 248, 120, 7, 123, 60, 33, 20, 31, 176, 49, 149, 75, 229, 244,
    127, 119, 37, 28, 233, 225, 0, 152, 191, 18, 184, 180, 165, 165, 253, 181, 33, 139, 174,
    107, 117, 1, 225, 235, 119, 228, 99, 148, 144, 255, 196, 160, 127, 80, 18, 118, 242, 96,
    223, 159, 165, 153, 141, 189, 33, 77]
_GAMMA_0_5 = [
    165, 197, 252, 183, 217, 226, 0, 73, 254, 194, 227, 165, 252, 208, 188, 195, 174, 206, 239,
    195, 210, 154, 207, 191, 252, 81, 144, 236, 196, 130, 22, 221, 124, 182, 214, 152, 133,
    163, 168, 157, 200, 165, 197, 253, 126, 42, 252, 209, 92, 177, 142, 212, 97, 71, 155, 112,
    195, 180, 230, 250, 84, 174, 117, 0, 222, 244, 68, 172, 221, 205, 217, 217, 226, 205, 254,
    211, 92, 170, 16, 147, 173, 174, 227, 245, 178, 242, 159, 237, 192, 255, 143, 202, 192,
    249, 68, 138, 216, 157, 239, 190, 205, 201, 111, 220, 92]
_GAMMA_2_GAIN_0_8 = [
    35, 72, 195, 54, 106, 125, 0, 1, 201, 68, 128, 36, 195, 89, 59, 69, 44, 86, 158, 68, 93,
    27, 87, 63, 193, 2, 20, 149, 70, 13, 0, 114, 11, 52, 100, 25, 14, 34, 38, 29, 77, 35, 72,
    198, 12, 0, 193, 92, 3, 47, 19, 97, 4, 1, 27, 7, 69, 50, 133, 187, 2, 44, 9, 0, 116, 170,
    1, 42, 114, 85, 106, 106, 124, 85, 201, 95, 3, 40, 0, 22, 43, 44, 128, 173, 48, 163, 30,
    151, 65, 204, 20, 80, 65, 184, 1, 17, 105, 29, 156, 62, 85, 78, 7, 112, 3]
_SHARPNESS_1_7 = [
    106, 152, 249, 131, 184, 200, 0, 21, 253, 147, 202, 107, 249, 169, 138, 149, 119, 166, 224,
    148, 172, 93, 167, 142, 255, 0, 50, 255, 159, 42, 0, 223, 38, 130, 198, 75, 40, 87, 97, 97,
    157, 106, 152, 251, 62, 0, 255, 188, 0, 116, 58, 197, 0, 0, 87, 16, 159, 143, 244, 255, 28,
    119, 54, 0, 192, 233, 0, 84, 207, 184, 208, 199, 223, 199, 255, 187, 3, 95, 0, 65, 102,
    119, 202, 235, 124, 228, 99, 219, 144, 255, 80, 160, 144, 242, 18, 75, 183, 96, 223, 141,
    165, 158, 48, 189, 33]
_SOLARIZE_50_150 = [
    149, 152, 249, 124, 184, 200, 0, 21, 253, 108, 202, 148, 249, 169, 117, 106, 136, 166, 224,
    107, 172, 162, 167, 113, 248, 26, 174, 218, 105, 189, 2, 191, 195, 126, 179, 165, 186, 151,
    145, 158, 157, 149, 152, 251, 193, 7, 248, 171, 33, 132, 176, 176, 37, 20, 161, 49, 106,
    128, 206, 244, 28, 136, 201, 0, 192, 233, 18, 139, 191, 165, 184, 184, 199, 165, 253, 174,
    33, 142, 1, 170, 138, 136, 202, 235, 131, 228, 156, 219, 111, 255, 175, 160, 111, 242, 18,
    180, 183, 159, 223, 114, 165, 158, 48, 189, 33]

# AdjustHue(0.1) and AdjustHue(-0.5) in MindSpore 2.10: hue * 255 cut toward zero (25, -127)
_HUE_0_1 = [
    147, 106, 249, 131, 142, 200, 131, 0, 253, 107, 202, 123, 249, 235, 138, 166, 119, 154,
    224, 169, 148, 93, 147, 167, 248, 99, 26, 195, 218, 66, 2, 191, 171, 90, 179, 105, 69, 80,
    110, 97, 157, 142, 62, 251, 84, 7, 183, 248, 33, 113, 123, 176, 130, 20, 149, 49, 143, 127,
    136, 244, 28, 119, 109, 0, 55, 233, 22, 18, 191, 165, 173, 184, 252, 165, 253, 174, 36, 33,
    1, 15, 117, 119, 133, 235, 99, 228, 151, 255, 144, 225, 80, 129, 160, 242, 92, 18, 223, 96,
    186, 141, 157, 165, 33, 189, 110]
_HUE_MINUS_0_5 = [
    249, 207, 106, 200, 149, 131, 253, 238, 0, 165, 107, 202, 138, 214, 249, 135, 166, 119,
    148, 224, 203, 167, 93, 114, 26, 248, 198, 66, 127, 218, 191, 2, 127, 144, 90, 179, 110,
    76, 69, 157, 97, 145, 169, 62, 251, 248, 7, 75, 123, 33, 73, 20, 152, 176, 101, 149, 49,
    244, 168, 127, 119, 28, 88, 233, 44, 0, 191, 95, 18, 184, 166, 165, 217, 253, 165, 33, 174,
    99, 117, 36, 1, 235, 154, 119, 208, 99, 228, 178, 255, 144, 160, 80, 93, 18, 242, 192, 132,
    223, 96, 165, 141, 147, 180, 33, 189]


def _ms(values, shape=(5, 7, 3)):
    return np.array(values, np.uint8).reshape(shape)


@pytest.mark.parametrize("op, expect", [
    (AdjustBrightness(1.3), _BRIGHTNESS_1_3), (AdjustHue(-0.37), _HUE_MINUS_0_37),
    (AdjustHue(0.1), _HUE_0_1), (AdjustHue(-0.5), _HUE_MINUS_0_5),
    (AdjustGamma(0.5), _GAMMA_0_5), (AdjustGamma(2.0, 0.8), _GAMMA_2_GAIN_0_8),
    (AdjustSharpness(1.7), _SHARPNESS_1_7), (Solarize((50, 150)), _SOLARIZE_50_150)])
def test_uint8_pixels_match_mindspore(op, expect):
    out = op(_image())
    assert out.dtype == np.uint8
    assert np.array_equal(out, _ms(expect))


def test_contrast_and_saturation_are_random_color_adjusts_fixed_steps():
    img = _image()
    assert np.array_equal(AdjustContrast(1.9)(img), adjust_contrast(img, 1.9))
    assert np.array_equal(AdjustSaturation(1.1)(img), RandomColorAdjust(saturation=(1.1, 1.1))(img))
    assert np.array_equal(AdjustSaturation(0.0)(img)[..., 0], AdjustSaturation(0.0)(img)[..., 2])


def test_pil_path_gives_pil_images_where_mindspore_does():
    pil = Image.fromarray(_image())
    gamma = AdjustGamma(0.5)(pil)
    assert isinstance(gamma, Image.Image) and gamma.mode == "RGB"
    assert np.array_equal(np.asarray(gamma), _ms(_GAMMA_0_5))
    rgba = Image.fromarray(np.dstack([_image(), _image()[..., :1]]))
    assert AdjustGamma(0.5)(rgba).tobytes() == rgba.tobytes()     # MindSpore: unchanged
    for op in (AdjustBrightness(1.3), AdjustContrast(0.5), AdjustHue(0.2)):
        assert isinstance(op(pil), Image.Image)
    for op in (AdjustSharpness(1.7), Posterize(3), Solarize(100)):    # C++ only: arrays
        out = op(pil)
        assert isinstance(out, np.ndarray) and np.array_equal(out, op(_image()))


def test_brightness_saturates_each_dtype_and_keeps_the_shape():
    x = np.array([[45809, 16227, 64748]], np.uint16)
    assert AdjustBrightness(1.3)(x).tolist() == [[59552, 21095, 65535]]     # MindSpore 2.10
    gray = _image()[:, :, :1]
    assert AdjustBrightness(2.0)(gray).shape == (5, 7, 1)
    f = np.full((2, 2, 3), 0.5, np.float32)
    assert AdjustBrightness(3.0)(f).max() == np.float32(1.5)      # floats unclipped
    assert AdjustBrightness(0)(_image()).max() == 0


def test_gamma_floats_and_batches():
    f = np.array([[[0.25, 1.0, 4.0]]], np.float32)
    out = AdjustGamma(2.0, 0.5)(f)
    assert out.dtype == np.float32 and np.allclose(out, [[[0.03125, 0.5, 1.0]]])
    batch = np.stack([_image(), _image()])
    assert np.array_equal(AdjustGamma(0.5)(batch)[1], _ms(_GAMMA_0_5))


def test_gamma_of_other_integer_types_is_the_documented_curve():
    """255 * gain * (v / 255) ** gamma, rounded and saturated: gamma 1 and gain 1 leave every
    value as it is (uint8's table constant moved 1000 to 1003), negative values count as 0."""
    wide = np.arange(0, 65536, 7, dtype=np.uint16).reshape(1, -1, 1)
    np.testing.assert_array_equal(AdjustGamma(1.0)(wide), wide)
    np.testing.assert_array_equal(AdjustGamma(2.0, 0.5)(np.array([[[510, 0, 1000]]], np.int32)),
                                  [[[510, 0, 1961]]])
    assert AdjustGamma(2.0)(np.array([[[60000]]], np.uint16)).item() == 65535    # saturated
    np.testing.assert_array_equal(AdjustGamma(1.0)(np.array([[-5, 7]], np.int8)), [[0, 7]])


def test_posterize_and_solarize_semantics():
    ramp = np.arange(256, dtype=np.uint8).reshape(16, 16)
    assert np.array_equal(Posterize(3)(ramp), ramp & 0xE0)
    assert Posterize(0)(ramp).max() == 0
    assert Posterize(2)(ramp[:, :, None]).shape == (16, 16, 1)
    assert Posterize(4)(ramp.view(np.int8)).dtype == np.uint8      # int8 read as its bytes
    single = Solarize(100)(ramp).ravel()        # one threshold: values >= 100 inverted
    assert single[99] == 99 and single[100] == 155 and single[255] == 0
    ranged = Solarize((50, 60))(ramp).ravel()
    assert ranged[49] == 49 and ranged[50] == 205 and ranged[60] == 195 and ranged[61] == 61
    # saturated to the dtype (MindSpore 2.10: 255 - 300 of a uint16 is 0)
    assert Solarize(100)(np.full((2, 2), 300, np.uint16)).max() == 0


@pytest.mark.parametrize("op, img, words", [
    (AdjustContrast(1.5), np.zeros((4, 4), np.uint8), "Expecting tensor in dimension of (3)"),
    (AdjustHue(0.1), np.zeros((4, 4, 3), np.uint16),
     "Expecting tensor in type of (uint8, float32)"),
    (AdjustSaturation(1.5), np.zeros((4, 4, 4), np.uint8), "But got channel 4"),
    (AdjustBrightness(1.5), np.zeros((2, 4, 4, 3), np.uint8), "But got dimension 4"),
    (AdjustBrightness(1.5), np.zeros(12, np.uint8), "You may need to perform Decode first"),
    (AdjustGamma(0.5), np.zeros((4, 4, 4), np.uint8), "channel of input image should be 1 or 3"),
    (AdjustSharpness(0.5), np.zeros((4, 4, 3), np.int32), "Expecting tensor in type of (uint8"),
    (Posterize(2), np.zeros((4, 4, 3), np.float32), "should be int8 or uint8, but got float32"),
    (Solarize(9), np.zeros((2, 2, 4, 3), np.uint8), "But got dimension 4"),
])
def test_image_errors_have_mindspores_words(op, img, words):
    with pytest.raises(RuntimeError, match=words.replace("(", r"\(").replace(")", r"\)")):
        op(img)


@pytest.mark.parametrize("make, exc, words", [
    (lambda: AdjustBrightness(-1), ValueError, "brightness_factor is not within"),
    (lambda: AdjustBrightness(True), TypeError, "brightness_factor"),
    (lambda: AdjustContrast("1"), TypeError, "[<class 'float'>, <class 'int'>]"),
    (lambda: AdjustHue(0.6), ValueError, "[-0.5, 0.5]"),
    (lambda: AdjustGamma(-1), ValueError, "Input is not within the required interval"),
    (lambda: AdjustGamma(1, "x"), TypeError, "gain"),
    (lambda: AdjustSharpness([1]), TypeError, "sharpness_factor"),
    (lambda: Posterize(9), ValueError, "bits is not within the required interval of [0, 8]"),
    (lambda: Posterize(2.0), TypeError, "bits"),
    (lambda: Solarize(256), ValueError, "threshold[0]"),
    (lambda: Solarize((10, 5)), ValueError, "in order of (min, max)"),
    (lambda: Solarize((1, 2, 3)), TypeError, "single number or sequence of two numbers"),
    (lambda: Solarize("x"), TypeError, "threshold"),
])
def test_argument_errors(make, exc, words):
    with pytest.raises(exc) as info:
        make()
    assert words in str(info.value)


def test_in_a_pipeline_and_through_json():
    ops = [AdjustBrightness(1.3), AdjustGamma(0.5), AdjustSharpness(1.7), Solarize((50, 150)),
           Posterize(3), AdjustHue(-0.37), AdjustContrast(0.5), AdjustSaturation(1.5)]
    data = md.NumpySlicesDataset({"image": np.stack([_image()] * 2)}, shuffle=False)
    data = data.map(operations=ops, input_columns=["image"])
    rows = [r["image"] for r in data.create_dict_iterator(output_numpy=True)]
    expect = _image()
    for op in ops:
        expect = op(expect)
    assert len(rows) == 2 and all(np.array_equal(r, expect) for r in rows)
    for op in ops:
        again = _decode(json.loads(json.dumps(_encode(op, "op"))))
        assert type(again) is type(op) and np.array_equal(again(_image()), op(_image()))


def test_range_words_of_mindspore_suite():
    # MindSpore 2.10's words, matched whole by its own suite: AdjustSaturation's range error
    # names no argument; Posterize's bits sentence carries no "Got ..." detail.
    with pytest.raises(ValueError) as saturation:
        AdjustSaturation(-10.0)
    assert "Input is not within the required interval of [0, 16777216]" in str(saturation.value)
    for bits in (9, -1):
        with pytest.raises(ValueError) as posterize:
            Posterize(bits)
        assert str(posterize.value) == "Input bits is not within the required interval of [0, 8]."


def test_solarize_takes_bool_images_and_names_dtypes_as_mindspore():
    # measured under MindSpore 2.10: a bool image's inverted values saturate to True
    img = np.array([[True, False], [False, True]])
    assert Solarize(0)(img).tolist() == [[True, True], [True, True]]
    assert Solarize((1, 1))(img).tolist() == img.tolist()
    assert Solarize((100, 200))(img).tolist() == img.tolist()
    # MindSpore's list of dtypes (its order) and its names of numpy text dtypes
    with pytest.raises(RuntimeError, match=r"type of \(bool, int8, uint8, int16, uint16, int32, "
                                           r"float32, float64\)\. But got type bytes\."):
        Solarize(2)(np.zeros((2, 2, 3)).astype("S"))
    with pytest.raises(RuntimeError, match=r"But got type string\."):
        Solarize(2)(np.zeros((2, 2, 3)).astype("U"))
    with pytest.raises(RuntimeError, match=r"int32, float16, float32, float64\)\. But got type "
                                           r"int64\."):
        AdjustBrightness(2.0)(np.zeros((2, 2, 3), np.int64))
    # the Decode hint is for 1-D input only (a 0-D one gets the bare sentence)
    with pytest.raises(RuntimeError, match=r"But got dimension 0\.$"):
        Solarize(2)(np.array(0, np.uint8))
