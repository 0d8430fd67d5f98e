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


def _typed_rows(data):
    return [[(v.dtype.str, v.tolist()) for v in row] for row in
            ds.NumpySlicesDataset(data, shuffle=False).create_tuple_iterator(output_numpy=True)]


def test_python_ints_no_one_integer_dtype_holds_keep_their_values():
    """Measured in MindSpore 2.10 (each row converted alone): 2**63 - 1 then 2**63 give an
    int64 and a uint64 row; numpy would make the column float64 and round 2**63 - 1."""
    assert _typed_rows([2 ** 63 - 1, 2 ** 63]) == [[("<i8", 2 ** 63 - 1)], [("<u8", 2 ** 63)]]
    assert _typed_rows({"a": [[-1], [2 ** 63]]}) == [[("<i8", [-1])], [("<u8", [2 ** 63])]]
    assert _typed_rows([2 ** 62, 2 ** 62 + 1]) == [[("<i8", 2 ** 62)], [("<i8", 2 ** 62 + 1)]]


def test_an_object_array_is_converted_item_by_item():
    """Measured in MindSpore 2.10: a str, a float64 and an int64 row; an item numpy cannot
    convert (None) fails (there when the row is read)."""
    assert _typed_rows(np.array(["a", 2.5, 1], dtype=object)) == [
        [("<U1", "a")], [("<f8", 2.5)], [("<i8", 1)]]
    with pytest.raises(TypeError, match="ragged column"):
        ds.NumpySlicesDataset(np.array(["a", None], dtype=object))


def test_a_list_of_dicts_is_a_dict_column():
    """Measured in MindSpore 2.10: each row is its dict (output_types object), leaves as numpy
    arrays; batch(2) stacks them key by key."""
    data = ds.NumpySlicesDataset([{"a": 1, "b": [1, 2]}, {"a": 2, "b": [3, 4]}], shuffle=False)
    assert data.output_types() == [np.dtype(object)]
    rows = [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    assert [(r["a"].tolist(), [b.tolist() for b in r["b"]]) for r in rows] == [
        (1, [1, 2]), (2, [3, 4])]
    batch = next(data.batch(2).create_tuple_iterator(output_numpy=True))[0]
    assert batch["a"].tolist() == [1, 2] and batch["b"].tolist() == [[1, 2], [3, 4]]


def test_a_list_mixing_strings_with_other_values_keeps_each_value():
    """Measured in MindSpore 2.10 (each row converted alone): numpy's one str or bytes array
    would serve 1 as '1', True as 'True', b'a' as 'a', 1 as b'1'."""
    assert _typed_rows([1, "a"]) == [[("<i8", 1)], [("<U1", "a")]]
    assert _typed_rows([True, "x"]) == [[("|b1", True)], [("<U1", "x")]]
    assert _typed_rows([b"a", "b"]) == [[("|S1", b"a")], [("<U1", "b")]]
    assert _typed_rows([b"\xff", "b"]) == [[("|S1", b"\xff")], [("<U1", "b")]]
    assert _typed_rows([b"a", 1]) == [[("|S1", b"a")], [("<i8", 1)]]
    assert _typed_rows(["a", 1.5]) == [[("<U1", "a")], [("<f8", 1.5)]]
    # within a row numpy converts as MindSpore does: ['1', 'a'] (MindSpore's width: U1)
    assert [[(kind[1], value) for kind, value in row] for row in _typed_rows(
        [[1, "a"], [2, "b"]])] == [[("U", ["1", "a"])], [("U", ["2", "b"])]]


def test_lengths_and_names_are_checked_before_the_values_are_converted():
    """Measured in MindSpore 2.10: a ValueError for the lengths or the names count, whatever
    the values (2**64 fits no integer dtype: a TypeError only once those pass)."""
    with pytest.raises(ValueError, match="Data length in each column is not equal"):
        ds.NumpySlicesDataset(([[1, 2 ** 64]], [1, 2]))
    with pytest.raises(ValueError, match="Num of input column names is 2"):
        ds.NumpySlicesDataset([[1, 2 ** 64]], column_names=["a", "b"])
    with pytest.raises(TypeError):
        ds.NumpySlicesDataset([[1, 2 ** 64]], column_names=["a"])


def test_numpy_values_of_several_dtypes_keep_each_row_s_dtype():
    """Measured in MindSpore 2.10: each row keeps its own dtype; numpy's one array would
    promote them all (float16 to float32, int32 to int64, int8 to int16)."""
    assert _typed_rows([np.float16(1.5), np.float32(2)]) == [[("<f2", 1.5)], [("<f4", 2.0)]]
    assert _typed_rows([np.int32(1), np.int64(2)]) == [[("<i4", 1)], [("<i8", 2)]]
    assert _typed_rows([np.array([1, 2], np.int8), np.array([3, 4], np.int16)]) == [
        [("|i1", [1, 2])], [("<i2", [3, 4])]]
    # one dtype: one array, as before
    assert _typed_rows([np.int8(1), np.int8(2)]) == [[("|i1", 1)], [("|i1", 2)]]


def test_a_dict_key_that_is_no_str_is_refused():
    # measured in MindSpore 2.10: its words for column_names
    with pytest.raises(TypeError, match=r"Argument column_names\[0\] with value 1 is not of type"):
        ds.NumpySlicesDataset({1: [1, 2], "b": [3, 4]})
