import pytest

import minddata as ds
from .engine_helpers import numbers, rows


def test_zip_joins_columns_and_stops_at_shortest():
    d = numbers(3).zip(numbers(5).rename(["x", "y"], ["u", "v"]))
    assert d.get_col_names() == ["x", "y", "u", "v"]
    assert rows(d) == [[i, 10 * i, i, 10 * i] for i in range(3)]
    assert d.get_dataset_size() == 3


def test_zip_tuple_of_datasets():
    a = numbers(2).project(["x"])
    b = numbers(2).project(["y"])
    c = numbers(2).rename(["x", "y"], ["p", "q"])
    assert len(a.zip((b, c)).get_col_names()) == 4


def test_zip_duplicate_columns_refused():
    with pytest.raises(ValueError, match="rename"):
        numbers(2).zip(numbers(2))
    with pytest.raises(TypeError):
        numbers(2).zip([numbers(2)])


def test_same_dataset_object_in_two_pipelines():
    base = numbers(4)
    a = base.map(lambda x: x + 1, "x")
    b = base.map(lambda x: x - 1, "x").rename(["x", "y"], ["p", "q"])
    assert [r[0] for r in rows(a.zip(b))] == [1, 2, 3, 4]
    it1 = base.create_tuple_iterator(num_epochs=1)
    it2 = base.create_tuple_iterator(num_epochs=1)
    assert [int(r[0]) for r in it1] == [int(r[0]) for r in it2] == [0, 1, 2, 3]
    assert isinstance(base, ds.Dataset)


def test_module_level_zip():
    d = ds.zip((numbers(2).project(["x"]), numbers(3).project(["y"])))
    assert d.get_col_names() == ["x", "y"] and d.get_dataset_size() == 2
    with pytest.raises(TypeError):
        ds.zip([numbers(2)])
