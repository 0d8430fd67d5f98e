"""Protocol-buffers wire format (varints, keys, length-delimited fields), for the two codecs that
cannot use generated message classes: tf.train.Example in TFRecord files
(mindrecord.tools.tfrecord) and MindSpore's .ckpt files (training.ckpt_proto). Both parse
straight from a memory map or a record's bytes without copying the payloads, and write payloads
of any size without building the whole message.

Every length read is checked against the end of its message before use. Malformed input raises
``error`` (ValueError unless the caller passes a subclass), with the byte offset.
"""

VARINT, FIXED64, LEN, FIXED32 = 0, 1, 2, 5
_FIXED_SIZE = {FIXED64: 8, FIXED32: 4}


def encode_varint(value):
    """A varint's bytes; a negative value as int64 two's complement (ten bytes)."""
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def decode_varint(buf, pos, end, error=ValueError):
    """(value, position after it) of the varint at ``pos``; it must end before ``end``."""
    result = shift = 0
    while True:
        if pos >= end:
            raise error(f"truncated varint at byte {pos}")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise error(f"varint longer than 10 bytes at byte {pos}")


def signed64(value):
    """An int64 field's value from its (unsigned) varint."""
    return value - (1 << 64) if value >= 1 << 63 else value


def key(field, wire):
    return encode_varint(field << 3 | wire)


def len_prefix(field, length):
    """Key and length of a length-delimited field; its ``length`` payload bytes follow."""
    return key(field, LEN) + encode_varint(length)


def fields(buf, start, end, error=ValueError):
    """Yields (field number, wire type, value) for the fields of the message in
    ``buf[start:end]``: a varint's value, a length-delimited field's (start, stop), a fixed32 or
    fixed64 field's bytes."""
    pos = start
    while pos < end:
        tag = buf[pos]
        if tag < 0x80:                  # one-byte key: every field number below 16
            pos += 1
        else:
            tag, pos = decode_varint(buf, pos, end, error)
        field, wire = tag >> 3, tag & 7
        if field == 0:
            raise error(f"field number 0 at byte {pos}")
        if wire == VARINT:
            value, pos = decode_varint(buf, pos, end, error)
        elif wire == LEN:
            if pos < end and buf[pos] < 0x80:
                length, pos = buf[pos], pos + 1
            else:
                length, pos = decode_varint(buf, pos, end, error)
            if length > end - pos:
                raise error(f"field {field} declares {length} bytes at byte {pos}, but only "
                            f"{end - pos} remain in its message")
            value, pos = (pos, pos + length), pos + length
        elif wire in _FIXED_SIZE:
            size = _FIXED_SIZE[wire]
            if size > end - pos:
                raise error(f"truncated fixed{size * 8} field {field} at byte {pos}")
            value, pos = buf[pos:pos + size], pos + size
        else:
            raise error(f"unsupported wire type {wire} at byte {pos}")
        yield field, wire, value
