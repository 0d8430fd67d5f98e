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

import google_crc32c
import numpy as np

from .. import protowire
from .bad_input import BadItem


def masked_crc32c(data):
    """TFRecord's masked CRC-32C of ``data`` (bytes). google-crc32c computes the CRC, with the
    CPU's CRC instructions where it can."""
    crc = google_crc32c.value(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


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
    data = f.read(length)    # bytes, as google-crc32c takes them, so there is nothing to copy
    f.seek(offset + length)
    crc = f.read(_CRC.size)
    if len(data) != length or len(crc) != _CRC.size:
        raise BadItem(f"{path} record {index}", "truncated record data")
    if masked_crc32c(data) != _CRC.unpack(crc)[0]:
        raise BadItem(f"{path} record {index}", "data checksum mismatch (corrupt record)")
    return memoryview(data)     # parse_example copies only the values


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


# ---- tf.train.Example (wire primitives: mindrecord.protowire) ------------------------------

def _parse_feature(buf, start, end):
    """(kind, values): kind "bytes" (list of bytes), "float" (float32 array), "int64" (list)."""
    for number, wire, value in protowire.fields(buf, start, end):
        if number not in (1, 2, 3) or wire != 2:
            continue
        s, e = value
        if number == 1:
            return "bytes", [bytes(buf[a:b]) for n, w, (a, b) in protowire.fields(buf, s, e)
                             if n == 1 and w == 2]
        if number == 2:
            parts = []
            for n, w, v in protowire.fields(buf, s, e):
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
        for n, w, v in protowire.fields(buf, s, e):
            if n != 1:
                continue
            if w == 2:
                pos, stop = v
                while pos < stop:
                    item, pos = protowire.decode_varint(buf, pos, stop)
                    ints.append(protowire.signed64(item))
            elif w == 0:
                ints.append(protowire.signed64(v))
        return "int64", ints
    return None, []


def parse_example(data):
    """``{name: (kind, values)}`` from a serialized tf.train.Example; ValueError if malformed."""
    buf = memoryview(data)
    features = {}
    for number, wire, value in protowire.fields(buf, 0, len(buf)):
        if number != 1 or wire != 2:
            continue
        for n, w, (s, e) in ((n, w, v) for n, w, v in protowire.fields(buf, *value) if w == 2):
            if n != 1:
                continue
            key, feature = None, (s, s)
            for fn, fw, fv in protowire.fields(buf, s, e):
                if fn == 1 and fw == 2:
                    key = bytes(buf[fv[0]:fv[1]]).decode("utf-8")
                elif fn == 2 and fw == 2:
                    feature = fv
            if key is not None:
                features[key] = _parse_feature(buf, *feature)
    return features


def _len_field(number, payload):
    return protowire.len_prefix(number, len(payload)) + payload


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
            body = _len_field(1, b"".join(protowire.encode_varint(int(v)) for v in values))
            feature = _len_field(3, body)
        entries += _len_field(1, _len_field(1, name.encode()) + _len_field(2, feature))
    return _len_field(1, entries)
