"""The writer reproduces MindSpore 2.10's files byte for byte: for every fixture, the same
schema, add_index call, write calls and rows give identical data files and equivalent .db
files. Rows are decoded from manifest.json as make_fixtures.py encodes them."""
import base64
import json
import sqlite3

import numpy as np
import pytest

from mindrecord import FileWriter

CASES = ["a_scalars", "b_arrays", "c_multi_blob", "d_no_blob", "e_pages", "e2_raw_shift",
         "f_multi_shard", "g_index_fields", "h_edge_values", "i_jpeg"]


def _float(v):
    return float(v) if isinstance(v, str) else float(v)


def decode_value(cell):
    kind = cell["kind"]
    if kind == "scalar":
        if cell["dtype"].startswith("int"):
            return int(cell["value"])
        return _float(cell["value"])
    if kind == "string":
        return cell["value"]
    if kind == "bytes":
        return base64.b64decode(cell["base64"])
    data = cell["data"]
    if cell["dtype"].startswith("float"):
        data = [_float(x) for x in data]
    return np.array(data, dtype=cell["dtype"]).reshape(cell["shape"])


def load_case(fixtures, case):
    """(manifest, rows in write order, per-call row lists, per-call shard splits)."""
    directory = fixtures / "mindrecord" / case
    manifest = json.loads((directory / "manifest.json").read_text())
    rows = [{k: decode_value(v) for k, v in r.items()} for r in manifest["rows"]]
    shards = manifest["row_shard"]
    if manifest["shard_num"] > 1:
        # Read order is shard by shard; the fixture's "id" field is the write position.
        order = sorted(range(len(rows)), key=lambda p: rows[p]["id"])
        rows = [rows[p] for p in order]
        shards = [shards[p] for p in order]
    calls, splits, start = [], [], 0
    for size in manifest["write_raw_data_batches"]:
        calls.append(rows[start:start + size])
        call_shards = shards[start:start + size]
        assert call_shards == sorted(call_shards), "shard blocks are contiguous in shard order"
        splits.append([call_shards.count(k) for k in range(manifest["shard_num"])])
        start += size
    return directory, manifest, calls, splits


def write_like_fixture(tmp_path, fixtures, case, parallel_writer=False):
    directory, manifest, calls, splits = load_case(fixtures, case)
    base = tmp_path / f"{case}.mindrecord"
    writer = FileWriter(str(base), shard_num=manifest["shard_num"])
    writer.set_header_size(manifest["header_size"])
    writer.set_page_size(manifest["page_size"])
    writer.add_schema(manifest["schema_input"], manifest["desc"])
    if manifest["add_index_called_with"]:
        writer.add_index(manifest["add_index_called_with"])
    for call, split in zip(calls, splits):
        writer._write_raw_data_split(call, split, parallel_writer=parallel_writer)
    writer.commit()
    return directory, manifest


def db_contents(path):
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        master = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                              "ORDER BY name").fetchall()
        indexes = conn.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall()
        names = conn.execute("SELECT * FROM SHARD_NAME").fetchall()
        journal = conn.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        conn.close()
    return master, indexes, names, journal


def _same_cell(ours, theirs):
    if ours == theirs:
        return True
    # MindSpore stores index strings as C strings (cut at the first NUL); we keep them whole.
    return isinstance(ours, str) and isinstance(theirs, str) and ours.split("\0")[0] == theirs


@pytest.mark.parametrize("case", CASES)
def test_data_files_identical(tmp_path, shared_fixtures, case):
    directory, manifest = write_like_fixture(tmp_path, shared_fixtures, case)
    for name in manifest["files"]:
        expected = (directory / name).read_bytes()
        got = (tmp_path / name).read_bytes()
        assert len(got) == len(expected) == manifest["file_sizes"][name]
        assert got == expected, f"{case}/{name} differs at byte " \
            f"{next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b)}"


@pytest.mark.parametrize("case", CASES)
def test_index_db_equivalent(tmp_path, shared_fixtures, case):
    directory, manifest = write_like_fixture(tmp_path, shared_fixtures, case)
    for name in manifest["index_files"]:
        ours = db_contents(tmp_path / name)
        theirs = db_contents(directory / name)
        assert ours[0] == theirs[0]                      # tables, DDL, automatic index
        assert ours[2] == theirs[2]                      # SHARD_NAME
        assert ours[3] == theirs[3] == "delete"
        assert len(ours[1]) == len(theirs[1])
        for row_ours, row_theirs in zip(ours[1], theirs[1]):
            assert all(_same_cell(a, b) for a, b in zip(row_ours, row_theirs)), \
                (row_ours, row_theirs)


def test_parallel_writer_gives_same_bytes(tmp_path, shared_fixtures):
    directory, manifest = write_like_fixture(tmp_path, shared_fixtures, "f_multi_shard",
                                             parallel_writer=True)
    for name in manifest["files"]:
        assert (tmp_path / name).read_bytes() == (directory / name).read_bytes()
