"""The draws of a whole batch in native code (RandomResizedCrop.windows,
RandomHorizontalFlip.draws: the GPU batch node's rows): every window and flip equals the op's
own rule drawn row by row from the same seed, over random sizes, seeds and
arguments, the fallback window included."""
import numpy as np
import pytest

from transforms_c import _native
from transforms_c._rng import Rng
from transforms_c.vision.flip import RandomHorizontalFlip
from transforms_c.vision.resized_crop import RandomResizedCrop, random_resized_crop_box

ARGUMENTS = [((0.08, 1.0), (3 / 4, 4 / 3), 10),      # the defaults
             ((0.5, 2.0), (0.1, 10.0), 3),
             ((1.0, 1.0), (1.0, 1.0), 1),
             ((0.0, 16777216.0), (1e-300, 16777216.0), 5),   # windows far beyond int64
             ((0.9, 1.0), (5.0, 6.0), 2),            # mostly the fallback, clamped wide
             ((0.9, 1.0), (0.1, 0.2), 2),            # and clamped tall
             ((1, 4), (1, 3), 10)]                   # int arguments


@pytest.mark.parametrize("scale, ratio, attempts", ARGUMENTS)
def test_the_windows_are_the_ops_own_row_by_row(scale, ratio, attempts):
    rng = np.random.default_rng(attempts)
    n = 3000
    heights = rng.integers(1, 3000, n).astype(np.int64)
    widths = rng.integers(1, 3000, n).astype(np.int64)
    heights[:20], widths[20:40] = 1, 1
    seeds = rng.integers(0, 2 ** 63, n, dtype=np.uint64) * np.uint64(2) + \
        rng.integers(0, 2, n, dtype=np.uint64)           # the whole uint64 range
    op = RandomResizedCrop(224, scale=scale, ratio=ratio, max_attempts=attempts)
    got = op.windows(heights, widths, seeds)
    expected = [random_resized_crop_box(int(h), int(w), scale, ratio, attempts, Rng(int(s)))
                for h, w, s in zip(heights, widths, seeds)]
    assert got.dtype == np.int64 and got.shape == (n, 4)
    assert [tuple(map(int, row)) for row in got] == expected


def test_window_arguments_are_checked():
    one = np.ones(2, np.int64)
    with pytest.raises(ValueError, match="one entry per row, but got 2, 2 and 3"):
        _native.random_resized_crop_boxes(one, one, np.zeros(3, np.uint64), (0.1, 1), (1, 1), 1)
    with pytest.raises(ValueError, match="row 1: image size 0x1 is not positive"):
        _native.random_resized_crop_boxes(np.array([1, 0]), one, np.zeros(2, np.uint64),
                                          (0.1, 1), (1, 1), 1)


@pytest.mark.parametrize("prob", [0.0, 0.25, 0.5, 1.0])
def test_the_flips_are_the_ops_own_row_by_row(prob):
    seeds = np.random.default_rng(3).integers(0, 2 ** 63, 20000, dtype=np.uint64) * np.uint64(2)
    got = RandomHorizontalFlip(prob).draws(seeds)
    assert got.dtype == np.bool_
    assert got.tolist() == [Rng(int(s)).random() < prob for s in seeds]
