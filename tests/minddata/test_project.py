import pytest

from .engine_helpers import numbers, rows


def test_project_selects_and_orders():
    d = numbers(3).project(["y", "x"])
    assert d.get_col_names() == ["y", "x"]
    assert rows(d)[1] == [10, 1]


def test_project_unknown_column():
    with pytest.raises(ValueError, match="nope"):
        numbers(3).project(["nope"])
    with pytest.raises(TypeError):
        numbers(3).project([1])
