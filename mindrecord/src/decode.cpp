// See decode.h. All reads go through bounds-checked helpers; offsets from the file are validated
// against the region they must lie in before any byte is touched.
#include "decode.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace mrdecode {
namespace {

inline uint64_t load_le64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

inline uint64_t load_be(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
    return v;
}

std::string num(int64_t v) { return std::to_string(v); }

// Walks `count` items of (u64 LE length, payload) inside [begin, end).
bool walk_items(const uint8_t* data, int64_t begin, int64_t end, int64_t count, int64_t first_row,
                const char* what, int64_t* off, int64_t* len, std::string* err) {
    int64_t pos = begin;
    for (int64_t k = 0; k < count; ++k) {
        const int64_t row = first_row + k;
        if (end - pos < 8) {
            *err = std::string(what) + " row " + num(row) + ": length prefix at byte " + num(pos) +
                   " runs past the end of its page (byte " + num(end) + ")";
            return false;
        }
        const uint64_t n = load_le64(data + pos);
        pos += 8;
        if (n > static_cast<uint64_t>(end - pos)) {
            *err = std::string(what) + " row " + num(row) + ": length " + std::to_string(n) +
                   " at byte " + num(pos - 8) + " runs past the end of its page (byte " + num(end) +
                   ")";
            return false;
        }
        off[row] = pos;
        len[row] = static_cast<int64_t>(n);
        pos += static_cast<int64_t>(n);
    }
    return true;
}

// A bounds-checked cursor over one msgpack row.
struct Cursor {
    const uint8_t* p;
    int64_t pos, end;
    bool take(int64_t n, const uint8_t** out) {
        if (n < 0 || end - pos < n) return false;
        *out = p + pos;
        pos += n;
        return true;
    }
};

enum class Tag { kInt, kUInt, kFloat, kStr, kSkip, kBad };

struct Value {
    Tag tag = Tag::kBad;
    int64_t i = 0;
    uint64_t u = 0;
    double f = 0;
    int64_t str_off = 0, str_len = 0;
};

// Reads one scalar msgpack value. Nested arrays/maps are not part of MindRecord raw rows and
// are rejected (which also bounds the work per item).
bool read_value(Cursor& c, Value* v) {
    const uint8_t* b;
    if (!c.take(1, &b)) return false;
    const uint8_t t = b[0];
    const uint8_t* q;
    if (t <= 0x7f) { v->tag = Tag::kInt; v->i = t; return true; }
    if (t >= 0xe0) { v->tag = Tag::kInt; v->i = static_cast<int8_t>(t); return true; }
    if (t >= 0xa0 && t <= 0xbf) {
        int64_t n = t & 0x1f;
        v->tag = Tag::kStr; v->str_off = c.pos; v->str_len = n;
        return c.take(n, &q);
    }
    switch (t) {
        case 0xc0: case 0xc2: case 0xc3: v->tag = Tag::kSkip; return true;
        case 0xcc: case 0xcd: case 0xce: case 0xcf: {
            const int n = 1 << (t - 0xcc);
            if (!c.take(n, &q)) return false;
            v->tag = Tag::kUInt; v->u = load_be(q, n); return true;
        }
        case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
            const int n = 1 << (t - 0xd0);
            if (!c.take(n, &q)) return false;
            uint64_t u = load_be(q, n);
            if (n < 8 && (u >> (8 * n - 1)) & 1) u |= ~uint64_t(0) << (8 * n);  // sign-extend
            int64_t s;
            std::memcpy(&s, &u, 8);
            v->tag = Tag::kInt; v->i = s; return true;
        }
        case 0xca: {
            if (!c.take(4, &q)) return false;
            uint32_t u = static_cast<uint32_t>(load_be(q, 4));
            float f;
            std::memcpy(&f, &u, 4);
            v->tag = Tag::kFloat; v->f = f; return true;
        }
        case 0xcb: {
            if (!c.take(8, &q)) return false;
            uint64_t u = load_be(q, 8);
            double d;
            std::memcpy(&d, &u, 8);
            v->tag = Tag::kFloat; v->f = d; return true;
        }
        case 0xd9: case 0xda: case 0xdb: case 0xc4: case 0xc5: case 0xc6: {
            const int w = (t >= 0xd9) ? (1 << (t - 0xd9)) : (1 << (t - 0xc4));
            if (!c.take(w, &q)) return false;
            const int64_t n = static_cast<int64_t>(load_be(q, w));
            v->tag = (t >= 0xd9) ? Tag::kStr : Tag::kSkip;
            v->str_off = c.pos; v->str_len = n;
            return c.take(n, &q);
        }
        default: v->tag = Tag::kBad; return true;
    }
}

// Strict UTF-8 (as Python's decoder): no overlong forms, no surrogates, nothing above U+10FFFF.
bool valid_utf8(const uint8_t* p, int64_t n) {
    int64_t i = 0;
    while (i < n) {
        const uint8_t c = p[i];
        if (c < 0x80) { ++i; continue; }
        int len;
        uint32_t cp;
        if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07; }
        else return false;
        if (n - i < len) return false;
        for (int k = 1; k < len; ++k) {
            if ((p[i + k] & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (p[i + k] & 0x3f);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return false;
        i += len;
    }
    return true;
}

const char* kind_name(int32_t kind) {
    return kind == kInt ? "an integer" : kind == kFloat ? "a float" : "a string";
}

}  // namespace

bool build_row_table(const uint8_t* data, uint64_t size, const RowGroup* groups, int64_t n_groups,
                     int64_t n_rows, int64_t* raw_off, int64_t* raw_len, int64_t* blob_off,
                     int64_t* blob_len, std::string* err) {
    const int64_t isize = static_cast<int64_t>(size);
    for (int64_t g = 0; g < n_groups; ++g) {
        const RowGroup& r = groups[g];
        if (r.raw_begin < 0 || r.raw_begin > r.raw_end || r.raw_end > isize || r.blob_begin < 0 ||
            r.blob_begin > r.blob_end || r.blob_end > isize) {
            *err = "row group " + num(g) + " lies outside the file";
            return false;
        }
        if (r.count < 0 || r.first_row < 0 || r.first_row > n_rows - r.count) {
            *err = "row group " + num(g) + " has row ids outside [0, " + num(n_rows) + ")";
            return false;
        }
        if (!walk_items(data, r.raw_begin, r.raw_end, r.count, r.first_row, "raw", raw_off,
                        raw_len, err) ||
            !walk_items(data, r.blob_begin, r.blob_end, r.count, r.first_row, "blob", blob_off,
                        blob_len, err))
            return false;
    }
    return true;
}

bool decode_raw_rows(const uint8_t* data, uint64_t size, int64_t n_rows, const int64_t* raw_off,
                     const int64_t* raw_len, const RawField* fields, int32_t n_fields,
                     int64_t* ints, double* floats, int64_t* strings, int64_t* bad_row,
                     std::string* err) {
    std::vector<uint8_t> seen(static_cast<size_t>(n_fields > 0 ? n_fields : 1));
    const int64_t isize = static_cast<int64_t>(size);
    for (int64_t row = 0; row < n_rows; ++row) {
        *bad_row = row;
        if (raw_off[row] < 0 || raw_len[row] < 0 || raw_off[row] > isize - raw_len[row]) {
            *err = "raw row outside the file";
            return false;
        }
        Cursor c{data, raw_off[row], raw_off[row] + raw_len[row]};
        const uint8_t* b;
        if (!c.take(1, &b)) { *err = "empty raw row"; return false; }
        int64_t n_keys;
        const uint8_t* q;
        if ((b[0] & 0xf0) == 0x80) {
            n_keys = b[0] & 0x0f;
        } else if (b[0] == 0xde || b[0] == 0xdf) {
            const int w = b[0] == 0xde ? 2 : 4;
            if (!c.take(w, &q)) { *err = "truncated msgpack map header"; return false; }
            n_keys = static_cast<int64_t>(load_be(q, w));
        } else if (b[0] == 0xc0 && c.pos == c.end) {
            // nil: MindSpore's Dataset.save writes it as the raw row of a schema whose fields
            // are all blobs; no field is in it (a schema with raw fields fails below).
            n_keys = 0;
        } else {
            *err = "raw row is not a msgpack map";
            return false;
        }
        // Each key/value pair takes at least 2 bytes: a lying count fails fast.
        if (n_keys > (c.end - c.pos) / 2) { *err = "msgpack map count exceeds the row"; return false; }
        std::fill(seen.begin(), seen.end(), 0);
        for (int64_t k = 0; k < n_keys; ++k) {
            Value key, val;
            if (!read_value(c, &key) || key.tag != Tag::kStr) {
                *err = "malformed msgpack key";
                return false;
            }
            if (!read_value(c, &val) || val.tag == Tag::kBad) {
                *err = "malformed msgpack value";
                return false;
            }
            int32_t f = 0;
            for (; f < n_fields; ++f) {
                if (fields[f].name_len == key.str_len &&
                    std::memcmp(fields[f].name, data + key.str_off, key.str_len) == 0)
                    break;
            }
            if (f == n_fields) continue;  // not a schema field (e.g. the dummy "id")
            const RawField& fd = fields[f];
            seen[f] = 1;
            const int64_t at = static_cast<int64_t>(fd.slot) * n_rows + row;
            bool ok = true;
            if (fd.kind == kInt) {
                if (val.tag == Tag::kInt) ints[at] = val.i;
                else if (val.tag == Tag::kUInt && val.u <= static_cast<uint64_t>(INT64_MAX))
                    ints[at] = static_cast<int64_t>(val.u);
                else ok = false;
            } else if (fd.kind == kFloat) {
                if (val.tag == Tag::kFloat) floats[at] = val.f;
                else if (val.tag == Tag::kInt) floats[at] = static_cast<double>(val.i);
                else if (val.tag == Tag::kUInt) floats[at] = static_cast<double>(val.u);
                else ok = false;
            } else {
                if (val.tag == Tag::kStr && !valid_utf8(data + val.str_off, val.str_len)) {
                    *err = "field '" + std::string(fd.name, fd.name_len) + "' is not valid UTF-8";
                    return false;
                }
                if (val.tag == Tag::kStr) {
                    strings[(2 * static_cast<int64_t>(fd.slot)) * n_rows + row] = val.str_off;
                    strings[(2 * static_cast<int64_t>(fd.slot) + 1) * n_rows + row] = val.str_len;
                } else {
                    ok = false;
                }
            }
            if (!ok) {
                *err = "field '" + std::string(fd.name, fd.name_len) + "' does not hold " +
                       kind_name(fd.kind) + " value";
                return false;
            }
        }
        if (c.pos != c.end) { *err = "trailing bytes after the msgpack map"; return false; }
        for (int32_t f = 0; f < n_fields; ++f) {
            if (!seen[f]) {
                *err = "field '" + std::string(fields[f].name, fields[f].name_len) +
                       "' is missing from the raw row";
                return false;
            }
        }
    }
    return true;
}

bool split_blobs(const uint8_t* data, uint64_t size, int64_t n_rows, const int64_t* blob_off,
                 const int64_t* blob_len, int32_t n_fields, int64_t* out_off, int64_t* out_len,
                 int64_t* bad_row, std::string* err) {
    const int64_t isize = static_cast<int64_t>(size);
    for (int64_t row = 0; row < n_rows; ++row) {
        *bad_row = row;
        int64_t pos = blob_off[row];
        const int64_t end = pos + blob_len[row];
        if (pos < 0 || blob_len[row] < 0 || pos > isize - blob_len[row]) {
            *err = "blob row outside the file";
            return false;
        }
        for (int32_t f = 0; f < n_fields; ++f) {
            if (end - pos < 8) { *err = "blob field length prefix runs past the row"; return false; }
            const uint64_t n = load_be(data + pos, 8);
            pos += 8;
            if (n > static_cast<uint64_t>(end - pos)) {
                *err = "blob field length " + std::to_string(n) + " runs past the row";
                return false;
            }
            out_off[static_cast<int64_t>(f) * n_rows + row] = pos;
            out_len[static_cast<int64_t>(f) * n_rows + row] = static_cast<int64_t>(n);
            pos += static_cast<int64_t>(n);
        }
        if (pos != end) { *err = "blob row has trailing bytes after its fields"; return false; }
    }
    return true;
}

int64_t compressed_count(const uint8_t* p, uint64_t n, int32_t width, std::string* err) {
    if (n < 4) { *err = "compressed integer array shorter than its 4-byte count"; return -1; }
    const uint64_t count = load_be(p, 4);
    const uint64_t map_bytes = (count + 3) / 4;
    if (map_bytes > n - 4) { *err = "compressed integer array: width map runs past the value"; return -1; }
    uint64_t need = 4 + map_bytes;
    for (uint64_t i = 0; i < count; ++i) {
        const int code = (p[4 + i / 4] >> (6 - 2 * (i % 4))) & 3;
        if ((1 << code) > width) {
            *err = "compressed integer array holds an element wider than the field type";
            return -1;
        }
        need += static_cast<uint64_t>(1) << code;
    }
    if (need != n) {
        *err = "compressed integer array: " + std::to_string(n) + " bytes stored but its width map "
               "describes " + std::to_string(need);
        return -1;
    }
    return static_cast<int64_t>(count);
}

void decompress_ints(const uint8_t* p, int64_t count, int32_t width, void* out) {
    const uint8_t* map = p + 4;
    const uint8_t* v = map + (count + 3) / 4;
    for (int64_t i = 0; i < count; ++i) {
        const int code = (map[i / 4] >> (6 - 2 * (i % 4))) & 3;
        const int w = 1 << code;
        uint64_t u = 0;
        for (int b = w - 1; b >= 0; --b) u = (u << 8) | v[b];
        if (w < 8 && (u >> (8 * w - 1)) & 1) u |= ~uint64_t(0) << (8 * w);  // sign-extend
        v += w;
        if (width == 4) {
            const int32_t s = static_cast<int32_t>(static_cast<uint32_t>(u));
            std::memcpy(static_cast<uint8_t*>(out) + 4 * i, &s, 4);
        } else {
            std::memcpy(static_cast<uint8_t*>(out) + 8 * i, &u, 8);
        }
    }
}

}  // namespace mrdecode
