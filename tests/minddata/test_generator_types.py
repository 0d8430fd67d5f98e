"""GeneratorDataset's column types (``column_types`` and a schema's types): a value of another
type than its column's is an error when its row is read, never cast, as in MindSpore 2.10
(every expectation here was measured in MindSpore 2.10)."""
import json

import numpy as np
import pytest

import minddata as ds
from minddata import mstype
from training.common import dtype as np_mstype
from .engine_helpers import rows

MISMATCH = ("Invalid Python function, type of returned data in 'GeneratorDataset' should be "
            "same with specified column_types, but the type of returned data: <class "
            "'numpy.ndarray'>, specified column type: ")
I32 = np.array([1, 2], np.int32)
I64 = np.array([1, 2], np.int64)
F32 = np.array([1.5], np.float32)
F64 = np.array([1.5], np.float64)


def _sources(values):
    """The same rows as a generator function, a random-access source read in the main thread,
    by two threads and by two worker processes."""
    values = list(values)

    class Access:
        def __getitem__(self, i):
            return values[i]

        def __len__(self):
            return len(values)

    yield lambda **kw: ds.GeneratorDataset(lambda: iter(values), **kw)
    for workers, mp in ((1, False), (2, False), (2, True)):
        yield lambda workers=workers, mp=mp, **kw: ds.GeneratorDataset(
            Access(), shuffle=False, num_parallel_workers=workers, python_multiprocessing=mp,
            **kw)


# (value, column type, the type MindSpore names when it refuses the value, or None: accepted)
CASES = [
    (I64, mstype.int32, "int32"),
    (I32, mstype.int64, "int64"),
    (F64, mstype.float32, "float32"),
    (F32, mstype.float64, "float64"),
    (F64, mstype.int32, "int32"),
    (I64, mstype.float32, "float32"),
    (np.array([1], np.uint8), mstype.int8, "int8"),
    (I64, mstype.uint64, "uint64"),
    (np.array([1.0], np.float32), mstype.float16, "float16"),
    (np.array([], np.float64), mstype.int32, "int32"),
    (5, mstype.int32, "int32"),             # a Python int is an int64 array
    (5, mstype.int8, "int8"),
    (5.5, mstype.float32, "float32"),       # a Python float is a float64 array
    (1, mstype.bool_, "bool"),
    (b"ab", mstype.string, "string"),       # bytes are not a string
    (np.array([b"a", b"bb"]), mstype.string, "string"),
    ("ab", mstype.int32, "int32"),
    (5, mstype.string, "string"),
    (I64, np_mstype.int32, "int32"),        # mindspore.common.dtype under training.compat
    (I64, mstype.int64, None),
    (5, mstype.int64, None),
    (5.5, mstype.float64, None),
    (True, mstype.bool_, None),
    (np.float16(1), mstype.float16, None),
    ("ab", mstype.string, None),
    (np.array(["a", "bb"]), mstype.string, None),
    ("ab", np_mstype.string, None),
    (I32, np_mstype.int32, None),
]


@pytest.mark.parametrize("value, column_type, refused", CASES)
def test_column_types_check_never_cast(value, column_type, refused):
    # measured in MindSpore 2.10: a RuntimeError when the row is read, whichever the source
    # and its workers; a value of the column's type comes as it is
    for make in _sources([(value,)]):
        d = make(column_names=["a"], column_types=[column_type])
        if refused is None:
            got = rows(d)
            assert got == [[np.asarray(value).tolist()]]
            out = next(d.create_tuple_iterator(num_epochs=1, output_numpy=True))[0]
            assert out.dtype == np.asarray(value).dtype
        else:
            with pytest.raises(RuntimeError) as info:
                rows(d)
            assert MISMATCH + refused in str(info.value)


def test_mismatch_fails_at_its_row_not_when_built():
    # measured in MindSpore 2.10: building and get_col_names succeed; reading fails
    d = ds.GeneratorDataset(lambda: iter([(I32,), (I32,), (I64,), (I32,)]), ["a"],
                            column_types=[mstype.int32])
    assert d.get_col_names() == ["a"]
    it = d.create_tuple_iterator(num_epochs=1, output_numpy=True)
    got = [next(it)[0].dtype for _ in range(2)]
    assert got == [np.int32, np.int32]
    with pytest.raises(RuntimeError, match="generator row 2 column 'a'") as info:
        next(it)
    assert MISMATCH + "int32" in str(info.value)
    it.close()


def test_second_column_checked():
    d = ds.GeneratorDataset([(I32, I64)], ["a", "b"], column_types=[mstype.int32, mstype.int32])
    with pytest.raises(RuntimeError, match="column 'b'"):
        rows(d)


def test_none_entry_and_empty_list_check_nothing():
    # measured in MindSpore 2.10: None leaves its column unchecked; [] checks no column
    d = ds.GeneratorDataset([(I64, I32)], ["a", "b"], column_types=[None, mstype.int32])
    assert rows(d) == [[[1, 2], [1, 2]]]
    out = next(d.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert [a.dtype for a in out] == [np.int64, np.int32]
    d = ds.GeneratorDataset([(I32, I64)], ["a", "b"], column_types=[None, None])
    assert [a.dtype for a in next(d.create_tuple_iterator(output_numpy=True))] == \
        [np.int32, np.int64]
    d = ds.GeneratorDataset([("x",)], ["a"], column_types=[None])
    assert rows(d) == [["x"]]
    d = ds.GeneratorDataset([(F64,)], ["a"], column_types=[])
    assert next(d.create_tuple_iterator(output_numpy=True))[0].dtype == np.float64


def test_more_column_types_than_columns_ignored():
    # measured in MindSpore 2.10: the entries past the last column are not used
    d = ds.GeneratorDataset([(I32,)], ["a"],
                            column_types=[mstype.int32, mstype.float32, mstype.string])
    assert rows(d) == [[[1, 2]]]


@pytest.mark.parametrize("column_types", [[mstype.int32], [None], [mstype.int32, None]])
def test_fewer_column_types_than_columns_fail_on_the_first_row(column_types):
    # measured in MindSpore 2.10: building works, the first row fails on a column past the
    # list ("specified column type: unknown"), whatever its value
    names = ["a", "b", "c"][:len(column_types) + 1]
    values = tuple([I32] * len(names))
    d = ds.GeneratorDataset([values] * 2, names, column_types=column_types)
    assert d.get_col_names() == names
    with pytest.raises(RuntimeError) as info:
        rows(d)
    assert "specified column type: " in str(info.value)
    assert rows(ds.GeneratorDataset([values] * 2, names)) == [[[1, 2]] * len(names)] * 2


def test_column_types_argument_errors():
    # measured in MindSpore 2.10: a tuple is a TypeError, a type it does not know a
    # NotImplementedError, both when the dataset is built
    with pytest.raises(TypeError, match="Argument column_types with value .* is not of type "
                                        r"\[<class 'list'>\], but got <class 'tuple'>."):
        ds.GeneratorDataset([(I32,)], ["a"], column_types=(mstype.int32,))
    for bad in ("int32", 5, int, object):
        with pytest.raises(NotImplementedError):
            ds.GeneratorDataset([(I32,)], ["a"], column_types=[bad])


def test_dict_column():
    # measured in MindSpore 2.10: a dict in a typed column is refused, in an unchecked one
    # it comes as it is
    d = ds.GeneratorDataset([({"k": 1},)], ["a"], column_types=[mstype.int32])
    with pytest.raises(RuntimeError, match="type of returned data: <class 'dict'>, specified "
                                           "column type: int32"):
        rows(d)
    d = ds.GeneratorDataset([({"k": 1},)], ["a"], column_types=[None])
    out = next(d.create_tuple_iterator(num_epochs=1, output_numpy=True))[0]
    assert out == {"k": 1} or out["k"] == 1


def _schema(*columns):
    s = ds.Schema()
    for c in columns:
        s.add_column(*c)
    return s


def test_schema_types_checked():
    # measured in MindSpore 2.10: a schema's types are checked as column_types are
    for make in _sources([(I64,)]):
        with pytest.raises(RuntimeError) as info:
            rows(make(schema=_schema(("a", mstype.int32))))
        assert MISMATCH + "int32" in str(info.value)
    for make in _sources([(I32,)]):
        assert rows(make(schema=_schema(("a", mstype.int32)))) == [[[1, 2]]]
    with pytest.raises(RuntimeError, match=MISMATCH + "float32"):
        rows(ds.GeneratorDataset([(F64,)], schema=_schema(("a", mstype.float32))))
    with pytest.raises(RuntimeError, match=MISMATCH + "string"):
        rows(ds.GeneratorDataset([(b"x",)], schema=_schema(("a", mstype.string))))
    d = ds.GeneratorDataset([(np.int32(1), np.int64(1))],
                            schema=_schema(("a", mstype.int32), ("b", mstype.int32)))
    with pytest.raises(RuntimeError, match="column 'b'"):
        rows(d)


def test_schema_shape_not_checked():
    # measured in MindSpore 2.10: only the type is checked
    for shape in ([3], [1, 2]):
        d = ds.GeneratorDataset([(I32,)], schema=_schema(("a", mstype.int32, shape)))
        assert rows(d) == [[[1, 2]]]


def test_schema_wins_over_column_names_and_types():
    # measured in MindSpore 2.10: with a schema, column_names and column_types are ignored
    d = ds.GeneratorDataset([(I32,)], ["z"], schema=_schema(("a", mstype.int32)))
    assert d.get_col_names() == ["a"]
    assert rows(d) == [[[1, 2]]]
    d = ds.GeneratorDataset([(I64,)], ["z"], schema=_schema(("a", mstype.int32)))
    with pytest.raises(RuntimeError, match=MISMATCH + "int32"):
        rows(d)
    d = ds.GeneratorDataset([(I64,)], column_types=[mstype.int64],
                            schema=_schema(("a", mstype.int32)))
    with pytest.raises(RuntimeError, match=MISMATCH + "int32"):
        rows(d)
    d = ds.GeneratorDataset([(I32,)], column_types=[mstype.int64],
                            schema=_schema(("a", mstype.int32)))
    assert rows(d) == [[[1, 2]]]


@pytest.mark.parametrize("kind, value, ok", [
    ("bytes", b"x", True), ("bytes", "x", False), ("bytes", np.int32(3), False),
    ("string", "x", True), ("string", b"x", False), ("string", np.int32(3), False),
    ("int32", np.int32(3), True), ("int32", "x", False), ("int32", b"x", False),
])
def test_schema_file_types(tmp_path, kind, value, ok):
    # measured in MindSpore 2.10
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"columns": {"a": {"type": kind, "rank": 0}}}))
    d = ds.GeneratorDataset([(value,)], schema=str(path))
    if ok:
        assert rows(d) == [[np.asarray(value).tolist()]]
    else:
        with pytest.raises(RuntimeError, match=MISMATCH + kind):
            rows(d)


def test_schema_without_columns():
    # measured in MindSpore 2.10: a RuntimeError ('"columns" field is missing')
    with pytest.raises(RuntimeError, match='"columns" field is missing'):
        d = ds.GeneratorDataset(lambda: iter([(1,)]), schema=ds.Schema())
        d.get_col_names()


@pytest.mark.parametrize("values, names, returned", [
    ([(I32, I32)] * 2 + [(I32,), (I32, I32)], ["a", "b"], 1),
    ([(I32,)] * 2 + [(I32, I32), (I32,)], ["a"], 2),
])
def test_another_number_of_columns_at_a_later_row(values, names, returned):
    # measured in MindSpore 2.10: a RuntimeError when that row is read, whatever the source
    words = (f"Invalid Python function, the 'source' of 'GeneratorDataset' should return same "
             f"number of NumPy arrays as specified in column_names, the size of column_names "
             f"is:{len(names)} and number of returned NumPy array is:{returned}")
    for make in _sources(values):
        d = make(column_names=names)
        assert d.get_col_names() == names
        with pytest.raises(RuntimeError) as info:
            rows(d)
        assert words in str(info.value)


def test_rows_of_changing_dtype_without_column_types():
    # measured in MindSpore 2.10: each row keeps its own type and shape
    values = [(I32,), (I64,), (F64,), ("s",), (b"b",), (np.array([[1]], np.int32),)]
    for make in _sources(values):
        out = [r[0] for r in make(column_names=["a"]).create_tuple_iterator(
            num_epochs=1, output_numpy=True)]
        assert [a.dtype.str for a in out] == ["<i4", "<i8", "<f8", "<U1", "|S1", "<i4"]
        assert [a.tolist() for a in out] == [[1, 2], [1, 2], [1.5], "s", b"b", [[1]]]


def test_output_types_read_the_first_row_alone():
    """A row after the first that cannot become a tensor does not fail output_types(): the
    metadata pass reads row by row, as MindSpore 2.10's (measured: [uint32, float64, <U] here);
    iterating still raises at that row."""
    rows = [(np.uint32(83), [1.0], np.str_("np")), (np.uint32(1), [2.0], np.timedelta64(3, "s"))]
    data = ds.GeneratorDataset(rows, ["a", "b", "c"], shuffle=False)
    assert [np.dtype(t) for t in data.output_types()] == [np.uint32, np.float64, np.dtype("<U")]
    assert data.output_shapes() == [[], [1], []]
    with pytest.raises(RuntimeError, match="data type is unknown"):
        list(data.create_tuple_iterator(output_numpy=True))
