"""Flips mirror the image; the random ones with the given probability."""
import numpy as np
import pytest

from transforms_c.vision import (HorizontalFlip, RandomHorizontalFlip, RandomVerticalFlip,
                                 VerticalFlip)

from tests.transforms_c.tc_samples import natural_rgb


def test_horizontal_mirror():
    img = natural_rgb()
    assert np.array_equal(RandomHorizontalFlip(1.0)(img), img[:, ::-1])
    assert np.array_equal(RandomHorizontalFlip(0.0)(img), img)
    assert np.array_equal(HorizontalFlip()(img), img[:, ::-1])


def test_vertical_mirror():
    img = natural_rgb()
    assert np.array_equal(RandomVerticalFlip(1.0)(img), img[::-1])
    assert np.array_equal(VerticalFlip()(img), img[::-1])


def test_gray_and_float():
    gray = natural_rgb()[..., 0].astype(np.float32)
    assert np.array_equal(RandomHorizontalFlip(1.0)(gray), gray[:, ::-1])


@pytest.mark.parametrize("prob", [0.2, 0.5, 0.9])
def test_probability_holds_statistically(prob):
    img = np.arange(6, dtype=np.uint8).reshape(1, 6, 1)
    op = RandomHorizontalFlip(prob)
    flips = sum(int(op.apply((img,), s)[0][0, 0, 0] == 5) for s in range(2000))
    # 2000 Bernoulli draws: 5 standard deviations.
    assert abs(flips / 2000 - prob) < 5 * np.sqrt(prob * (1 - prob) / 2000)


def test_prob_validation():
    with pytest.raises(ValueError):
        RandomHorizontalFlip(1.5)
    with pytest.raises(TypeError):
        RandomVerticalFlip("0.5")


def test_output_is_contiguous():
    assert RandomHorizontalFlip(1.0)(natural_rgb()).flags.c_contiguous
