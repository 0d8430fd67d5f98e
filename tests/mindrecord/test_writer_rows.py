"""Row checking: a row that does not match the schema raises (MindSpore drops it with a
warning) unless skip_bad_rows=True; int32 range is enforced; empty blobs are stored;
NaN/inf in an indexed float field is an error (MindSpore aborts the process at commit)."""
import logging
import sqlite3

import numpy as np
import pytest

from mindrecord import FileReader, FileWriter, MRMValidateDataError, ParamTypeError

SCHEMA = {"i": {"type": "int32"}, "l": {"type": "int64"}, "f": {"type": "float32"},
          "d": {"type": "float64"}, "s": {"type": "string"}, "b": {"type": "bytes"},
          "a": {"type": "int32", "shape": [2, -1]}}


def good_row(k=0):
    return {"i": k, "l": 1 << 40, "f": 0.5, "d": 0.25, "s": "x", "b": b"bb",
            "a": np.arange(4, dtype=np.int32)}


def make_writer(tmp_path, schema=SCHEMA, name="x.mindrecord"):
    w = FileWriter(str(tmp_path / name))
    w.add_schema(schema, "rows")
    return w


@pytest.mark.parametrize("field, value, expected, got", [
    ("i", "1", "expected int32", "got str '1'"),
    ("i", True, "expected int32", "got bool True"),
    ("i", 1 << 31, "expected int32", "outside the int32 range"),
    ("i", -(1 << 31) - 1, "expected int32", "outside the int32 range"),
    ("l", 1 << 63, "expected int64", "outside the int64 range"),
    ("l", None, "expected int64", "got NoneType None"),
    ("f", "0.5", "expected float32", "got str"),
    ("d", (1 << 53) + 1, "expected float64", "cannot hold exactly"),
    ("s", b"x", "expected string", "got bytes"),
    ("s", "\ud800", "expected string", "not valid UTF-8"),
    ("b", "bb", "expected bytes", "got str"),
    ("a", [1, 2], "expected numpy.ndarray of dtype int32", "got list"),
    ("a", np.arange(4, dtype=np.int64), "dtype int32", "got an array of dtype int64"),
    ("a", np.arange(3, dtype=np.int32), "reshapeable to [2, -1]", "got an array of shape (3,)"),
])
def test_bad_value_raises_naming_row_field_expected_and_got(tmp_path, field, value, expected, got):
    w = make_writer(tmp_path)
    row = good_row()
    row[field] = value
    with pytest.raises(MRMValidateDataError) as info:
        w.write_raw_data([good_row(), row])
    text = str(info.value)
    assert f"row 1: field '{field}'" in text and expected in text and got in text
    assert isinstance(info.value, ValueError)


def test_missing_field(tmp_path):
    w = make_writer(tmp_path)
    row = good_row()
    del row["s"]
    with pytest.raises(MRMValidateDataError, match="row 0: field 's' is missing"):
        w.write_raw_data([row])


def test_bad_call_writes_nothing(tmp_path):
    w = make_writer(tmp_path)
    with pytest.raises(MRMValidateDataError):
        w.write_raw_data([good_row(0), dict(good_row(1), i="bad")])
    w.write_raw_data([good_row(2)])
    w.commit()
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        assert [r["i"] for r in reader.get_next()] == [2]


def test_skip_bad_rows_warns_like_mindspore(tmp_path, caplog):
    w = make_writer(tmp_path)
    rows = [good_row(0), dict(good_row(1), i="bad"), good_row(2)]
    del rows[2]["s"]
    rows.append(dict(good_row(3), a=np.zeros(3, np.int32)))
    rows.append(good_row(4))
    with caplog.at_level(logging.WARNING, logger="mindrecord"):
        w.write_raw_data(rows, skip_bad_rows=True)
    messages = [r.getMessage() for r in caplog.records]
    assert "for schema, 1 th data is wrong, data type: 'int32' for field: 'i' is not matched." in messages
    assert "for schema, 2 th data is wrong, there is not field: 's' in the raw data." in messages
    assert "for schema, 3 th data is wrong, data shape: '(3,)' for field: 'a' is not matched." in messages
    w.commit()
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        assert [r["i"] for r in reader.get_next()] == [0, 4]


def test_all_rows_bad_with_skip_raises_no_valid_data(tmp_path):
    w = make_writer(tmp_path)
    with pytest.raises(RuntimeError, match="There is no valid data which can be written"):
        w.write_raw_data([dict(good_row(), i="x")], skip_bad_rows=True)


@pytest.mark.parametrize("raw_data, message", [
    ({"i": 1}, "'raw_data' expect list type."),
    ([good_row(), 5], "'raw_data item' expect dict type."),
])
def test_raw_data_types(tmp_path, raw_data, message):
    w = make_writer(tmp_path)
    with pytest.raises(ParamTypeError) as info:
        w.write_raw_data(raw_data)
    assert str(info.value) == "[ParamTypeError]: Invalid parameter type. " + message


def test_extra_keys_are_ignored(tmp_path):
    w = make_writer(tmp_path)
    w.write_raw_data([dict(good_row(7), extra=object())])
    w.commit()
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        (row,) = list(reader.get_next())
    assert "extra" not in row and row["i"] == 7


def test_numpy_scalars_and_exact_ints_are_accepted(tmp_path):
    """Values MindSpore rejects needlessly are taken when their stored bytes are unambiguous."""
    w = make_writer(tmp_path)
    w.write_raw_data([dict(good_row(), i=np.int64(5), l=np.int32(-3), f=np.float64(0.5),
                           d=np.float32(0.25), s=np.str_("y"), b=bytearray(b"bb"))])
    w.write_raw_data([dict(good_row(), f=2, d=np.int16(-4))])
    w.commit()
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        rows = list(reader.get_next())
    assert (rows[0]["i"], rows[0]["l"], rows[0]["s"], rows[0]["b"]) == (5, -3, "y", b"bb")
    assert (float(rows[1]["f"]), float(rows[1]["d"])) == (2.0, -4.0)


def test_empty_blob_is_stored_with_one_blob_field(tmp_path):
    w = make_writer(tmp_path, {"label": {"type": "int32"}, "b": {"type": "bytes"}})
    w.write_raw_data([{"label": 0, "b": b""}, {"label": 1, "b": b"z"}, {"label": 2, "b": b""}])
    w.commit()
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        rows = list(reader.get_next())
    assert [(r["label"], r["b"]) for r in rows] == [(0, b""), (1, b"z"), (2, b"")]


def test_empty_array_is_stored_in_blob_only_schema(tmp_path):
    w = make_writer(tmp_path, {"v": {"type": "float32", "shape": [-1]}})
    w.write_raw_data([{"v": np.zeros(0, np.float32)}, {"v": np.ones(2, np.float32)}])
    w.commit()
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        sizes = [r["v"].size for r in reader.get_next()]
    assert sizes == [0, 2]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_nan_or_inf_in_an_indexed_float_field_is_an_error(tmp_path, bad):
    from mindrecord import MRMValidateDataError
    schema = {"f": {"type": "float32"}, "d": {"type": "float64"}}
    w = make_writer(tmp_path, schema)
    with pytest.raises(MRMValidateDataError, match=r"row 1: field 'd' is an index field"):
        w.write_raw_data([{"f": 1.0, "d": 2.0}, {"f": 0.5, "d": bad}])


def test_nan_and_inf_in_float_fields_left_out_of_the_index_are_stored(tmp_path):
    schema = {"f": {"type": "float32"}, "d": {"type": "float64"}, "k": {"type": "int32"}}
    w = make_writer(tmp_path, schema)
    w.add_index(["k"])
    w.write_raw_data([{"f": float("nan"), "d": float("inf"), "k": 0},
                      {"f": float("-inf"), "d": 1.5, "k": 1}])
    w.commit()
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        rows = list(reader.get_next())
    assert np.isnan(rows[0]["f"]) and rows[0]["d"] == float("inf")
    assert rows[1]["f"] == float("-inf") and rows[1]["d"] == 1.5


def test_non_contiguous_array_is_written_in_c_order(tmp_path):
    w = make_writer(tmp_path, {"m": {"type": "int64", "shape": [3, 2]}})
    m = np.arange(6, dtype=np.int64).reshape(2, 3).T          # Fortran-ordered view
    w.write_raw_data([{"m": m}])
    w.commit()
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        (row,) = list(reader.get_next())
    np.testing.assert_array_equal(row["m"], m)


def test_write_after_commit(tmp_path):
    w = make_writer(tmp_path)
    w.write_raw_data([good_row()])
    w.commit()
    with pytest.raises(RuntimeError, match="Not allowed to call `write_raw_data` on flushed"):
        w.write_raw_data([good_row()])


def test_write_before_schema(tmp_path):
    from mindrecord import MRMGetMetaError
    w = FileWriter(str(tmp_path / "x.mindrecord"))
    with pytest.raises(MRMGetMetaError):
        w.write_raw_data([{"a": 1}])


def test_int_subclasses_are_taken_by_value(tmp_path):
    import enum

    class Label(enum.IntEnum):
        CAT = 3

    w = make_writer(tmp_path, {"k": {"type": "int32"}, "f": {"type": "float64"}})
    w.write_raw_data([{"k": Label.CAT, "f": Label.CAT}])
    with pytest.raises(MRMValidateDataError, match="got bool"):
        w.write_raw_data([{"k": True, "f": 1.0}])
    w.commit()
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        (row,) = list(reader.get_next())
    assert row["k"] == 3 and float(row["f"]) == 3.0


def test_huge_schema_shape_rejects_arrays_without_overflow(tmp_path):
    w = make_writer(tmp_path, {"v": {"type": "float32", "shape": [1 << 40, 1 << 40]}})
    with pytest.raises(MRMValidateDataError, match="got an array of shape"):
        w.write_raw_data([{"v": np.zeros(0, np.float32)}])
