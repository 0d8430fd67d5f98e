"""A shard that receives no rows: MindSpore 2.10 writes its header with "page":null (checked
against it: 1 row into 2 shards); we write the same, read it, and append to it."""
import json

import numpy as np

from mindrecord import FileReader, FileWriter, ShardReader


def _header(path):
    with open(path, "rb") as f:
        return json.loads(f.read(int.from_bytes(f.read(8), "little")))


def _write_one_row_into_two_shards(tmp_path):
    writer = FileWriter(str(tmp_path / "x.mindrecord"), shard_num=2)
    writer.add_schema({"a": {"type": "int32", "shape": [-1]}, "k": {"type": "int64"}})
    writer.write_raw_data([{"a": np.array([7, 8], np.int32), "k": 5}])
    writer.commit()
    return [str(tmp_path / "x.mindrecord0"), str(tmp_path / "x.mindrecord1")]


def test_a_shard_without_rows_has_page_null(tmp_path):
    first, second = _write_one_row_into_two_shards(tmp_path)
    assert isinstance(_header(first)["page"], list)
    assert _header(second)["page"] is None
    with open(second, "rb") as f:
        raw = f.read()
    assert b'"page":null,' in raw


def test_a_set_with_an_empty_shard_reads_back(tmp_path):
    first, _ = _write_one_row_into_two_shards(tmp_path)
    with FileReader(first) as reader:
        rows = list(reader.get_next())
    assert len(rows) == 1 and rows[0]["k"] == 5 and rows[0]["a"].tolist() == [7, 8]
    with ShardReader(first) as reader:
        assert reader.num_rows == 1 and reader.shard_row_counts == [1, 0]


def test_appending_fills_the_empty_shard(tmp_path):
    first, second = _write_one_row_into_two_shards(tmp_path)
    writer = FileWriter.open_for_append(first)
    writer.write_raw_data([{"a": np.array([1], np.int32), "k": 1},
                           {"a": np.array([2], np.int32), "k": 2}])
    writer.commit()
    assert isinstance(_header(second)["page"], list)
    with FileReader(first) as reader:
        assert sorted(r["k"] for r in reader.get_next()) == [1, 2, 5]
