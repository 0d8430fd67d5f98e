"""TFRecord files and ``tf.train.Example`` messages, read (and written, for tests and tools)
without TensorFlow.

Framing of one record: ``u64 length (LE) | u32 masked_crc32c(length bytes) | data |
u32 masked_crc32c(data)``. Both checksums are verified. ``data`` is a serialized
``tf.train.Example``: ``Example{features=1: Features{feature=1: map<string, Feature>}}``,
``Feature`` one of ``bytes_list=1``, ``float_list=2``, ``int64_list=3``, each a repeated
``value=1`` field (numbers packed or not; both are accepted, as protobuf requires).
"""
import os
import struct

import numpy as np

from .bad_input import BadItem

_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _TABLE.append(_c)


def masked_crc32c_py(data):
    """Pure-Python masked CRC-32C: the fallback when the native extension is not built."""
    crc = 0xFFFFFFFF
    for byte in bytes(data):
        crc = (crc >> 8) ^ _TABLE[(crc ^ byte) & 0xFF]
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


try:
    from ._crc32c import masked_crc32c
except ImportError:   # extension not built: slow, but correct
    masked_crc32c = masked_crc32c_py

_HEADER = struct.Struct("<QI")
_CRC = struct.Struct("<I")


class FramingError(ValueError):
    """The record framing is broken at ``offset``: nothing after it can be located."""

    def __init__(self, path, index, offset, reason, records=()):
        self.path, self.index, self.offset = path, index, offset
        self.records = list(records)     # the records before the break
        super().__init__(f"{path} record {index} (byte {offset}): {reason}")


def scan_records(path):
    """[(offset of data, length)] of every record of a TFRecord file.

    Checks each length's checksum and that every record lies inside the file; raises
    FramingError where the framing breaks. Data checksums are checked when records are read.
    """
    with open(path, "rb") as f:
        return scan_stream(f, os.path.getsize(path), path)


def scan_stream(f, size, path):
    """scan_records for an open, seekable binary file ``f`` of ``size`` bytes (for example a
    decompressed copy in a temporary file); ``path`` names it in errors."""
    records, offset, index = [], 0, 0
    while offset < size:
        if size - offset < _HEADER.size:
            raise FramingError(path, index, offset,
                               f"truncated record header ({size - offset} of 12 bytes)",
                               records)
        f.seek(offset)
        head = f.read(_HEADER.size)
        length, length_crc = _HEADER.unpack(head)
        if masked_crc32c(head[:8]) != length_crc:
            raise FramingError(path, index, offset, "length checksum mismatch "
                                                    "(corrupt file or not a TFRecord file)",
                               records)
        end = offset + _HEADER.size + length + _CRC.size
        if end > size:
            raise FramingError(path, index, offset, f"truncated record: {length} data "
                                                    f"bytes announced, file ends before",
                               records)
        records.append((offset + _HEADER.size, length))
        offset, index = end, index + 1
    return records


def read_record(f, path, index, offset, length):
    """One record's data (a memoryview) from open file ``f``, its checksum verified (BadItem
    if wrong)."""
    f.seek(offset)
    blob = f.read(length + _CRC.size)
    if len(blob) != length + _CRC.size:
        raise BadItem(f"{path} record {index}", "truncated record data")
    data = memoryview(blob)[:length]     # no copy: parse_example copies only the values
    if masked_crc32c(data) != _CRC.unpack_from(blob, length)[0]:
        raise BadItem(f"{path} record {index}", "data checksum mismatch (corrupt record)")
    return data


def frame_record(data):
    """One TFRecord record (framing around ``data``)."""
    head = struct.pack("<Q", len(data))
    return (head + struct.pack("<I", masked_crc32c(head)) + data +
            struct.pack("<I", masked_crc32c(data)))


def write_tfrecord(path, examples):
    """Write serialized records (bytes) or feature dicts (see encode_example) to ``path``."""
    with open(path, "wb") as f:
        for example in examples:
            f.write(frame_record(example if isinstance(example, bytes)
                                 else encode_example(example)))


# ---- protobuf wire format ------------------------------------------------------------------

def _varint(buf, pos, end):
    result = shift = 0
    while True:
        if pos >= end:
            raise ValueError("truncated varint")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise ValueError("varint too long")


def _fields(buf, start, end):
    """Yield (field number, wire type, value or (start, stop) for LEN fields)."""
    pos = start
    while pos < end:
        key = buf[pos]
        if key < 0x80:                      # one-byte key: every field number below 16
            pos += 1
        else:
            key, pos = _varint(buf, pos, end)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos, end)
        elif wire == 1:
            if pos + 8 > end:
                raise ValueError("truncated fixed64")
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            if pos < end and buf[pos] < 0x80:
                length, pos = buf[pos], pos + 1
            else:
                length, pos = _varint(buf, pos, end)
            if pos + length > end:
                raise ValueError("length-delimited field past the end of its message")
            value, pos = (pos, pos + length), pos + length
        elif wire == 5:
            if pos + 4 > end:
                raise ValueError("truncated fixed32")
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield number, wire, value


def _signed64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _parse_feature(buf, start, end):
    """(kind, values): kind "bytes" (list of bytes), "float" (float32 array), "int64" (list)."""
    for number, wire, value in _fields(buf, start, end):
        if number not in (1, 2, 3) or wire != 2:
            continue
        s, e = value
        if number == 1:
            return "bytes", [bytes(buf[a:b]) for n, w, (a, b) in _fields(buf, s, e)
                             if n == 1 and w == 2]
        if number == 2:
            parts = []
            for n, w, v in _fields(buf, s, e):
                if n != 1:
                    continue
                if w == 2:
                    if (v[1] - v[0]) % 4:
                        raise ValueError("packed float list length is not a multiple of 4")
                    parts.append(np.frombuffer(bytes(buf[v[0]:v[1]]), "<f4"))
                elif w == 5:
                    parts.append(np.frombuffer(bytes(v), "<f4"))
            return "float", (np.concatenate(parts) if parts else np.zeros(0, np.float32))
        ints = []
        for n, w, v in _fields(buf, s, e):
            if n != 1:
                continue
            if w == 2:
                pos, stop = v
                while pos < stop:
                    item, pos = _varint(buf, pos, stop)
                    ints.append(_signed64(item))
            elif w == 0:
                ints.append(_signed64(v))
        return "int64", ints
    return None, []


def parse_example(data):
    """``{name: (kind, values)}`` from a serialized tf.train.Example; ValueError if malformed."""
    buf = memoryview(data)
    features = {}
    for number, wire, value in _fields(buf, 0, len(buf)):
        if number != 1 or wire != 2:
            continue
        for n, w, (s, e) in ((n, w, v) for n, w, v in _fields(buf, *value) if w == 2):
            if n != 1:
                continue
            key, feature = None, (s, s)
            for fn, fw, fv in _fields(buf, s, e):
                if fn == 1 and fw == 2:
                    key = bytes(buf[fv[0]:fv[1]]).decode("utf-8")
                elif fn == 2 and fw == 2:
                    feature = fv
            if key is not None:
                features[key] = _parse_feature(buf, *feature)
    return features


def _len_field(number, payload):
    return _encode_varint(number << 3 | 2) + _encode_varint(len(payload)) + payload


def _encode_varint(v):
    out = bytearray()
    v &= (1 << 64) - 1
    while True:
        byte = v & 0x7F
        v >>= 7
        if v:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def encode_example(features):
    """Serialize ``{name: list of bytes | list of int | numpy float array/list of float}`` as a
    tf.train.Example (ints -> int64_list, floats -> float_list, bytes/str -> bytes_list)."""
    entries = b""
    for name, values in features.items():
        values = list(values) if not isinstance(values, np.ndarray) else values
        if isinstance(values, np.ndarray) and values.dtype.kind == "f" or \
                (len(values) and isinstance(values[0], float)):
            body = _len_field(1, np.asarray(values, "<f4").tobytes())
            feature = _len_field(2, body)
        elif len(values) and isinstance(values[0], (bytes, str)):
            body = b"".join(_len_field(1, v.encode() if isinstance(v, str) else v)
                            for v in values)
            feature = _len_field(1, body)
        else:
            body = _len_field(1, b"".join(_encode_varint(int(v)) for v in values))
            feature = _len_field(3, body)
        entries += _len_field(1, _len_field(1, name.encode()) + _len_field(2, feature))
    return _len_field(1, entries)
