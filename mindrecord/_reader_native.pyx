# distutils: language = c++
# distutils: sources = mindrecord/src/decode.cpp
"""Cython bindings of the reader's native half (mindrecord/src/decode.cpp).

Every function takes the memory-mapped shard file as a read-only uint8 buffer, works on it with
the GIL released, and raises FormatError (a ValueError carrying the shard-local row, or -1) when
the bytes do not match the format; the Python layer turns that into MindSpore's RuntimeError
naming the file.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libcpp cimport bool as cbool
from libcpp.string cimport string
from libcpp.vector cimport vector

import numpy as np


cdef extern from "decode.h" namespace "mrdecode" nogil:
    cdef struct RowGroup:
        int64_t raw_begin, raw_end, blob_begin, blob_end, count, first_row

    cdef struct RawField:
        const char* name
        int64_t name_len
        int32_t kind
        int32_t slot

    cbool build_row_table(const uint8_t* data, uint64_t size, const RowGroup* groups,
                          int64_t n_groups, int64_t n_rows, int64_t* raw_off, int64_t* raw_len,
                          int64_t* blob_off, int64_t* blob_len, string* err)
    cbool decode_raw_rows(const uint8_t* data, uint64_t size, int64_t n_rows,
                          const int64_t* raw_off, const int64_t* raw_len, const RawField* fields,
                          int32_t n_fields, int64_t* ints, double* floats, int64_t* strings,
                          int64_t* bad_row, string* err)
    cbool split_blobs(const uint8_t* data, uint64_t size, int64_t n_rows, const int64_t* blob_off,
                      const int64_t* blob_len, int32_t n_fields, int64_t* out_off,
                      int64_t* out_len, int64_t* bad_row, string* err)
    int64_t compressed_count(const uint8_t* p, uint64_t n, int32_t width, string* err)
    void decompress_ints(const uint8_t* p, int64_t count, int32_t width, void* out)


KIND_INT = 0
KIND_FLOAT = 1
KIND_STRING = 2

# An empty buffer has no address; functions that only bounds-check against it use this.
cdef uint8_t _EMPTY[1]


class FormatError(ValueError):
    """The bytes of a shard do not follow the MindRecord format; `row` is the shard-local row
    (-1 when not tied to one row)."""

    def __init__(self, message, row=-1):
        super().__init__(message)
        self.row = row


cdef inline const uint8_t* _ptr(const uint8_t[::1] data):
    return &data[0] if data.shape[0] > 0 else _EMPTY


def row_table(const uint8_t[::1] data, const int64_t[:, ::1] groups, int64_t n_rows):
    """groups: int64 [G, 6] = (raw_begin, raw_end, blob_begin, blob_end, count, first_row).
    Returns (raw_off, raw_len, blob_off, blob_len), int64 arrays of n_rows."""
    if groups.shape[0] > 0 and groups.shape[1] != 6:
        raise ValueError("groups must have 6 columns")
    raw_off = np.full(n_rows, -1, np.int64)
    raw_len = np.zeros(n_rows, np.int64)
    blob_off = np.full(n_rows, -1, np.int64)
    blob_len = np.zeros(n_rows, np.int64)
    cdef int64_t[::1] ro = raw_off, rl = raw_len, bo = blob_off, bl = blob_len
    cdef string err
    cdef cbool ok = True
    cdef const uint8_t* p = _ptr(data)
    cdef uint64_t size = data.shape[0]
    cdef int64_t n_groups = groups.shape[0]
    cdef const RowGroup* g = <const RowGroup*> &groups[0, 0] if n_groups > 0 else NULL
    cdef int64_t* rop = &ro[0] if n_rows > 0 else NULL
    cdef int64_t* rlp = &rl[0] if n_rows > 0 else NULL
    cdef int64_t* bop = &bo[0] if n_rows > 0 else NULL
    cdef int64_t* blp = &bl[0] if n_rows > 0 else NULL
    if n_groups > 0:
        with nogil:
            ok = build_row_table(p, size, g, n_groups, n_rows, rop, rlp, bop, blp, &err)
    if not ok:
        raise FormatError(err.decode("utf-8", "replace"))
    return raw_off, raw_len, blob_off, blob_len


def decode_raw(const uint8_t[::1] data, const int64_t[::1] raw_off, const int64_t[::1] raw_len,
               list names, list kinds):
    """Decodes every raw row. names: field names (str); kinds: KIND_* per field.
    Returns (ints [n_int, n], floats [n_float, n], strings [2*n_str, n]) with fields of each kind
    in the order given, strings as (absolute offset, length) row pairs."""
    cdef int64_t n_rows = raw_off.shape[0]
    if raw_len.shape[0] != n_rows or len(names) != len(kinds):
        raise ValueError("mismatched argument lengths")
    cdef vector[RawField] fields
    cdef RawField f
    encoded = [name.encode("utf-8") for name in names]
    counts = [0, 0, 0]
    for name_bytes, kind in zip(encoded, kinds):
        f.name = <const char*> name_bytes
        f.name_len = len(name_bytes)
        f.kind = kind
        f.slot = counts[kind]
        counts[kind] += 1
        fields.push_back(f)
    ints = np.zeros((counts[0], n_rows), np.int64)
    floats = np.zeros((counts[1], n_rows), np.float64)
    strings = np.zeros((2 * counts[2], n_rows), np.int64)
    cdef int64_t[:, ::1] iv = ints
    cdef double[:, ::1] fv = floats
    cdef int64_t[:, ::1] sv = strings
    cdef int64_t* ip = &iv[0, 0] if ints.size else NULL
    cdef double* fp = &fv[0, 0] if floats.size else NULL
    cdef int64_t* sp = &sv[0, 0] if strings.size else NULL
    cdef string err
    cdef int64_t bad_row = -1
    cdef cbool ok = True
    cdef const uint8_t* p = _ptr(data)
    cdef uint64_t size = data.shape[0]
    if n_rows > 0:
        with nogil:
            ok = decode_raw_rows(p, size, n_rows, &raw_off[0], &raw_len[0], fields.data(),
                                 <int32_t> fields.size(), ip, fp, sp, &bad_row, &err)
    if not ok:
        raise FormatError(err.decode("utf-8", "replace"), bad_row)
    return ints, floats, strings


def split(const uint8_t[::1] data, const int64_t[::1] blob_off, const int64_t[::1] blob_len,
          int32_t n_fields):
    """Splits row blobs of a schema with several blob fields. Returns (off, len), int64
    [n_fields, n_rows]."""
    cdef int64_t n_rows = blob_off.shape[0]
    if blob_len.shape[0] != n_rows:
        raise ValueError("mismatched argument lengths")
    offs = np.zeros((n_fields, n_rows), np.int64)
    lens = np.zeros((n_fields, n_rows), np.int64)
    cdef int64_t[:, ::1] ov = offs, lv = lens
    cdef string err
    cdef int64_t bad_row = -1
    cdef cbool ok = True
    cdef const uint8_t* p = _ptr(data)
    cdef uint64_t size = data.shape[0]
    if n_rows > 0 and n_fields > 0:
        with nogil:
            ok = split_blobs(p, size, n_rows, &blob_off[0], &blob_len[0], n_fields,
                             &ov[0, 0], &lv[0, 0], &bad_row, &err)
    if not ok:
        raise FormatError(err.decode("utf-8", "replace"), bad_row)
    return offs, lens


def decompress(const uint8_t[::1] data, int64_t offset, int64_t length, dtype):
    """Expands one compressed integer array stored at data[offset:offset+length] into a new
    1-D array of `dtype` (int32 or int64)."""
    dt = np.dtype(dtype)
    cdef int32_t width = dt.itemsize
    if dt.kind != "i" or width not in (4, 8):
        raise ValueError("dtype must be int32 or int64")
    if offset < 0 or length < 0 or offset > data.shape[0] - length:
        raise FormatError("compressed integer array lies outside the file")
    cdef string err
    cdef const uint8_t* p = _ptr(data) + offset
    cdef int64_t count
    with nogil:
        count = compressed_count(p, <uint64_t> length, width, &err)
    if count < 0:
        raise FormatError(err.decode("utf-8", "replace"))
    out = np.empty(count, dt)
    cdef uint8_t[::1] ov = out.view(np.uint8)
    if count > 0:
        with nogil:
            decompress_ints(p, count, width, &ov[0])
    return out
