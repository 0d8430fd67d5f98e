"""Hand-written protocol-buffers wire codec for MindSpore's .ckpt format.

    message Checkpoint  { repeated Value value = 1; }
    message Value       { string tag = 1; TensorProto tensor = 2; }
    message TensorProto { repeated int64 dims = 1; string tensor_type = 2; bytes tensor_content = 3; }

A file is a concatenation of top-level `value` fields, so it is written one Value at a time and
read straight from a memory map: no 2 GB message limit, no full copy of the file. Every length
and offset read is checked against the buffer before use."""
import numpy as np

# MindSpore's tensor_type names and the numpy dtypes they map to.
TYPE_TO_DTYPE = {
    "Float16": np.float16, "Float32": np.float32, "Float64": np.float64,
    "Int8": np.int8, "Int16": np.int16, "Int32": np.int32, "Int64": np.int64,
    "UInt8": np.uint8, "UInt16": np.uint16, "UInt32": np.uint32, "UInt64": np.uint64,
    "Bool": np.bool_,
}
DTYPE_TO_TYPE = {np.dtype(v): k for k, v in TYPE_TO_DTYPE.items()}

_WIRE_VARINT, _WIRE_FIXED64, _WIRE_LEN, _WIRE_FIXED32 = 0, 1, 2, 5


class CheckpointFormatError(ValueError):
    """The bytes are not a valid checkpoint message."""


def encode_varint(value):
    if value < 0:
        value += 1 << 64  # int64 fields: two's complement in ten bytes
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def decode_varint(buf, pos, end):
    """(value, new_pos); raises CheckpointFormatError on truncation or over-long varints."""
    result = shift = 0
    while True:
        if pos >= end:
            raise CheckpointFormatError(f"truncated varint at byte {pos}")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise CheckpointFormatError(f"varint longer than 10 bytes at byte {pos}")


def _key(field, wire):
    return encode_varint((field << 3) | wire)


def _len_field(field, payload_len):
    return _key(field, _WIRE_LEN) + encode_varint(payload_len)


def value_header(tag, dims, tensor_type, content_len):
    """Bytes of one top-level Value field up to (not including) the tensor content, so the
    content (possibly gigabytes) can be written straight from the array's buffer."""
    tag_b = tag.encode("utf-8")
    type_b = tensor_type.encode("ascii")
    tensor = b"".join(_key(1, _WIRE_VARINT) + encode_varint(int(d)) for d in dims)
    tensor += _len_field(2, len(type_b)) + type_b + _len_field(3, content_len)
    tensor_len = len(tensor) + content_len
    value = _len_field(1, len(tag_b)) + tag_b + _len_field(2, tensor_len) + tensor
    return _len_field(1, len(value) + content_len) + value


def _skip(buf, pos, end, wire):
    if wire == _WIRE_VARINT:
        return decode_varint(buf, pos, end)[1]
    if wire == _WIRE_FIXED64:
        pos += 8
    elif wire == _WIRE_FIXED32:
        pos += 4
    elif wire == _WIRE_LEN:
        length, pos = decode_varint(buf, pos, end)
        pos += length
    else:
        raise CheckpointFormatError(f"unsupported wire type {wire} at byte {pos}")
    if pos > end:
        raise CheckpointFormatError(f"field runs past the end of its message (byte {pos} > {end})")
    return pos


def _fields(buf, pos, end):
    """Yields (field_number, wire_type, value_or_(start, stop)) for one message's extent."""
    while pos < end:
        key, pos = decode_varint(buf, pos, end)
        field, wire = key >> 3, key & 7
        if field == 0:
            raise CheckpointFormatError(f"field number 0 at byte {pos}")
        if wire == _WIRE_LEN:
            length, pos = decode_varint(buf, pos, end)
            if length > end - pos:
                raise CheckpointFormatError(f"field {field} declares {length} bytes at byte {pos}, "
                                            f"but only {end - pos} remain")
            yield field, wire, (pos, pos + length)
            pos += length
        elif wire == _WIRE_VARINT:
            value, pos = decode_varint(buf, pos, end)
            yield field, wire, value
        else:
            pos = _skip(buf, pos, end, wire)


def _signed64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _parse_tensor(buf, start, end):
    dims, ttype, content = [], None, (start, start)
    for field, wire, val in _fields(buf, start, end):
        if field == 1 and wire == _WIRE_VARINT:
            dims.append(_signed64(val))
        elif field == 1 and wire == _WIRE_LEN:  # packed dims, accepted too
            p, q = val
            while p < q:
                d, p = decode_varint(buf, p, q)
                dims.append(_signed64(d))
        elif field == 2 and wire == _WIRE_LEN:
            ttype = bytes(buf[val[0]:val[1]]).decode("ascii", errors="replace")
        elif field == 3 and wire == _WIRE_LEN:
            content = val
    return dims, ttype, content


def iter_values(buf):
    """Yields (tag, dims, tensor_type, (content_start, content_stop)) for each Value in `buf`
    (bytes, mmap or memoryview)."""
    for field, wire, val in _fields(buf, 0, len(buf)):
        if field != 1 or wire != _WIRE_LEN:
            continue
        tag, tensor = None, None
        for vfield, vwire, vval in _fields(buf, val[0], val[1]):
            if vfield == 1 and vwire == _WIRE_LEN:
                tag = bytes(buf[vval[0]:vval[1]]).decode("utf-8")
            elif vfield == 2 and vwire == _WIRE_LEN:
                tensor = _parse_tensor(buf, *vval)
        if tag is None or tensor is None:
            raise CheckpointFormatError(f"a Value at byte {val[0]} lacks its tag or tensor")
        yield (tag,) + tensor
