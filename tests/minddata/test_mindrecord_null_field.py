"""A null (empty) array field of a MindRecord row (issue 20, item 6): MindDataset gives a 0-d
value of the field's dtype, so output_shapes() says [] for it, as MindSpore 2.10 does (its
MindRecord op makes an empty array field a scalar); FileReader still gives the empty array."""
import numpy as np

import minddata as ds
from mindrecord import FileReader, FileWriter

SCHEMA = {"a": {"type": "int32", "shape": [-1]}, "m": {"type": "float32", "shape": [2, -1]},
          "b": {"type": "bytes"}, "i": {"type": "int64"}}
ROWS = [{"a": np.array([], np.int32), "m": np.zeros((2, 0), np.float32), "b": b"", "i": 1},
        {"a": np.array([5, 6], np.int32), "m": np.ones((2, 2), np.float32), "b": b"xy", "i": 2}]


def write(tmp_path, rows, name="null.mindrecord"):
    path = str(tmp_path / name)
    writer = FileWriter(path, 1)
    writer.add_schema(SCHEMA, "null fields")
    writer.write_raw_data(rows)
    writer.commit()
    return path


def test_output_shapes_of_a_null_field(tmp_path):
    data = ds.MindDataset(write(tmp_path, ROWS), shuffle=False)
    assert data.get_col_names() == ["a", "b", "i", "m"]
    assert data.output_shapes() == [[], [1], [], []]        # bytes: |S<n> of shape (1,)
    assert [t.kind for t in data.output_types()] == ["i", "S", "i", "f"]
    assert data.output_types()[0] == np.int32 and data.output_types()[3] == np.float32


def test_rows_with_null_and_filled_fields(tmp_path):
    data = ds.MindDataset(write(tmp_path, ROWS), shuffle=False, columns_list=["m", "a"])
    first, second = data.create_dict_iterator(output_numpy=True, num_epochs=1)
    assert first["a"].shape == () and first["a"].dtype == np.int32
    assert first["m"].shape == () and first["m"].dtype == np.float32
    np.testing.assert_array_equal(second["a"], [5, 6])
    np.testing.assert_array_equal(second["m"], np.ones((2, 2), np.float32))
    # a filled first row: its shapes
    data = ds.MindDataset(write(tmp_path, ROWS[::-1], "filled.mindrecord"), shuffle=False)
    assert data.output_shapes() == [[2], [1], [], [2, 2]]


def test_file_reader_keeps_the_empty_array(tmp_path):
    reader = FileReader(write(tmp_path, ROWS))
    row = next(reader.get_next())
    assert row["a"].shape == (0,) and row["m"].shape == (2, 0)
    reader.close()
