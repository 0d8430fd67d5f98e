"""Batched input <..., H, W, C> (a batch of images, a video, a batch of videos): the ops MindSpore
applies image by image (Resize, CenterCrop, the flips but RandomVerticalFlip, Normalize, Rotate,
RandomCrop, RandomResizedCrop) give the per-image results stacked back; a random op draws once
for the whole batch, but RandomCrop for each image, as MindSpore 2.10 does. The other ops refuse
such input with MindSpore's RuntimeError. An N x H x W batch is an H x W x C image of W channels
to every op: the ops that take more than 4 channels give MindSpore's values."""
import numpy as np
import pytest

import transforms_c.vision as V
from transforms_c.enums import Inter
from transforms_c.transforms import Compose

from tests.transforms_c.tc_samples import natural_rgb


def batch(lead, height=37, width=45, channels=3, dtype=np.uint8):
    frames = [natural_rgb(height, width, seed=i) for i in range(2)]
    rng = np.random.default_rng(0)
    images = []
    for i in range(int(np.prod(lead))):
        noisy = frames[i % 2].astype(np.int16) + rng.integers(-20, 20, frames[0].shape)
        images.append(np.clip(noisy, 0, 255).astype(np.uint8)[:, :, :channels])
    return np.stack(images).reshape(tuple(lead) + images[0].shape).astype(dtype)


def batched_ops():
    return [
        V.Resize((20, 31)), V.Resize(16, Inter.NEAREST), V.Resize(25, Inter.PILCUBIC),
        V.CenterCrop(20), V.CenterCrop((50, 60)), V.HorizontalFlip(), V.VerticalFlip(),
        V.RandomHorizontalFlip(), V.Normalize([121.0, 115.0, 100.0], [70.0, 68.0, 71.0]),
        V.Rotate(30), V.Rotate(45, expand=True), V.RandomCrop((37, 45)),
        V.RandomCrop((43, 51), padding=3), V.RandomResizedCrop(18),
    ]


def per_image(op, images, seed):
    lead = images.shape[:-3]
    outs = [op.apply((img,), seed)[0] for img in images.reshape((-1,) + images.shape[-3:])]
    return np.stack(outs).reshape(lead + outs[0].shape)


@pytest.mark.parametrize("op", batched_ops(), ids=repr)
@pytest.mark.parametrize("lead", [(4,), (2, 3)], ids=["NHWC", "video-batch"])
def test_batch_equals_the_per_image_results(op, lead):
    images = batch(lead)
    for seed in (0, 1, 99):
        out = op.apply((images,), seed)[0]
        expected = per_image(op, images, seed)
        assert out.shape == expected.shape and out.dtype == expected.dtype
        np.testing.assert_array_equal(out, expected)
    assert op(images).shape[:-3] == lead        # the eager call


@pytest.mark.parametrize("op", [V.RandomHorizontalFlip(), V.RandomResizedCrop(18)], ids=repr)
def test_a_random_op_draws_once_for_the_batch(op):
    # (MindSpore 2.10: in none of 60 calls on a batch of 3 alike images did they differ)
    same = np.stack([batch((1,))[0]] * 5)
    for seed in range(10):
        out = op.apply((same,), seed)[0]
        assert all(np.array_equal(out[0], out[i]) for i in range(1, 5))


@pytest.mark.parametrize("op", [V.RandomCrop(20), V.RandomCrop((6, 4), padding=2)], ids=repr)
@pytest.mark.parametrize("lead", [(3,), (2, 2)], ids=["NHWC", "video-batch"])
def test_random_crop_draws_a_window_for_each_image(op, lead):
    # MindSpore 2.10 crops each image of a batch at a window of its own: on 3 alike images
    # (and on 2 videos of 2) the images differed in 59 and 60 of 60 calls
    image = batch((1,))[0]
    alike = np.broadcast_to(image, lead + image.shape).copy()
    padded = np.pad(image, ((2, 2), (2, 2), (0, 0))) if op.padding else image
    crop_h, crop_w = (op.size, op.size) if isinstance(op.size, int) else op.size
    windows = {padded[top:top + crop_h, left:left + crop_w].tobytes()
               for top in range(padded.shape[0] - crop_h + 1)
               for left in range(padded.shape[1] - crop_w + 1)}
    apart = 0
    for seed in range(20):
        out = op.apply((alike,), seed)[0]
        assert out.shape == lead + (crop_h, crop_w, 3)
        images = out.reshape((-1, crop_h, crop_w, 3))
        assert all(one.tobytes() in windows for one in images)     # a window of the image
        apart += any(not np.array_equal(images[0], one) for one in images[1:])
    assert apart >= 15


def test_random_vertical_flip_refuses_a_batch():
    # MindSpore 2.10's RandomVerticalFlip (unlike RandomHorizontalFlip and VerticalFlip) takes
    # <H,W> or <H,W,C> only, as documented, at any prob
    for lead in ((2,), (1, 2), (1, 1, 2)):
        with pytest.raises(RuntimeError, match=r"RandomVerticalFlip: input tensor is not in "
                                                r"shape of <H,W> or <H,W,C>, but got rank: "
                                                f"{len(lead) + 3}"):
            V.RandomVerticalFlip(1.0)(batch(lead, 6, 8))
    gray = batch((2,), 6, 8)[:, :, :, 0]       # an <H,W,C> image of 8 channels: its rows
    np.testing.assert_array_equal(V.RandomVerticalFlip(1.0)(gray), gray[::-1])


def test_slice_patches_gives_a_batch_back_whole_on_a_grid_of_one():
    # MindSpore 2.10: SlicePatches(1, 1) hands any <..., H, W, C> input back as its one patch,
    # of its type (bool too); another grid is refused
    for images in (batch((2,)), batch((1, 2)).astype(np.float16), batch((2,)) > 100):
        out = V.SlicePatches(1, 1, fill_value=3)(images)
        assert out.dtype == images.dtype
        np.testing.assert_array_equal(out, images)
    with pytest.raises(RuntimeError, match="but got rank: 4"):
        V.SlicePatches(2, 1)(batch((2,)))


def test_warps_fill_past_four_channels_with_opencvs_repeated_scalar():
    # MindSpore 2.10 (OpenCV's border scalar (fill, 0), repeated past 4 channels): the corner of
    # a 6-channel image rotated by 30 degrees, and the left side of one translated right
    full = np.full((5, 5, 6), 100, np.uint8)
    assert V.Rotate(30, fill_value=7)(full)[0, 0].tolist() == [7, 7, 7, 0, 7, 7]
    assert V.RandomRotation((30, 30), fill_value=7)(full)[0, 0].tolist() == [7, 7, 7, 0, 7, 7]
    assert V.Affine(0.0, [0.4, 0.0], 1.0, [0.0, 0.0], fill_value=(4, 5, 6))(full)[2, 0].tolist() \
        == [4, 5, 6, 0, 4, 5]


# MindSpore 2.10's Perspective(START, END) of a (3, 4, 5) image (4 * arange): 5 channels warped
START, END = [[0, 0], [3, 0], [3, 2], [0, 2]], [[1, 0], [3, 1], [2, 2], [0, 2]]
PERSPECTIVE_5_CHANNELS = {
    Inter.NEAREST: [[[0] * 5, [0, 4, 8, 12, 16], [20, 24, 28, 32, 36], [0] * 5],
                    [[80, 84, 88, 92, 96], [80, 84, 88, 92, 96], [20, 24, 28, 32, 36],
                     [60, 64, 68, 72, 76]],
                    [[160, 164, 168, 172, 176], [180, 184, 188, 192, 196],
                     [220, 224, 228, 232, 236], [0] * 5]],
    Inter.BILINEAR: [[[9, 11, 13, 15, 17], [0, 4, 8, 12, 16], [9, 12, 15, 18, 20],
                      [9, 10, 11, 13, 14]],
                     [[46, 49, 51, 54, 56], [63, 67, 71, 75, 79], [61, 65, 69, 73, 77],
                      [60, 64, 68, 72, 76]],
                     [[160, 164, 168, 172, 176], [183, 187, 191, 195, 199],
                      [220, 224, 228, 232, 236], [0] * 5]],
}


@pytest.mark.parametrize("interpolation", list(PERSPECTIVE_5_CHANNELS), ids=str)
def test_perspective_warps_more_than_four_channels(interpolation):
    img = (np.arange(3 * 4 * 5).reshape(3, 4, 5) * 4).astype(np.uint8)
    out = V.Perspective(START, END, interpolation)(img)
    assert out.tolist() == PERSPECTIVE_5_CHANNELS[interpolation]
    with pytest.raises(RuntimeError, match="at most 4 channels"):    # (MindSpore: OpenCV's)
        V.Perspective(START, END, Inter.BICUBIC)(img)


@pytest.mark.parametrize("op, words", [
    (V.Equalize(), "Equalize: channel of input image should be 1 or 3, but got: 5"),
    (V.AutoContrast(), "AutoContrast: channel of input image should be 1 or 3, but got: 5"),
    (V.RandomEqualize(0.0), "RandomEqualize: input image is not in channel of 1 or 3, but "
                            "got: 5"),
], ids=repr)
def test_equalize_and_auto_contrast_refuse_more_than_four_channels(op, words):
    # MindSpore 2.10's words; an N x H x W batch of gray images is such an image (taken, each
    # pixel column would be equalised across the batch's images); 2 and 4 channels are taken
    # here (a README deviation)
    gray_batch = batch((3,), 6, 5)[:, :, :, 0]
    with pytest.raises(RuntimeError, match=words):
        op(gray_batch)
    assert op(gray_batch[:, :, :4]).shape == (3, 6, 4)


def test_normalize_chw_batch():
    images = batch((3,)).astype(np.float32).transpose(0, 3, 1, 2)
    op = V.Normalize([0.5, 0.4, 0.3], [0.2, 0.3, 0.4], is_hwc=False)
    np.testing.assert_array_equal(op(images), np.stack([op(img) for img in images]))


def test_gray_and_float_batches():
    gray = batch((3,), channels=1)
    out = V.Resize((10, 12))(gray)
    assert out.shape == (3, 10, 12, 1)
    np.testing.assert_array_equal(out[1], V.Resize((10, 12))(gray[1]))
    floats = batch((2, 2)).astype(np.float32)
    np.testing.assert_array_equal(V.HorizontalFlip()(floats), floats[..., ::-1, :])


def test_fused_compose_on_a_batch():
    ops = [V.Resize((24, 30)), V.CenterCrop(20), V.HorizontalFlip(),
           V.Normalize([0.0], [255.0])]
    images = batch((2, 2))
    out = Compose(ops)(images)
    assert out.shape == (2, 2, 20, 20, 3)
    np.testing.assert_array_equal(out[1, 0], Compose(ops)(images[1, 0]))


def test_empty_batch_raises():
    with pytest.raises(RuntimeError, match="no image"):
        V.HorizontalFlip()(np.zeros((0, 4, 4, 3), np.uint8))


@pytest.mark.parametrize("op", [
    V.Pad(2), V.Crop((0, 0), 4), V.Invert(), V.Equalize(), V.RandomRotation(10),
    V.GaussianBlur(3), V.HWC2CHW(), V.RandomColorAdjust(0.2), V.CutOut(2),
    V.RandomVerticalFlip(), V.SlicePatches(1, 2),
], ids=repr)
def test_ops_without_batch_support_refuse_with_runtime_error(op):
    # (MindSpore's words for a wrong rank differ from op to op)
    with pytest.raises(RuntimeError, match=r"but got rank: 4|But got dimension 4.|but got: 4"):
        op(batch((2,)))


@pytest.mark.parametrize("op", batched_ops(), ids=repr)
def test_batched_ops_still_refuse_rank_one(op):
    with pytest.raises(RuntimeError, match="<H,W>|should have at least (two|2) dimensions"):
        op(np.zeros((16,), np.uint8))
