"""Crop, CenterCrop, Pad and RandomCrop."""
import cv2
import numpy as np
import pytest

import minddata
from transforms_c._rng import reset_eager_stream
from transforms_c.vision import Border, CenterCrop, Crop, HorizontalFlip, Pad, RandomCrop

from tests.transforms_c.tc_samples import natural_rgb


def test_crop_window():
    img = natural_rgb()
    assert np.array_equal(Crop((5, 7), (20, 30))(img), img[5:25, 7:37])


def test_crop_outside_raises():
    with pytest.raises(RuntimeError, match="exceeds"):
        Crop((110, 0), 20)(natural_rgb())


def test_crop_arguments():
    with pytest.raises(TypeError):
        Crop(5, 10)
    with pytest.raises(TypeError):      # MindSpore: coordinates of another length
        Crop((1, 2, 3), 10)
    with pytest.raises(ValueError):
        Crop((-1, 2), 10)


def test_center_crop_centre():
    img = natural_rgb(123, 157)
    out = CenterCrop((50, 60))(img)
    assert np.array_equal(out, img[36:86, 48:108])


def test_center_crop_larger_pads_with_zeros():
    img = natural_rgb(20, 30)
    out = CenterCrop((24, 30))(img)
    assert out.shape == (24, 30, 3)
    assert np.array_equal(out[2:22], img) and not out[:2].any() and not out[22:].any()


def test_center_crop_gray():
    gray = natural_rgb()[..., 0].copy()
    assert CenterCrop(10)(gray).shape == (10, 10)


@pytest.mark.parametrize("mode,cv", [(Border.CONSTANT, cv2.BORDER_CONSTANT),
                                      (Border.EDGE, cv2.BORDER_REPLICATE),
                                      (Border.REFLECT, cv2.BORDER_REFLECT_101),
                                      (Border.SYMMETRIC, cv2.BORDER_REFLECT)])
def test_pad_modes_match_opencv(mode, cv):
    img = natural_rgb(30, 40)
    out = Pad((1, 2, 3, 4), fill_value=(10, 20, 30), padding_mode=mode)(img)
    ref = cv2.copyMakeBorder(img, 2, 4, 1, 3, cv, value=(10, 20, 30))
    assert np.array_equal(out, ref)


def test_pad_two_values_is_lr_tb():
    out = Pad((2, 5))(natural_rgb(30, 40))
    assert out.shape == (40, 44, 3)


def test_pad_arguments():
    with pytest.raises(ValueError):
        Pad((1, 2, 3))
    with pytest.raises(ValueError):
        Pad(-1)
    with pytest.raises(ValueError):
        Pad(1, fill_value=300)
    with pytest.raises(TypeError):
        Pad(1, padding_mode="edge")


def test_random_crop_is_window_of_input():
    img = natural_rgb(40, 50)
    for seed in range(30):
        out = RandomCrop((10, 20)).apply((img,), seed)[0]
        found = any(np.array_equal(out, img[y:y + 10, x:x + 20])
                    for y in range(31) for x in range(31))
        assert found


def test_random_crop_positions_cover_range():
    img = np.arange(20, dtype=np.uint8)[None, :, None].repeat(3, 0)
    starts = {int(RandomCrop((3, 5)).apply((img,), s)[0][0, 0, 0]) for s in range(300)}
    assert starts == set(range(16))


def test_random_crop_seeded_repeat():
    img = natural_rgb()
    op = RandomCrop(32, padding=4)
    assert np.array_equal(op.apply((img,), 99)[0], op.apply((img,), 99)[0])
    reset_eager_stream(5)
    a = op(img)
    reset_eager_stream(5)
    assert np.array_equal(a, op(img))


def test_random_crop_pad_if_needed():
    out = RandomCrop((40, 40), pad_if_needed=True)(natural_rgb(30, 35))
    assert out.shape == (40, 40, 3)


def test_random_crop_too_large_raises():
    with pytest.raises(RuntimeError, match="crop size is bigger than the image dimensions"):
        RandomCrop(200)(natural_rgb(30, 35))


# measured in MindSpore 2.10: RandomCrop pads before it crops (by nothing too), so an image or a
# batch of 2 or 4 channels is refused with Pad's words even without padding ((8, 9, 4) and
# (2, 8, 9, 4) cropped to (3, 4)); 1 and 3 channels are cropped
def test_random_crop_refuses_other_than_one_or_three_channels():
    for shape in [(8, 9, 4), (2, 8, 9, 4), (8, 9, 2)]:
        with pytest.raises(RuntimeError, match="Expecting tensor in channel of \\(1, 3\\)"):
            RandomCrop((3, 4))(np.zeros(shape, np.uint8))
    assert RandomCrop((3, 4))(np.zeros((8, 9, 1), np.uint8)).shape == (3, 4, 1)
    assert RandomCrop((3, 4))(np.zeros((2, 8, 9, 3), np.uint8)).shape == (2, 3, 4, 3)
    # fused with the next op in a map too
    data = minddata.NumpySlicesDataset({"image": np.zeros((2, 8, 9, 4), np.uint8)},
                                       shuffle=False)
    data = data.map([RandomCrop((3, 4)), HorizontalFlip()], input_columns="image")
    with pytest.raises(Exception, match="channel of \\(1, 3\\)"):
        list(data.create_dict_iterator(output_numpy=True))
