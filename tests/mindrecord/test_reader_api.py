"""FileReader's public API: arguments, column selection and order, value types, lifecycle."""
import math
import os
import sqlite3

import psutil
import pytest

from mindrecord import FileReader, ParamTypeError, ParamValueError

from .test_corruption_helpers import copy_fixture, header_of, write_header


def fixture_file(shared_fixtures, case):
    return str(shared_fixtures / "mindrecord" / case / f"{case}.mindrecord")


def test_columns_keep_mindspore_order(shared_fixtures):
    with FileReader(fixture_file(shared_fixtures, "a_scalars"), columns=["b", "s", "i32"]) as r:
        rows = list(r.get_next())
    assert [list(row) for row in rows] == [["i32", "s", "b"]] * 4


def test_columns_must_be_a_list_of_known_fields(shared_fixtures):
    path = fixture_file(shared_fixtures, "a_scalars")
    with pytest.raises(ParamTypeError, match="'columns' expect list type"):
        FileReader(path, columns="i32")
    with pytest.raises(RuntimeError, match="column name: nope can not found in schema"):
        FileReader(path, columns=["i32", "nope"])


@pytest.mark.parametrize("value,message", [(0, "should between 1 and 128"),
                                           (129, "should between 1 and 128"),
                                           ("4", "is not int"), (None, "is None"),
                                           (True, "is not int")])
def test_num_consumer_is_validated(shared_fixtures, value, message):
    with pytest.raises(ParamValueError, match=message):
        FileReader(fixture_file(shared_fixtures, "a_scalars"), num_consumer=value)


def test_integral_floats_stay_floats(shared_fixtures):
    # MindSpore's FileReader returns 3.0 as 3 and -0.0 as 0 (§10.1); we return the float.
    with FileReader(fixture_file(shared_fixtures, "a_scalars")) as r:
        row = list(r.get_next())[2]
    assert type(row["f32"]) is float and row["f32"] == 3.0
    assert type(row["f64"]) is float and row["f64"] == 1e300
    with FileReader(fixture_file(shared_fixtures, "h_edge_values")) as r:
        row = list(r.get_next())[2]
    assert type(row["f64"]) is float and math.copysign(1, row["f64"]) == -1


def test_len_and_schema(shared_fixtures):
    path = fixture_file(shared_fixtures, "g_index_fields")
    header, _ = header_of(path)
    with FileReader(path) as r:
        assert r.len() == len(r) == 6
        assert r.schema() == header["schema"][0]["schema"]


def test_get_next_restarts_from_the_first_row(shared_fixtures):
    with FileReader(fixture_file(shared_fixtures, "d_no_blob")) as r:
        first = [row["id"] for row in r.get_next()]
        again = [row["id"] for row in r.get_next()]
    assert first == again == [0, 1, 2, 3, 4]


def test_reading_after_close_gives_no_rows_as_mindspore(shared_fixtures):
    r = FileReader(fixture_file(shared_fixtures, "d_no_blob"))
    r.close()
    assert list(r.get_next()) == []
    r = FileReader(fixture_file(shared_fixtures, "d_no_blob"))
    got = []
    for row in r.get_next():        # a close() between two rows ends the iteration
        got.append(row["id"])
        if len(got) == 2:
            r.close()
    assert got == [0, 1]


def test_no_descriptor_leak_on_success_or_failure(shared_fixtures, tmp_path):
    good = fixture_file(shared_fixtures, "i_jpeg")
    truncated = copy_fixture(shared_fixtures, "e_pages", tmp_path)[0]
    with open(truncated, "r+b") as f:
        f.truncate(os.path.getsize(truncated) - 1)
    # fails after the file is mapped: its raw rows do not hold the declared type
    (tmp_path / "b").mkdir()
    mistyped = copy_fixture(shared_fixtures, "a_scalars", tmp_path / "b")[0]
    header, data = header_of(mistyped)
    header["schema"][0]["schema"]["i32"] = {"type": "string"}
    write_header(mistyped, header, data)
    proc = psutil.Process()
    before = proc.num_fds()
    for _ in range(30):
        with FileReader(good) as r:
            rows = list(r.get_next())
        for bad in (truncated, mistyped):
            with pytest.raises(RuntimeError):
                FileReader(bad)
    del rows
    assert proc.num_fds() == before


def test_dataset_without_rows(shared_fixtures, tmp_path):
    path = copy_fixture(shared_fixtures, "a_scalars", tmp_path)[0]
    header, data = header_of(path)
    header["page"] = []
    write_header(path, header, data)
    length = int.from_bytes(open(path, "rb").read(8), "little")
    with open(path, "r+b") as f:
        f.truncate(8 + length)  # what MindSpore writes for zero rows (§1)
    conn = sqlite3.connect(path + ".db")
    with conn:
        conn.execute("DELETE FROM INDEXES")
    conn.close()
    with FileReader(path) as r:
        assert r.len() == 0
        assert list(r.get_next()) == []
