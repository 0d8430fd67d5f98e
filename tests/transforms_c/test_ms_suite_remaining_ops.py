"""Behaviours of PadEnd, Unique, RandomOrder, RandAugment, RandomCropDecodeResize and the vision
image-info helpers that MindSpore's own dataset tests check, each as measured in MindSpore 2.10
(values, dtypes, error types and the words of its messages)."""
import numpy as np
import pytest

import transforms_c.transforms as T


def test_pad_end_pads_strings_with_the_whole_value():
    # measured in MindSpore 2.10: the result is as wide as the pad value (|S1 input, b"-1" pad
    # -> |S2 b"-1"); it was cut to b"-" before
    out = T.PadEnd([3], b"-1")(np.array([b"1", b"2"]))
    assert out.tolist() == [b"1", b"2", b"-1"]
    out = T.PadEnd([4], "long")(np.array(["a", "bb"]))
    assert out.tolist() == ["a", "bb", "long", "long"]
    assert T.PadEnd([5])(np.array([b"1", b"2", b"3"])).tolist() == [b"1", b"2", b"3", b"", b""]


def test_pad_end_casts_the_value_as_a_c_cast():
    # measured in MindSpore 2.10: 300 -> 44 and -1 -> 255 in uint8, 2.7 -> 2 in int32
    assert T.PadEnd([3], 300)(np.array([1, 2], np.uint8)).tolist() == [1, 2, 44]
    assert T.PadEnd([3], -1)(np.array([1, 2], np.uint8)).tolist() == [1, 2, 255]
    out = T.PadEnd([3], 2.7)(np.array([1, 2], np.int32))
    assert out.dtype == np.int32 and out.tolist() == [1, 2, 2]


def test_pad_end_shape_errors_in_mindspores_words():
    # measured in MindSpore 2.10
    with pytest.raises(TypeError, match="a value in the list is not an integer."):
        T.PadEnd(["2"], 1)
    with pytest.raises(TypeError, match="a value in the list is not an integer."):
        T.PadEnd([2.0], 1)
    with pytest.raises(TypeError, match=r"Argument pad_shape with value 3 is not of type "
                                        r"\[<class 'list'>\]"):
        T.PadEnd(3, -1)
    with pytest.raises(ValueError, match="not within the required interval of"):
        T.PadEnd([0], -1)


def test_unique_flattens_a_batch():
    # measured in MindSpore 2.10: a (1, 6) batch -> the unique values of its elements, int32
    # indices and counts
    values, index, counts = T.Unique()(np.array([[0, 1, 2, 1, 2, 3]]))
    assert values.tolist() == [0, 1, 2, 3] and values.dtype == np.int64
    assert index.tolist() == [0, 1, 2, 1, 2, 3] and index.dtype == np.int32
    assert counts.tolist() == [1, 2, 2, 1] and counts.dtype == np.int32
    values, index, counts = T.Unique()(np.array([[3, 1], [3, 2]], np.uint8))
    assert values.dtype == np.uint8 and values.tolist() == [3, 1, 2]
    assert index.tolist() == [0, 1, 0, 2] and counts.tolist() == [2, 1, 1]


def test_unique_keeps_nans_apart():
    # measured in MindSpore 2.10: [[nan, 1], [nan, 1]] -> [nan, 1, nan]
    values, index, counts = T.Unique()(np.array([[np.nan, 1.0], [np.nan, 1.0]]))
    assert np.isnan(values[0]) and values[1] == 1.0 and np.isnan(values[2])
    assert index.tolist() == [0, 1, 2, 1] and counts.tolist() == [1, 2, 1]


def _columns_image(height, width, step=1):
    """An RGB image whose column x holds step * x in every pixel (a window's left edge reads
    off)."""
    row = (np.arange(width) * step).astype(np.uint8)
    return np.repeat(np.repeat(row[None, :, None], height, 0), 3, 2)


def _encoded(image, **save_args):
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(image).save(buf, **save_args)
    return np.frombuffer(buf.getvalue(), np.uint8)


def _png(image):
    return _encoded(image, format="PNG")


def test_random_resized_crop_fallback_window_is_centred_rounding_half_up():
    # measured in MindSpore 2.10: scale (1, 1) and ratio (0.5, 0.5) never fit a 90x70 image, so
    # the window is the centred 90x45 one, starting at column round(12.5) = 13 (12 before)
    from transforms_c.vision import Inter, RandomCropDecodeResize, RandomResizedCrop
    image = _columns_image(90, 70)
    out = RandomResizedCrop((90, 45), (1, 1), (0.5, 0.5), Inter.NEAREST)(image)
    assert out[0, :, 0].tolist() == list(range(13, 58))
    out = RandomCropDecodeResize((90, 45), (1, 1), (0.5, 0.5), Inter.NEAREST)(_png(image))
    assert out[0, :, 0].tolist() == list(range(13, 58))


def test_random_crop_decode_resize_in_a_pipeline_equals_decode_then_random_resized_crop():
    # MindSpore's suite checks the two give the same image (mse 0); the native fused step (a
    # JPEG) computes the same window as the Python op: centred at column 13 (value 39)
    from minddata import NumpySlicesDataset
    from transforms_c.vision import Decode, Inter, RandomCropDecodeResize, RandomResizedCrop
    encoded = _encoded(_columns_image(90, 70, step=3), format="JPEG", quality=100)
    fused = NumpySlicesDataset({"image": [encoded]}, shuffle=False).map(
        operations=RandomCropDecodeResize((256, 512), (1, 1), (0.5, 0.5), Inter.NEAREST),
        input_columns=["image"])
    plain = NumpySlicesDataset({"image": [encoded]}, shuffle=False).map(
        operations=[Decode(), RandomResizedCrop((256, 512), (1, 1), (0.5, 0.5), Inter.NEAREST)],
        input_columns=["image"])
    (a,), (b,) = ([row[0] for row in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
                  for d in (fused, plain))
    assert np.array_equal(a, b)
    assert abs(int(a[0, 0, 0]) - 39) <= 1


def test_rand_augment_argument_ranges_in_mindspores_words():
    # measured in MindSpore 2.10: counts bounded by 16777216, magnitude half-open below the
    # number of bins
    from transforms_c.vision import RandAugment
    with pytest.raises(ValueError, match=r"Input num_ops is not within the required interval "
                                         r"of \[0, 16777216\]\."):
        RandAugment(num_ops=-1)
    with pytest.raises(ValueError, match=r"Input num_ops is not within the required interval"):
        RandAugment(num_ops=16777217)
    with pytest.raises(ValueError, match=r"Input magnitude is not within the required interval "
                                         r"of \[0, 31\)\."):
        RandAugment(magnitude=-1)
    with pytest.raises(ValueError, match=r"Input num_magnitude_bins is not within the required "
                                         r"interval of \[2, 16777216\]\."):
        RandAugment(magnitude=0, num_magnitude_bins=1)
    with pytest.raises(ValueError, match=r"Input magnitude is not within the required interval "
                                         r"of \[0, 3\)\."):
        RandAugment(3, 4, 3)
    with pytest.raises(ValueError, match=r"\[0, 3\)\."):
        RandAugment(3, 3, 3)
    assert RandAugment(3, 2, 3).magnitude == 2


@pytest.mark.parametrize("value", [[1, 2, 3], "abc", 3])
def test_random_crop_decode_resize_eager_refuses_what_is_not_an_array(value):
    # measured in MindSpore 2.10: TypeError "Input should be an encoded image in 1-D NumPy
    # format, got <class 'list'>."
    from transforms_c.vision import RandomCropDecodeResize
    with pytest.raises(TypeError, match=rf"Input should be an encoded image in 1-D NumPy "
                                        rf"format, got {type(value)}\."):
        RandomCropDecodeResize(20)(value)


def test_random_crop_decode_resize_eager_refuses_a_pil_image():
    # measured in MindSpore 2.10 (the same words)
    from PIL import Image
    from transforms_c.vision import RandomCropDecodeResize
    with pytest.raises(TypeError, match="Input should be an encoded image in 1-D NumPy format, "
                                        "got <class 'PIL.Image.Image'>."):
        RandomCropDecodeResize(20)(Image.new("RGB", (4, 4)))


def _rand_augment_op(img, name, sign=1, magnitude=30, bins=31):
    """One RandAugment op at a bin, as RandAugment applies it (the op drawn is random)."""
    from transforms_c.vision import RandAugment
    op = RandAugment(num_ops=1, magnitude=magnitude, num_magnitude_bins=bins)
    return op._apply_op(img, name, sign * op._level(name, img.shape[1], img.shape[0]))


def test_rand_augment_colour_factors_are_float32():
    # measured in MindSpore 2.10: Brightness at the last bin, signed down, is 1 + (-0.9f) =
    # 0.100000024, so a level-5 image becomes 1 (AdjustBrightness(0.1) gives 0)
    img = np.full((4, 4, 3), 5, np.uint8)
    assert _rand_augment_op(img, "Brightness", -1).tolist() == np.ones_like(img).tolist()
    assert _rand_augment_op(img, "Brightness", 1).tolist() == np.full_like(img, 10).tolist()


def test_rand_augment_shear_turns_by_the_magnitude_in_radians():
    # measured in MindSpore 2.10: ShearX at 0.3 is Affine's shear of 0.3 rad (17.19 degrees),
    # pixel for pixel (not atan(0.3) as torchvision)
    import math
    from transforms_c.vision import Affine
    rng = np.random.RandomState(0)
    img = rng.randint(0, 256, (30, 40, 3)).astype(np.uint8)
    want = Affine(degrees=0.0, translate=[0, 0], scale=1.0,
                  shear=[float(np.float32(0.3 * 180 / math.pi)), 0.0])(img)
    assert np.array_equal(_rand_augment_op(img, "ShearX"), want)
    want = Affine(degrees=0.0, translate=[0, 0], scale=1.0,
                  shear=[0.0, -float(np.float32(0.3 * 180 / math.pi))])(img)
    assert np.array_equal(_rand_augment_op(img, "ShearY", -1), want)


def test_rand_augment_bins():
    # MindSpore 2.10's magnitudes: posterize 8 bits down to 4, solarize 255 down to 0,
    # translate up to 150/331 of the size
    img = np.zeros((60, 80, 3), np.uint8)
    from transforms_c.vision import RandAugment
    op = RandAugment(magnitude=30)
    assert op._level("Posterize", 80, 60) == 4 and float(op._level("Solarize", 80, 60)) == 0.0
    assert int(op._level("TranslateX", 80, 60)) == 36
    assert RandAugment(magnitude=0)._level("Posterize", 80, 60) == 8
    assert _rand_augment_op(img, "Identity").shape == img.shape


def test_to_numpy_takes_anything_numpy_takes():
    # measured in MindSpore 2.10: ToNumpy is np.array of its input ([1, 2] -> int64 array, 3 ->
    # a 0-d array, "abc" -> a 0-d str array), not only images
    from transforms_c.vision import ToNumpy
    out = ToNumpy()([1, 2])
    assert isinstance(out, np.ndarray) and out.tolist() == [1, 2] and out.dtype == np.int64
    assert ToNumpy()(3).shape == () and ToNumpy()("abc").item() == "abc"
