"""shuffle(buffer_size): a permutation, new each epoch, seeded, validated."""
import pytest

import minddata as ds
from .engine_helpers import epochs, numbers, values


def test_is_a_permutation_that_changes_order():
    ds.config.set_seed(5)
    out = values(numbers(50).shuffle(10))
    assert sorted(out) == list(range(50)) and out != list(range(50))


def test_buffer_limits_how_far_rows_move_forward():
    ds.config.set_seed(5)
    out = values(numbers(50).shuffle(4))
    # a row can only come out once it entered the buffer of 4
    assert all(v <= pos + 3 for pos, v in enumerate(out))


def test_each_epoch_reshuffles_and_seed_reproduces():
    ds.config.set_seed(9)
    it = numbers(20).shuffle(20).create_tuple_iterator(num_epochs=2)
    a = epochs(it, 2)
    assert a[0] != a[1]
    ds.config.set_seed(9)
    assert epochs(numbers(20).shuffle(20).create_tuple_iterator(num_epochs=2), 2) == a


def test_shuffle_after_repeat_mixes_passes():
    ds.config.set_seed(2)
    out = values(numbers(3).repeat(2).shuffle(6))
    assert sorted(out) == [0, 0, 1, 1, 2, 2]


def test_validation():
    with pytest.raises(ValueError):
        numbers(3).shuffle(1)
    with pytest.raises(TypeError):
        numbers(3).shuffle("4")


def test_empty():
    assert values(numbers(2).skip(2).shuffle(4)) == []
