"""Batched input <..., H, W, C> (a batch of images, a video, a batch of videos): the ops MindSpore
applies image by image (Resize, CenterCrop, the flips, Normalize, Rotate, RandomCrop,
RandomResizedCrop) give the per-image results stacked back; a random op draws once for the whole
batch, as MindSpore does. The other ops refuse such input with MindSpore's RuntimeError."""
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
        V.RandomHorizontalFlip(), V.RandomVerticalFlip(),
        V.Normalize([121.0, 115.0, 100.0], [70.0, 68.0, 71.0]), V.Rotate(30),
        V.Rotate(45, expand=True), V.RandomCrop(20), V.RandomCrop(40, padding=3),
        V.RandomResizedCrop(18),
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


@pytest.mark.parametrize("op", [V.RandomHorizontalFlip(), V.RandomCrop(20),
                                V.RandomResizedCrop(18)], ids=repr)
def test_a_random_op_draws_once_for_the_batch(op):
    same = np.stack([batch((1,))[0]] * 5)
    for seed in range(10):
        out = op.apply((same,), seed)[0]
        assert all(np.array_equal(out[0], out[i]) for i in range(1, 5))


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
], ids=repr)
def test_ops_without_batch_support_refuse_with_runtime_error(op):
    # (MindSpore's words for a wrong rank differ from op to op)
    with pytest.raises(RuntimeError, match=r"but got rank: 4|But got dimension 4.|but got: 4"):
        op(batch((2,)))


@pytest.mark.parametrize("op", batched_ops(), ids=repr)
def test_batched_ops_still_refuse_rank_one(op):
    with pytest.raises(RuntimeError, match="<H,W>|should have at least (two|2) dimensions"):
        op(np.zeros((16,), np.uint8))
