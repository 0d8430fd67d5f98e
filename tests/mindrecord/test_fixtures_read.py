"""Every MindSpore-written fixture reads back exactly as its manifest.json says, through
FileReader (Python values) and ShardReader (dataset representation)."""
import base64
import json
import math
import struct

import numpy as np
import pytest

from mindrecord import FileReader, ShardReader

CASES = ["a_scalars", "b_arrays", "c_multi_blob", "d_no_blob", "e_pages", "e2_raw_shift",
         "f_multi_shard", "g_index_fields", "h_edge_values", "i_jpeg"]


def load_case(shared_fixtures, case):
    d = shared_fixtures / "mindrecord" / case
    manifest = json.loads((d / "manifest.json").read_text())
    return d, manifest


def expected_value(enc):
    """Manifest encoding (make_fixtures.py) -> Python value."""
    kind = enc["kind"]
    if kind == "scalar":
        v = enc["value"]
        if isinstance(v, str):
            v = float(v)
        return int(v) if enc["dtype"].startswith("int") else float(v)
    if kind == "string":
        return enc["value"]
    if kind == "bytes":
        return base64.b64decode(enc["base64"])
    data = [float(x) if isinstance(x, str) else x for x in enc["data"]]
    return np.array(data, dtype=enc["dtype"]).reshape(enc["shape"])


def same_float(a, b):
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return struct.pack("<d", a) == struct.pack("<d", b)  # -0.0 differs from 0.0


def assert_python_value(got, enc, where):
    want = expected_value(enc)
    if enc["kind"] == "ndarray":
        assert isinstance(got, np.ndarray), where
        assert got.dtype == want.dtype and got.shape == want.shape, (where, got.dtype, got.shape)
        assert np.array_equal(got, want, equal_nan=got.dtype.kind == "f"), where
    elif enc["kind"] == "scalar" and enc["dtype"].startswith("float"):
        assert type(got) is float, (where, type(got))
        assert same_float(got, want), (where, got, want)
    else:
        assert type(got) is type(want), (where, type(got))
        assert got == want, where


def assert_dataset_value(got, enc, where):
    want = expected_value(enc)
    assert isinstance(got, np.ndarray), (where, type(got))
    if enc["kind"] == "ndarray":
        assert_python_value(got, enc, where)
    elif enc["kind"] == "scalar":
        assert got.shape == () and got.dtype == np.dtype(enc["dtype"]), (where, got.dtype)
        if enc["dtype"].startswith("float"):
            assert same_float(got, want), where
        else:
            assert int(got) == want, where
    elif enc["kind"] == "string":
        assert got.shape == () and got.dtype.kind == "U", where
        assert str(got) == want, where
    else:
        # MindSpore's representation: |S<n> of shape (1,); an empty value is |S1 b"" (one 0 byte).
        assert got.dtype.kind == "S" and got.shape == (1,), where
        assert got.tobytes() == (want or b"\0"), where


def data_files(d, manifest):
    return [str(d / f) for f in manifest["files"]]


@pytest.mark.parametrize("case", CASES)
def test_file_reader_matches_manifest(shared_fixtures, case):
    d, manifest = load_case(shared_fixtures, case)
    with FileReader(data_files(d, manifest)[0]) as reader:
        rows = list(reader.get_next())
        assert reader.len() == len(manifest["rows"])
    assert len(rows) == len(manifest["rows"])
    header = manifest["headers"][manifest["files"][0]]
    blob_fields = header["schema"][0]["blob_fields"]
    raw_fields = sorted(set(header["schema"][0]["schema"]) - set(blob_fields))
    for i, (got, want) in enumerate(zip(rows, manifest["rows"])):
        assert list(got) == raw_fields + blob_fields, "key order: raw fields, then blob fields"
        for name, enc in want.items():
            assert_python_value(got[name], enc, (case, i, name))


@pytest.mark.parametrize("case", CASES)
def test_shard_reader_matches_manifest(shared_fixtures, case):
    d, manifest = load_case(shared_fixtures, case)
    with ShardReader(data_files(d, manifest)[0]) as reader:
        assert reader.num_rows == len(manifest["rows"])
        assert reader.shard_row_counts == manifest["rows_per_shard"]
        got = reader.read_rows(np.arange(reader.num_rows))
        header = manifest["headers"][manifest["files"][0]]
        assert reader.schema == header["schema"][0]["schema"]
        assert reader.column_names == sorted(header["schema"][0]["schema"])
        assert reader.blob_fields == header["schema"][0]["blob_fields"]
    for i, want in enumerate(manifest["rows"]):
        for name, enc in want.items():
            assert_dataset_value(got[name][i], enc, (case, i, name))


@pytest.mark.parametrize("case", CASES)
def test_shard_reader_single_rows_in_reverse(shared_fixtures, case):
    d, manifest = load_case(shared_fixtures, case)
    with ShardReader(data_files(d, manifest)[0]) as reader:
        for i in reversed(range(reader.num_rows)):
            row = reader.read_row(i)
            for name, enc in manifest["rows"][i].items():
                assert_dataset_value(row[name], enc, (case, i, name))
