"""FileWriter.open_for_append (format spec section 9): appended rows continue the page
structure exactly as further write_raw_data calls would, so an append gives the same bytes
as one session with the same calls."""
import json
import os
import shutil

import pytest

from mindrecord import (FileReader, FileWriter, MRMAddSchemaError, MRMOpenForAppendError)

from .test_byte_compat import db_contents, load_case

SCHEMA = {"k": {"type": "int32"}, "s": {"type": "string"}, "b": {"type": "bytes"}}


def rows(start, stop):
    return [{"k": i, "s": f"r{i}", "b": bytes([i]) * (i + 1)} for i in range(start, stop)]


def new_writer(path, shard_num=1):
    w = FileWriter(str(path), shard_num=shard_num)
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)
    w.add_schema(SCHEMA, "append")
    return w


def test_three_sessions_equal_one_session(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    w = new_writer(tmp_path / "a" / "x.mr")
    w.write_raw_data(rows(0, 1))
    w.commit()
    for chunk in (rows(1, 2), rows(2, 4)):
        w = FileWriter.open_for_append(str(tmp_path / "a" / "x.mr"))
        w.write_raw_data(chunk)
        w.commit()
    w = new_writer(tmp_path / "b" / "x.mr")
    for chunk in (rows(0, 1), rows(1, 2), rows(2, 4)):
        w.write_raw_data(chunk)
    w.commit()
    assert (tmp_path / "a" / "x.mr").read_bytes() == (tmp_path / "b" / "x.mr").read_bytes()
    assert db_contents(tmp_path / "a" / "x.mr.db") == db_contents(tmp_path / "b" / "x.mr.db")
    data = (tmp_path / "a" / "x.mr").read_bytes()
    header = json.loads(data[8:8 + int.from_bytes(data[:8], "little")])
    assert [p["page_type"] for p in header["page"]] == ["BLOB_DATA", "RAW_DATA"]
    assert header["page"][0]["end_row_id"] == 4 and len(header["page"][1]["row_group_ids"]) == 1


@pytest.mark.parametrize("case", ["e_pages", "e2_raw_shift"])
def test_append_reproduces_mindspore_file(tmp_path, shared_fixtures, case):
    """Writing the fixture's first calls, then appending the rest (one session per call),
    gives MindSpore's file; e2_raw_shift moves rows written by an earlier session."""
    directory, manifest, calls, _ = load_case(shared_fixtures, case)
    path = tmp_path / manifest["files"][0]
    w = FileWriter(str(path))
    w.set_header_size(manifest["header_size"])
    w.set_page_size(manifest["page_size"])
    w.add_schema(manifest["schema_input"], manifest["desc"])
    if manifest["add_index_called_with"]:
        w.add_index(manifest["add_index_called_with"])
    w.write_raw_data(calls[0])
    w.commit()
    for call in calls[1:]:
        w = FileWriter.open_for_append(str(path))
        w.write_raw_data(call)
        w.commit()
    assert path.read_bytes() == (directory / path.name).read_bytes()
    ours, theirs = db_contents(str(path) + ".db"), db_contents(directory / (path.name + ".db"))
    assert ours[:3] == theirs[:3]


def test_append_to_mindspore_written_dataset(tmp_path, shared_fixtures):
    src = shared_fixtures / "mindrecord" / "f_multi_shard"
    for name in os.listdir(src):
        if name.startswith("f_multi_shard"):
            shutil.copy(src / name, tmp_path / name)
            os.chmod(tmp_path / name, 0o644)
    w = FileWriter.open_for_append(str(tmp_path / "f_multi_shard.mindrecord1"))
    w.write_raw_data([{"id": 100 + i, "name": f"new{i}", "data": b"n" * i} for i in range(5)])
    w.commit()
    with FileReader(str(tmp_path / "f_multi_shard.mindrecord0")) as reader:
        ids = sorted(r["id"] for r in reader.get_next())
    assert ids == list(range(11)) + [100, 101, 102, 103, 104]
    for k in range(3):
        _, index_rows, _, _ = db_contents(tmp_path / f"f_multi_shard.mindrecord{k}.db")
        assert [r[0] for r in index_rows] == list(range(len(index_rows)))
    assert len(db_contents(tmp_path / "f_multi_shard.mindrecord0.db")[1]) == 4 + 2


def test_missing_file(tmp_path):
    with pytest.raises(RuntimeError) as info:
        FileWriter.open_for_append(str(tmp_path / "nope.mr"))
    assert str(info.value) == f"The input: {tmp_path / 'nope.mr'} is not exists."


def test_schema_is_fixed(tmp_path):
    w = new_writer(tmp_path / "x.mr")
    w.write_raw_data(rows(0, 2))
    w.commit()
    w = FileWriter.open_for_append(str(tmp_path / "x.mr"))
    with pytest.raises(MRMAddSchemaError):
        w.add_schema(SCHEMA)
    w.commit()


def test_missing_shard_member(tmp_path):
    w = new_writer(tmp_path / "x.mr", shard_num=3)
    w.write_raw_data(rows(0, 6))
    w.commit()
    os.remove(tmp_path / "x.mr2")
    with pytest.raises(MRMOpenForAppendError, match="x.mr2"):
        FileWriter.open_for_append(str(tmp_path / "x.mr0"))


@pytest.mark.parametrize("damage", ["header", "db", "truncate"])
def test_damaged_dataset_is_refused(tmp_path, damage):
    w = new_writer(tmp_path / "x.mr")
    w.write_raw_data(rows(0, 3))
    w.commit()
    path = tmp_path / "x.mr"
    if damage == "header":
        data = bytearray(path.read_bytes())
        data[10:20] = b"!" * 10
        path.write_bytes(bytes(data))
    elif damage == "db":
        (tmp_path / "x.mr.db").write_bytes(b"not a database at all, no")
    else:
        data = path.read_bytes()
        path.write_bytes(data[:len(data) - 10])
    with pytest.raises(MRMOpenForAppendError):
        FileWriter.open_for_append(str(path))


def test_failed_append_restores_files(tmp_path):
    w = new_writer(tmp_path / "x.mr")
    w.write_raw_data(rows(0, 3))
    w.commit()
    before = (tmp_path / "x.mr").read_bytes()
    before_db = (tmp_path / "x.mr.db").read_bytes()
    with pytest.raises(KeyError):
        with FileWriter.open_for_append(str(tmp_path / "x.mr")) as w:
            w.write_raw_data(rows(3, 40))
            raise KeyError("stop")
    assert (tmp_path / "x.mr").read_bytes() == before
    assert (tmp_path / "x.mr.db").read_bytes() == before_db
    assert sorted(os.listdir(tmp_path)) == ["x.mr", "x.mr.db"]


def test_inconsistent_page_chain_is_refused(tmp_path):
    w = new_writer(tmp_path / "x.mr")
    w.write_raw_data(rows(0, 3))
    w.commit()
    path = tmp_path / "x.mr"
    data = path.read_bytes()
    n = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + n])
    header["page"][1]["row_group_ids"] = []            # raw page without its row group
    text = json.dumps(header, separators=(",", ":")).encode()
    path.write_bytes(len(text).to_bytes(8, "little") + text + data[8 + len(text):])
    with pytest.raises(MRMOpenForAppendError, match="row group"):
        FileWriter.open_for_append(str(path))


def test_append_to_empty_dataset(tmp_path):
    w = new_writer(tmp_path / "x.mr")
    w.commit()
    w = FileWriter.open_for_append(str(tmp_path / "x.mr"))
    w.write_raw_data(rows(0, 3))
    w.commit()
    with FileReader(str(tmp_path / "x.mr")) as reader:
        assert [r["k"] for r in reader.get_next()] == [0, 1, 2]
