"""The native decoding primitives on hand-made bytes: integer-array decompression (§5.3),
msgpack raw rows (§4.2), blob splitting (§5.1) and row-table walking (§6)."""
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindrecord import _reader_native as native


def buf(data):
    return np.frombuffer(bytes(data), dtype=np.uint8)


SPEC_EXAMPLE = bytes.fromhex("00000005" "0680" "01" "ff" "2c01" "70110100" "00000080")


def test_decompress_spec_example():
    out = native.decompress(buf(SPEC_EXAMPLE), 0, len(SPEC_EXAMPLE), np.int32)
    assert out.dtype == np.int32
    assert out.tolist() == [1, -1, 300, 70000, -2 ** 31]


def test_decompress_int64_and_empty():
    data = bytes.fromhex("00000002" "c0") + struct.pack("<q", -2 ** 63) + b"\x05"
    assert native.decompress(buf(data), 0, len(data), np.int64).tolist() == [-2 ** 63, 5]
    assert native.decompress(buf(b"\0\0\0\0"), 0, 4, np.int64).size == 0


@pytest.mark.parametrize("data,dtype,message", [
    (b"\0\0\0", np.int32, "shorter than its 4-byte count"),
    (bytes.fromhex("00000001" "c0") + bytes(8), np.int32, "wider than the field type"),
    (bytes.fromhex("00000002" "00") + b"\1", np.int32, "describes"),
    (bytes.fromhex("ffffffff"), np.int64, "width map runs past"),
])
def test_decompress_rejects_bad_buffers(data, dtype, message):
    with pytest.raises(native.FormatError, match=message):
        native.decompress(buf(data), 0, len(data), dtype)


def test_decompress_checks_the_range_against_the_buffer():
    with pytest.raises(native.FormatError, match="outside the file"):
        native.decompress(buf(SPEC_EXAMPLE), 10, len(SPEC_EXAMPLE), np.int32)


def msgpack_str(s):
    b = s.encode()
    return bytes([0xA0 | len(b)]) + b if len(b) < 32 else b"\xd9" + bytes([len(b)]) + b


def decode(rows, names, kinds):
    data = b"".join(rows)
    offs = np.cumsum([0] + [len(r) for r in rows[:-1]]).astype(np.int64)
    lens = np.array([len(r) for r in rows], np.int64)
    return native.decode_raw(buf(data), offs, lens, names, kinds), data


def test_decode_every_integer_and_float_form():
    ints = [0, 127, 128, 65535, 2 ** 32 - 1, 2 ** 63 - 1, -1, -32, -33, -129, -32769,
            -2 ** 31 - 1]
    forms = [b"\x00", b"\x7f", b"\xcc\x80", b"\xcd\xff\xff", b"\xce\xff\xff\xff\xff",
             b"\xcf" + struct.pack(">Q", 2 ** 63 - 1), b"\xff", b"\xe0", b"\xd0\xdf",
             b"\xd1\xff\x7f", b"\xd2\xff\xff\x7f\xff", b"\xd3" + struct.pack(">q", -2 ** 31 - 1)]
    rows = [b"\x82" + msgpack_str("f") + b"\xca" + struct.pack(">f", 1.5) + msgpack_str("i") + f
            for f in forms]
    (i, f, s), _ = decode(rows, ["f", "i"], [native.KIND_FLOAT, native.KIND_INT])
    assert i[0].tolist() == ints
    assert f[0].tolist() == [1.5] * len(ints)


def test_decode_strings_point_into_the_buffer():
    rows = [b"\x81" + msgpack_str("s") + msgpack_str(text) for text in ("", "héllo", "x" * 40)]
    (i, f, s), data = decode(rows, ["s"], [native.KIND_STRING])
    got = [data[o:o + n].decode() for o, n in zip(s[0], s[1])]
    assert got == ["", "héllo", "x" * 40]


def test_decode_skips_keys_outside_the_schema():
    rows = [b"\x82" + msgpack_str("id") + b"\x00" + msgpack_str("v") + b"\xcb" +
            struct.pack(">d", 0.1)]
    (i, f, s), _ = decode(rows, ["v"], [native.KIND_FLOAT])
    assert f[0].tolist() == [0.1]


def test_decode_takes_nil_rows_of_a_schema_without_raw_fields():
    """MindSpore's Dataset.save writes msgpack nil (0xc0) as the raw row when every field is a
    blob (measured on files saved by MindSpore 2.10); with raw fields expected, nil lacks them."""
    (i, f, s), _ = decode([b"\xc0", b"\xc0"], [], [])
    assert i.shape[-1] == f.shape[-1] == 2
    with pytest.raises(native.FormatError, match="'a' is missing") as err:
        decode([b"\xc0"], ["a"], [native.KIND_INT])
    assert err.value.row == 0
    with pytest.raises(native.FormatError, match="not a msgpack map"):
        decode([b"\xc0\x00"], [], [])


@pytest.mark.parametrize("row,message", [
    (b"\x81" + msgpack_str("a") + msgpack_str("x"), "does not hold an integer"),
    (b"\x81" + msgpack_str("b") + b"\x01", "'a' is missing"),
    (b"\x81" + msgpack_str("a") + b"\x91\x01", "malformed msgpack value"),
    (b"\x81" + msgpack_str("a") + b"\x01\x00", "trailing bytes"),
    (b"\x8f" + msgpack_str("a") + b"\x01", "exceeds the row"),
    (b"\x81" + msgpack_str("a") + b"\xcd\x01", "malformed msgpack value"),
    (b"\x91\x01", "not a msgpack map"),
    (b"", "empty raw row"),
    (b"\x81" + msgpack_str("a") + b"\xcf" + b"\xff" * 8, "does not hold an integer"),
])
def test_decode_rejects_bad_rows(row, message):
    with pytest.raises(native.FormatError, match=message) as err:
        decode([b"\x81" + msgpack_str("a") + b"\x01", row], ["a"], [native.KIND_INT])
    assert err.value.row == 1


def test_split_blob_fields():
    row = struct.pack(">Q", 2) + b"ab" + struct.pack(">Q", 0) + struct.pack(">Q", 1) + b"z"
    offs, lens = native.split(buf(row), np.array([0], np.int64), np.array([len(row)], np.int64), 3)
    assert [row[o:o + n] for o, n in zip(offs[:, 0], lens[:, 0])] == [b"ab", b"", b"z"]
    with pytest.raises(native.FormatError, match="trailing bytes"):
        native.split(buf(row), np.array([0], np.int64), np.array([len(row)], np.int64), 2)
    with pytest.raises(native.FormatError, match="runs past the row"):
        native.split(buf(row), np.array([0], np.int64), np.array([len(row)], np.int64), 4)


def test_row_table_walks_length_prefixes():
    raw = struct.pack("<Q", 3) + b"abc" + struct.pack("<Q", 1) + b"d"
    blob = struct.pack("<Q", 2) + b"XY" + struct.pack("<Q", 0)
    data = raw + blob
    groups = np.array([[0, len(raw), len(raw), len(data), 2, 0]], np.int64)
    ro, rl, bo, bl = native.row_table(buf(data), groups, 2)
    assert [data[o:o + n] for o, n in zip(ro, rl)] == [b"abc", b"d"]
    assert [data[o:o + n] for o, n in zip(bo, bl)] == [b"XY", b""]


@pytest.mark.parametrize("group,message", [
    ([0, 100, 0, 10, 1, 0], "outside the file"),
    ([0, 12, 12, 22, 2, 0], "runs past the end of its page"),
    ([0, 12, 12, 22, 1, 5], "row ids outside"),
])
def test_row_table_rejects_groups_that_do_not_fit(group, message):
    data = struct.pack("<Q", 4) + b"abcd" + struct.pack("<Q", 2) + b"XY"
    with pytest.raises(native.FormatError, match=message):
        native.row_table(buf(data), np.array([group], np.int64), 2)


@settings(deadline=None, max_examples=300)
@given(st.binary(max_size=12) | st.text(max_size=6).map(lambda t: t.encode("utf-8")))
def test_strings_are_checked_as_strictly_as_python_decodes_utf8(raw):
    row = b"\x81" + msgpack_str("s") + b"\xd9" + bytes([len(raw)]) + raw
    try:
        raw.decode("utf-8")
        python_ok = True
    except UnicodeDecodeError:
        python_ok = False
    try:
        decode([row], ["s"], [native.KIND_STRING])
        native_ok = True
    except native.FormatError as e:
        assert "not valid UTF-8" in str(e)
        native_ok = False
    assert native_ok == python_ok
