"""ParquetToMR: Parquet (pyarrow) -> MindRecord, scalars, bytes and numeric lists."""
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from mindrecord import ShardReader
from mindrecord.tools import ConversionError, ParquetToMR
from .test_tools_helpers import read_rows


def _table():
    return pa.table({
        "i8": pa.array([1, -2, 3], pa.int8()),
        "i64": pa.array([2**40, 0, -1], pa.int64()),
        "f32": pa.array([0.5, 1.5, 2.5], pa.float32()),
        "s": pa.array(["a", "é", ""]),
        "blob": pa.array([b"\x00\x01", b"", b"xyz"], pa.binary()),
        "vec": pa.array([[1.0, 2.0], [], [3.0]], pa.list_(pa.float64())),
    })


def test_round_trip_types(tmp_path):
    pq.write_table(_table(), tmp_path / "t.parquet")
    result = ParquetToMR(str(tmp_path / "t.parquet"), str(tmp_path / "t.mr")).transform()
    assert result.rows == 3
    with ShardReader(str(tmp_path / "t.mr")) as reader:
        assert reader.schema == {
            "blob": {"type": "bytes"}, "f32": {"type": "float32"}, "i64": {"type": "int64"},
            "i8": {"type": "int32"}, "s": {"type": "string"},
            "vec": {"shape": [-1], "type": "float64"}}
    rows = read_rows(str(tmp_path / "t.mr"))
    assert [r["i64"] for r in rows] == [2**40, 0, -1]
    assert [r["s"] for r in rows] == ["a", "é", ""]
    assert [r["blob"] for r in rows] == [b"\x00\x01", b"", b"xyz"]
    np.testing.assert_array_equal(rows[0]["vec"], [1.0, 2.0])
    assert rows[1]["vec"].size == 0


def test_columns_list(tmp_path):
    pq.write_table(_table(), tmp_path / "t.parquet")
    ParquetToMR(str(tmp_path / "t.parquet"), str(tmp_path / "t.mr"), ["s", "i8"]).transform()
    assert read_rows(str(tmp_path / "t.mr")) == [{"i8": 1, "s": "a"}, {"i8": -2, "s": "é"},
                                                 {"i8": 3, "s": ""}]


def test_null_in_string_column_is_bad_input_naming_the_row(tmp_path):
    pq.write_table(pa.table({"s": ["a", None, "c"]}), tmp_path / "t.parquet")
    with pytest.raises(ConversionError, match=r"t\.parquet row 1: column 's' is empty"):
        ParquetToMR(str(tmp_path / "t.parquet"), str(tmp_path / "t.mr")).transform()
    result = ParquetToMR(str(tmp_path / "t.parquet"), str(tmp_path / "t.mr")).transform(
        skip_bad=True)
    assert [r["s"] for r in read_rows(str(tmp_path / "t.mr"))] == ["a", "c"]
    assert len(result.skipped) == 1


def test_unsupported_type(tmp_path):
    pq.write_table(pa.table({"st": pa.array([{"x": 1}])}), tmp_path / "t.parquet")
    with pytest.raises(ConversionError, match="column 'st' has type struct"):
        ParquetToMR(str(tmp_path / "t.parquet"), str(tmp_path / "t.mr")).transform()


def test_not_a_parquet_file(tmp_path):
    (tmp_path / "t.parquet").write_bytes(b"hello")
    with pytest.raises(ConversionError, match="cannot read as Parquet"):
        ParquetToMR(str(tmp_path / "t.parquet"), str(tmp_path / "t.mr")).transform()
