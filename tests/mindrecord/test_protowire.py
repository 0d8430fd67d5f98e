"""mindrecord.protowire: the one varint / field codec behind the TFRecord Example and .ckpt
codecs. Checked against the `protobuf` package's own encoding, and on malformed input."""
import pytest
from google.protobuf import struct_pb2, wrappers_pb2

from mindrecord import protowire


# Not 0: proto3 leaves a field at its default out of the message.
@pytest.mark.parametrize("value", [1, 127, 128, 300, 2**31, 2**63 - 1, -1, -2**63])
def test_varint_matches_protobuf(value):
    # Int64Value{value=1}: key 0x08, then the varint protobuf writes for the int64.
    expected = wrappers_pb2.Int64Value(value=value).SerializeToString()
    assert protowire.key(1, protowire.VARINT) + protowire.encode_varint(value) == expected
    decoded, end = protowire.decode_varint(expected, 1, len(expected))
    assert end == len(expected) and protowire.signed64(decoded) == value


def test_fields_of_a_protobuf_message():
    msg = struct_pb2.Value(string_value="héllo").SerializeToString()      # field 3, LEN
    assert [(f, w) for f, w, _ in protowire.fields(msg, 0, len(msg))] == [(3, protowire.LEN)]
    (_, _, (start, stop)), = protowire.fields(msg, 0, len(msg))
    assert msg[start:stop].decode() == "héllo"
    num = struct_pb2.Value(number_value=2.5).SerializeToString()         # field 2, fixed64
    assert list(protowire.fields(num, 0, len(num))) == [(2, protowire.FIXED64, num[1:])]
    prefix = protowire.len_prefix(3, 6)
    assert prefix + "héllo".encode() == msg


class Corrupt(ValueError):
    pass


@pytest.mark.parametrize("data, message", [
    (b"\x08", "truncated varint at byte 1"),
    (b"\x08" + b"\xff" * 10 + b"\x01", "varint longer than 10 bytes"),
    (b"\x12\x05abc", "declares 5 bytes at byte 2, but only 3 remain"),
    (b"\x11\x00\x00", "truncated fixed64"),
    (b"\x15\x00", "truncated fixed32"),
    (b"\x00\x01", "field number 0"),
    (b"\x0b", "unsupported wire type 3"),
])
def test_malformed_input_raises_the_callers_error(data, message):
    with pytest.raises(Corrupt, match=message):
        list(protowire.fields(data, 0, len(data), Corrupt))
    with pytest.raises(ValueError, match=message):
        list(protowire.fields(data, 0, len(data)))


def test_a_field_may_not_run_past_its_message_end():
    data = b"\x12\x03abc\x08\x01"
    assert len(list(protowire.fields(data, 0, len(data)))) == 2
    with pytest.raises(ValueError, match="declares 3 bytes"):
        list(protowire.fields(data, 0, 4))
