"""Helpers shared by the corruption tests: copy a fixture to a writable directory, rewrite its
header, and read everything through both readers expecting success or a clean RuntimeError."""
import json
import os
import shutil
import struct

import numpy as np

from mindrecord import FileReader, ShardReader


def copy_fixture(shared_fixtures, case, dest):
    src = shared_fixtures / "mindrecord" / case
    for f in os.listdir(src):
        if f != "manifest.json":
            shutil.copyfile(src / f, dest / f)
            os.chmod(dest / f, 0o644)
    manifest = json.loads((src / "manifest.json").read_text())
    return [str(dest / f) for f in manifest["files"]]


def header_of(path):
    data = open(path, "rb").read()
    (length,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8:8 + length]), data


def write_header(path, header, data=None):
    """Replaces the header JSON of `path`, keeping the pages where they are."""
    if data is None:
        _, data = header_of(path)
    text = json.dumps(header, separators=(",", ":")).encode()
    out = struct.pack("<Q", len(text)) + text
    (old_len,) = struct.unpack("<Q", data[:8])
    rest = data[8 + old_len:]
    pad = max(0, 8 + old_len - len(out))
    with open(path, "wb") as f:
        f.write(out + b"\0" * pad + rest[max(0, len(out) - 8 - old_len):])


def read_everything(path):
    """Opens and reads every row through ShardReader and FileReader. Returns the row count;
    lets RuntimeError through; anything else is a bug."""
    with ShardReader(path) as reader:
        n = reader.num_rows
        rows = reader.read_rows(np.arange(n))
        for values in rows.values():
            assert len(values) == n
    with FileReader(path) as reader:
        assert sum(1 for _ in reader.get_next()) == n
    return n


def expect_clean(path, must_fail=False):
    """Reading `path` either works or raises RuntimeError naming a file of the set."""
    try:
        read_everything(path)
    except RuntimeError as e:
        assert os.path.dirname(path) in str(e), f"error does not name the file: {e}"
        return e
    except Exception as e:  # noqa: BLE001 - the point of the test
        raise AssertionError(f"unclean exception {type(e).__name__}: {e}") from e
    assert not must_fail, f"{path} was read although it is corrupt"
    return None
