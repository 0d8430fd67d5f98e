# distutils: sources = mindrecord/src/encode.cpp
# cython: language_level=3
"""Native half of the MindRecord writer: turns a list of row dicts into the two byte streams
the pages are cut from (raw rows as MessagePack, blob rows as bytes), and cuts row groups.

Per row, only type checks and value extraction run with the GIL held; copying and compressing
blob bytes runs in C++ with the GIL released (on several threads when asked). A row that fails
the checks is reported by index; writer_validate.describe_bad_row explains it in words.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libcpp.string cimport string
from libcpp.vector cimport vector

import numpy as np
cimport numpy as cnp

cnp.import_array()

cdef extern from "encode.h" namespace "mdwriter" nogil:
    cdef struct BlobRef:
        const uint8_t* data
        uint64_t nbytes
        int32_t compress_width
    void mp_map_header(string& out, uint64_t n)
    void mp_str(string& out, const char* data, uint64_t length)
    void mp_int(string& out, int64_t v)
    void mp_double(string& out, double v)
    void put_u64_le(string& out, uint64_t v)
    void patch_u64_le(string& out, size_t pos, uint64_t v)
    int64_t blob_sizes(const BlobRef* refs, uint64_t nrows, int nfields, uint64_t* sizes,
                       int nthreads)
    void fill_blob_stream(const BlobRef* refs, uint64_t nrows, int nfields,
                          const uint64_t* sizes, const uint64_t* offsets, uint8_t* out,
                          int nthreads)
    uint64_t cut_row_groups(const uint64_t* blob_sizes, const uint64_t* raw_sizes, uint64_t n,
                            uint64_t nb, uint64_t nr, uint64_t page_size, uint64_t* starts)
    uint64_t compress_ints(const void* data, uint64_t n, int width, uint8_t* out)
    uint64_t compressed_size(const void* data, uint64_t n, int width)
    int write_direct_rows(int fd, const BlobRef* refs, uint64_t begin, uint64_t end,
                          uint64_t offset)
    int write_all(int fd, const uint8_t* data, uint64_t length, uint64_t offset)

# Field kinds.
DEF K_INT32 = 0
DEF K_INT64 = 1
DEF K_FLOAT32 = 2
DEF K_FLOAT64 = 3
DEF K_STRING = 4
DEF K_BYTES = 5
DEF K_ARRAY = 6

cdef dict _SCALAR_KINDS = {"int32": K_INT32, "int64": K_INT64, "float32": K_FLOAT32,
                           "float64": K_FLOAT64, "string": K_STRING, "bytes": K_BYTES}
cdef dict _ARRAY_DTYPES = {"int32": np.dtype(np.int32), "int64": np.dtype(np.int64),
                           "float32": np.dtype(np.float32), "float64": np.dtype(np.float64)}

cdef uint64_t _BYTES_PER_THREAD = 16 << 20
cdef int64_t INT32_MIN = -2147483648
cdef int64_t INT32_MAX = 2147483647

_np_integer = np.integer
_np_floating = np.floating
_np_ndarray = np.ndarray
# int/float subclasses (IntEnum, numpy scalars) are taken by value; bool is not a number here.
_int_types = (int, np.integer)
_float_types = (float, np.floating)


cdef class EncodedRows:
    """The encoded rows of one write call.

    raw: bytes, items "u64 LE n + msgpack"; raw_offsets[i]: start of row i (n+1 entries).
    blob_offsets: where each "u64 LE n + row blob" item starts in the blob stream (n+1).
    The blob stream is either materialised (blob, a uint8 array) or, with a single
    uncompressed blob field, written straight from the callers' buffers (write_blob).
    kept: original indices of the rows encoded (all rows unless bad rows were skipped).
    bad: indices of skipped rows. index_values: one list per index field, in index order.
    saved: bytes saved by integer-array compression over these rows (may be negative).
    """
    cdef public object raw, raw_offsets, blob, blob_offsets, kept, bad, index_values, saved
    cdef vector[BlobRef] refs
    cdef list keep_alive

    def __len__(self):
        return len(self.kept)

    def write_blob(self, int fd, uint64_t begin, uint64_t end, uint64_t offset):
        """Write the blob items of rows [begin, end) at file offset `offset`."""
        cdef int err = 0
        cdef const uint8_t* data
        cdef uint64_t lo, hi
        if end <= begin:
            return
        if self.blob is None:
            if end > self.refs.size():
                raise IndexError("row range outside the encoded rows")
            with nogil:
                err = write_direct_rows(fd, self.refs.data(), begin, end, offset)
        else:
            lo = self.blob_offsets[begin]
            hi = self.blob_offsets[end]
            data = <const uint8_t*>cnp.PyArray_DATA(self.blob) + lo
            with nogil:
                err = write_all(fd, data, hi - lo, offset)
        if err:
            raise OSError(err, f"writing blob rows {begin}..{end} failed")

    def release(self):
        """Drop the references to the callers' buffers once every page is written."""
        self.refs.clear()
        self.keep_alive = None


cdef class RowEncoder:
    """Encoder for one schema. fields: sorted raw names; blob fields sorted too."""
    cdef list raw_names, raw_keys, blob_names, blob_dtypes, blob_shapes
    cdef vector[int] raw_kinds, blob_kinds, blob_widths
    cdef vector[int] index_pos          # position in raw_names of each index field
    cdef bint compress
    cdef public list index_fields

    def __init__(self, dict schema, list index_fields, bint compress):
        self.raw_names = sorted(n for n, s in schema.items()
                                if "shape" not in s and s["type"] != "bytes")
        self.blob_names = sorted(n for n, s in schema.items()
                                 if "shape" in s or s["type"] == "bytes")
        self.raw_keys = []
        for name in self.raw_names:
            self.raw_kinds.push_back(_SCALAR_KINDS[schema[name]["type"]])
            self.raw_keys.append(name.encode("utf-8"))
        self.blob_dtypes = []
        self.blob_shapes = []
        for name in self.blob_names:
            spec = schema[name]
            if "shape" in spec:
                self.blob_kinds.push_back(K_ARRAY)
                dtype = _ARRAY_DTYPES[spec["type"]]
                self.blob_dtypes.append(dtype)
                self.blob_shapes.append(list(spec["shape"]))
                if compress and spec["type"] in ("int32", "int64"):
                    self.blob_widths.push_back(dtype.itemsize)
                else:
                    self.blob_widths.push_back(0)
            else:
                self.blob_kinds.push_back(K_BYTES)
                self.blob_dtypes.append(None)
                self.blob_shapes.append(None)
                self.blob_widths.push_back(0)
        self.index_fields = list(index_fields)
        for name in index_fields:
            self.index_pos.push_back(self.raw_names.index(name))
        self.compress = compress

    def encode(self, list rows, bint skip_bad_rows=False, int nthreads=1,
               bint copy_mutable=False):
        """Encode rows; a bad row raises _BadRow(i) unless skip_bad_rows (then it is listed).

        With copy_mutable, blob values that the caller could change after the call returns
        (arrays, bytearrays) are always copied, because the pages are written later."""
        cdef string raw
        cdef vector[uint64_t] raw_offsets
        cdef vector[BlobRef] refs
        cdef BlobRef ref
        cdef Py_ssize_t i, j, nraw = len(self.raw_names), nblob = len(self.blob_names)
        cdef Py_ssize_t nidx = self.index_pos.size()
        cdef size_t row_start
        cdef int kind, overflow
        cdef long long ival
        cdef double dval
        cdef const char* sptr
        cdef Py_ssize_t slen
        cdef cnp.ndarray arr
        cdef object v, t
        cdef dict row
        cdef list keep_alive = []
        cdef list kept = []
        cdef list bad = []
        cdef list index_values = [[] for _ in range(nidx)]
        cdef list row_values = [None] * nraw
        cdef bint ok
        cdef uint64_t total_bytes = 0
        cdef bint all_immutable = True

        raw.reserve(len(rows) * (16 + 24 * nraw))
        for i in range(len(rows)):
            row = rows[i]
            row_start = raw.size()
            put_u64_le(raw, 0)
            ok = True
            if nraw == 0:
                mp_map_header(raw, 1)
                mp_str(raw, b"id", 2)
                mp_int(raw, 0)
            else:
                mp_map_header(raw, nraw)
            for j in range(nraw):
                v = row.get(self.raw_names[j], _MISSING)
                kind = self.raw_kinds[j]
                t = type(v)
                key = <bytes>self.raw_keys[j]
                mp_str(raw, PyBytes_AS_STRING(key), PyBytes_GET_SIZE(key))
                if kind == K_INT32 or kind == K_INT64:
                    if t is not int:
                        if t is bool or not isinstance(v, _int_types):
                            ok = False
                            break
                        v = int(v)
                    ival = PyLong_AsLongLongAndOverflow(v, &overflow)
                    if overflow != 0 or (kind == K_INT32 and (ival < INT32_MIN or ival > INT32_MAX)):
                        ok = False
                        break
                    mp_int(raw, ival)
                    row_values[j] = v
                elif kind == K_FLOAT32 or kind == K_FLOAT64:
                    if t is float:
                        dval = PyFloat_AS_DOUBLE(v)
                    elif isinstance(v, _float_types):
                        v = float(v)
                        dval = PyFloat_AS_DOUBLE(v)
                    elif t is not bool and isinstance(v, _int_types):
                        # Accepted only when the float holds the integer exactly.
                        try:
                            dval = float(v)
                        except OverflowError:
                            ok = False
                            break
                        if dval != v:
                            ok = False
                            break
                        v = dval
                    else:
                        ok = False
                        break
                    mp_double(raw, dval)
                    row_values[j] = v
                else:  # K_STRING
                    if not isinstance(v, str):
                        ok = False
                        break
                    try:
                        sptr = PyUnicode_AsUTF8AndSize(v, &slen)
                    except UnicodeEncodeError:
                        ok = False
                        break
                    mp_str(raw, sptr, <uint64_t>slen)
                    row_values[j] = v
            if ok:
                for j in range(nblob):
                    v = row.get(self.blob_names[j], _MISSING)
                    kind = self.blob_kinds[j]
                    ref.compress_width = 0
                    if kind == K_BYTES:
                        if isinstance(v, bytes):
                            ref.data = <const uint8_t*>PyBytes_AS_STRING(v)
                            ref.nbytes = <uint64_t>PyBytes_GET_SIZE(v)
                        elif isinstance(v, bytearray):
                            all_immutable = False
                            ref.data = <const uint8_t*>PyByteArray_AS_STRING(v)
                            ref.nbytes = <uint64_t>PyByteArray_GET_SIZE(v)
                        else:
                            ok = False
                            break
                    else:
                        if not isinstance(v, _np_ndarray):
                            ok = False
                            break
                        arr = <cnp.ndarray>v
                        if arr.dtype != self.blob_dtypes[j] or not _shape_ok(
                                self.blob_shapes[j], arr.size):
                            ok = False
                            break
                        if not cnp.PyArray_IS_C_CONTIGUOUS(arr):
                            arr = np.ascontiguousarray(arr)
                            v = arr
                        ref.data = <const uint8_t*>cnp.PyArray_DATA(arr)
                        ref.nbytes = <uint64_t>cnp.PyArray_NBYTES(arr)
                        ref.compress_width = self.blob_widths[j]
                        all_immutable = False
                    keep_alive.append(v)
                    refs.push_back(ref)
                    total_bytes += ref.nbytes
            if not ok:
                raw.resize(row_start)
                refs.resize(len(kept) * nblob)
                if not skip_bad_rows:
                    raise _BadRow(i)
                bad.append(i)
                continue
            patch_u64_le(raw, row_start, raw.size() - row_start - 8)
            raw_offsets.push_back(row_start)
            kept.append(i)
            for j in range(nidx):
                (<list>index_values[j]).append(row_values[self.index_pos[j]])

        cdef uint64_t n = len(kept)
        raw_offsets.push_back(raw.size())
        cdef EncodedRows out = EncodedRows()
        out.raw = PyBytes_FromStringAndSize(raw.data(), raw.size())
        out.raw_offsets = np.asarray(<uint64_t[:n + 1]>raw_offsets.data()).astype(np.int64)
        out.kept = kept
        out.bad = bad
        out.index_values = index_values

        cdef cnp.ndarray[cnp.uint64_t, ndim=1] sizes = np.empty(n, dtype=np.uint64)
        cdef int64_t saved = 0
        cdef int nf = <int>nblob
        cdef const BlobRef* refs_ptr = refs.data()
        # Threads pay off only for large copies (starting one costs more than copying a few
        # MB on a busy machine).
        nthreads = max(1, min(nthreads, <int>(total_bytes // _BYTES_PER_THREAD)))
        cdef uint64_t* sizes_ptr = <uint64_t*>cnp.PyArray_DATA(sizes)
        with nogil:
            saved = blob_sizes(refs_ptr, n, nf, sizes_ptr, nthreads)
        cdef cnp.ndarray[cnp.int64_t, ndim=1] offsets = np.zeros(n + 1, dtype=np.int64)
        if n:
            np.cumsum(sizes.astype(np.int64) + 8, out=offsets[1:])
        out.blob_offsets = offsets
        out.saved = saved
        cdef cnp.ndarray blob
        cdef const uint64_t* offsets_ptr
        cdef uint8_t* blob_ptr
        if nblob == 1 and self.blob_widths[0] == 0 and (all_immutable or not copy_mutable):
            # The row blob is the value itself: no copy, pages are written from the buffers.
            out.blob = None
            out.refs.swap(refs)
            out.keep_alive = keep_alive
            return out
        blob = np.empty(offsets[n], dtype=np.uint8)
        offsets_ptr = <const uint64_t*>cnp.PyArray_DATA(offsets)
        blob_ptr = <uint8_t*>cnp.PyArray_DATA(blob)
        with nogil:
            fill_blob_stream(refs_ptr, n, nf, sizes_ptr, offsets_ptr, blob_ptr, nthreads)
        out.blob = blob
        return out


cdef object _MISSING = object()


class _BadRow(Exception):
    """Row `index` of a write call does not match the schema (explained by the caller)."""

    def __init__(self, index):
        super().__init__(index)
        self.index = index


cdef bint _shape_ok(list shape, Py_ssize_t size):
    # Python integers: a schema shape's element count may exceed 64 bits.
    known = 1
    variable = False
    for dim in shape:
        if dim == -1:
            variable = True
        else:
            known *= dim
    if variable:
        return known > 0 and size % known == 0
    return size == known


def cut_groups(cnp.int64_t[::1] blob_sizes, cnp.int64_t[::1] raw_sizes, uint64_t nb,
               uint64_t nr, uint64_t page_size):
    """Start index of every row group after group 0 (section 6, step 2); sizes include the
    8-byte length prefix."""
    cdef uint64_t n = blob_sizes.shape[0]
    starts = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] s = starts
    cdef uint64_t count = 0
    if n:
        with nogil:
            count = cut_row_groups(<const uint64_t*>&blob_sizes[0], <const uint64_t*>&raw_sizes[0],
                                   n, nb, nr, page_size, &s[0])
    return starts[:count].astype(np.int64)


def compress_int_array(cnp.ndarray arr):
    """Compressed bytes of a C-contiguous int32/int64 array (section 5.3), for tests/tools."""
    arr = np.ascontiguousarray(arr)
    cdef int width = arr.dtype.itemsize
    if arr.dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"compress_int_array expects an int32 or int64 array, got {arr.dtype}")
    cdef uint64_t n = arr.size
    cdef const void* src = cnp.PyArray_DATA(arr)
    out = bytearray(compressed_size(src, n, width))
    cdef uint8_t* dst = <uint8_t*>PyByteArray_AS_STRING(out)
    with nogil:
        compress_ints(src, n, width, dst)
    return bytes(out)
