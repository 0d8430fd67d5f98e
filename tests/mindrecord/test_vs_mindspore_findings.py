"""What tools/mindrecord_vs_mindspore.py found this package doing otherwise than MindSpore 2.10,
each pinned to the value measured in MindSpore."""
import numpy as np
import pytest

from mindrecord import FileReader, FileWriter, MindPage


def write(path, schema, rows, index=None):
    writer = FileWriter(str(path))
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(schema, "found")
    if index:
        writer.add_index(index)
    writer.write_raw_data(rows)
    writer.commit()
    return str(path)


def test_blob_fields_come_in_the_order_columns_names_them(tmp_path):
    # MindSpore 2.10, columns=["name", "x_y", "label", "vec"]: keys vec, x_y, name, label
    # (raw fields sorted, then the blob fields in the order of `columns`)
    path = write(tmp_path / "a.mindrecord",
                 {"name": {"type": "int64", "shape": [2, -1]}, "vec": {"type": "float32"},
                  "label": {"type": "int32", "shape": [3]}, "x_y": {"type": "int32"}},
                 [{"name": np.array([[1, -1], [1, 7]]), "vec": -2.25,
                   "label": np.array([70000, 0, 1], np.int32), "x_y": 7}])
    with FileReader(path, columns=["name", "x_y", "label", "vec"]) as reader:
        assert [list(row) for row in reader.get_next()] == [["vec", "x_y", "name", "label"]]
    with FileReader(path, columns=["label", "name"]) as reader:
        assert [list(row) for row in reader.get_next()] == [["label", "name"]]
    with FileReader(path) as reader:             # no columns: blob fields sorted
        assert [list(row) for row in reader.get_next()] == [["vec", "x_y", "label", "name"]]


def test_a_float32_field_reads_back_the_stored_double(tmp_path):
    # MindSpore 2.10's FileReader gives 0.1 (the double stored for a Python float that is no
    # float32 value), not float32(0.1) widened (0.10000000149011612)
    path = write(tmp_path / "f.mindrecord", {"a": {"type": "float32"}, "s": {"type": "string"}},
                 [{"a": 0.1, "s": "x"}, {"a": np.float32(0.1), "s": "y"}, {"a": 1e300, "s": "z"}],
                 index=["s"])
    with FileReader(path) as reader:
        values = [row["a"] for row in reader.get_next()]
    assert values == [0.1, float(np.float32(0.1)), 1e300]
    page = MindPage(path)
    page.category_field = "s"
    assert page.read_at_page_by_name("x", 0, 1)[0]["a"] == 0.1


def test_parallel_writer_must_stay_the_same_in_a_session(tmp_path):
    # MindSpore 2.10: write_raw_data(rows, False), write_raw_data([], False) (RuntimeError: no
    # valid data), then write_raw_data(rows, True): RuntimeError "The parameter
    # `parallel_writer` must be consistent during use."; commit() still writes the first rows
    path = str(tmp_path / "p.mindrecord")
    writer = FileWriter(path)
    writer.add_schema({"a": {"type": "int32"}}, None)
    writer.write_raw_data([{"a": 1}], False)
    with pytest.raises(RuntimeError, match="There is no valid data"):
        writer.write_raw_data([], False)
    with pytest.raises(RuntimeError, match="`parallel_writer` must be consistent during use"):
        writer.write_raw_data([{"a": 2}], True)
    writer.commit()
    with FileReader(path) as reader:
        assert [row["a"] for row in reader.get_next()] == [1]
    appending = FileWriter.open_for_append(path)     # a new session chooses again
    appending.write_raw_data([{"a": 3}], True)
    appending.commit()
    with FileReader(path) as reader:
        assert [row["a"] for row in reader.get_next()] == [1, 3]


@pytest.mark.parametrize("fields, measured", [
    # MindSpore 2.10: the RuntimeError of an unknown or repeated field keeps the fields named
    # before it (the index fields of the header after a further add_index(["b"]) are these)
    (["label", "label"], ["label", "b"]),
    (["label", "zz"], ["label", "b"]),
    (["label", "label2", "label"], ["label", "label2", "b"]),
    (["zz"], ["b"]),
    (["label", "data"], ["b"]),          # refused before any is added (a blob field)
])
def test_a_failed_add_index_keeps_the_fields_before_the_bad_one(tmp_path, fields, measured):
    path = str(tmp_path / "i.mindrecord")
    writer = FileWriter(path)
    writer.add_schema({"label": {"type": "int64"}, "label2": {"type": "int32"},
                       "b": {"type": "float32"}, "data": {"type": "bytes"}}, None)
    with pytest.raises(Exception):      # RuntimeError, or MRMDefineIndexError
        writer.add_index(fields)
    writer.add_index(["b"])
    writer.write_raw_data([{"label": 1, "label2": 2, "b": 0.5, "data": b"x"}])
    writer.commit()
    page = MindPage(path)
    assert page.candidate_fields == measured


def test_a_repeated_index_field_alone_keeps_the_first(tmp_path):
    # MindSpore 2.10: add_index(["label", "label"]) raises and the header's index_fields are
    # [label] (not the default of every scalar field)
    path = str(tmp_path / "r.mindrecord")
    writer = FileWriter(path)
    writer.add_schema({"label": {"type": "int64"}, "b": {"type": "float32"}}, None)
    with pytest.raises(RuntimeError, match="added repeatedly"):
        writer.add_index(["label", "label"])
    writer.write_raw_data([{"label": 1, "b": 0.5}])
    writer.commit()
    assert MindPage(path).candidate_fields == ["label"]
