"""Compact, pickle-free encoding of one row (a tuple of numpy arrays) as one byte string.

Layout (little-endian):
    b"MDR1"  uint16 column count  uint16 zero
    per column: uint8 len(dtype.str), dtype.str (ascii, e.g. "<f4", "|u1", "<U7"),
                uint8 ndim, uint64 shape[ndim], uint64 nbytes
    zero padding to a 16-byte boundary, then each column's raw C-order bytes, each padded to 16
Column payloads start 16-byte aligned, so arrays decoded from one freshly allocated buffer are
aligned for native kernels. Object arrays (and structured dtypes) are refused: they would need
pickle, which the cache never uses."""
import struct

import numpy as np

MAGIC = b"MDR1"
ALIGN = 16
_HEAD = struct.Struct("<4sHH")
_U8 = struct.Struct("<B")
_U64 = struct.Struct("<Q")
_ALLOWED_KINDS = frozenset("biufcSUmM")


class RowDecodeError(ValueError):
    """A stored value is not a row this codec wrote (corruption or a foreign value)."""


def _pad(n):
    return (-n) % ALIGN


def encode_row(row, column_names=None):
    """Return (buffer, payload_nbytes) for a tuple/list of arrays; the buffer is a 1-D uint8
    array (any bytes-like consumer, LMDB included, takes it)."""
    if not isinstance(row, (tuple, list)):
        raise TypeError(f"a cached row must be a tuple of numpy arrays, got {type(row).__name__}")
    arrays = []
    for i, value in enumerate(row):
        arr = np.asarray(value)
        if not arr.flags.c_contiguous:
            arr = arr.copy(order="C")  # np.ascontiguousarray would turn 0-d arrays into 1-d
        if arr.dtype.kind not in _ALLOWED_KINDS or arr.dtype.fields is not None:
            col = column_names[i] if column_names and i < len(column_names) else i
            raise TypeError(f"column {col!r} has dtype {arr.dtype}, which the cache cannot store "
                            "without pickle; convert it to a numeric, bool or string array")
        arrays.append(arr)
    if len(arrays) > 0xFFFF:
        raise ValueError(f"a cached row has too many columns ({len(arrays)})")
    header = [_HEAD.pack(MAGIC, len(arrays), 0)]
    for arr in arrays:
        code = arr.dtype.str.encode("ascii")
        header.append(_U8.pack(len(code)))
        header.append(code)
        header.append(_U8.pack(arr.ndim))
        header.append(struct.pack(f"<{arr.ndim}Q", *arr.shape))
        header.append(_U64.pack(arr.nbytes))
    head = b"".join(header)
    start = len(head) + _pad(len(head))
    total = start + sum(a.nbytes + _pad(a.nbytes) for a in arrays)
    # One buffer filled by numpy copies (they release the GIL for large arrays), so encoding a
    # large row lets the pipeline's other threads run.
    out = np.empty(total, dtype=np.uint8)  # padding is zeroed below
    out[:len(head)] = np.frombuffer(head, dtype=np.uint8)
    out[len(head):start] = 0
    pos = start
    payload = 0
    for arr in arrays:
        n = arr.nbytes
        if n:
            out[pos:pos + n] = arr.reshape(-1).view(np.uint8)
        out[pos + n:pos + n + _pad(n)] = 0
        pos += n + _pad(n)
        payload += n
    return out, payload


def parse_layout(buf):
    """Where each column of an encoded row lies: (header bytes, [(dtype, shape, offset,
    nbytes)]), checked against the buffer's size. Rows of one stage usually share one header,
    so a reader of many rows parses it once and compares the next rows' header bytes."""
    view = memoryview(buf).cast("B")
    size = view.nbytes
    if size < _HEAD.size:
        raise RowDecodeError("value shorter than a row header")
    magic, ncols, _ = _HEAD.unpack_from(view, 0)
    if magic != MAGIC:
        raise RowDecodeError("value does not start with the row magic")
    pos = _HEAD.size
    specs = []
    for _ in range(ncols):
        if pos + 1 > size:
            raise RowDecodeError("truncated row header")
        (code_len,) = _U8.unpack_from(view, pos)
        pos += 1
        if pos + code_len + 1 > size:
            raise RowDecodeError("truncated dtype in row header")
        try:
            dtype = np.dtype(bytes(view[pos:pos + code_len]).decode("ascii"))
        except (TypeError, ValueError, UnicodeDecodeError) as exc:
            raise RowDecodeError(f"bad dtype in row header: {exc}") from None
        if dtype.kind not in _ALLOWED_KINDS or dtype.fields is not None:
            raise RowDecodeError(f"dtype {dtype} in row header is not one the cache writes")
        pos += code_len
        (ndim,) = _U8.unpack_from(view, pos)
        pos += 1
        if pos + 8 * ndim + 8 > size:
            raise RowDecodeError("truncated shape in row header")
        shape = struct.unpack_from(f"<{ndim}Q", view, pos)
        pos += 8 * ndim
        (nbytes,) = _U64.unpack_from(view, pos)
        pos += 8
        count = 1
        for dim in shape:
            count *= dim
        if count * dtype.itemsize != nbytes:
            raise RowDecodeError("row header shape does not match its byte count")
        specs.append([dtype, shape, 0, nbytes])
    header = bytes(view[:pos])
    pos += _pad(pos)
    for spec in specs:
        nbytes = spec[3]
        if pos + nbytes > size:
            raise RowDecodeError("row payload shorter than its header says")
        spec[2] = pos
        pos += nbytes + _pad(nbytes)
    return header, [tuple(spec) for spec in specs]


def decode_row(buf):
    """Decode from any buffer (bytes, memoryview into LMDB's map). Copies the value once into a
    fresh array so the columns stay valid and writable after the LMDB transaction ends (numpy
    releases the GIL for that copy, so other threads run meanwhile)."""
    src = np.frombuffer(buf, dtype=np.uint8)
    data = np.empty(src.size, dtype=np.uint8)
    np.copyto(data, src)
    _, specs = parse_layout(data)
    columns = []
    for dtype, shape, offset, nbytes in specs:
        if nbytes:
            arr = data[offset:offset + nbytes].view(dtype)
        else:
            arr = np.empty(0, dtype=dtype)
        columns.append(arr.reshape(shape))
    return tuple(columns)
