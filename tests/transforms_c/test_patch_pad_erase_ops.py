"""SlicePatches, PadToSize, Erase and ResizedCrop. Expected pixels and error words were measured
under MindSpore 2.10."""
import numpy as np
import pytest
from PIL import Image

import minddata as ds
import minddata.vision.utils as vision_utils
from transforms_c.vision import (Border, Erase, Inter, PadToSize, ResizedCrop, SliceMode,
                                 SlicePatches)

IMG = ((np.arange(8 * 9 * 3).reshape(8, 9, 3) * 37) % 256).astype(np.uint8)
GRAY = IMG[:, :, 0]


def test_slice_mode_enum():
    assert vision_utils.SliceMode is SliceMode
    assert (SliceMode.PAD.value, SliceMode.DROP.value) == (0, 1)


def test_slice_patches_pad_matches_mindspore():
    patches = SlicePatches(3, 2, SliceMode.PAD, 9)(GRAY)
    assert len(patches) == 6 and all(p.shape == (3, 5) for p in patches)
    # measured under MindSpore 2.10: patches 1 and 5 (padded right, and right and bottom)
    np.testing.assert_array_equal(patches[1], [[43, 154, 9, 120, 9], [18, 129, 240, 95, 9],
                                               [249, 104, 215, 70, 9]])
    np.testing.assert_array_equal(patches[5], [[149, 4, 115, 226, 9], [124, 235, 90, 201, 9],
                                               [9, 9, 9, 9, 9]])


def test_slice_patches_drop_and_single():
    patches = SlicePatches(3, 2, SliceMode.DROP)(IMG)
    assert [p.shape for p in patches] == [(2, 4, 3)] * 6
    np.testing.assert_array_equal(patches[3], IMG[2:4, 4:8])
    np.testing.assert_array_equal(SlicePatches()(IMG), IMG)       # one output: the array
    assert SlicePatches(2, 2)(IMG > 100)[0].dtype == np.uint8     # as MindSpore
    assert Erase(0, 0, 2, 2, value=(0, 1, 2))(IMG > 100)[0, 0].tolist() == [False, True, True]
    assert len(SlicePatches(2, 2)(Image.fromarray(IMG))) == 4


def test_slice_patches_errors():
    with pytest.raises(RuntimeError, match="number of patches on height axis"):
        SlicePatches(9, 1)(IMG)
    with pytest.raises(RuntimeError, match="number of patches on width axis"):
        SlicePatches(1, 10, SliceMode.DROP)(IMG)
    with pytest.raises(RuntimeError, match="Rank of input data should be greater than 2"):
        SlicePatches(1, 2)(GRAY[0])
    with pytest.raises(ValueError, match="num_height is not within"):
        SlicePatches(0, 1)
    with pytest.raises(TypeError, match="slice_mode"):
        SlicePatches(1, 1, 1)
    with pytest.raises(TypeError, match="fill_value"):
        SlicePatches(1, 1, SliceMode.PAD, 1.0)
    with pytest.raises(ValueError, match="fill_value is not within"):
        SlicePatches(1, 1, SliceMode.PAD, 256)


def test_slice_patches_in_a_map_names_its_columns():
    data = ds.NumpySlicesDataset({"image": np.stack([IMG, IMG])}, shuffle=False)
    names = [f"patch{i}" for i in range(4)]
    data = data.map(SlicePatches(2, 2), input_columns=["image"], output_columns=names)
    row = next(data.create_dict_iterator(output_numpy=True))
    assert sorted(row) == names
    np.testing.assert_array_equal(row["patch3"][:, :4], IMG[4:8, 5:9])
    assert row["patch1"].shape == (4, 5, 3) and not row["patch3"][:, 4].any()


def test_pad_to_size_matches_mindspore():
    out = PadToSize((10, 12))(GRAY)
    assert out.shape == (10, 12)
    # measured under MindSpore 2.10: centred, the odd column on the right
    np.testing.assert_array_equal(out[1, :4], [0, 0, 111, 222])
    np.testing.assert_array_equal(out[:, -2:], 0)
    np.testing.assert_array_equal(out[1:9, 1:10], GRAY)
    edge = PadToSize((9, 11), offset=(0, 2), padding_mode=Border.EDGE)(GRAY)
    np.testing.assert_array_equal(edge[-2:, :4], [[81, 81, 81, 192], [81, 81, 81, 192]])
    filled = PadToSize(12, offset=1, fill_value=(1, 2, 3))(IMG)
    assert filled.shape == (12, 12, 3)
    np.testing.assert_array_equal(filled[0, 0], [1, 2, 3])
    np.testing.assert_array_equal(filled[1:9, 1:10], IMG)
    assert isinstance(PadToSize((10, 12))(Image.fromarray(IMG)), np.ndarray)


def test_pad_to_size_errors():
    with pytest.raises(RuntimeError, match="no less than the original image size"):
        PadToSize((7, 12))(GRAY)
    with pytest.raises(RuntimeError, match="sum of offset and original image size"):
        PadToSize((10, 12), offset=(3, 0))(GRAY)
    with pytest.raises(RuntimeError, match=r"channel of \(1, 3\)"):
        PadToSize(12)(np.zeros((8, 9, 4), np.uint8))
    with pytest.raises(ValueError, match="size0 is not within"):
        PadToSize((0, 5))
    with pytest.raises(ValueError, match="size must be a sequence of length 2"):
        PadToSize((1, 2, 3))
    with pytest.raises(ValueError, match="offset must be empty or a sequence of length 2"):
        PadToSize(5, offset=(1,))
    with pytest.raises(TypeError, match="offset0"):
        PadToSize(5, offset=(1.0, 2))
    with pytest.raises(TypeError, match="padding_mode"):
        PadToSize(5, padding_mode="constant")
    assert PadToSize(5, offset=()).offset is None


def test_erase_matches_mindspore():
    out = Erase(6, 7, 4, 4, value=(1.5, 2.5, 254))(IMG)
    # measured under MindSpore 2.10: halves to even, the window cut at the image's edge
    np.testing.assert_array_equal(out[5:, 6:], [[[29, 66, 103], [140, 177, 214], [251, 32, 69]],
                                                [[4, 41, 78], [2, 2, 254], [2, 2, 254]],
                                                [[235, 16, 53], [2, 2, 254], [2, 2, 254]]])
    assert out is not IMG and np.array_equal(IMG[6:, 7:], ((np.arange(8 * 9 * 3).reshape(
        8, 9, 3) * 37) % 256).astype(np.uint8)[6:, 7:])
    floats = Erase(0, 0, 2, 2, value=(1.5, 2, 3))(IMG.astype(np.float32))
    np.testing.assert_array_equal(floats[1, 1], [1.5, 2, 3])
    np.testing.assert_array_equal(Erase(0, 0, 1, 1, value=(200, 100, 0))(
        IMG.astype(np.int8))[0, 0], [127, 100, 0])
    target = IMG.copy()
    assert Erase(0, 0, 2, 2, value=7, inplace=True)(target) is target
    assert (target[:2, :2] == 7).all()


def test_erase_errors():
    with pytest.raises(RuntimeError, match="box size is too large"):
        Erase(0, 0, 9, 2)(IMG)
    # MindSpore 2.10 refuses a box starting past the image's edge (an OpenCV assertion there);
    # one starting on the edge erases nothing
    for top, left in ((9, 0), (0, 10), (9, 10)):
        with pytest.raises(RuntimeError, match=rf"top-left corner \(top={top}, left={left}\) "
                                               r"lies outside the image of height 8"):
            Erase(top, left, 1, 1)(IMG)
    np.testing.assert_array_equal(Erase(8, 9, 2, 2)(IMG), IMG)
    with pytest.raises(RuntimeError, match="channel of input image should be 3"):
        Erase(0, 0, 2, 2)(IMG[:, :, :1])
    with pytest.raises(RuntimeError, match="not in shape of <H,W,C>"):
        Erase(0, 0, 2, 2)(GRAY)
    with pytest.raises(RuntimeError, match="Cannot convert"):
        Erase(0, 0, 2, 2)(IMG.astype(np.int64))
    with pytest.raises(TypeError, match="single integer/float or a 3-tuple"):
        Erase(0, 0, 2, 2, value=(1, 2))
    with pytest.raises(TypeError, match="Argument value"):
        Erase(0, 0, 2, 2, value=[1, 2, 3])
    with pytest.raises(ValueError, match=r"value\[0\] is not within"):
        Erase(0, 0, 2, 2, value=256)
    with pytest.raises(ValueError, match="height is not within"):
        Erase(0, 0, 0, 2)
    with pytest.raises(TypeError, match="inplace"):
        Erase(0, 0, 2, 2, inplace=1)


def test_resized_crop_matches_mindspore():
    out = ResizedCrop(1, 2, 5, 6, (3, 4))(GRAY)
    # measured under MindSpore 2.10
    np.testing.assert_array_equal(out, [[152, 127, 101, 204], [111, 85, 188, 162],
                                        [133, 107, 146, 121]])
    assert ResizedCrop(1, 2, 5, 6, 4, Inter.NEAREST)(IMG).shape == (4, 4, 3)
    from_pil = ResizedCrop(1, 2, 5, 6, (3, 4))(Image.fromarray(GRAY))
    assert isinstance(from_pil, np.ndarray)
    np.testing.assert_array_equal(from_pil, out)


def test_resized_crop_errors():
    with pytest.raises(RuntimeError, match="sum of top and height: 9 exceeds image height: 8"):
        ResizedCrop(4, 0, 5, 5, 5)(IMG)
    with pytest.raises(RuntimeError, match="sum of left and width: 10 exceeds image width: 9"):
        ResizedCrop(0, 4, 5, 6, 5)(IMG)
    with pytest.raises(RuntimeError, match="Unsupported interpolation"):
        ResizedCrop(0, 0, 5, 5, 5, Inter.ANTIALIAS)(IMG)
    with pytest.raises(RuntimeError, match="1000 times"):
        ResizedCrop(0, 0, 2, 2, (3000, 5))(IMG)
    with pytest.raises(RuntimeError, match="but got rank: 4"):
        ResizedCrop(0, 0, 2, 2, 5)(np.stack([IMG, IMG]))
    with pytest.raises(ValueError, match="top is not within"):
        ResizedCrop(-1, 0, 5, 5, 5)
    with pytest.raises(TypeError, match="Size should be a single integer"):
        ResizedCrop(0, 0, 5, 5, (5,))
