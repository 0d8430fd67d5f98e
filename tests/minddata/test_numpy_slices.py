import numpy as np
import pytest

import minddata as ds
from .engine_helpers import rows


def test_dict_columns():
    d = ds.NumpySlicesDataset({"a": [1, 2], "b": [[1, 2], [3, 4]]}, shuffle=False)
    assert d.get_col_names() == ["a", "b"]
    assert rows(d) == [[1, [1, 2]], [2, [3, 4]]]


def test_list_tuple_and_array():
    assert rows(ds.NumpySlicesDataset([5, 6], shuffle=False)) == [[5], [6]]
    d = ds.NumpySlicesDataset(([1, 2], ["a", "b"]), column_names=["n", "s"], shuffle=False)
    assert rows(d) == [[1, "a"], [2, "b"]]
    d = ds.NumpySlicesDataset(np.ones((3, 2, 2)), shuffle=False)
    assert d.get_col_names() == ["column_0"] and d.output_shapes() == [[2, 2]]


def test_validation():
    with pytest.raises(ValueError):
        ds.NumpySlicesDataset({"a": [1, 2], "b": [1]})
    with pytest.raises(ValueError):
        ds.NumpySlicesDataset([1, 2], column_names=["a", "b"])
    with pytest.raises(TypeError):
        ds.NumpySlicesDataset(5)


def test_ragged_rows_and_padded_batch():
    data = ds.NumpySlicesDataset({"x": [np.arange(i + 1) for i in range(3)]}, shuffle=False)
    assert [r[0].tolist() for r in data.create_tuple_iterator(output_numpy=True,
                                                              num_epochs=1)] == [[0], [0, 1],
                                                                                 [0, 1, 2]]
    padded = data.padded_batch(2, pad_info={"x": ([4], -1)})
    got = [r[0].tolist() for r in padded.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert got == [[[0, -1, -1, -1], [0, 1, -1, -1]], [[0, 1, 2, -1]]]   # MindSpore's values


def test_ragged_rows_of_python_objects_are_refused():
    with pytest.raises(TypeError, match="ragged column"):
        ds.NumpySlicesDataset({"x": [[1, 2], [object()]]})


def test_a_list_of_bytes_gives_a_0d_bytes_array_per_row():
    """Measured in MindSpore 2.10: each row is a 0-d |S<len> array of its own width; tobytes()
    keeps every stored byte (trailing NULs included)."""
    rows = list(ds.NumpySlicesDataset({"b": [b"abc", b"ab\0\0", b""]}, shuffle=False)
                .create_dict_iterator(output_numpy=True))
    assert [(r["b"].dtype.str, r["b"].shape) for r in rows] == [("|S3", ()), ("|S4", ()),
                                                                 ("|S1", ())]
    assert [r["b"].tobytes() for r in rows[:2]] == [b"abc", b"ab\0\0"]
    assert rows[2]["b"].item() == b""
