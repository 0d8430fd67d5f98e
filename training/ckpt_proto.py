"""Protocol-buffers codec for MindSpore's .ckpt format (wire primitives: mindrecord.protowire).

    message Checkpoint  { repeated Value value = 1; }
    message Value       { string tag = 1; TensorProto tensor = 2; }
    message TensorProto { repeated int64 dims = 1; string tensor_type = 2; bytes tensor_content = 3; }

A file is a concatenation of top-level `value` fields, so it is written one Value at a time and
read straight from a memory map: no 2 GB message limit, no full copy of the file. Every length
and offset read is checked against the buffer before use.

Why not a class generated from these messages by the `protobuf` package: it parses a whole
file into one message (every tensor copied, at most 2 GB) and needs each tensor copied into a
message before writing it. The bytes written here are protobuf's canonical encoding, the
same as MindSpore's own (tests/training/test_ckpt_files.py compares them with its files)."""
import numpy as np

from mindrecord import protowire as wire

# MindSpore's tensor_type names and the numpy dtypes they map to.
TYPE_TO_DTYPE = {
    "Float16": np.float16, "Float32": np.float32, "Float64": np.float64,
    "Int8": np.int8, "Int16": np.int16, "Int32": np.int32, "Int64": np.int64,
    "UInt8": np.uint8, "UInt16": np.uint16, "UInt32": np.uint32, "UInt64": np.uint64,
    "Bool": np.bool_,
}
DTYPE_TO_TYPE = {np.dtype(v): k for k, v in TYPE_TO_DTYPE.items()}


class CheckpointFormatError(ValueError):
    """The bytes are not a valid checkpoint message."""


def value_header(tag, dims, tensor_type, content_len):
    """Bytes of one top-level Value field up to (not including) the tensor content, so the
    content (possibly gigabytes) can be written straight from the array's buffer."""
    tag_b = tag.encode("utf-8")
    type_b = tensor_type.encode("ascii")
    tensor = b"".join(wire.key(1, wire.VARINT) + wire.encode_varint(int(d)) for d in dims)
    tensor += wire.len_prefix(2, len(type_b)) + type_b + wire.len_prefix(3, content_len)
    tensor_len = len(tensor) + content_len
    value = wire.len_prefix(1, len(tag_b)) + tag_b + wire.len_prefix(2, tensor_len) + tensor
    return wire.len_prefix(1, len(value) + content_len) + value


def _fields(buf, start, end):
    return wire.fields(buf, start, end, CheckpointFormatError)


def _parse_tensor(buf, start, end):
    dims, ttype, content = [], None, (start, start)
    for field, kind, val in _fields(buf, start, end):
        if field == 1 and kind == wire.VARINT:
            dims.append(wire.signed64(val))
        elif field == 1 and kind == wire.LEN:  # packed dims, accepted too
            p, q = val
            while p < q:
                d, p = wire.decode_varint(buf, p, q, CheckpointFormatError)
                dims.append(wire.signed64(d))
        elif field == 2 and kind == wire.LEN:
            ttype = bytes(buf[val[0]:val[1]]).decode("ascii", errors="replace")
        elif field == 3 and kind == wire.LEN:
            content = val
    return dims, ttype, content


def iter_values(buf):
    """Yields (tag, dims, tensor_type, (content_start, content_stop)) for each Value in `buf`
    (bytes, mmap or memoryview)."""
    for field, kind, val in _fields(buf, 0, len(buf)):
        if field != 1 or kind != wire.LEN:
            continue
        tag, tensor = None, None
        for vfield, vkind, vval in _fields(buf, val[0], val[1]):
            if vfield == 1 and vkind == wire.LEN:
                tag = bytes(buf[vval[0]:vval[1]]).decode("utf-8")
            elif vfield == 2 and vkind == wire.LEN:
                tensor = _parse_tensor(buf, *vval)
        if tag is None or tensor is None:
            raise CheckpointFormatError(f"a Value at byte {val[0]} lacks its tag or tensor")
        yield (tag,) + tensor
