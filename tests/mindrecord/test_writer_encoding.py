"""Native encoding units: MessagePack exactly as nlohmann::json::to_msgpack writes it
(format spec 4.2) and integer-array compression (5.3), checked against the spec's examples."""
import struct

import numpy as np
import pytest

from mindrecord._writer_native import RowEncoder, compress_int_array
from mindrecord.schema import validate_schema


def encode_one(schema, row):
    schema = validate_schema(schema)
    enc = RowEncoder(schema, [], False).encode([row])
    raw = enc.raw
    (n,) = struct.unpack("<Q", raw[:8])
    assert len(raw) == 8 + n
    return raw[8:]


@pytest.mark.parametrize("value, expected", [
    (0, "00"), (127, "7f"), (128, "cc80"), (255, "ccff"), (256, "cd0100"), (65536, "ce00010000"),
    (1 << 32, "cf0000000100000000"), (-1, "ff"), (-32, "e0"), (-33, "d0df"), (-129, "d1ff7f"),
    (-32769, "d2ffff7fff"), (-(1 << 31) - 1, "d3ffffffff7fffffff"),
    ((1 << 63) - 1, "cf7fffffffffffffff"), (-(1 << 63), "d38000000000000000"),
])
def test_integers_use_the_smallest_form(value, expected):
    got = encode_one({"v": {"type": "int64"}}, {"v": value})
    assert got == bytes.fromhex("81a176" + expected)


@pytest.mark.parametrize("value, expected", [
    (1.5, "ca3fc00000"), (0.1, "cb3fb999999999999a"), (-0.0, "ca80000000"),
    (float("nan"), "cb7ff8000000000000"), (float("inf"), "cb7ff0000000000000"),
    (1e300, "cb7e37e43c8800759c"), (np.float32(0.1), "ca3dcccccd"),
    (float(np.finfo(np.float32).max), "ca7f7fffff"), (5e-324, "cb0000000000000001"),
])
def test_floats_are_float32_when_exact(value, expected):
    got = encode_one({"v": {"type": "float64"}}, {"v": value})
    assert got == bytes.fromhex("81a176" + expected)


@pytest.mark.parametrize("length, prefix", [
    (0, "a0"), (31, "bf"), (32, "d920"), (255, "d9ff"), (256, "da0100"), (65536, "db00010000"),
])
def test_string_forms(length, prefix):
    got = encode_one({"v": {"type": "string"}}, {"v": "x" * length})
    assert got == bytes.fromhex("81a176" + prefix) + b"x" * length


def test_keys_sorted_and_map_sizes():
    schema = {f"f{i:02d}": {"type": "int32"} for i in range(16)}
    got = encode_one(schema, {name: 1 for name in schema})
    assert got[:3] == bytes.fromhex("de0010")               # map16 for 16 keys
    assert got[3:8] == b"\xa3f00\x01"
    assert encode_one({"b": {"type": "int32"}, "a": {"type": "string"}},
                      {"b": 2, "a": "é"}) == bytes.fromhex("82a161a2c3a9a16202")


def test_no_scalar_field_gives_dummy_id_row():
    assert encode_one({"v": {"type": "bytes"}}, {"v": b"x"}) == bytes.fromhex("81a2696400")


def test_embedded_nul_is_kept():
    assert encode_one({"s": {"type": "string"}}, {"s": "\0a"}) == bytes.fromhex("81a173a20061")


def test_compression_spec_example():
    got = compress_int_array(np.array([1, -1, 300, 70000, -2147483648], np.int32))
    assert got == bytes.fromhex("00000005" "06" "80" "01" "ff" "2c01" "70110100" "00000080")


def test_compression_of_empty_and_int64():
    assert compress_int_array(np.array([], np.int32)) == bytes(4)
    got = compress_int_array(np.array([1 << 40, 2], np.int64))
    assert got == bytes.fromhex("00000002" "c0") + (1 << 40).to_bytes(8, "little") + b"\x02"


def test_multi_blob_row_layout():
    schema = validate_schema({"z": {"type": "bytes"}, "a": {"type": "bytes"},
                              "v": {"type": "int32", "shape": [-1]}})
    enc = RowEncoder(schema, [], True).encode([{"z": b"ZZ", "a": b"A",
                                                "v": np.array([1, 2], np.int32)}])
    blob = bytes(enc.blob)
    compressed = compress_int_array(np.array([1, 2], np.int32))
    body = (struct.pack(">Q", 1) + b"A" + struct.pack(">Q", len(compressed)) + compressed
            + struct.pack(">Q", 2) + b"ZZ")
    assert blob == struct.pack("<Q", len(body)) + body
    assert enc.saved == 8 - len(compressed)
