"""RgbToHsv, HsvToRgb, LinearTransformation and RandomGrayscale (transforms_c/vision/
colour_space.py): colorsys's values (MindSpore maps colorsys over the pixels), layouts,
MindSpore's TypeErrors, and RandomGrayscale's PIL images."""
import colorsys
import json

import numpy as np
import pytest
from PIL import Image

import minddata as md
from minddata.serialization import _decode, _encode
from transforms_c.vision import HsvToRgb, LinearTransformation, RandomGrayscale, RgbToHsv

from tests.transforms_c.test_adjust_ops import _image


def _colorsys(fn, img):
    return np.array([[fn(*px) for px in row] for row in img.astype(np.float64)])


def test_rgb_to_hsv_is_colorsys_in_each_layout():
    rgb = np.random.RandomState(0).rand(4, 5, 3)
    rgb[0, 0] = (0.5, 0.5, 0.5)             # grey: h = s = 0
    rgb[0, 1] = (0.2, 0.9, 0.9)             # ties between the largest channels
    expect = _colorsys(colorsys.rgb_to_hsv, rgb)
    assert np.allclose(RgbToHsv(True)(rgb), expect, atol=1e-15)
    chw = RgbToHsv()(np.ascontiguousarray(rgb.transpose(2, 0, 1)))
    assert chw.shape == (3, 4, 5) and np.allclose(chw.transpose(1, 2, 0), expect, atol=1e-15)
    batch = RgbToHsv(True)(np.stack([rgb, rgb[::-1]]))
    assert batch.shape == (2, 4, 5, 3) and np.allclose(batch[1], expect[::-1], atol=1e-15)
    # uint8 values on their own scale, as MindSpore (measured: a float64 result)
    out = RgbToHsv(True)(_image())
    assert out.dtype == np.float64
    assert np.allclose(out, _colorsys(colorsys.rgb_to_hsv, _image()), atol=1e-12)


def test_hsv_to_rgb_is_colorsys_and_round_trips():
    hsv = np.random.RandomState(1).rand(3, 4, 6)
    hsv[1, 0, 0] = 0.0                      # s = 0: grey
    hsv[0, 0, 1] = 1.0                      # h = 1: sector 6 wraps to 0
    expect = _colorsys(colorsys.hsv_to_rgb, hsv.transpose(1, 2, 0))
    out = HsvToRgb()(hsv)
    assert out.dtype == np.float64 and np.allclose(out.transpose(1, 2, 0), expect, atol=1e-15)
    rgb = np.random.RandomState(2).rand(2, 3, 5, 4).astype(np.float32)
    assert np.allclose(HsvToRgb(False)(RgbToHsv(False)(rgb)), rgb, atol=1e-6)


@pytest.mark.parametrize("op, img, words", [
    (RgbToHsv(True), Image.new("RGB", (3, 3)), "img should be NumPy image. Got"),
    (RgbToHsv(True), np.zeros((4, 5, 2)), "img should be 3 channels RGB img. Got 2 channels."),
    (HsvToRgb(), np.zeros((4, 5)), "img shape should be (H, W, C)/(N, H, W, C)/(C, H, W)"),
    (HsvToRgb(), np.zeros((4, 5, 3)), "Got 4 channels"),      # CHW: 4 on the channel axis
    (LinearTransformation(np.eye(4), np.zeros(4)), Image.new("L", (2, 2)),
     "img should be NumPy array"),
])
def test_type_errors(op, img, words):
    with pytest.raises(TypeError) as info:
        op(img)
    assert words in str(info.value)


def test_linear_transformation():
    rng = np.random.RandomState(3)
    matrix, mean = rng.rand(12, 12), rng.rand(12)
    img = rng.rand(2, 2, 3).astype(np.float32)
    out = LinearTransformation(matrix, mean)(img)
    assert out.shape == img.shape and out.dtype == np.float64
    assert np.allclose(out.ravel(), (img.ravel() - mean) @ matrix)
    with pytest.raises(ValueError, match="not compatible with Numpy image shape"):
        LinearTransformation(matrix, mean)(np.zeros((3, 3, 3)))


@pytest.mark.parametrize("args, exc, words", [
    (([[1]], np.zeros(1)), TypeError, "transformation_matrix"),
    ((np.eye(2), [0, 0]), TypeError, "mean_vector"),
    ((np.zeros((2, 3)), np.zeros(2)), ValueError, "should be a square matrix"),
    ((np.eye(2), np.zeros(3)), ValueError, "mean_vector length 3"),
])
def test_linear_transformation_arguments(args, exc, words):
    with pytest.raises(exc, match=words):
        LinearTransformation(*args)


def test_is_hwc_and_prob_arguments():
    with pytest.raises(TypeError, match="is_hwc"):
        RgbToHsv(1)
    with pytest.raises(TypeError, match="is_hwc"):
        HsvToRgb("x")
    with pytest.raises(ValueError, match="prob is not within"):
        RandomGrayscale(2)


def test_random_grayscale_on_pil_images_as_mindspore():
    rgb = Image.fromarray(_image())
    out = RandomGrayscale(1.0)(rgb)
    assert out.mode == "RGB"
    pixels = np.asarray(out)
    luma = np.asarray(rgb.convert("L"))
    assert all(np.array_equal(pixels[..., c], luma) for c in range(3))
    assert RandomGrayscale(1.0)(rgb.convert("L")).mode == "L"
    assert RandomGrayscale(1.0)(rgb.convert("RGBA")).mode == "RGB"     # MindSpore: 3 channels
    assert RandomGrayscale(0.0)(rgb) is rgb
    grays = sum(np.asarray(RandomGrayscale(0.3)(rgb)).std(axis=2).max() == 0 for _ in range(400))
    assert 80 < grays < 160


def test_random_grayscale_on_arrays_keeps_the_channel_count():
    img = _image()
    out = RandomGrayscale(1.0)(img)
    assert out.shape == img.shape
    assert np.array_equal(out[..., 0], np.asarray(Image.fromarray(img).convert("L")))
    assert RandomGrayscale(1.0)(img[..., 0]).shape == (5, 7)
    assert RandomGrayscale(1.0)(img[..., :1]).shape == (5, 7, 1)


def test_in_a_pipeline_and_through_json():
    imgs = np.random.RandomState(4).rand(2, 3, 4, 5).astype(np.float32)
    lin = LinearTransformation(np.eye(60), np.full(60, 0.5))
    data = md.NumpySlicesDataset({"image": imgs}, shuffle=False)
    data = data.map(operations=[RgbToHsv(), HsvToRgb(), lin], input_columns=["image"])
    rows = [r["image"] for r in data.create_dict_iterator(output_numpy=True)]
    assert len(rows) == 2 and np.allclose(rows[1], imgs[1] - 0.5, atol=1e-6)
    for op in (lin, RgbToHsv(True), RandomGrayscale(0.4)):
        again = _decode(json.loads(json.dumps(_encode(op, "op"))))
        assert type(again) is type(op)
        assert {k: str(v) for k, v in vars(again).items()} == \
            {k: str(v) for k, v in vars(op).items()}


def test_linear_transformation_matrix_shapes_and_inputs_as_mindspore():
    # measured under MindSpore 2.10: a 1-D matrix is an IndexError; a (D, D, ...) one is taken,
    # then fails on each image; any eager input but an array gets its "img should be" words
    with pytest.raises(IndexError, match="tuple index out of range"):
        LinearTransformation(np.zeros(4), np.zeros(4))
    op = LinearTransformation(np.zeros((4, 4, 2)), np.zeros(4))
    with pytest.raises(ValueError, match="Linear transform failed, input shape should match "
                                         "with transformation_matrix."):
        op(np.zeros((2, 2)))
    op = LinearTransformation(np.eye(4), np.zeros(4))
    for value in ([1.0, 2.0, 3.0, 4.0], (1, 2), 5):
        with pytest.raises(TypeError, match=f"img should be NumPy array. Got {type(value)}"):
            op(value)


def test_py_transforms_util_has_mindspores_hsv_helpers():
    """mindspore.dataset.vision.py_transforms_util.rgb_to_hsvs / hsv_to_rgbs, which MindSpore's
    scripts and tests call directly: colorsys per pixel, batches too, and back."""
    import colorsys

    from minddata.vision import py_transforms_util as util
    rgb = np.random.default_rng(3).random((2, 4, 5, 3))
    hsv = util.rgb_to_hsvs(rgb, True)
    assert hsv.shape == rgb.shape and hsv.dtype == np.float64
    assert np.allclose(hsv[1, 2, 3], colorsys.rgb_to_hsv(*rgb[1, 2, 3]))
    assert np.allclose(util.hsv_to_rgbs(hsv, True), rgb)
    chw = np.moveaxis(rgb[0], -1, 0)
    assert np.allclose(util.rgb_to_hsvs(chw, False), np.moveaxis(hsv[0], -1, 0))
    with pytest.raises(TypeError, match=r"img shape should be .* Got \(5, 3\)"):
        util.rgb_to_hsvs(rgb[0, 0], True)


# measured in MindSpore 2.10: RandomGrayscale(prob=0.0) on an int32 or 4-channel uint8 array
# raises (AttributeError: its op reads a PIL image's mode before the draw), Grayscale a
# TypeError ("img should be PIL image"); here the arrays they do not take are refused (that
# TypeError) whatever RandomGrayscale draws, not handed back at prob 0
def test_random_grayscale_refuses_other_arrays_whatever_the_draw():
    from transforms_c.vision import Grayscale
    rgb = np.zeros((4, 5, 3), np.uint8)
    assert RandomGrayscale(0.0)(rgb) is not None
    for img in (rgb.astype(np.int32), np.zeros((4, 5, 4), np.uint8), rgb.astype(np.float64)):
        for op in (RandomGrayscale(0.0), RandomGrayscale(1.0), Grayscale()):
            with pytest.raises(TypeError, match="img should be PIL image"):
                op(img)
