// Native half of the MindRecord reader: row-table building, msgpack decoding of raw rows,
// blob splitting and integer-array decompression (mindrecord-format.md §4-§6).
//
// Every function reads only inside [data, data + size): each length and offset taken from the
// file is checked before it is used. None of them throws or touches Python, so the Cython layer
// calls them with the GIL released. On failure they return false and describe the problem in
// *err (the caller adds the file name).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mrdecode {

// One row group as the header describes it, in absolute file offsets:
// raw rows are read from [raw_begin, raw_end), blob rows from [blob_begin, blob_end);
// `count` rows, shard-local ids first_row .. first_row + count - 1.
struct RowGroup {
    int64_t raw_begin, raw_end, blob_begin, blob_end, count, first_row;
};

// Walks the u64-LE length prefixes of every group and records, per shard-local row id, the
// absolute offset and length of its msgpack payload and of its blob payload (prefix excluded).
// Row ids must lie in [0, n_rows); the caller has checked that the groups tile that range.
bool build_row_table(const uint8_t* data, uint64_t size, const RowGroup* groups, int64_t n_groups,
                     int64_t n_rows, int64_t* raw_off, int64_t* raw_len, int64_t* blob_off,
                     int64_t* blob_len, std::string* err);

enum FieldKind : int32_t { kInt = 0, kFloat = 1, kString = 2 };

// A raw (scalar) field to extract from every msgpack row. `slot` is the row of the matching
// output matrix (ints / floats / strings); string fields use two rows: 2*slot (offset) and
// 2*slot+1 (length).
struct RawField {
    const char* name;
    int64_t name_len;
    int32_t kind;
    int32_t slot;
};

// Decodes the msgpack map of every row. Outputs are row-major matrices with n_rows columns:
// ints[slot * n_rows + row] (int64), floats[slot * n_rows + row] (double),
// strings[(2*slot) * n_rows + row] = absolute offset of the UTF-8 bytes, [(2*slot+1) ...] = length.
// Keys not in `fields` are skipped (the dummy {"id":0} of blob-only schemas); a missing field, a
// value of the wrong msgpack type or a malformed item is an error.
bool decode_raw_rows(const uint8_t* data, uint64_t size, int64_t n_rows, const int64_t* raw_off,
                     const int64_t* raw_len, const RawField* fields, int32_t n_fields,
                     int64_t* ints, double* floats, int64_t* strings, int64_t* bad_row,
                     std::string* err);

// Splits each row blob of a schema with >= 2 blob fields: per field a u64 BIG-endian length then
// the value. out_off/out_len are [n_fields * n_rows] (field-major). The fields must consume the
// row blob exactly.
bool split_blobs(const uint8_t* data, uint64_t size, int64_t n_rows, const int64_t* blob_off,
                 const int64_t* blob_len, int32_t n_fields, int64_t* out_off, int64_t* out_len,
                 int64_t* bad_row, std::string* err);

// Integer-array compression (§5.3): u32 BE element count, 2-bit width codes, little-endian
// values of 1/2/4/8 bytes. Returns the element count, or -1 (with *err) if the buffer is not a
// valid compressed array for elements of `width` (4 or 8) bytes.
int64_t compressed_count(const uint8_t* p, uint64_t n, int32_t width, std::string* err);

// Expands a buffer already validated by compressed_count into `count` elements of `width` bytes.
void decompress_ints(const uint8_t* p, int64_t count, int32_t width, void* out);

}  // namespace mrdecode
