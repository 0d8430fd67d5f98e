"""File names, shard naming, overwrite and existing files (format spec sections 7 and 9)."""
import json
import os
import struct

import pytest

from mindrecord import FileReader, FileWriter, ParamTypeError, ParamValueError


def header(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8:8 + n])


def write_small(path, shard_num=1, rows=3, overwrite=False):
    w = FileWriter(str(path), shard_num=shard_num, overwrite=overwrite)
    w.add_schema({"k": {"type": "int32"}, "b": {"type": "bytes"}}, "files")
    if rows:
        w.write_raw_data([{"k": i, "b": bytes([i % 256])} for i in range(rows)])
    w.commit()


@pytest.mark.parametrize("shard_num, names", [
    (2, ["x.mr0", "x.mr1"]),
    (3, ["x.mr0", "x.mr1", "x.mr2"]),
    (11, [f"x.mr{i:02d}" for i in range(11)]),
])
def test_shard_names_and_headers(tmp_path, shard_num, names):
    write_small(tmp_path / "x.mr", shard_num, rows=shard_num + 1)
    assert sorted(os.listdir(tmp_path)) == sorted(names + [n + ".db" for n in names])
    for k, name in enumerate(names):
        h = header(tmp_path / name)
        assert h["shard_addresses"] == names and h["shard_id"] == k
        assert all(p["shard_id"] == k for p in h["page"])
    # The first shard gets the extra row (deterministic split of 1 + shard_num rows).
    assert header(tmp_path / names[0])["page"][0]["end_row_id"] == 2
    assert header(tmp_path / names[-1])["page"][0]["end_row_id"] == 1


def test_thousand_shards(tmp_path):
    w = FileWriter(str(tmp_path / "m"), shard_num=1000)
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)
    w.add_schema({"k": {"type": "int32"}})
    w.write_raw_data([{"k": i} for i in range(5)])
    w.commit()
    names = sorted(os.listdir(tmp_path))
    assert len(names) == 2000 and "m000" in names and "m999.db" in names
    assert header(tmp_path / "m999")["page"] is None and header(tmp_path / "m004")["shard_id"] == 4
    with FileReader(str(tmp_path / "m000")) as reader:
        assert sorted(r["k"] for r in reader.get_next()) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("shard_num, message", [
    (0, "Parameter shard_num's value: 0 should between 1 and 1000."),
    (1001, "Parameter shard_num's value: 1001 should between 1 and 1000."),
    ("2", "Parameter shard_num's type is not int."),
    (None, "Parameter shard_num is None."),
])
def test_shard_num_checks(tmp_path, shard_num, message):
    with pytest.raises(ParamValueError) as info:
        FileWriter(str(tmp_path / "x"), shard_num=shard_num)
    assert str(info.value) == "[ParamValueError]: Invalid parameter value. " + message


@pytest.mark.parametrize("name", ["a:b", "a*b", "a?b", 'a"b', "a<b", "a|b", "a`b", "a&b",
                                  "a;b", "a'b", "a\\b", " ab", "ab ", "dir/"])
def test_bad_file_names(tmp_path, name):
    with pytest.raises(ParamValueError):
        FileWriter(str(tmp_path) + "/" + name)


def test_file_name_type(tmp_path):
    with pytest.raises(ParamTypeError):
        FileWriter(5)
    with pytest.raises(ParamValueError, match="Parameter overwrite's type is not bool."):
        FileWriter(str(tmp_path / "x"), overwrite="yes")     # MindSpore's type and words


@pytest.mark.parametrize("existing", ["x.mindrecord", "x.mindrecord.db"])
def test_existing_files_are_refused(tmp_path, existing):
    (tmp_path / existing).write_bytes(b"old")
    with pytest.raises(RuntimeError) as info:
        FileWriter(str(tmp_path / "x.mindrecord"))
    assert str(info.value).startswith(
        "[ERROR] Invalid file, mindrecord files already exist. Please check file path: ")
    assert "set the 'overwrite' parameter to True" in str(info.value)
    assert (tmp_path / existing).read_bytes() == b"old"


def test_overwrite_replaces_old_dataset(tmp_path):
    write_small(tmp_path / "x.mindrecord", rows=5)
    write_small(tmp_path / "x.mindrecord", rows=2, overwrite=True)
    with FileReader(str(tmp_path / "x.mindrecord")) as reader:
        assert len(list(reader.get_next())) == 2
    assert sorted(os.listdir(tmp_path)) == ["x.mindrecord", "x.mindrecord.db"]


def test_zero_rows_gives_header_only_file(tmp_path):
    write_small(tmp_path / "e.mindrecord", rows=0)
    data = (tmp_path / "e.mindrecord").read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    assert len(data) == 8 + n
    # MindSpore 2.10 writes "page":null for a shard without rows (checked against it).
    assert header(tmp_path / "e.mindrecord")["page"] is None
    assert os.path.exists(tmp_path / "e.mindrecord.db")


def test_no_temporary_files_remain_after_commit(tmp_path):
    write_small(tmp_path / "x.mindrecord", shard_num=3, rows=7)
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]


def test_commit_twice_is_harmless(tmp_path):
    w = FileWriter(str(tmp_path / "x.mindrecord"))
    w.add_schema({"k": {"type": "int32"}})
    w.write_raw_data([{"k": 1}])
    w.commit()
    before = (tmp_path / "x.mindrecord").read_bytes()
    w.commit()
    assert (tmp_path / "x.mindrecord").read_bytes() == before


def test_unicode_desc_is_raw_utf8_in_header(tmp_path):
    w = FileWriter(str(tmp_path / "x.mindrecord"))
    w.add_schema({"k": {"type": "int32"}}, 'dé"sc')
    w.commit()
    assert b'"desc":"d\xc3\xa9\\"sc"' in (tmp_path / "x.mindrecord").read_bytes()


def test_missing_directory_is_reported_at_construction(tmp_path):
    with pytest.raises(RuntimeError, match="does not exist"):
        FileWriter(str(tmp_path / "no" / "x.mr"))


def test_forbidden_character_message(tmp_path):
    with pytest.raises(ParamValueError) as info:
        FileWriter(str(tmp_path / "a?b"))
    assert str(info.value) == ("[ParamValueError]: Invalid parameter value. "
                               "File name should not contains \\/:*?\\\"<>|`&;\\'")
