import pytest

from .engine_helpers import numbers, rows


def test_rename_keeps_data_and_order():
    d = numbers(3).rename(["x"], ["a"])
    assert d.get_col_names() == ["a", "y"]
    assert rows(d)[2] == [2, 20]


def test_rename_validation():
    with pytest.raises(ValueError):
        numbers(3).rename(["x"], ["a", "b"])
    with pytest.raises(ValueError):
        numbers(3).rename(["nope"], ["a"])
    with pytest.raises(ValueError, match="duplicate"):
        numbers(3).rename(["x"], ["y"])
