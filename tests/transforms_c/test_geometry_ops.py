"""Rotate, RandomRotation, RandomAffine, CutOut, RandomErasing, RandAugment."""
import cv2
import numpy as np
import pytest

from transforms_c.vision import (CutOut, GaussianBlur, Inter, RandAugment, RandomAffine,
                                 RandomErasing, RandomRotation, Rotate, ToTensor)

from tests.transforms_c.tc_samples import natural_rgb


def test_rotate_is_opencv_s_warp():
    img = natural_rgb()
    h, w = img.shape[:2]
    out = Rotate(30, Inter.BILINEAR)(img)
    matrix = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), 30, 1.0)
    ref = cv2.warpAffine(img, matrix, (w, h), flags=cv2.INTER_LINEAR)
    # Away from the image's edges (where the border value mixes in, rounded otherwise).
    inside = cv2.warpAffine(np.full((h, w), 255, np.uint8), matrix, (w, h),
                            flags=cv2.INTER_LINEAR) == 255
    inside = cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    assert inside.mean() > 0.5
    diff = np.abs(out.astype(int) - ref)[inside]
    # The same warp sampled at 1/32 pixel (OpenCV 4, MindSpore) against OpenCV 5's finer one.
    assert diff.mean() < 0.5 and diff.max() <= 8


def test_rotate_and_blur_give_mindspore_s_pixels():
    """SHA-256 prefixes of MindSpore 2.10's outputs on this image (measured in its venv):
    its warps round coordinates as OpenCV 4 does, its expand shift uses the unrounded bounding
    box, and GaussianBlur((5, 3)) without sigma uses the first size's sigma on both axes."""
    import hashlib
    img = (np.arange(37 * 53 * 3) * 7 % 251).reshape(37, 53, 3).astype(np.uint8)
    for op, digest in ((Rotate(30, Inter.BILINEAR), "275ee7db0f2aeb38"),
                       (Rotate(30, expand=True), "97298f2e1efafa7c"),
                       (Rotate(17, center=(5, 9)), "b75604b41196ba0d"),
                       (GaussianBlur((5, 3)), "a75658e2f648ce9e")):
        out = np.ascontiguousarray(op(img))
        assert hashlib.sha256(out.tobytes()).hexdigest()[:16] == digest, op


def test_rotate_90_expand_swaps_dimensions():
    img = natural_rgb(40, 60)
    out = Rotate(90, expand=True)(img)
    assert out.shape == (60, 40, 3)
    assert np.array_equal(out, np.rot90(img))


def test_rotate_fill_value():
    # the fill as given (MindSpore 2.10 paints Rotate's and RandomRotation's fill reversed and
    # RandAugment's rotation fill as (r, b, g): a README deviation; its Affine keeps the order)
    out = Rotate(45, fill_value=(255, 0, 0))(natural_rgb())
    assert tuple(out[0, 0]) == (255, 0, 0)
    assert tuple(Rotate(90, fill_value=(10, 20, 30))(natural_rgb(41, 57))[0, 0]) == (10, 20, 30)
    assert RandomRotation((90, 90), fill_value=(10, 20, 30))(natural_rgb(41, 57)[:, :, 0])[
        0, 0] == 10
    from transforms_c.vision import Affine
    assert tuple(Affine(0.0, [0.5, 0.0], 1.0, 0.0, fill_value=(10, 20, 30))(
        natural_rgb(41, 57))[0, 0]) == (10, 20, 30)


def test_rand_augment_rotation_fill_order():
    img = natural_rgb(41, 57)
    op = RandAugment(num_ops=1, magnitude=30, fill_value=(10, 20, 30))
    assert tuple(op._apply_op(img, "Rotate", op._level("Rotate", 57, 41))[0, 0]) == (10, 20, 30)
    assert tuple(op._apply_op(img, "ShearX", op._level("ShearX", 57, 41))[0, 0]) == (10, 20, 30)


def test_random_rotation_seeded_and_arguments():
    op = RandomRotation(30)
    img = natural_rgb()
    assert np.array_equal(op.apply((img,), 1)[0], op.apply((img,), 1)[0])
    with pytest.raises(ValueError):
        RandomRotation(-5)
    with pytest.raises(TypeError):
        RandomRotation(10, resample="nearest")


def test_random_affine_identity_parameters():
    img = natural_rgb()
    assert np.array_equal(RandomAffine(0)(img), img)


def test_random_affine_translation_only_shifts():
    img = natural_rgb(50, 50)
    out = RandomAffine(0, translate=(0.2, 0.0)).apply((img,), 3)[0]
    shifts = [s for s in range(-10, 11) if np.array_equal(out[:, 12:38], np.roll(img, s, 1)[:, 12:38])]
    assert len(shifts) == 1


def test_random_affine_arguments():
    with pytest.raises(ValueError):
        RandomAffine(10, translate=(1.5, 0))
    with pytest.raises(ValueError):     # MindSpore 2.10 takes (0, 1), refuses scale[1] <= 0
        RandomAffine(10, scale=(0, 0))
    with pytest.raises(TypeError):      # MindSpore 2.10: a translate of another length
        RandomAffine(10, translate=(0.1, 0.1, 0.1))


def test_cutout_zeroes_square_patches():
    img = np.full((40, 50, 3), 7, np.uint8)
    out = CutOut(10, num_patches=1).apply((img,), 4)[0]
    assert (out == 0).all(axis=2).sum() == 100
    chw = CutOut(5, is_hwc=False).apply((img.transpose(2, 0, 1).copy(),), 4)[0]
    assert (chw == 0).all(axis=0).sum() == 25
    with pytest.raises(ValueError):
        CutOut(0)


def test_random_erasing_on_chw():
    img = ToTensor()(natural_rgb())
    out = RandomErasing(prob=1.0, value=0).apply((img,), 2)[0]
    assert out.shape == img.shape and (out == 0).any()
    assert not (img == 0).all()
    assert np.array_equal(RandomErasing(prob=0.0)(img), img)
    noisy = RandomErasing(prob=1.0, value="random").apply((img,), 2)[0]
    assert not np.array_equal(noisy, img)
    with pytest.raises(ValueError):
        RandomErasing(value="zeros")


def test_rand_augment_shapes_and_seed():
    img = natural_rgb()
    op = RandAugment(num_ops=3, magnitude=12)
    out = op.apply((img,), 8)[0]
    assert out.shape == img.shape and out.dtype == np.uint8
    assert np.array_equal(out, op.apply((img,), 8)[0])
    assert len({op.apply((img,), s)[0].tobytes() for s in range(8)}) > 4
    with pytest.raises(ValueError):
        RandAugment(magnitude=31)


def _gradient_48x64():
    x = np.linspace(1, 250, 64)
    img = np.stack([np.add.outer(x, x * 0), np.add.outer(x * 0, x), np.add.outer(x, x) / 2], 2)
    return img.astype(np.uint8)[:48]


def test_rand_augment_translate_shifts_by_the_level_in_pixels():
    # as documented: the level is a pixel count (MindSpore 2.10's kernel reads it as a fraction
    # of the size, so its translations blank the image: a README deviation)
    img = _gradient_48x64()
    op = RandAugment(num_ops=1, magnitude=9)
    level = op._level("TranslateX", 64, 48)
    shift = int(level)
    assert 1 <= shift < 64
    shifted = op._apply_op(img, "TranslateX", level)
    assert np.array_equal(shifted[:, shift:], img[:, :-shift]) and not shifted[:, :shift].any()


@pytest.mark.parametrize("degrees, translate, scale, row, col, expected", [
    (30.0, [0.0, 0.0], 1.2, 5, 22, [130, 192, 171]),
    (-45.0, [0.013, 0.021], 1.0, 28, 36, [58, 169, 132]),
])
def test_affine_matrix_in_float32_as_mindspore(degrees, translate, scale, row, col, expected):
    # measured in MindSpore 2.10 (Affine, shear (5, 3), bilinear, on this image): its matrix
    # is computed in float32; in float64 these pixels came out up to 6 levels off
    from transforms_c.vision import Affine
    img = np.random.RandomState(0).randint(0, 256, (37, 53, 3)).astype(np.uint8)
    out = Affine(degrees, translate, scale, [5.0, 3.0], Inter.BILINEAR)(img)
    assert out[row, col].tolist() == expected


def test_bicubic_warp_within_one_level_of_opencv4():
    # measured in MindSpore 2.10 (its OpenCV 4's fixed-point bicubic remap): RandomAffine with
    # shear (5, 3) on this image; OpenCV 5's remap, kept for speed, rounds these one level off
    img = np.random.RandomState(0).randint(0, 256, (37, 53, 3)).astype(np.uint8)
    out = RandomAffine(degrees=(0, 0), shear=(5.0, 5.0, 3.0, 3.0), resample=Inter.BICUBIC)(img)
    expected = {(3, 48): [106, 153, 239], (5, 11): [86, 80, 184], (8, 18): [58, 206, 109],
                (8, 23): [153, 106, 157]}
    for (row, col), pixel in expected.items():
        assert np.abs(out[row, col].astype(int) - pixel).max() <= 1

@pytest.mark.parametrize("op", [
    Rotate(-45.5, Inter.BICUBIC, expand=True), Rotate(30, Inter.BICUBIC, center=(1, 2)),
    RandomAffine(degrees=(20, 20), translate=(0.1, 0.1, 0.1, 0.1), scale=(0.9, 0.9),
                 shear=(3.0, 3.0, 2.0, 2.0), resample=Inter.BICUBIC)])
def test_bicubic_warp_of_float64_is_the_float32_warp(op):
    """OpenCV 5's bicubic remap of float64 images misreads them (values off by up to 1.09 on a
    0..1 image); MindSpore's OpenCV 4 gives the float32 warp's values to 2e-7 in float64."""
    img = np.random.default_rng(0).random((12, 9, 3))
    got, want = op(img), op(img.astype(np.float32))
    assert got.dtype == np.float64 and got.shape == want.shape
    assert np.abs(got - want).max() < 1e-6


# measured in MindSpore 2.10: CutOut(4) refuses a 2-D (16, 40) image ("CutOut: shape is
# invalid.", a PIL L image too, and with is_hwc=False) and cuts (16, 40, 1) and (3, 16, 40)
def test_cutout_refuses_a_2d_image():
    from PIL import Image
    gray = np.ones((16, 40), np.uint8)
    for img in (gray, Image.fromarray(gray)):
        for is_hwc in (True, False):
            with pytest.raises(RuntimeError, match="CutOut: shape is invalid"):
                CutOut(4, is_hwc=is_hwc)(img)
    assert CutOut(4)(gray[:, :, None]).shape == (16, 40, 1)
    assert CutOut(4, is_hwc=False)(np.ones((3, 16, 40), np.uint8)).shape == (3, 16, 40)
