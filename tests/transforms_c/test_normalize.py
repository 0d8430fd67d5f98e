"""Normalize, NormalizePad, Rescale and HWC2CHW."""
import numpy as np
import pytest

from transforms_c.vision import HWC2CHW, Normalize, NormalizePad, Rescale

from tests.transforms_c.tc_samples import natural_rgb

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def _reference(img, mean, std):
    return (img.astype(np.float32) - np.float32(mean)) / np.float32(std)


def test_normalize_uint8_hwc():
    img = natural_rgb()
    out = Normalize(MEAN, STD)(img)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, _reference(img, MEAN, STD))


def test_normalize_float_input():
    img = natural_rgb().astype(np.float32)
    np.testing.assert_allclose(Normalize(MEAN, STD)(img), _reference(img, MEAN, STD), rtol=1e-6)


def test_normalize_chw():
    img = natural_rgb().transpose(2, 0, 1).copy()
    out = Normalize(MEAN, STD, is_hwc=False)(img)
    ref = _reference(img.transpose(1, 2, 0), MEAN, STD).transpose(2, 0, 1)
    np.testing.assert_allclose(out, ref, rtol=1e-6)


def test_normalize_gray_single_value():
    gray = natural_rgb()[..., 0].copy()
    out = Normalize([100.0], [50.0])(gray)
    assert out.shape == gray.shape
    np.testing.assert_allclose(out, (gray.astype(np.float32) - 100) / 50, rtol=1e-6)


def test_normalize_channel_mismatch_raises():
    with pytest.raises(RuntimeError, match="channels"):
        Normalize([1.0, 2.0], [1.0, 1.0])(natural_rgb())


@pytest.mark.parametrize("mean,std,exc", [([256], [1], ValueError), ([1], [0], ValueError),
                                           ([1, 2], [1], ValueError), (1, [1], TypeError),
                                           (["a"], [1], TypeError)])
def test_normalize_arguments(mean, std, exc):
    with pytest.raises(exc):
        Normalize(mean, std)


def test_normalize_pad_adds_zero_channel():
    img = natural_rgb()
    out = NormalizePad(MEAN, STD)(img)
    assert out.shape == img.shape[:2] + (4,) and out.dtype == np.float32
    assert not out[..., 3].any()
    np.testing.assert_array_equal(out[..., :3], _reference(img, MEAN, STD))
    assert NormalizePad(MEAN, STD, dtype="float16")(img).dtype == np.float16
    with pytest.raises(ValueError):
        NormalizePad(MEAN, STD, dtype="int8")


def test_rescale():
    img = natural_rgb()
    out = Rescale(1.0 / 255, -0.5)(img)
    # One rounding of the float32 multiply-add (MindSpore's): the float64 product is exact.
    fused = (img * np.float64(np.float32(1 / 255)) + np.float64(np.float32(-0.5)))
    np.testing.assert_array_equal(out, fused.astype(np.float32))
    np.testing.assert_allclose(Rescale(2.0, 1.0)(img.astype(np.float64)),
                               img * 2.0 + 1.0, rtol=1e-6)
    with pytest.raises(TypeError):
        Rescale("1", 0)


def test_hwc2chw():
    img = natural_rgb()
    out = HWC2CHW()(img)
    assert out.shape == (3,) + img.shape[:2] and out.flags.c_contiguous
    assert np.array_equal(out, img.transpose(2, 0, 1))
    gray = img[..., 0].copy()
    assert HWC2CHW()(gray).shape == gray.shape
    with pytest.raises(RuntimeError):
        HWC2CHW()(np.zeros(5, np.uint8))


# measured in MindSpore 2.10: NormalizePad([121.0], [58.0], is_hwc=False) on a 2-D (7, 61) image
# (or a PIL L one) raises RuntimeError; is_hwc=True gives (7, 61, 2), and a CHW (1, 7, 61)
# image with is_hwc=False gives (2, 7, 61)
def test_normalize_pad_chw_refuses_a_2d_image():
    gray = np.arange(7 * 61, dtype=np.uint8).reshape(7, 61)
    with pytest.raises(RuntimeError, match="NormalizePad"):
        NormalizePad([121.0], [58.0], is_hwc=False)(gray)
    assert NormalizePad([121.0], [58.0])(gray).shape == (7, 61, 2)
    assert NormalizePad([121.0], [58.0], is_hwc=False)(gray[None]).shape == (2, 7, 61)


# measured in MindSpore 2.10: Rescale(-1.0, 0.4) is built, and raises RuntimeError "Rescale:
# rescale must be greater than or equal to 0, got: -1.000000" when it runs (a map too);
# Rescale(0.0, 0.4) gives 0.4 everywhere
def test_rescale_refuses_a_negative_rescale_when_run():
    import minddata
    op = Rescale(-1.0, 0.4)
    img = np.ones((2, 6, 3), np.uint8)
    with pytest.raises(RuntimeError, match="rescale must be greater than or equal to 0, got: "
                                           "-1.000000"):
        op(img)
    data = minddata.NumpySlicesDataset({"image": img[None]}, shuffle=False).map(
        [op, HWC2CHW()], input_columns="image")
    with pytest.raises(Exception, match="rescale must be greater than or equal to 0"):
        list(data.create_dict_iterator(output_numpy=True))
    assert np.allclose(Rescale(0.0, 0.4)(img), 0.4)
