"""The bounding-box ops: geometry checked against hand-computed boxes (a flip mirrors x:
x' = W - x - w; a crop clips to the window and moves to its origin; a resize scales), the image
against the plain op with the same seed, MindSpore's input checks and argument errors, seeded
determinism, and use inside a map over (image, bbox) columns."""
import numpy as np
import pytest

import minddata as ds
from transforms_c._rng import Rng, derive_seed
from transforms_c.enums import Inter
from transforms_c.vision import (BoundingBoxAugment, HorizontalFlip, Posterize, RandomCrop,
                                 RandomCropWithBBox, RandomHorizontalFlipWithBBox,
                                 RandomResizedCrop, RandomResizedCropWithBBox,
                                 RandomResizeWithBBox, RandomRotation, RandomVerticalFlipWithBBox,
                                 Rescale, Resize)
from transforms_c.vision.bbox import crop_boxes

H, W = 8, 10


def _image(channels=3):
    return np.arange(H * W * channels, dtype=np.uint8).reshape(H, W, channels)


def _boxes(*rows):
    return np.array(rows, dtype=np.float32)


def _reference_crop(boxes, x0, y0, x1, y1):
    """The crop rule written out with plain floats: drop boxes that do not touch the window,
    clip the others to it, move them to its origin; extra columns unchanged."""
    out = []
    for row in boxes.tolist():
        x, y, w, h = row[:4]
        if x > x1 or y > y1 or x + w < x0 or y + h < y0:
            continue
        nx0, ny0 = max(x, x0) - x0, max(y, y0) - y0
        nx1, ny1 = min(x + w, x1) - x0, min(y + h, y1) - y0
        out.append([nx0, ny0, nx1 - nx0, ny1 - ny0] + row[4:])
    return np.array(out, dtype=np.float32).reshape(-1, boxes.shape[1])


# -- flips -------------------------------------------------------------------------------------
def test_horizontal_flip_mirrors_x_and_keeps_extra_columns():
    image, boxes = _image(), _boxes([1, 2, 3, 4, 9, 1], [0, 0, 10, 8, 2, 0])
    out, new = RandomHorizontalFlipWithBBox(1.0)(image, boxes)
    np.testing.assert_array_equal(out, image[:, ::-1])
    # x' = W - x - w
    assert new.tolist() == [[6, 2, 3, 4, 9, 1], [0, 0, 10, 8, 2, 0]]
    assert new.dtype == np.float32
    assert boxes.tolist()[0] == [1, 2, 3, 4, 9, 1]          # the input is not written


def test_vertical_flip_mirrors_y():
    image, boxes = _image(), _boxes([1, 1, 3, 2], [2.5, 0, 1, 8])
    out, new = RandomVerticalFlipWithBBox(1.0)(image, boxes)
    np.testing.assert_array_equal(out, image[::-1])
    assert new.tolist() == [[1, 5, 3, 2], [2.5, 0, 1, 8]]   # y' = H - y - h


def test_flip_probability_zero_changes_nothing():
    image, boxes = _image(), _boxes([1, 2, 3, 4])
    for op in (RandomHorizontalFlipWithBBox(0.0), RandomVerticalFlipWithBBox(0)):
        out, new = op.apply((image, boxes), 123)
        np.testing.assert_array_equal(out, image)
        assert new.tolist() == boxes.tolist()


def test_flip_draws_follow_the_seed():
    op = RandomHorizontalFlipWithBBox()
    image, boxes = _image(), _boxes([1, 2, 3, 4])
    flipped = [op.apply((image, boxes), s)[1][0, 0] == 6 for s in range(64)]
    assert 10 < sum(flipped) < 54
    assert [op.apply((image, boxes), s)[1][0, 0] == 6 for s in range(64)] == flipped


# -- crops -------------------------------------------------------------------------------------
def test_crop_rule_by_hand():
    boxes = _boxes([0, 0, 3, 3, 1], [7, 7, 1, 1, 2], [5, 1, 4, 4, 3], [6, 2, 1, 1, 4])
    new = crop_boxes(boxes.copy(), 2, 2, 6, 6)
    # [7,7,1,1] starts beyond the window: dropped; [6,2,1,1] touches its edge: kept, 0 wide
    assert new.tolist() == [[0, 0, 1, 1, 1], [3, 0, 1, 3, 3], [4, 0, 0, 1, 4]]


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 17, 99])
def test_random_crop_with_bbox_matches_random_crop_and_clips(seed):
    image = _image()
    boxes = _boxes([0, 0, 3, 3, 7], [4, 3, 5, 4, 8], [8.5, 6.5, 1.5, 1.5, 9])
    op = RandomCropWithBBox((4, 5))
    out, new = op.apply((image, boxes), seed)
    np.testing.assert_array_equal(out, RandomCrop((4, 5)).apply((image,), seed)[0])
    # where the window is, from the (unique) pixel values
    top, left = divmod(int(out[0, 0, 0]) // 3, W)
    np.testing.assert_array_equal(out, image[top:top + 4, left:left + 5])
    np.testing.assert_allclose(new, _reference_crop(boxes, left, top, left + 5, top + 4))


def test_random_crop_with_bbox_padding_shifts_boxes():
    image, boxes = _image(), _boxes([1, 2, 3, 4])
    # padded to exactly the crop size: no random crop, the boxes move by (left, top)
    out, new = RandomCropWithBBox((H + 3, W + 2), padding=(1, 2, 1, 1)).apply((image, boxes), 5)
    assert out.shape == (H + 3, W + 2, 3)
    np.testing.assert_array_equal(out[2:2 + H, 1:1 + W], image)
    assert new.tolist() == [[2, 4, 3, 4]]


def test_random_crop_with_bbox_pad_if_needed():
    image, boxes = _image(), _boxes([1, 2, 3, 4])
    op = RandomCropWithBBox((H + 2, W + 2), pad_if_needed=True)
    for seed in range(8):
        out, new = op.apply((image, boxes), seed)
        assert out.shape == (H + 2, W + 2, 3)
        # pad_if_needed pads both sides by the missing 2 pixels: (W+4) x (H+4), box at (3, 4)
        padded = np.zeros((H + 4, W + 4, 3), np.uint8)
        padded[2:2 + H, 2:2 + W] = image
        found = [(t, l) for t in range(3) for l in range(3)
                 if np.array_equal(padded[t:t + H + 2, l:l + W + 2], out)]
        assert found
        top, left = found[0]
        assert new.tolist() == [[3 - left, 4 - top, 3, 4]]


def test_random_crop_with_bbox_too_small_image():
    with pytest.raises(RuntimeError, match="RandomCropWithBBox: invalid crop size"):
        RandomCropWithBBox(20)(_image(), _boxes([1, 1, 1, 1]))


# -- resizes -----------------------------------------------------------------------------------
def test_random_resize_with_bbox_scales_boxes():
    image, boxes = _image(), _boxes([1, 2, 3, 4, 5])
    for seed in range(6):
        out, new = RandomResizeWithBBox((16, 20)).apply((image, boxes), seed)
        assert out.shape == (16, 20, 3)
        assert new.tolist() == [[2, 4, 6, 8, 5]]
    out, new = RandomResizeWithBBox(4).apply((image, boxes), 0)    # shorter side 8 -> 4
    assert out.shape == (4, 5, 3)
    assert new.tolist() == [[0.5, 1, 1.5, 2, 5]]


def test_random_resize_with_bbox_draws_interpolations():
    image = np.random.default_rng(0).integers(0, 256, (H, W, 3), dtype=np.uint8)
    boxes = _boxes([1, 2, 3, 4])
    outs = {RandomResizeWithBBox((5, 7)).apply((image, boxes), s)[0].tobytes() for s in range(40)}
    candidates = {Resize((5, 7), i)(image).tobytes() for i in
                  (Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)}
    assert outs <= candidates and len(outs) >= 3


def test_random_resized_crop_with_bbox_whole_image_window():
    image, boxes = _image(), _boxes([1, 2, 3, 4])
    op = RandomResizedCropWithBBox((16, 20), scale=(1.0, 1.0), ratio=(W / H, W / H))
    out, new = op.apply((image, boxes), 3)
    assert out.shape == (16, 20, 3)
    assert new.tolist() == [[2, 4, 6, 8]]        # the window is the image: only the resize


@pytest.mark.parametrize("seed", [0, 4, 9, 31])
def test_random_resized_crop_with_bbox_matches_random_resized_crop(seed):
    image = _image()
    boxes = _boxes([0, 0, 4, 4], [3, 2, 6, 5], [9, 7, 1, 1])
    op = RandomResizedCropWithBBox((6, 6), scale=(0.3, 0.6))
    out, new = op.apply((image, boxes), seed)
    np.testing.assert_array_equal(out, RandomResizedCrop((6, 6), scale=(0.3, 0.6)).apply(
        (image,), seed)[0])
    top, left, crop_h, crop_w = RandomResizedCrop((6, 6), scale=(0.3, 0.6)).window(H, W,
                                                                                 Rng(seed))
    expected = _reference_crop(boxes, left, top, left + crop_w, top + crop_h)
    expected[:, [0, 2]] *= 6 / crop_w
    expected[:, [1, 3]] *= 6 / crop_h
    np.testing.assert_allclose(new, expected, rtol=1e-6)


# -- BoundingBoxAugment ------------------------------------------------------------------------
def test_bounding_box_augment_transforms_each_region():
    image, boxes = _image(), _boxes([1, 2, 3, 4], [6, 0, 2, 2])
    out, new = BoundingBoxAugment(HorizontalFlip(), ratio=1.0)(image, boxes)
    expected = image.copy()
    expected[2:6, 1:4] = image[2:6, 1:4][:, ::-1]
    expected[0:2, 6:8] = image[0:2, 6:8][:, ::-1]
    np.testing.assert_array_equal(out, expected)
    assert new.tolist() == boxes.tolist()
    out, _ = BoundingBoxAugment(HorizontalFlip(), ratio=0.0)(image, boxes)
    np.testing.assert_array_equal(out, image)


def test_bounding_box_augment_resizes_back_and_seeds_each_box():
    image, boxes = _image(), _boxes([1, 2, 3, 4])
    out, _ = BoundingBoxAugment(Resize((2, 2)), ratio=1.0).apply((image, boxes), 1)
    region = Resize((4, 3))(Resize((2, 2))(np.ascontiguousarray(image[2:6, 1:4])))
    np.testing.assert_array_equal(out[2:6, 1:4], region)
    np.testing.assert_array_equal(out[:2], image[:2])
    rot = RandomRotation(90)
    out, _ = BoundingBoxAugment(rot, ratio=1.0).apply((image, boxes), 77)
    want = rot.apply((np.ascontiguousarray(image[2:6, 1:4]),), derive_seed(77, 0))[0]
    np.testing.assert_array_equal(out[2:6, 1:4], want)


# -- checks ------------------------------------------------------------------------------------
@pytest.mark.parametrize("arrays,match", [
    ((_image(),), "size of input data should be 2"),
    ((_image(), np.float32([1, 2, 3, 4])), "two-dimensional matrix at least"),
    ((_image(), _boxes([1, 2, 3])), "at least 4 features"),
    ((np.zeros(10, np.uint8), _boxes([1, 2, 3, 4])), "hasn't been decoded"),
    ((_image(), _boxes([8, 2, 3, 4])), "out of bounds of the image"),
    ((_image(), _boxes([1, 5, 3, 4])), "out of bounds of the image"),
    ((_image(), _boxes([-1, 0, 3, 4])), "has negative value"),
])
def test_input_checks(arrays, match):
    for op in (RandomHorizontalFlipWithBBox(), RandomCropWithBBox(2), RandomResizeWithBBox(4),
               RandomResizedCropWithBBox(4), BoundingBoxAugment(HorizontalFlip())):
        with pytest.raises(RuntimeError, match=match):
            op.apply(arrays, 0)


def test_tolerance_and_float64_boxes():
    out, new = RandomHorizontalFlipWithBBox(1.0)(_image(), np.array([[0, 0, 10.00005, 8]]))
    assert new.dtype == np.float32 and new.shape == (1, 4)


@pytest.mark.parametrize("build,error", [
    (lambda: RandomHorizontalFlipWithBBox(1.5), ValueError),
    (lambda: RandomVerticalFlipWithBBox("0.5"), TypeError),
    (lambda: RandomCropWithBBox(0), ValueError),
    (lambda: RandomCropWithBBox(4, padding=-1), ValueError),
    (lambda: RandomCropWithBBox(4, pad_if_needed=1), TypeError),
    (lambda: RandomResizeWithBBox("4"), TypeError),
    (lambda: RandomResizedCropWithBBox(4, scale=(0.9, 0.1)), ValueError),
    (lambda: RandomResizedCropWithBBox(4, interpolation="bilinear"), TypeError),
    (lambda: BoundingBoxAugment(HorizontalFlip(), ratio=1.5), ValueError),
    (lambda: BoundingBoxAugment(HorizontalFlip(), ratio="x"), TypeError),
    (lambda: BoundingBoxAugment(lambda img: img), TypeError),
])
def test_argument_errors(build, error):
    with pytest.raises(error):
        build()


# -- in a pipeline -----------------------------------------------------------------------------
def _pipeline():
    images = np.stack([_image()] * 6)
    boxes = np.stack([_boxes([1, 2, 3, 4, k]) for k in range(6)])
    data = ds.NumpySlicesDataset((images, boxes), ["image", "bbox"], shuffle=False)
    return data.map([RandomHorizontalFlipWithBBox(), RandomCropWithBBox((6, 8))],
                    input_columns=["image", "bbox"], num_parallel_workers=2)


def test_map_over_image_and_bbox_is_seeded():
    def run():
        ds.config.set_seed(21)
        return [(r["image"].tobytes(), r["bbox"].tolist())
                for r in _pipeline().create_dict_iterator(output_numpy=True, num_epochs=1)]

    first = run()
    assert first == run()
    for image, boxes in first:
        assert len(image) == 6 * 8 * 3
        assert np.asarray(boxes).shape[1] == 5


# measured in MindSpore 2.10: BoundingBoxAugment puts a region its transform gave back in
# another type into the image's type, rounded half to even and saturated: Posterize(2)'s uint8
# 128 in an int8 image is 127; Rescale(1.0, 0.5) on uint8 [0, 7, 14, 21] gives [0, 8, 14, 22]
# (float32 0.5, 7.5, 14.5, 21.5), Rescale(1.0, -0.7) on int32 [0, 7] gives [-1, 6]
def test_bounding_box_augment_puts_a_region_back_in_the_image_type():
    box = np.array([[0, 0, 4, 1]], np.float32)
    int8 = np.full((1, 4, 3), -128, np.int8)
    assert BoundingBoxAugment(Posterize(2), 1.0)(int8, box)[0].ravel().tolist() == [127] * 12
    values = np.repeat(np.array([0, 7, 14, 21], np.uint8), 3).reshape(1, 4, 3)
    out = BoundingBoxAugment(Rescale(1.0, 0.5), 1.0)(values, box)[0]
    assert out.dtype == np.uint8 and out[0, :, 0].tolist() == [0, 8, 14, 22]
    out = BoundingBoxAugment(Rescale(1.0, -0.7), 1.0)(values.astype(np.int32), box)[0]
    assert out.dtype == np.int32 and out[0, :2, 0].tolist() == [-1, 6]
