"""What tools/mindrecord_vs_mindspore.py found this package doing otherwise than MindSpore 2.10,
each pinned to the value measured in MindSpore."""
import numpy as np

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
