// MindRecord writer encoding: MessagePack scalars (byte-exact with nlohmann::json::to_msgpack),
// integer-array compression and row-blob assembly. Format: ../shared/docs/mindrecord-format.md
// sections 4.2 and 5. Everything here is plain C++ with no Python API, so callers can run it
// with the GIL released.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace mdwriter {

// ---- MessagePack (append to a byte string) ---------------------------------------------------
void mp_map_header(std::string& out, uint64_t n);
void mp_str(std::string& out, const char* data, uint64_t len);
void mp_int(std::string& out, int64_t v);
// Writes float32 (0xca) when the double round-trips through float exactly and lies within
// [-FLT_MAX, FLT_MAX]; float64 (0xcb) otherwise, as nlohmann does.
void mp_double(std::string& out, double v);
void put_u64_le(std::string& out, uint64_t v);
void patch_u64_le(std::string& out, size_t pos, uint64_t v);

// ---- integer-array compression (section 5.3) ------------------------------------------------
// width is the element size in bytes (4 for int32, 8 for int64); data is native little-endian.
uint64_t compressed_size(const void* data, uint64_t n, int width);
// Writes compressed_size(data, n, width) bytes to out and returns that count.
uint64_t compress_ints(const void* data, uint64_t n, int width, uint8_t* out);

// ---- row blobs (section 5.1) --------------------------------------------------------------
// One blob field value of one row. compress_width 0 copies the bytes; 4 or 8 compresses
// nbytes / compress_width integers.
struct BlobRef {
    const uint8_t* data;
    uint64_t nbytes;
    int32_t compress_width;
};

// Size of one row blob: 4 zero bytes without blob fields, the value itself with one field,
// and u64 big-endian length + value per field with two or more.
uint64_t blob_row_size(const BlobRef* refs, int nfields);
void write_blob_row(const BlobRef* refs, int nfields, uint8_t* out);

// For rows [0, nrows) with nfields refs each (row-major): row blob sizes and the total bytes
// saved by compression (uncompressed minus stored; may be negative). Uses up to nthreads.
int64_t blob_sizes(const BlobRef* refs, uint64_t nrows, int nfields, uint64_t* sizes,
                   int nthreads);
// Fills a stream of "u64 LE size + row blob" items; offsets[i] is where row i's prefix goes.
void fill_blob_stream(const BlobRef* refs, uint64_t nrows, int nfields, const uint64_t* sizes,
                      const uint64_t* offsets, uint8_t* out, int nthreads);

// ---- page planning (section 6 step 2) ------------------------------------------------------
// Cuts rows [0, n) into row groups. nb/nr: used bytes of the last blob page and of the last
// row group in the last raw page. Writes the start index of every group after group 0 into
// starts (capacity n) and returns how many; group 0 is [0, starts[0]) (possibly empty).
uint64_t cut_row_groups(const uint64_t* blob_sizes, const uint64_t* raw_sizes, uint64_t n,
                        uint64_t nb, uint64_t nr, uint64_t page_size, uint64_t* starts);

}  // namespace mdwriter

namespace mdwriter {
// Writes rows [begin, end) as "u64 LE size + value" items at file offset `offset` with pwritev,
// straight from the callers' buffers (one blob field, no compression: the row blob is the value).
// Returns 0 or an errno value.
int write_direct_rows(int fd, const BlobRef* refs, uint64_t begin, uint64_t end, uint64_t offset);
// pwrite of a whole buffer (retrying short writes); returns 0 or an errno value.
int write_all(int fd, const uint8_t* data, uint64_t len, uint64_t offset);
}  // namespace mdwriter
