import pytest

from .engine_helpers import numbers, values


def test_concat_and_plus():
    assert values(numbers(2) + numbers(3)) == [0, 1, 0, 1, 2]
    assert values(numbers(1).concat([numbers(1), numbers(2)])) == [0, 0, 0, 1]
    assert (numbers(2) + numbers(3)).get_dataset_size() == 5


def test_concat_with_empty():
    assert values(numbers(2).skip(2) + numbers(2)) == [0, 1]


def test_concat_column_mismatch():
    # measured in MindSpore 2.10: written without error, refused when the pipeline starts
    mismatched = numbers(2) + numbers(2).project(["x"])
    with pytest.raises(RuntimeError, match="column order' of concat datasets should be the "
                                           "same"):
        values(mismatched)
    with pytest.raises(TypeError):
        numbers(2).concat(5)
