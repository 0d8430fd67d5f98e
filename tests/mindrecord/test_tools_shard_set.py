"""Linking independently written shards into one dataset (headers as FileWriter writes them)."""
import json
import shutil
import struct

import pytest

from mindrecord.tools import shard_set


def test_shard_paths_match_filewriter_naming():
    assert shard_set.shard_paths("d/x.mr", 1) == ["d/x.mr"]
    assert shard_set.shard_paths("x.mr", 3) == ["x.mr0", "x.mr1", "x.mr2"]
    assert shard_set.shard_paths("x.mr", 11)[:2] == ["x.mr00", "x.mr01"]


@pytest.mark.parametrize("rows, shards, expected", [
    (10, 3, [(0, 4), (4, 7), (7, 10)]),
    (2, 4, [(0, 1), (1, 2), (2, 2), (2, 2)]),
    (0, 2, [(0, 0), (0, 0)]),
])
def test_split_rows_gives_extra_rows_to_first_shards(rows, shards, expected):
    assert shard_set.split_rows(rows, shards) == expected


def test_header_round_trip_is_byte_identical(shared_fixtures, tmp_path):
    path = shared_fixtures / "mindrecord" / "a_scalars" / "a_scalars.mindrecord"
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    header, size = shard_set.read_header(str(copy))
    with open(copy, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        raw = f.read(n)
    assert shard_set.dump_header(header) == raw and size == header["header_size"]


def test_link_reproduces_mindspore_multi_shard_headers(shared_fixtures, tmp_path):
    case = shared_fixtures / "mindrecord" / "f_multi_shard"
    manifest = json.loads((case / "manifest.json").read_text())
    names = sorted(p.name for p in case.iterdir() if p.suffix not in (".db", ".json"))
    # Un-link copies of MindSpore's shards (each claims to be a lone shard 0), then link again.
    for name in names:
        shutil.copy(case / name, tmp_path / name)
        header, _ = shard_set.read_header(str(tmp_path / name))
        header["shard_addresses"], header["shard_id"] = [name], 0
        for page in header["page"]:
            page["shard_id"] = 0
        body = shard_set.dump_header(header)
        with open(tmp_path / name, "r+b") as f:
            old = struct.unpack("<Q", f.read(8))[0]
            f.seek(0)
            f.write(struct.pack("<Q", len(body)) + body + b"\0" * (old - len(body)))
    shard_set.link_shards([str(tmp_path / n) for n in names])
    for name in names:
        assert (tmp_path / name).read_bytes() == (case / name).read_bytes()
    assert manifest  # the fixture's manifest exists (its headers are what we compared)


def test_link_refuses_header_overflow(tmp_path):
    body = json.dumps({"header_size": 40, "page": [{"shard_id": 0}], "shard_addresses": ["a"],
                       "shard_id": 0, "compression_size": 0}, separators=(",", ":")).encode()
    paths = [str(tmp_path / f"s{i}") for i in range(2)]
    for p in paths:
        with open(p, "wb") as f:
            f.write(struct.pack("<Q", len(body)) + body)
    with pytest.raises(RuntimeError, match="header_size"):
        shard_set.link_shards(paths)
