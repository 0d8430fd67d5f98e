// See encode.h. Byte layouts follow ../shared/docs/mindrecord-format.md (sections 4.2, 5, 6).
#include "encode.h"

#include <cfloat>
#include <cstring>
#include <thread>
#include <vector>

namespace mdwriter {
namespace {

inline void put_be(std::string& out, uint64_t v, int nbytes) {
    char buf[8];
    for (int i = 0; i < nbytes; ++i) buf[i] = static_cast<char>((v >> (8 * (nbytes - 1 - i))) & 0xff);
    out.append(buf, static_cast<size_t>(nbytes));
}

inline void put_tag_be(std::string& out, uint8_t tag, uint64_t v, int nbytes) {
    out.push_back(static_cast<char>(tag));
    put_be(out, v, nbytes);
}

// Smallest signed width code (0: 1 byte, 1: 2, 2: 4, 3: 8) that holds v.
inline int width_code(int64_t v) {
    if (v >= INT8_MIN && v <= INT8_MAX) return 0;
    if (v >= INT16_MIN && v <= INT16_MAX) return 1;
    if (v >= INT32_MIN && v <= INT32_MAX) return 2;
    return 3;
}

inline int64_t load_int(const uint8_t* p, int width) {
    if (width == 4) {
        int32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

// Runs fn(begin, end) over [0, n) split into up to nthreads contiguous chunks.
template <typename Fn>
void parallel_rows(uint64_t n, int nthreads, Fn fn) {
    if (nthreads <= 1 || n < 64) {
        fn(0, n);
        return;
    }
    uint64_t parts = static_cast<uint64_t>(nthreads);
    std::vector<std::thread> pool;
    pool.reserve(parts - 1);
    uint64_t chunk = (n + parts - 1) / parts;
    for (uint64_t t = 1; t < parts; ++t) {
        uint64_t b = t * chunk, e = b + chunk < n ? b + chunk : n;
        if (b >= e) break;
        pool.emplace_back([=]() { fn(b, e); });
    }
    fn(0, chunk < n ? chunk : n);
    for (auto& th : pool) th.join();
}

}  // namespace

void mp_map_header(std::string& out, uint64_t n) {
    if (n < 16) out.push_back(static_cast<char>(0x80 | n));
    else if (n <= 0xffff) put_tag_be(out, 0xde, n, 2);
    else put_tag_be(out, 0xdf, n, 4);
}

void mp_str(std::string& out, const char* data, uint64_t len) {
    if (len < 32) out.push_back(static_cast<char>(0xa0 | len));
    else if (len <= 0xff) put_tag_be(out, 0xd9, len, 1);
    else if (len <= 0xffff) put_tag_be(out, 0xda, len, 2);
    else put_tag_be(out, 0xdb, len, 4);
    out.append(data, len);
}

void mp_int(std::string& out, int64_t v) {
    if (v >= 0) {
        uint64_t u = static_cast<uint64_t>(v);
        if (u < 128) out.push_back(static_cast<char>(u));
        else if (u <= 0xff) put_tag_be(out, 0xcc, u, 1);
        else if (u <= 0xffff) put_tag_be(out, 0xcd, u, 2);
        else if (u <= 0xffffffffULL) put_tag_be(out, 0xce, u, 4);
        else put_tag_be(out, 0xcf, u, 8);
        return;
    }
    if (v >= -32) out.push_back(static_cast<char>(static_cast<int8_t>(v)));
    else if (v >= INT8_MIN) put_tag_be(out, 0xd0, static_cast<uint8_t>(static_cast<int8_t>(v)), 1);
    else if (v >= INT16_MIN) put_tag_be(out, 0xd1, static_cast<uint16_t>(static_cast<int16_t>(v)), 2);
    else if (v >= INT32_MIN) put_tag_be(out, 0xd2, static_cast<uint32_t>(static_cast<int32_t>(v)), 4);
    else put_tag_be(out, 0xd3, static_cast<uint64_t>(v), 8);
}

void mp_double(std::string& out, double v) {
    // The range test comes first: converting an out-of-range double to float is undefined.
    if (v >= -static_cast<double>(FLT_MAX) && v <= static_cast<double>(FLT_MAX) &&
        static_cast<double>(static_cast<float>(v)) == v) {
        float f = static_cast<float>(v);
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        put_tag_be(out, 0xca, bits, 4);
        return;
    }
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    put_tag_be(out, 0xcb, bits, 8);
}

void put_u64_le(std::string& out, uint64_t v) {
    char buf[8];
    for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>((v >> (8 * i)) & 0xff);
    out.append(buf, 8);
}

void patch_u64_le(std::string& out, size_t pos, uint64_t v) {
    for (int i = 0; i < 8; ++i) out[pos + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

uint64_t compressed_size(const void* data, uint64_t n, int width) {
    static const uint64_t kBytes[4] = {1, 2, 4, 8};
    const uint8_t* p = static_cast<const uint8_t*>(data);
    uint64_t total = 4 + (n + 3) / 4;
    for (uint64_t i = 0; i < n; ++i) total += kBytes[width_code(load_int(p + i * width, width))];
    return total;
}

uint64_t compress_ints(const void* data, uint64_t n, int width, uint8_t* out) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    out[0] = static_cast<uint8_t>(n >> 24);
    out[1] = static_cast<uint8_t>(n >> 16);
    out[2] = static_cast<uint8_t>(n >> 8);
    out[3] = static_cast<uint8_t>(n);
    uint8_t* bitmap = out + 4;
    uint64_t bitmap_len = (n + 3) / 4;
    std::memset(bitmap, 0, bitmap_len);
    uint8_t* q = bitmap + bitmap_len;
    for (uint64_t i = 0; i < n; ++i) {
        int64_t v = load_int(p + i * width, width);
        int code = width_code(v);
        bitmap[i / 4] |= static_cast<uint8_t>(code << (6 - 2 * (i % 4)));
        uint64_t u = static_cast<uint64_t>(v);
        int nb = 1 << code;
        for (int k = 0; k < nb; ++k) q[k] = static_cast<uint8_t>((u >> (8 * k)) & 0xff);
        q += nb;
    }
    return static_cast<uint64_t>(q - out);
}

static inline uint64_t stored_size(const BlobRef& r) {
    if (r.compress_width == 0) return r.nbytes;
    return compressed_size(r.data, r.nbytes / r.compress_width, r.compress_width);
}

static inline uint64_t store_value(const BlobRef& r, uint8_t* out) {
    if (r.compress_width == 0) {
        if (r.nbytes) std::memcpy(out, r.data, r.nbytes);
        return r.nbytes;
    }
    return compress_ints(r.data, r.nbytes / r.compress_width, r.compress_width, out);
}

uint64_t blob_row_size(const BlobRef* refs, int nfields) {
    if (nfields == 0) return 4;
    if (nfields == 1) return stored_size(refs[0]);
    uint64_t total = 0;
    for (int f = 0; f < nfields; ++f) total += 8 + stored_size(refs[f]);
    return total;
}

void write_blob_row(const BlobRef* refs, int nfields, uint8_t* out) {
    if (nfields == 0) {
        std::memset(out, 0, 4);
        return;
    }
    if (nfields == 1) {
        store_value(refs[0], out);
        return;
    }
    for (int f = 0; f < nfields; ++f) {
        uint8_t* len_at = out;
        uint64_t n = store_value(refs[f], out + 8);
        for (int i = 0; i < 8; ++i) len_at[i] = static_cast<uint8_t>((n >> (8 * (7 - i))) & 0xff);
        out += 8 + n;
    }
}

int64_t blob_sizes(const BlobRef* refs, uint64_t nrows, int nfields, uint64_t* sizes,
                   int nthreads) {
    int parts = nthreads < 1 ? 1 : nthreads;
    std::vector<int64_t> saved(static_cast<size_t>(parts) + 1, 0);
    uint64_t chunk = (nrows + parts - 1) / (parts ? parts : 1);
    parallel_rows(nrows, parts, [&](uint64_t b, uint64_t e) {
        int64_t s = 0;
        for (uint64_t i = b; i < e; ++i) {
            const BlobRef* row = refs + i * static_cast<uint64_t>(nfields);
            sizes[i] = blob_row_size(row, nfields);
            for (int f = 0; f < nfields; ++f) {
                if (row[f].compress_width != 0) {
                    s += static_cast<int64_t>(row[f].nbytes) - static_cast<int64_t>(stored_size(row[f]));
                }
            }
        }
        saved[chunk ? b / chunk : 0] = s;
    });
    int64_t total = 0;
    for (int64_t s : saved) total += s;
    return total;
}

void fill_blob_stream(const BlobRef* refs, uint64_t nrows, int nfields, const uint64_t* sizes,
                      const uint64_t* offsets, uint8_t* out, int nthreads) {
    parallel_rows(nrows, nthreads, [&](uint64_t b, uint64_t e) {
        for (uint64_t i = b; i < e; ++i) {
            uint8_t* p = out + offsets[i];
            uint64_t n = sizes[i];
            for (int k = 0; k < 8; ++k) p[k] = static_cast<uint8_t>((n >> (8 * k)) & 0xff);
            write_blob_row(refs + i * static_cast<uint64_t>(nfields), nfields, p + 8);
        }
    });
}

uint64_t cut_row_groups(const uint64_t* blob_sizes, const uint64_t* raw_sizes, uint64_t n,
                        uint64_t nb, uint64_t nr, uint64_t page_size, uint64_t* starts) {
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (nb == 0 || nb + blob_sizes[i] > page_size || nr + raw_sizes[i] > page_size) {
            starts[count++] = i;
            nb = blob_sizes[i];
            nr = raw_sizes[i];
        } else {
            nb += blob_sizes[i];
            nr += raw_sizes[i];
        }
    }
    return count;
}

}  // namespace mdwriter

#include <cerrno>
#include <sys/uio.h>
#include <unistd.h>

namespace mdwriter {

int write_all(int fd, const uint8_t* data, uint64_t len, uint64_t offset) {
    while (len > 0) {
        ssize_t n = ::pwrite(fd, data, len, static_cast<off_t>(offset));
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EIO;
        data += n;
        len -= static_cast<uint64_t>(n);
        offset += static_cast<uint64_t>(n);
    }
    return 0;
}

int write_direct_rows(int fd, const BlobRef* refs, uint64_t begin, uint64_t end, uint64_t offset) {
    constexpr uint64_t kRowsPerCall = 256;  // 2 iovecs per row, below IOV_MAX (1024)
    std::vector<uint8_t> prefixes(8 * kRowsPerCall);
    std::vector<struct iovec> iov(2 * kRowsPerCall);
    for (uint64_t chunk = begin; chunk < end; chunk += kRowsPerCall) {
        uint64_t stop = chunk + kRowsPerCall < end ? chunk + kRowsPerCall : end;
        uint64_t total = 0;
        int count = 0;
        for (uint64_t i = chunk; i < stop; ++i) {
            uint8_t* p = prefixes.data() + 8 * (i - chunk);
            uint64_t n = refs[i].nbytes;
            for (int k = 0; k < 8; ++k) p[k] = static_cast<uint8_t>((n >> (8 * k)) & 0xff);
            iov[count].iov_base = p;
            iov[count++].iov_len = 8;
            if (n) {
                iov[count].iov_base = const_cast<uint8_t*>(refs[i].data);
                iov[count++].iov_len = n;
            }
            total += 8 + n;
        }
        // Write the chunk, resuming after short writes by skipping what was written.
        int first = 0;
        uint64_t done = 0;
        while (done < total) {
            ssize_t n = ::pwritev(fd, iov.data() + first, count - first,
                                  static_cast<off_t>(offset + done));
            if (n < 0) {
                if (errno == EINTR) continue;
                return errno;
            }
            if (n == 0) return EIO;
            done += static_cast<uint64_t>(n);
            uint64_t left = static_cast<uint64_t>(n);
            while (first < count && left >= iov[first].iov_len) {
                left -= iov[first].iov_len;
                ++first;
            }
            if (first < count && left) {
                iov[first].iov_base = static_cast<uint8_t*>(iov[first].iov_base) + left;
                iov[first].iov_len -= left;
            }
        }
        offset += total;
    }
    return 0;
}

}  // namespace mdwriter
