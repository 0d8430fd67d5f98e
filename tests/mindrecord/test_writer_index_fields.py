"""add_index: MindSpore's errors (format spec 3.1) and the index columns it produces."""
import sqlite3

import pytest

from mindrecord import FileWriter, MRMDefineIndexError, MRMGetMetaError, ParamTypeError

SCHEMA = {"a": {"type": "int32"}, "s": {"type": "string"}, "f": {"type": "float32"},
          "b": {"type": "bytes"}, "v": {"type": "int64", "shape": [-1]}}


@pytest.fixture
def writer(tmp_path):
    w = FileWriter(str(tmp_path / "x.mindrecord"))
    w.add_schema(SCHEMA, "d")
    return w


@pytest.mark.parametrize("arg", [[], None, "a", ("a",)])
def test_not_a_list(writer, arg):
    with pytest.raises(ParamTypeError) as info:
        writer.add_index(arg)
    assert str(info.value) == ("[ParamTypeError]: Invalid parameter type. 'index_fields' "
                               "expect list type.")


def test_element_not_str(writer):
    with pytest.raises(ParamTypeError, match=r"'index field' expect str type\."):
        writer.add_index(["a", 3])


@pytest.mark.parametrize("field", ["b", "v"])
def test_blob_field(writer, field):
    with pytest.raises(MRMDefineIndexError) as info:
        writer.add_index([field])
    assert str(info.value) == ("[MRMDefineIndexError]: Failed to define index field. Detail: "
                               f"Failed to set field {field} since it's not primitive type.")


def test_unknown_field(writer):
    with pytest.raises(RuntimeError) as info:
        writer.add_index(["zz"])
    assert str(info.value) == (
        "[ERROR] Invalid input, 'index_fields': zz can not found in schema: "
        '{"a":{"type":"int32"},"b":{"type":"bytes"},"f":{"type":"float32"},'
        '"s":{"type":"string"},"v":{"shape":[-1],"type":"int64"}}.\n'
        " Please use 'add_index' function to add proper 'index_fields'.")


def test_duplicate_field(writer):
    writer.add_index(["a"])
    with pytest.raises(RuntimeError, match=r"The 'index_fields': a is added repeatedly"):
        writer.add_index(["a"])


def test_duplicate_inside_one_call_keeps_the_first(writer):
    # as MindSpore 2.10's: the fields before the repeated one stay (measured with
    # tools/mindrecord_vs_mindspore.py; tests/mindrecord/test_vs_mindspore_findings.py)
    with pytest.raises(RuntimeError, match="added repeatedly"):
        writer.add_index(["s", "s"])
    with pytest.raises(RuntimeError, match="added repeatedly"):
        writer.add_index(["s"])


def test_before_schema(tmp_path):
    w = FileWriter(str(tmp_path / "x.mindrecord"))
    with pytest.raises(MRMGetMetaError, match=r"^\[MRMGetMetaError\]: Failed to get meta info"):
        w.add_index(["a"])


def _index_columns(path):
    conn = sqlite3.connect(path)
    try:
        return [row[1] for row in conn.execute("PRAGMA table_info(INDEXES)")][8:]
    finally:
        conn.close()


def _row(i):
    return {"a": i, "s": str(i), "f": i / 2, "b": b"x", "v": __import__("numpy").arange(i)}


def test_index_order_follows_add_index_calls(writer, tmp_path):
    writer.add_index(["s"])
    writer.add_index(["a"])
    writer.write_raw_data([_row(1), _row(2)])
    writer.commit()
    assert _index_columns(tmp_path / "x.mindrecord.db") == ["INC_0", "s_0", "INC_1", "a_0"]


def test_default_index_is_every_scalar_sorted(writer, tmp_path):
    writer.write_raw_data([_row(1)])
    writer.commit()
    assert _index_columns(tmp_path / "x.mindrecord.db") == [
        "INC_0", "a_0", "INC_1", "f_0", "INC_2", "s_0"]


def test_no_scalar_field_gives_null_index_fields(tmp_path):
    import json
    import struct
    w = FileWriter(str(tmp_path / "x.mindrecord"))
    w.add_schema({"b": {"type": "bytes"}})
    w.write_raw_data([{"b": b"1"}])
    w.commit()
    data = (tmp_path / "x.mindrecord").read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    assert json.loads(data[8:8 + n])["index_fields"] is None
    assert _index_columns(tmp_path / "x.mindrecord.db") == []


# MindSpore 2.10 (measured): a schema field "2col" named by add_index, or indexed by default,
# makes commit() fail with RuntimeError (its .db column 2col_0 is no SQL name) and leaves the data
# file half-written. Refused here before anything is written; unindexed, the field is fine.
DIGIT_SCHEMA = {"2col": {"type": "int32"}, "b": {"type": "int32"}}


@pytest.mark.parametrize("index", [None, ["2col"], ["b", "2col"]])
def test_a_field_starting_with_a_digit_cannot_be_indexed(tmp_path, index):
    w = FileWriter(str(tmp_path / "x.mindrecord"))
    w.add_schema(DIGIT_SCHEMA, "d")
    with pytest.raises(RuntimeError, match=r"Invalid index field '2col'.*starts with a digit"):
        if index:
            w.add_index(index)
        w.write_raw_data([{"2col": 1, "b": 2}])
    assert list(tmp_path.iterdir()) == []


def test_a_field_starting_with_a_digit_is_written_when_not_indexed(tmp_path):
    from mindrecord import FileReader
    path = str(tmp_path / "x.mindrecord")
    w = FileWriter(path)
    w.add_schema(DIGIT_SCHEMA, "d")
    w.add_index(["b"])
    w.write_raw_data([{"2col": 1, "b": 2}])
    w.commit()
    with FileReader(path) as reader:
        assert list(reader.get_next()) == [{"2col": 1, "b": 2}]
