"""Geometric vision ops as MindSpore 2.10's dataset tests check them (issue 20): Affine,
RandomResize, FiveCrop, TenCrop, ResizeWithBBox, the size argument's error words, and the
Pillow path of the ops given a PIL image. Each expectation was measured in MindSpore 2.10."""
import numpy as np
import pytest
from PIL import Image

import transforms_c.vision as V
from transforms_c.enums import Inter
from transforms_c.transforms import Compose

from tests.transforms_c.tc_samples import natural_rgb

GRAY = (np.arange(30).reshape(5, 6) * 8).astype(np.uint8)


def assert_words(error, words):
    """MindSpore's tests compare whole argument-error messages: ours are its sentences, but for
    a range error, which names the value given after them."""
    if "is not within the required interval" in words:
        assert str(error).startswith(words)
    else:
        assert str(error) == words
RGB = np.ascontiguousarray(natural_rgb(20, 30))


def test_affine_pixels():
    # measured in MindSpore 2.10 (clockwise degrees, translate in fractions of the size)
    out = V.Affine(degrees=30, translate=[0.2, -0.1], scale=1.2, shear=[10, 5])(GRAY)
    np.testing.assert_array_equal(out, [[0, 96, 56, 56, 64, 24],
                                        [144, 144, 104, 112, 112, 72],
                                        [192, 152, 160, 160, 120, 128],
                                        [200, 208, 208, 168, 176, 176],
                                        [0, 0, 216, 216, 224, 184]])
    out = V.Affine(degrees=-45, translate=[0.0, 0.3], scale=0.9, shear=0, fill_value=255)(GRAY)
    np.testing.assert_array_equal(out, [[255, 255, 255, 255, 255, 255],
                                        [255, 255, 32, 40, 255, 255],
                                        [255, 24, 24, 80, 136, 255],
                                        [8, 16, 72, 120, 176, 232],
                                        [0, 56, 112, 168, 216, 224]])


def test_affine_keeps_shape_and_dtype_and_gives_an_array_for_pil():
    op = V.Affine(degrees=15, translate=[0.1, 0.1], scale=1.1, shear=[10.0, 10.0])
    assert op(RGB.astype(np.float32)).dtype == np.float32
    out = op(Image.fromarray(RGB))
    assert isinstance(out, np.ndarray) and out.shape == RGB.shape
    np.testing.assert_array_equal(out, op(RGB))


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(degrees=[15.0], translate=[-1, 1], scale=1.0, shear=[1, 1]), TypeError,
     "Argument degrees with value [15.0] is not of type [<class 'int'>, <class 'float'>], "
     "but got <class 'list'>."),
    (dict(degrees=181, translate=[0, 0], scale=1.0, shear=0), ValueError,
     "Input degrees is not within the required interval of [-180, 180]."),
    (dict(degrees=15, translate=[1, 1], scale=0.0, shear=10), ValueError,
     "Input scale must be greater than 0."),
    (dict(degrees=15, translate=[1, 1], scale=-0.2, shear=10), ValueError,
     "Input scale must be greater than 0."),
    (dict(degrees=15, translate=[1, 1], scale=1.5, shear=[1.5, 3.5, 3.5]), TypeError,
     "The length of shear should be 2."),
    (dict(degrees=15, translate=[1, 1], scale=1.5, shear=[1.5, 181]), ValueError,
     "Input shear[1] is not within the required interval of [-180, 180]."),
    (dict(degrees=15, translate=[1, 1], scale=1.5, shear="x"), TypeError,
     "Argument shear with value x is not of type [<class 'numbers.Number'>, <class 'tuple'>, "
     "<class 'list'>], but got <class 'str'>."),
    (dict(degrees=15, translate=[1, 1, 1], scale=1.9, shear=[10.1]), TypeError,
     "The length of translate should be 2."),
    (dict(degrees=15, translate=(0.1,), scale=2.1, shear=[1.5, 1.5]), TypeError,
     "The length of translate should be 2."),
    (dict(degrees=15, translate=(0.1, 1.5), scale=2.1, shear=0), ValueError,
     "Input translate[1] is not within the required interval of [-1.0, 1.0]."),
    (dict(degrees=15, translate=(0.1, "a"), scale=2.1, shear=0), TypeError,
     "Argument translate[1] with value a is not of type [<class 'int'>, <class 'float'>], but "
     "got <class 'str'>."),
    (dict(degrees=15, translate=(0.1, 0.1), scale=2.1, shear=0, resample=1), TypeError,
     "Argument resample with value 1 is not of type [<enum 'Inter'>], but got <class 'int'>."),
])
def test_affine_argument_errors(kwargs, error, words):
    with pytest.raises(error) as info:
        V.Affine(**kwargs)
    assert_words(info.value, words)


def test_random_resize_uses_one_of_four_interpolations():
    outs = {V.RandomResize((7, 9)).apply((RGB,), seed)[0].tobytes() for seed in range(40)}
    expected = {V.Resize((7, 9), inter)(RGB).tobytes()
                for inter in (Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)}
    assert outs <= expected and len(outs) > 1
    assert V.RandomResize(10)(RGB).shape == (10, 15, 3)
    assert V.RandomResize((7, 9))(RGB[:, :, 0]).shape == (7, 9)
    assert V.RandomResize(10)(np.stack([RGB] * 2)).shape == (2, 10, 15, 3)
    assert isinstance(V.RandomResize(10)(Image.fromarray(RGB)), np.ndarray)


def test_five_crop_and_ten_crop_on_pil():
    img = Image.fromarray(RGB)
    crops = V.FiveCrop((7, 11))(img)
    windows = [(0, 0), (0, 19), (13, 0), (13, 19), (6, 10)]    # (top, left); centre rounded
    assert len(crops) == 5 and all(isinstance(c, Image.Image) for c in crops)
    for crop, (top, left) in zip(crops, windows):
        np.testing.assert_array_equal(np.asarray(crop), RGB[top:top + 7, left:left + 11])
    ten = V.TenCrop((7, 11), use_vertical_flip=True)(img)
    assert len(ten) == 10
    for crop, (top, left) in zip(ten[5:], windows):
        np.testing.assert_array_equal(np.asarray(crop), RGB[::-1][top:top + 7, left:left + 11])
    mirrored = V.TenCrop(8)(img)[5]
    np.testing.assert_array_equal(np.asarray(mirrored), RGB[:, ::-1][:8, :8])


def test_five_crop_outputs_are_the_next_ops_arguments():
    stacked = Compose([V.FiveCrop(8), lambda *crops: np.stack([np.asarray(c) for c in crops])])
    # measured in MindSpore 2.10: the eager Compose's Python path gives a 1-tuple
    (out,) = stacked(Image.fromarray(RGB))
    assert out.shape == (5, 8, 8, 3)


def test_five_crop_and_ten_crop_errors():
    with pytest.raises(TypeError, match="img should be PIL image. Got <class 'numpy.ndarray'>"):
        V.FiveCrop(8)(RGB)
    with pytest.raises(TypeError, match="img should be PIL image"):
        V.TenCrop(8)(RGB)
    with pytest.raises(ValueError, match=r"Crop size \(25, 25\) is larger than input image size"):
        V.FiveCrop(25)(Image.fromarray(RGB))
    with pytest.raises(TypeError, match="Argument use_vertical_flip with value 1 is not of type"):
        V.TenCrop(8, use_vertical_flip=1)
    assert V.TenCrop(8, use_vertical_flip=None).use_vertical_flip is False


CROP_SIZE_OPS = [V.CenterCrop, V.RandomCrop, V.RandomResizedCrop, V.FiveCrop, V.TenCrop,
                 V.RandomCropDecodeResize, V.RandomCropWithBBox, V.RandomResizedCropWithBBox,
                 lambda size: V.Crop((0, 0), size)]
RESIZE_SIZE_OPS = [V.Resize, V.RandomResize, V.ResizeWithBBox, V.RandomResizeWithBBox]
LENGTH_WORDS = "Size should be a single integer or a list/tuple (h, w) of length 2."
RANGE_WORDS = "Input is not within the required interval of [1, 16777216]."


@pytest.mark.parametrize("op", CROP_SIZE_OPS + RESIZE_SIZE_OPS)
def test_size_errors_common_to_all_ops(op):
    for size in (0, -1, 16777217):
        with pytest.raises(ValueError) as info:
            op(size)
        assert RANGE_WORDS in str(info.value)
    for size in ((1, 2, 3), (5,)):
        with pytest.raises(TypeError) as info:
            op(size)
        assert LENGTH_WORDS in str(info.value)


@pytest.mark.parametrize("op", CROP_SIZE_OPS)
def test_crop_size_errors(op):
    with pytest.raises(ValueError) as info:
        op((0, 3))
    assert RANGE_WORDS in str(info.value)
    with pytest.raises(TypeError) as info:
        op((2.3, 3))
    assert "Argument size[0] with value 2.3 is not of type [<class 'int'>]" in str(info.value)
    with pytest.raises(TypeError) as info:
        op("a")
    assert ("Argument size with value a is not of type [<class 'int'>, <class 'list'>, "
            "<class 'tuple'>], but got <class 'str'>.") in str(info.value)


@pytest.mark.parametrize("op", RESIZE_SIZE_OPS)
def test_resize_size_errors(op):
    with pytest.raises(ValueError) as info:
        op((3, 0))
    assert "Input size at dim 1 is not within the required interval of [1, 2147483647]." \
        in str(info.value)
    with pytest.raises(TypeError) as info:
        op((2.3, 3))
    assert "Argument size at dim 0 with value 2.3 is not of type [<class 'int'>]" \
        in str(info.value)
    for size in ("a", 4.5, None):
        with pytest.raises(TypeError) as info:
            op(size)
        assert LENGTH_WORDS in str(info.value)


def test_resize_with_bbox_scales_the_boxes():
    image = np.stack([GRAY, GRAY // 2, 255 - GRAY], axis=2)
    boxes = np.array([[1, 2, 3, 2, 7], [0, 0, 6, 5, 1]], np.float32)
    out, out_boxes = V.ResizeWithBBox((10, 9))(image, boxes)
    assert out.shape == (10, 9, 3) and out_boxes.dtype == np.float32
    np.testing.assert_array_equal(out, V.Resize((10, 9))(image))
    np.testing.assert_array_equal(out_boxes, [[1.5, 4, 4.5, 4, 7], [0, 0, 9, 10, 1]])
    np.testing.assert_array_equal(boxes[:, :4], [[1, 2, 3, 2], [0, 0, 6, 5]])   # not written


def test_pillow_fill_paints_an_rgba_image_opaque():
    rgba = Image.fromarray(np.full((4, 5, 4), 100, np.uint8))
    for op in (V.Pad(1, fill_value=(10, 20, 30)), V.RandomCrop(6, pad_if_needed=True,
                                                               fill_value=(10, 20, 30)),
               V.RandomRotation((45, 45), fill_value=(10, 20, 30))):
        out = op(rgba)
        assert out.mode == "RGBA"
        assert np.asarray(out)[0, 0].tolist() in ([10, 20, 30, 255], [100] * 4)
    assert np.asarray(V.Pad(1, fill_value=5)(rgba))[0, 0].tolist() == [5, 5, 5, 255]


@pytest.mark.parametrize("op", [V.RandomHorizontalFlip, V.RandomVerticalFlip,
                                V.RandomHorizontalFlipWithBBox, V.RandomVerticalFlipWithBBox])
def test_flip_prob_errors(op):
    with pytest.raises(TypeError) as info:
        op("1")
    assert ("Argument prob with value 1 is not of type [<class 'float'>, <class 'int'>], but got "
            "<class 'str'>.") in str(info.value)
    with pytest.raises(ValueError) as info:
        op(1.5)
    assert "Input prob is not within the required interval of [0.0, 1.0]." in str(info.value)


def test_bounding_box_augment_ratio_type_error():
    with pytest.raises(TypeError) as info:
        V.BoundingBoxAugment(V.HorizontalFlip(), "a")
    assert ("Argument ratio with value a is not of type [<class 'float'>, <class 'int'>], but "
            "got <class 'str'>.") in str(info.value)


@pytest.mark.parametrize("make, name", [
    (lambda: V.RandomResizedCrop(10, scale=(1.0, 0.5)), "scale"),
    (lambda: V.RandomResizedCrop(10, ratio=(2.0, 0.5)), "ratio"),
    (lambda: V.RandomCropDecodeResize(10, scale=(1.0, 0.5)), "scale"),
    (lambda: V.RandomRotation((10, -10)), "degrees"),
    (lambda: V.RandomErasing(scale=(0.5, 0.1)), "scale"),
])
def test_ranges_out_of_order(make, name):
    with pytest.raises(ValueError) as info:
        make()
    assert f"{name} should be in (min,max) format. Got (max,min)." in str(info.value)


def test_bbox_flip_does_not_write_the_input_boxes():
    # MindSpore 2.10 flips the boxes of a NumpySlicesDataset's source array in place (a bug)
    boxes = np.array([[1, 2, 10, 8]], np.float32)
    _, out = V.RandomHorizontalFlipWithBBox(1.0)(RGB, boxes)
    np.testing.assert_array_equal(out, [[19, 2, 10, 8]])
    np.testing.assert_array_equal(boxes, [[1, 2, 10, 8]])


@pytest.mark.parametrize("make, error, words", [
    (lambda: V.Pad(-1), ValueError,
     "Input padding is not within the required interval of [0, 2147483647]."),
    (lambda: V.Pad("a"), TypeError,
     "Argument padding with value a is not of type [<class 'tuple'>, <class 'list'>, "
     "<class 'numbers.Number'>], but got <class 'str'>."),
    (lambda: V.Pad(1.5), TypeError,
     "Argument padding with value 1.5 is not of type [<class 'int'>], but got <class 'float'>."),
    (lambda: V.Pad((1, "a")), TypeError,
     "Argument padding[1] with value a is not of type [<class 'int'>], but got <class 'str'>."),
    (lambda: V.Pad((1, 2, 3)), ValueError,
     "The size of the padding list or tuple should be 2 or 4."),
    (lambda: V.RandomCrop(10, padding=-1), ValueError,
     "Input padding is not within the required interval of [0, 2147483647]."),
    (lambda: V.Crop((-1, 0), 5), ValueError,
     "Input coordinates[0] is not within the required interval of [0, 2147483647]."),
    (lambda: V.Crop((1, 2, 3), 5), TypeError,
     "Coordinates should be a list/tuple (y, x) of length 2."),
    (lambda: V.Crop((1.5, 0), 5), TypeError,
     "Argument coordinates[0] with value 1.5 is not of type [<class 'int'>], but got "
     "<class 'float'>."),
    (lambda: V.Rotate("a"), TypeError,
     "Argument degrees with value a is not of type [<class 'float'>, <class 'int'>], but got "
     "<class 'str'>."),
    (lambda: V.Rotate(10, center=(1, 2, 3)), ValueError, "Value center needs to be a 2-tuple."),
    (lambda: V.Rotate(10, center=[1, 2]), ValueError, "Value center needs to be a 2-tuple."),
    (lambda: V.RandomRotation(-10), ValueError,
     "Input degrees is not within the required interval of [0, 16777216]."),
    (lambda: V.RandomRotation((1, 2, 3)), TypeError,
     "If degrees is a sequence, the length must be 2."),
    (lambda: V.RandomRotation("a"), TypeError,
     "Argument degrees with value a is not of type [<class 'int'>, <class 'float'>, "
     "<class 'list'>, <class 'tuple'>], but got <class 'str'>."),
    (lambda: V.CutOut(0), ValueError,
     "Input is not within the required interval of [1, 16777216]."),
    (lambda: V.CutOut(5, 0), ValueError,
     "Input is not within the required interval of [1, 16777216]."),
    (lambda: V.RandomErasing(value="abc"), ValueError,
     "The value for erasing should be either a single value, or a string 'random', or a "
     "sequence of 3 elements for RGB respectively."),
    (lambda: V.RandomErasing(value=(1, 2)), ValueError,
     "The value for erasing should be either a single value, or a string 'random', or a "
     "sequence of 3 elements for RGB respectively."),
    (lambda: V.RandomErasing(value=0.5), TypeError,
     "Argument value with value 0.5 is not of type [<class 'int'>, <class 'list'>, "
     "<class 'tuple'>, <class 'str'>], but got <class 'float'>."),
    (lambda: V.RandomErasing(max_attempts=0), ValueError,
     "Input is not within the required interval of [1, 16777216]."),
    (lambda: V.RandomErasing(scale=(-0.5, 0.1)), ValueError,
     "Input is not within the required interval of [0, 16777216]."),
    (lambda: V.RandomErasing(ratio=(0, 0.3)), ValueError,
     "Input is not within the required interval of (0, 16777216]."),
    (lambda: V.RandomErasing(scale=(0.5, 0.1, 1)), TypeError,
     "scale should be a list or tuple of length 2."),
    (lambda: V.RandomResizedCrop(10, ratio=(0, 0.5)), ValueError,
     "Input ratio[0] is not within the required interval of (0, 16777216]."),
    (lambda: V.RandomResizedCrop(10, scale=(-1, 0.5)), ValueError,
     "Input is not within the required interval of [0, 16777216]."),
    (lambda: V.RandomResizedCrop(10, scale=(0, 0)), ValueError,
     "Input scale[1] must be greater than 0."),
    (lambda: V.RandomResizedCrop(10, scale=(0, 0.5, 1)), TypeError,
     "scale should be a list/tuple of length 2."),
    (lambda: V.RandomResizedCrop(10, scale="ab"), TypeError,
     "Argument scale with value ab is not of type [<class 'tuple'>, <class 'list'>], but got "
     "<class 'str'>."),
    (lambda: V.RandomResizedCrop(10, scale=("a", 1)), TypeError,
     "Argument scale[0] with value a is not of type [<class 'float'>, <class 'int'>], but got "
     "<class 'str'>."),
])
def test_argument_errors_in_mindspores_words(make, error, words):
    with pytest.raises(error) as info:
        make()
    assert_words(info.value, words)


def test_random_affine_turns_as_affine():
    # measured in MindSpore 2.10: RandomAffine((d, d)) gives Affine(d, ...)'s pixels (clockwise)
    for degrees in (20, -35):
        out = V.RandomAffine((degrees, degrees))(RGB)
        np.testing.assert_array_equal(out, V.Affine(degrees, [0, 0], 1.0, 0)(RGB))
        assert not np.array_equal(out, V.Affine(-degrees, [0, 0], 1.0, 0)(RGB))


def test_warps_sample_area_bilinearly():
    # measured in MindSpore 2.10 (OpenCV's warpAffine takes INTER_AREA as bilinear)
    for make in (lambda inter: V.Rotate(33, inter), lambda inter: V.RandomRotation((33, 33), inter),
                 lambda inter: V.Affine(20, [0.1, 0.1], 1.1, 5, inter)):
        np.testing.assert_array_equal(make(Inter.AREA)(RGB), make(Inter.BILINEAR)(RGB))


def test_warps_take_more_than_four_channels():
    # measured in MindSpore 2.10: a (H, W, 7) image rotates channel by channel
    many = np.concatenate([RGB, RGB[:, :, ::-1], RGB[:, :, :1]], axis=2)
    for op in (V.Rotate(33), V.Rotate(33, Inter.BILINEAR, expand=True), V.Affine(20, [0.1, 0.1],
                                                                              1.1, 5)):
        out = op(many)
        assert out.shape[2] == 7
        np.testing.assert_array_equal(out[:, :, :3], op(RGB))
        np.testing.assert_array_equal(out[:, :, 3:6], op(RGB[:, :, ::-1]))


def test_random_erasing_refuses_a_pil_image():
    # measured in MindSpore 2.10: TypeError (a PIL image is HWC, the op erases CHW arrays)
    with pytest.raises(TypeError,
                       match="img should be NumPy array. Got <class 'PIL.Image.Image'>"):
        V.RandomErasing(prob=1.0)(Image.fromarray(RGB))
    assert V.RandomErasing(prob=1.0)(RGB.transpose(2, 0, 1).copy()).shape == (3, 20, 30)


@pytest.mark.parametrize("make, words", [
    (lambda: V.Crop((15, 3), 10)(RGB), "Crop: Crop height dimension: 25 exceeds image height: 20"),
    (lambda: V.Crop((0, 25), 10)(RGB), "Crop: Crop width dimension: 35 exceeds image width: 30"),
    (lambda: V.RandomCrop(25)(RGB), "RandomCrop: invalid crop size, crop size is bigger than the "
                                    "image dimensions, got crop height: 25, crop width: 25"),
    (lambda: V.CutOut(25)(RGB), "CutOut: box size is too large for image erase"),
    (lambda: V.RandomCropWithBBox(25)(RGB, np.zeros((1, 4), np.float32)),
     "invalid crop size, crop size is bigger than the image dimensions"),
])
def test_runtime_errors_in_mindspores_words(make, words):
    with pytest.raises(RuntimeError) as info:
        make()
    assert words in str(info.value)


@pytest.mark.parametrize("op", [V.Resize(5), V.Rotate(30), V.HorizontalFlip(),
                                V.RandomHorizontalFlip(1.0)])
def test_a_1d_input_asks_for_decode(op):
    # measured in MindSpore 2.10 (Resize, Rotate and the flips; the others say it otherwise)
    with pytest.raises(RuntimeError) as info:
        op(np.zeros(5, np.uint8))
    assert "should have at least two dimensions. You may need to perform Decode first." \
        in str(info.value)


def test_random_crop_decode_resize_eager_input_errors():
    # measured in MindSpore 2.10: an eager call checks for 1-D uint8 encoded bytes first
    with pytest.raises(TypeError) as info:
        V.RandomCropDecodeResize(10)(RGB)
    assert ("Input should be an encoded image with uint8 type in 1-D NumPy format, got "
            "format:<class 'numpy.ndarray'>, dtype:<class 'numpy.uint8'>.") in str(info.value)
    with pytest.raises(TypeError, match="dtype:<class 'numpy.float32'>"):
        V.RandomCropDecodeResize(10)(np.zeros(8, np.float32))


@pytest.mark.parametrize("op", [V.Pad(2), V.Pad(2, padding_mode=V.Border.EDGE),
                                V.Pad(2, padding_mode=V.Border.SYMMETRIC), V.CenterCrop(25),
                                V.Rotate(90, expand=True), V.Rotate(30),
                                V.Affine(10, [0, 0], 1, 0)])
def test_64_bit_images_keep_their_dtype_and_values(op):
    # OpenCV turns int64 images into int32 (MindSpore 2.10 refuses them); here they are exact
    big = RGB.astype(np.int64) * 100000000007
    out = op(big)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, op(RGB).astype(np.int64) * 100000000007)


@pytest.mark.parametrize("op", [V.Resize, V.ResizeWithBBox])
def test_resize_interpolation_none_is_a_key_error(op):
    # measured in MindSpore 2.10
    with pytest.raises(KeyError, match="Interpolation should not be None"):
        op((500, 500), None)
    with pytest.raises(TypeError, match="interpolation"):
        op(400, interpolation="invalid")


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(degrees=-15), ValueError,
     "Input degrees is not within the required interval of [0, 16777216]."),
    (dict(degrees=(1, 2, 3)), TypeError, "If degrees is a sequence, the length must be 2."),
    (dict(degrees=15, translate=(0.1, 1.5)), ValueError,
     "Input translate at 1 is not within the required interval of [-1.0, 1.0]."),
    (dict(degrees=15, translate=(0.1,)), TypeError,
     "translate should be a list or tuple of length 2 or 4."),
    (dict(degrees=15, scale=(-2.0, 10.0)), ValueError,
     "Input is not within the required interval of [0, 16777216]."),
    (dict(degrees=15, scale=(10.0, 1.0)), ValueError,
     "Input scale[1] must be equal to or greater than scale[0]."),
    (dict(degrees=15, scale=(0.0, 0.0)), ValueError, "Input scale[1] must be greater than 0."),
    (dict(degrees=15, scale=(0.5,)), TypeError, "scale should be a list or tuple of length 2."),
    (dict(degrees=15, shear=-5), ValueError, "Input shear must be greater than 0."),
    (dict(degrees=15, shear=(10, 5)), ValueError,
     "Input shear[1] must be equal to or greater than shear[0]"),
    (dict(degrees=15, shear=(0, 1, 10, 5)), ValueError,
     "Input shear[1] must be equal to or greater than shear[0] and shear[3] must be equal to "
     "or greater than shear[2]."),
    (dict(degrees=15, shear=(1, 2, 3)), TypeError, "shear must be of length 2 or 4."),
    (dict(degrees=15, shear="a"), TypeError,
     "Argument shear with value a is not of type [<class 'numbers.Number'>, <class 'tuple'>, "
     "<class 'list'>], but got <class 'str'>."),
])
def test_random_affine_argument_errors(kwargs, error, words):
    # measured in MindSpore 2.10
    with pytest.raises(error) as info:
        V.RandomAffine(**kwargs)
    assert_words(info.value, words)
    assert V.RandomAffine(15, scale=(0, 1)).scale == (0.0, 1.0)


def test_random_crop_on_pil_refuses_a_larger_window_with_a_value_error():
    # measured in MindSpore 2.10 (its Python path's words)
    with pytest.raises(ValueError, match=r"Crop size \(25, 40\) is larger than input image size "
                                         r"\(20, 30\)."):
        V.RandomCrop((25, 40))(Image.fromarray(RGB))


def test_decode_eager_input_errors():
    # measured in MindSpore 2.10: an eager Decode checks its input in Python first
    with pytest.raises(TypeError) as info:
        V.Decode()(RGB)
    assert "The number of array dimensions of the encoded image should be 1, but got 3." \
        in str(info.value)
    with pytest.raises(TypeError) as info:
        V.Decode()([1, 2, 3])
    assert ("The type of the encoded image should be <class 'numpy.ndarray'>, but got "
            "<class 'list'>.") in str(info.value)
    with pytest.raises(TypeError, match="The type of the encoded image should be"):
        V.Decode()(Image.fromarray(RGB))


@pytest.mark.parametrize("data, words", [
    (np.arange(100, dtype=np.uint8), "Decode: image decode failed."),
    (np.array([0xFF, 0xD8, 0xFF, 0xE0, 1, 2], np.uint8), "Decode: image decode failed."),
    (np.array([], np.uint8), "Input Tensor has no data"),
])
def test_decode_failures_in_mindspores_words(data, words):
    with pytest.raises(RuntimeError) as info:
        V.Decode()(data)
    assert words in str(info.value)


def test_random_crop_refuses_a_padding_of_three_image_sizes():
    # measured in MindSpore 2.10: a side padded by 3x the image's extent or more is refused
    boxes = np.array([[1, 2, 3, 4]], np.float32)
    for padding in ([90, 0, 0, 0], [0, 60, 0, 0], [0, 0, 0, 60]):
        for run in (lambda: V.RandomCrop(10, padding=padding)(RGB),
                    lambda: V.RandomCropWithBBox(10, padding=padding)(RGB, boxes)):
            with pytest.raises(RuntimeError, match="RandomCrop: padding size is three times "
                                                   "bigger than the image size"):
                run()
    assert V.RandomCrop(10, padding=[89, 59, 89, 59])(RGB).shape == (10, 10, 3)
    assert V.RandomCrop(200, pad_if_needed=True)(RGB).shape == (200, 200, 3)


def test_resize_refuses_more_than_1000_times_a_side():
    # measured in MindSpore 2.10 (which also bounds the memory a resize takes)
    words = ("Resize: the resizing width or height is too big, it's 1000 times bigger than the "
             "original image")
    for op in (V.Resize((20001, 30)), V.Resize((20, 30001)), V.RandomResize(16777216)):
        with pytest.raises(RuntimeError) as info:
            op(RGB)
        assert words in str(info.value)
    assert V.Resize((20000, 30))(RGB).shape == (20000, 30, 3)


def test_random_resize_names_resize_for_a_1d_input():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="Resize: the image tensor should have at least two "
                                           "dimensions. You may need to perform Decode first."):
        V.RandomResize(500)(np.zeros(300))


@pytest.mark.parametrize("op", [V.RandomCrop(5), V.RandomResizedCrop(5), V.RandomResize((7, 9)),
                                V.RandomHorizontalFlip(), V.RandomVerticalFlip()], ids=repr)
def test_random_ops_take_several_columns_with_the_same_draws(op):
    # measured in MindSpore 2.10: an image and its mask get the same window or flip
    gray = np.ascontiguousarray(RGB[:, :, 1])
    for seed in range(6):
        out_rgb, out_gray = op.apply((RGB, gray), seed)
        np.testing.assert_array_equal(out_rgb[:, :, 1], out_gray)
    outs = op(Image.fromarray(RGB), RGB)
    assert all(isinstance(out, np.ndarray) for out in outs)    # several inputs: arrays


def test_several_columns_of_other_sizes():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="RandomCrop: Input images in different column must "
                                           "have the same shape"):
        V.RandomCrop(5)(RGB, RGB[:10])
    with pytest.raises(RuntimeError, match="RandomCropAndResizeOp: Input tensor in different "
                                           "columns of each row must have the same size."):
        V.RandomResizedCrop(5)(RGB, RGB[:10])
    assert [out.shape for out in V.RandomResize((7, 9))(RGB, RGB[:10])] == [(7, 9, 3)] * 2
    with pytest.raises(RuntimeError, match="OneToOne"):
        V.Resize(5)(RGB, RGB)


def test_antialias_is_pillows_only():
    # measured in MindSpore 2.10: Inter.ANTIALIAS runs on a PIL image only
    pil_words = ("img should be PIL image. Got <class 'numpy.ndarray'>. Use Decode() for encoded "
                 "data or ToPIL() for decoded data.")
    for op in (V.Resize((10, 15), Inter.ANTIALIAS),
               V.RandomResizedCrop(10, interpolation=Inter.ANTIALIAS),
               V.RandomRotation(10, Inter.ANTIALIAS)):
        with pytest.raises(TypeError) as info:
            op(RGB)
        assert str(info.value) == pil_words
    with pytest.raises(ValueError, match="Input image should be a Pillow image."):
        V.RandomAffine(10, resample=Inter.ANTIALIAS)(RGB)
    kernel_words = ("Unsupported interpolation, only support NEAREST, LINEAR, CUBIC, AREA and "
                    "PILCUBIC.")
    boxes = np.array([[1, 2, 3, 4]], np.float32)
    for run in (lambda: V.Rotate(10, Inter.ANTIALIAS)(RGB),
                lambda: V.Affine(10, [0, 0], 1, 0, Inter.ANTIALIAS)(RGB),
                lambda: V.ResizeWithBBox(10, Inter.ANTIALIAS)(RGB, boxes),
                lambda: V.RandomResizedCropWithBBox(10, interpolation=Inter.ANTIALIAS)(RGB, boxes)):
        with pytest.raises(RuntimeError) as info:
            run()
        assert kernel_words in str(info.value)
    out = V.Resize((10, 15), Inter.ANTIALIAS)(Image.fromarray(RGB))
    assert isinstance(out, Image.Image) and out.size == (15, 10)


def test_center_crop_refuses_a_padding_of_three_image_sizes():
    # measured in MindSpore 2.10 (which also bounds the memory a padding takes)
    for size in ((80, 30), (20, 120), 16777216):
        with pytest.raises(RuntimeError, match="CenterCrop: Padding size cannot be more than 3 "
                                               "times of the original image size"):
            V.CenterCrop(size)(RGB)
    assert V.CenterCrop((79, 119))(RGB).shape == (79, 119, 3)


def test_eager_runtime_errors_carry_mindspores_pipeline_block():
    # measured in MindSpore 2.10: an eager call of a C++ op raises its pipeline's error text
    with pytest.raises(RuntimeError, match="Exception thrown from dataset pipeline. Refer to "
                                           "'Dataset Pipeline Error Message'.") as info:
        V.CenterCrop(16777216)(RGB)
    assert "[ERROR] CenterCrop: Padding size cannot be more than 3 times" in str(info.value)


@pytest.mark.parametrize("op", [V.Decode(), V.RandomCropDecodeResize(5)], ids=repr)
def test_decoders_called_without_an_image(op):
    # measured in MindSpore 2.10: Python's own error for its __call__(self, img)
    with pytest.raises(TypeError) as info:
        op()
    assert str(info.value) == (f"{type(op).__name__}.__call__() missing 1 required positional "
                               f"argument: 'img'")


@pytest.mark.parametrize("op, image, words", [
    (V.RandomCrop(5), np.zeros(5, np.uint8),
     "RandomCropOp: input tensor should have at least 2 dimensions, but got: 1"),
    (V.CenterCrop(2), np.zeros(5, np.uint8),
     "CenterCrop: Input tensor should have at least 2 dimensions, but got: 1"),
    (V.RandomResizedCrop(2), np.zeros(5, np.uint8),
     "RandomResizedCrop: input tensor should have at least 2 dimensions, but got: 1"),
    (V.Pad(2), np.zeros(5, np.uint8),
     "Pad: the dimension of image tensor does not match the requirement of operator. Expecting "
     "tensor in dimension of (2, 3), in shape of <H, W> or <H, W, C>. But got dimension 1. You "
     "may need to perform Decode first."),
    (V.CutOut(2), np.zeros((2, 4, 5, 3), np.uint8),
     "CutOut: image shape is not <H,W,C>, but got rank: 4"),
    (V.HorizontalFlip(), np.array([["a", "b"], ["c", "d"]]),
     "HorizontalFlip: the data type of image tensor does not match the requirement of "
     "operator."),
])
def test_rank_and_dtype_words_of_each_op(op, image, words):
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError) as info:
        op(image)
    assert words in str(info.value)


def test_random_crop_checks_each_columns_rank_first():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="RandomCropOp: input tensor should have at least 2 "
                                           "dimensions, but got: 0"):
        V.RandomCrop(5)(np.array(10), RGB)


def test_fill_value_elements_are_named():
    # measured in MindSpore 2.10
    with pytest.raises(ValueError, match=r"Input fill_value\[0\] is not within the required "
                                         r"interval of \[0, 255\]."):
        V.RandomCrop(5, fill_value=(256, 88, 132))


def test_padding_takes_one_or_three_channels():
    # measured in MindSpore 2.10 (its test_pad checks it); a PIL image is padded with Pillow
    rgba = np.dstack([RGB, RGB[:, :, :1]])
    words = ("Pad: the channel of image tensor does not match the requirement of operator. "
             "Expecting tensor in channel of (1, 3). But got channel 4.")
    for run in (lambda: V.Pad(2)(rgba), lambda: V.CenterCrop(25)(rgba),
                lambda: V.RandomCrop(22, padding=1)(rgba)):
        with pytest.raises(RuntimeError) as info:
            run()
        assert words in str(info.value)
    assert V.Pad(2)(Image.fromarray(rgba)).size == (34, 24)
    assert V.CenterCrop(10)(rgba).shape == (10, 10, 4)


def test_random_rotation_words():
    # measured in MindSpore 2.10 (its test_random_rotation checks them)
    with pytest.raises(RuntimeError, match=r"Rotate: input tensor is not in shape of <H,W> or "
                                           r"<H,W,C>, but got rank: 1. You may need to perform "
                                           r"Decode first."):
        V.RandomRotation(250, fill_value=12)(np.zeros(40, np.int32))
    with pytest.raises(ValueError, match="When using Inter.ANTIALIAS, center needs to be None and "
                                         "angle needs to be an integer multiple of 90."):
        V.RandomRotation(180, Inter.ANTIALIAS, True, (50.5, 61.2))(Image.fromarray(RGB))
    with pytest.raises(RuntimeError, match="interpolation can not be CUBIC when image channel is "
                                           "greater than 4."):
        V.RandomRotation(180, Inter.BICUBIC, True)(np.zeros((2, 3, 6)))
    assert V.RandomRotation((90, 90), Inter.ANTIALIAS, True)(Image.fromarray(RGB)).size == (20, 30)


def test_crop_rank_words():
    # measured in MindSpore 2.10 (its test_crop checks them)
    with pytest.raises(RuntimeError, match=r"input tensor is not in shape of <H,W> or <H,W,C>, but "
                                           r"got rank: 1. You may need to perform Decode first."):
        V.Crop((10, 10), 380)(np.zeros(658, np.uint8))
    with pytest.raises(RuntimeError, match=r"input tensor is not in shape of <H,W> or <H,W,C>, but "
                                           r"got rank: 4"):
        V.Crop((1, 1), 380)(np.zeros((6, 7, 3, 3), np.uint8))
    wide = np.random.RandomState(0).randint(0, 255, (30, 40, 10)).astype(np.uint8)
    np.testing.assert_array_equal(V.Crop((2, 3), 5)(wide), wide[2:7, 3:8])


def test_random_resized_crop_refuses_more_than_1000_times_the_window():
    # measured in MindSpore 2.10 (its test_random_resized_crop_with_bbox checks the words)
    words = ("CropAndResize: the resizing width or height 1) is too big, it's up to 1000 times the "
             "original image")
    for run in (lambda: V.RandomResizedCrop((20001, 30), scale=(1, 1), ratio=(1.5, 1.5))(RGB),
                lambda: V.RandomResizedCropWithBBox(16777216)(RGB, np.array([[1, 2, 3, 4]],
                                                                            np.float32))):
        with pytest.raises(RuntimeError) as info:
            run()
        assert words in str(info.value)
    assert V.RandomResizedCrop((20000, 30), scale=(1, 1), ratio=(1.5, 1.5))(RGB).shape == \
        (20000, 30, 3)
