"""MixUp (transforms_c/vision/batch_mix.py): MindSpore 2.10's Python-only op on (images,
labels) batches. What it takes and gives (float64 outputs, the pairing of rows, the first
batch of is_single=False unmixed, the error types and words) was measured under MindSpore."""
import numpy as np
import pytest

import minddata as ds
from transforms_c.vision import MixUp

IMAGES = np.random.default_rng(0).integers(0, 256, (4, 5, 6, 3), dtype=np.uint8)
LABELS = np.eye(3, dtype=np.int32)[[0, 1, 2, 0]]


def test_single_mixes_each_row_with_the_next():
    distinct = np.eye(4, dtype=np.int32)        # each row its own class: lam is readable
    images, labels = MixUp(4, 0.2)(IMAGES, distinct)
    assert images.dtype == np.float64 and labels.dtype == np.float64
    assert images.shape == IMAGES.shape and labels.shape == (4, 4)
    nxt = [1, 2, 3, 0]
    lam = labels[np.arange(4), np.arange(4)]
    np.testing.assert_allclose(labels[np.arange(4), nxt], 1 - lam)
    expected = lam[:, None, None, None] * IMAGES + (1 - lam[:, None, None, None]) * IMAGES[nxt]
    np.testing.assert_allclose(images, expected)
    assert ((lam >= 0) & (lam <= 1)).all()


def test_lambda_follows_beta_alpha_alpha():
    op = MixUp(64, 0.5)
    labels = np.eye(2)[np.arange(64) % 2]       # neighbours always differ
    draws = np.concatenate([op(np.zeros((64, 1, 1, 1)), labels)[1][np.arange(64), np.arange(
        64) % 2] for _ in range(40)])
    # Beta(0.5, 0.5): mean 1/2, variance 1/8, mass near both ends
    assert abs(draws.mean() - 0.5) < 0.03 and abs(draws.var() - 0.125) < 0.015
    assert (draws < 0.1).mean() > 0.15 and (draws > 0.9).mean() > 0.15


def test_chained_mode_returns_the_first_batch_then_mixes_with_the_last_result():
    op = MixUp(4, 0.2, is_single=False)
    first_images, first_labels = op(IMAGES, LABELS)
    assert first_images.dtype == np.float64
    np.testing.assert_array_equal(first_images, IMAGES)
    np.testing.assert_array_equal(first_labels, LABELS)
    flipped = IMAGES[::-1].copy()
    images, labels = op(flipped, LABELS[::-1].copy())
    lam = labels[np.arange(4), np.argmax(LABELS[::-1], axis=1)]
    same = np.argmax(LABELS[::-1], axis=1) == np.argmax(LABELS, axis=1)
    lam = np.where(same, np.nan, lam)
    for i in np.flatnonzero(~same):
        np.testing.assert_allclose(images[i], lam[i] * flipped[i] + (1 - lam[i]) * IMAGES[i])


def test_arguments_and_wrong_batches():
    with pytest.raises(ValueError, match=r"not within the required interval of \[1, 16777216\]"):
        MixUp(0, 0.2)
    with pytest.raises(ValueError, match="alpha must be greater than 0"):
        MixUp(4, 0)
    with pytest.raises(TypeError, match="batch_size"):
        MixUp(4.0, 0.2)
    with pytest.raises(TypeError, match="is_single"):
        MixUp(4, 0.2, 1)
    with pytest.raises(TypeError, match="alpha"):
        MixUp(4, "a")
    with pytest.raises(ValueError, match="broadcast"):       # numpy's words, as MindSpore
        MixUp(3, 0.2)(IMAGES, LABELS)
    with pytest.raises(TypeError):
        MixUp(4, 0.2)(IMAGES)


def test_in_a_map_after_batch():
    data = ds.NumpySlicesDataset({"image": IMAGES, "label": LABELS}, shuffle=False).batch(2)
    data = data.map(MixUp(2, 0.5), input_columns=["image", "label"])
    rows = list(data.create_dict_iterator(output_numpy=True))
    assert len(rows) == 2
    for row in rows:
        assert row["image"].shape == (2, 5, 6, 3) and row["image"].dtype == np.float64
        np.testing.assert_allclose(row["label"].sum(axis=1), 1.0)
