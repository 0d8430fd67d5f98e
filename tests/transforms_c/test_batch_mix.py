"""MixUpBatch and CutMixBatch."""
import numpy as np
import pytest

from transforms_c.vision import CutMixBatch, ImageBatchFormat, MixUpBatch


def _batch(n=6):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (n, 8, 10, 3), dtype=np.uint8)
    labels = np.eye(n, dtype=np.float32)
    return images, labels


def test_mixup_labels_are_convex_pairs():
    images, labels = _batch()
    out_images, out_labels = MixUpBatch(0.5).apply((images, labels), 3)
    assert out_images.shape == images.shape and out_images.dtype == images.dtype
    np.testing.assert_allclose(out_labels.sum(axis=1), 1.0, rtol=1e-6)
    assert (np.count_nonzero(out_labels, axis=1) <= 2).all()


def test_mixup_seeded():
    images, labels = _batch()
    a = MixUpBatch().apply((images, labels), 9)
    b = MixUpBatch().apply((images, labels), 9)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_cutmix_pastes_boxes_and_mixes_labels_by_area():
    images, labels = _batch()
    out_images, out_labels = CutMixBatch(ImageBatchFormat.NHWC).apply((images, labels), 1)
    np.testing.assert_allclose(out_labels.sum(axis=1), 1.0, rtol=1e-6)
    for i in range(len(images)):
        changed = (out_images[i] != images[i]).any(axis=2).mean()
        own = out_labels[i, i]
        assert changed <= 1.0 - own + 1e-6


def test_cutmix_nchw_and_prob_zero():
    images, labels = _batch()
    nchw = images.transpose(0, 3, 1, 2).copy()
    out, out_labels = CutMixBatch(ImageBatchFormat.NCHW, prob=0.0).apply((nchw, labels), 1)
    assert np.array_equal(out, nchw) and np.array_equal(out_labels, labels)


def test_batch_mix_errors():
    images, labels = _batch()
    with pytest.raises(RuntimeError, match="batch sizes of image and label must be the same"):
        MixUpBatch().apply((images, labels[:3]), 0)
    with pytest.raises(RuntimeError, match="batch"):
        MixUpBatch().apply((images[0], labels), 0)
    with pytest.raises(ValueError):
        MixUpBatch(alpha=0)
    with pytest.raises(TypeError):
        CutMixBatch("NHWC")


# measured in MindSpore 2.10: MixUpBatch takes a channel axis of 1 or 3, second or last
# ((2, 3, 5, 6), (2, 4, 5, 1), (2, 1, 5, 6) mixed), and refuses (2, 4, 5, 4), (2, 2, 5, 2),
# (2, 5, 5, 5) with "images shape should in <N,H,W,C> or <N,C,H,W>"
def test_mixup_batch_needs_one_or_three_channels():
    labels = np.eye(3, dtype=np.float32)[:2]
    for shape in [(2, 3, 5, 6), (2, 4, 5, 1), (2, 1, 5, 6)]:
        out, _ = MixUpBatch()(np.zeros(shape, np.uint8), labels)
        assert out.shape == shape
    for shape in [(2, 4, 5, 4), (2, 2, 5, 2), (2, 5, 5, 5)]:
        with pytest.raises(RuntimeError, match="images shape should in <N,H,W,C> or <N,C,H,W>"):
            MixUpBatch()(np.zeros(shape, np.uint8), labels)
