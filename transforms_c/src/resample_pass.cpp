#include "resample_pass.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mdt {
namespace {

// OpenCV's INTER_LINEAR for 8-bit images: 11-bit coefficients, products summed in 32 bits.
constexpr int kCoefBits = 11;
constexpr int kCoefScale = 1 << kCoefBits;

inline int16_t to_coef(float value) {
    // saturate_cast<short>(float) in OpenCV rounds half to even.
    return static_cast<int16_t>(std::lrint(value * kCoefScale));
}

// Output column/row -> virtual coordinate, after the window and the flip.
inline int virtual_index(int o, int win, int count, bool flip) {
    return win + (flip ? count - 1 - o : o);
}

// [lo, hi) of the source columns a pass's horizontal taps read, so only that span of each
// source row is blended.
inline std::pair<int, int> column_range(const std::vector<int>& index, int box_w) {
    int lo = box_w, hi = 0;
    for (int idx : index) {
        lo = std::min(lo, idx);
        hi = std::max(hi, idx + 1);
    }
    return {lo, hi};
}

struct Taps {
    std::vector<int> first;      // first source index (the second is first + step)
    std::vector<int> step;       // 0 at the right/bottom edge, else 1
    std::vector<int16_t> coef0;  // weights (linear only)
    std::vector<int16_t> coef1;

    explicit Taps(int out_count)
        : first(out_count), step(out_count), coef0(out_count), coef1(out_count) {}

    // Output o reads source s with weight 1 - f and s + 1 with weight f; outside the source
    // the edge sample is repeated, as OpenCV's border replication does for linear taps.
    void set(int o, int s, float f, int src_count) {
        if (s < 0) {
            s = 0;
            f = 0.f;
        }
        if (s >= src_count - 1) {
            s = src_count - 1;
            f = 0.f;
        }
        first[o] = s;
        step[o] = s < src_count - 1 ? 1 : 0;
        coef0[o] = to_coef(1.f - f);
        coef1[o] = to_coef(f);
    }
};

// OpenCV's INTER_AREA when enlarging an axis: bilinear taps whose weight only moves off the
// left sample in the last fraction of each source pixel.
Taps area_linear_taps(int out_count, int win, bool flip, double scale, double offset,
                      int src_count) {
    Taps taps(out_count);
    const double inv_scale = 1.0 / scale;
    for (int o = 0; o < out_count; ++o) {
        const int v = virtual_index(o, win, out_count, flip);
        // The weight depends on the position inside the whole source; `offset` (a trimmed
        // region's origin, or an approximate decode's fraction) only moves the sample index.
        const int s_raw = static_cast<int>(std::floor(v * scale));
        float f = static_cast<float>((v + 1) - (s_raw + 1) * inv_scale);
        f = f <= 0 ? 0.f : f - std::floor(f);
        int s = offset == std::floor(offset) ? s_raw + static_cast<int>(offset)
                                              : static_cast<int>(std::floor(v * scale + offset));
        taps.set(o, s, f, src_count);
    }
    return taps;
}

Taps linear_taps(int out_count, int win, bool flip, double scale, double offset, int src_count) {
    Taps taps(out_count);
    for (int o = 0; o < out_count; ++o) {
        const int v = virtual_index(o, win, out_count, flip);
        // OpenCV computes the coordinate in single precision.
        float f = static_cast<float>((v + 0.5) * scale - 0.5);
        if (offset != 0.0) f = static_cast<float>(f + offset);
        int s = static_cast<int>(std::floor(f));
        f -= static_cast<float>(s);
        taps.set(o, s, f, src_count);
    }
    return taps;
}

std::vector<int> nearest_taps(int out_count, int win, bool flip, double scale, double offset,
                              int src_count) {
    std::vector<int> index(out_count);
    for (int o = 0; o < out_count; ++o) {
        const int v = virtual_index(o, win, out_count, flip);
        int s = static_cast<int>(std::floor(v * scale + offset));
        index[o] = std::min(std::max(s, 0), src_count - 1);
    }
    return index;
}

std::vector<int> copy_taps(int out_count, int win, bool flip) {
    std::vector<int> index(out_count);
    for (int o = 0; o < out_count; ++o) index[o] = virtual_index(o, win, out_count, flip);
    return index;
}

// Writes one row of uint8 samples (HWC order, out_w pixels) into the output. The pointwise op
// of a uint8 sample has 256 possible results per channel: they are tabulated once per pass with
// the same float32 expression the eager ops use, so results stay bit-identical.
template <int CN>
struct RowWriter {
    const PassSpec& spec;
    int cn;
    std::vector<float> table;  // cn x 256

    explicit RowWriter(const PassSpec& s) : spec(s), cn(CN ? CN : s.channels) {
        if (spec.point_op == POINT_NONE) return;
        table.resize(static_cast<size_t>(cn) * 256);
        for (int c = 0; c < cn; ++c) {
            const float a = spec.p0[c];
            const float b = spec.p1[c];
            float* t = table.data() + c * 256;
            if (spec.point_op == POINT_NORMALIZE) {
                for (int v = 0; v < 256; ++v) t[v] = (static_cast<float>(v) - a) / b;
            } else {
                for (int v = 0; v < 256; ++v) t[v] = static_cast<float>(v) * a + b;
            }
        }
    }

    void write(const uint8_t* __restrict row, int oy) const {
        const int w = spec.out_w;
        const size_t plane = static_cast<size_t>(spec.out_w) * spec.out_h;
        if (spec.point_op == POINT_NONE) {
            auto* out = static_cast<uint8_t*>(spec.out);
            if (!spec.chw) {
                std::copy(row, row + static_cast<size_t>(w) * cn,
                          out + static_cast<size_t>(oy) * w * cn);
            } else {
                for (int c = 0; c < cn; ++c) {
                    uint8_t* __restrict dst = out + c * plane + static_cast<size_t>(oy) * w;
                    for (int x = 0; x < w; ++x) dst[x] = row[x * cn + c];
                }
            }
            return;
        }
        auto* out = static_cast<float*>(spec.out);
        if (spec.chw && CN == 3) {
            const float* __restrict t0 = table.data();
            const float* __restrict t1 = t0 + 256;
            const float* __restrict t2 = t0 + 512;
            float* __restrict d0 = out + static_cast<size_t>(oy) * w;
            float* __restrict d1 = d0 + plane;
            float* __restrict d2 = d1 + plane;
            for (int x = 0; x < w; ++x) {
                d0[x] = t0[row[3 * x]];
                d1[x] = t1[row[3 * x + 1]];
                d2[x] = t2[row[3 * x + 2]];
            }
        } else if (spec.chw) {
            for (int c = 0; c < cn; ++c) {
                const float* __restrict t = table.data() + c * 256;
                float* __restrict dst = out + c * plane + static_cast<size_t>(oy) * w;
                for (int x = 0; x < w; ++x) dst[x] = t[row[x * cn + c]];
            }
        } else {
            float* __restrict dst = out + static_cast<size_t>(oy) * w * cn;
            const size_t count = static_cast<size_t>(w) * cn;
            if (cn == 3) {
                const float* __restrict t0 = table.data();
                const float* __restrict t1 = t0 + 256;
                const float* __restrict t2 = t0 + 512;
                for (size_t i = 0; i < count; i += 3) {
                    dst[i] = t0[row[i]];
                    dst[i + 1] = t1[row[i + 1]];
                    dst[i + 2] = t2[row[i + 2]];
                }
            } else {
                for (size_t i = 0; i < count; ++i) dst[i] = table[(i % cn) * 256 + row[i]];
            }
        }
    }
};

template <int CN>
void run_copy_or_nearest(const PassSpec& spec) {
    RowWriter<CN> writer(spec);
    const int cn = writer.cn;
    std::vector<int> xs, ys;
    if (spec.interp == INTERP_COPY) {
        xs = copy_taps(spec.out_w, spec.win_x, spec.hflip);
        ys = copy_taps(spec.out_h, spec.win_y, spec.vflip);
    } else {
        xs = nearest_taps(spec.out_w, spec.win_x, spec.hflip, spec.scale_x, spec.offset_x,
                          spec.box_w);
        ys = nearest_taps(spec.out_h, spec.win_y, spec.vflip, spec.scale_y, spec.offset_y,
                          spec.box_h);
    }
    std::vector<uint8_t> row(static_cast<size_t>(spec.out_w) * cn);
    const bool contiguous = spec.interp == INTERP_COPY && !spec.hflip;
    for (int oy = 0; oy < spec.out_h; ++oy) {
        const uint8_t* src = spec.src + ys[oy] * spec.src_stride;
        if (contiguous) {  // the window's row is already laid out as the output wants
            writer.write(src + static_cast<size_t>(xs[0]) * cn, oy);
            continue;
        }
        uint8_t* dst = row.data();
        for (int ox = 0; ox < spec.out_w; ++ox) {
            const uint8_t* px = src + static_cast<size_t>(xs[ox]) * cn;
            for (int c = 0; c < cn; ++c) dst[c] = px[c];
            dst += cn;
        }
        writer.write(row.data(), oy);
    }
}

// Bilinear pass, vertical first: each output row blends its two source rows over the columns the
// output reads (a contiguous, vectorisable loop, kept as 16-bit values >> 4 as OpenCV's SIMD path
// does), then gathers two taps per output sample. The 11-bit weights are OpenCV's; results are
// within 1 of OpenCV's horizontal-first arithmetic.
constexpr int kFinalShift = 2 * kCoefBits - 4;
constexpr int kFinalHalf = 1 << (kFinalShift - 1);

inline void gather_generic(const int16_t* v, const int* off, const int* stp, const int16_t* a0s,
                           const int16_t* a1s, int out_w, int cn, uint8_t* dst) {
    for (int ox = 0; ox < out_w; ++ox) {
        const int16_t* p0 = v + off[ox];
        const int16_t* p1 = p0 + stp[ox];
        const int32_t a0 = a0s[ox], a1 = a1s[ox];
        // Weights are non-negative and sum to at most 2049, so no clamping is needed.
        for (int c = 0; c < cn; ++c)
            dst[c] = static_cast<uint8_t>((a0 * p0[c] + a1 * p1[c] + kFinalHalf) >> kFinalShift);
        dst += cn;
    }
}

// Three channels: one pixel per step with SSE2's multiply-add of (tap0, tap1) sample pairs.
// `dst` needs one byte of slack after the row (4 bytes are stored per 3-byte pixel) and `v`
// four samples of slack (4 samples are loaded per tap).
inline void gather_rgb(const int16_t* v, const int* off, const int* stp, const int16_t* a0s,
                       const int16_t* a1s, int out_w, uint8_t* dst) {
#if defined(__SSE2__)
    const __m128i half = _mm_set1_epi32(kFinalHalf);
    for (int ox = 0; ox < out_w; ++ox) {
        const int16_t* p0 = v + off[ox];
        const int16_t* p1 = p0 + stp[ox];
        const __m128i s0 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p0));
        const __m128i s1 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p1));
        const __m128i pairs = _mm_unpacklo_epi16(s0, s1);  // p0c0 p1c0 p0c1 p1c1 ...
        const int32_t weights = (static_cast<int32_t>(static_cast<uint16_t>(a1s[ox])) << 16) |
                                static_cast<uint16_t>(a0s[ox]);
        __m128i sum = _mm_madd_epi16(pairs, _mm_set1_epi32(weights));
        sum = _mm_srai_epi32(_mm_add_epi32(sum, half), kFinalShift);
        const __m128i packed = _mm_packus_epi16(_mm_packs_epi32(sum, sum), sum);
        const int32_t bytes = _mm_cvtsi128_si32(packed);
        std::memcpy(dst, &bytes, 4);
        dst += 3;
    }
#else
    gather_generic(v, off, stp, a0s, a1s, out_w, 3, dst);
#endif
}

template <int CN>
void run_linear(const PassSpec& spec, bool area_taps = false) {
    RowWriter<CN> writer(spec);
    const int cn = writer.cn;
    const auto taps = area_taps ? area_linear_taps : linear_taps;
    const Taps xt = taps(spec.out_w, spec.win_x, spec.hflip, spec.scale_x, spec.offset_x,
                         spec.box_w);
    const Taps yt = taps(spec.out_h, spec.win_y, spec.vflip, spec.scale_y, spec.offset_y,
                         spec.box_h);
    int col_lo = spec.box_w, col_hi = 0;
    for (int o = 0; o < spec.out_w; ++o) {
        col_lo = std::min(col_lo, xt.first[o]);
        col_hi = std::max(col_hi, xt.first[o] + xt.step[o] + 1);
    }
    const size_t span = static_cast<size_t>(col_hi - col_lo) * cn;
    std::vector<int16_t> blended(span + 4, 0);
    std::vector<int> offsets(spec.out_w), steps(spec.out_w);
    for (int o = 0; o < spec.out_w; ++o) {
        offsets[o] = (xt.first[o] - col_lo) * cn;
        steps[o] = xt.step[o] * cn;
    }
    const size_t width = static_cast<size_t>(spec.out_w) * cn;
    std::vector<uint8_t> row(width + 1);
    for (int oy = 0; oy < spec.out_h; ++oy) {
        const uint8_t* __restrict r0 = spec.src + yt.first[oy] * spec.src_stride +
                                       static_cast<ptrdiff_t>(col_lo) * cn;
        const uint8_t* __restrict r1 = r0 + yt.step[oy] * spec.src_stride;
        const int32_t b0 = yt.coef0[oy], b1 = yt.coef1[oy];
        int16_t* __restrict v = blended.data();
        for (size_t i = 0; i < span; ++i)
            v[i] = static_cast<int16_t>((b0 * r0[i] + b1 * r1[i]) >> 4);
        if (CN == 3) {
            gather_rgb(v, offsets.data(), steps.data(), xt.coef0.data(), xt.coef1.data(),
                       spec.out_w, row.data());
        } else {
            gather_generic(v, offsets.data(), steps.data(), xt.coef0.data(), xt.coef1.data(),
                           spec.out_w, cn, row.data());
        }
        writer.write(row.data(), oy);
    }
}

// Bicubic (OpenCV's A = -0.75 kernel, 11-bit weights, edge samples replicated), vertical first
// like the bilinear pass; scalar, as it is off the hot path.
struct CubicTaps {
    std::vector<int> index;      // 4 clamped source indices per output
    std::vector<int16_t> coef;   // 4 weights per output
};

CubicTaps cubic_taps(int out_count, int win, bool flip, double scale, double offset,
                     int src_count) {
    CubicTaps taps;
    taps.index.resize(static_cast<size_t>(out_count) * 4);
    taps.coef.resize(static_cast<size_t>(out_count) * 4);
    const float A = -0.75f;
    for (int o = 0; o < out_count; ++o) {
        const int v = virtual_index(o, win, out_count, flip);
        float f = static_cast<float>((v + 0.5) * scale - 0.5);
        if (offset != 0.0) f = static_cast<float>(f + offset);
        const int s = static_cast<int>(std::floor(f));
        const float x = f - static_cast<float>(s);
        float c[4];
        c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
        c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
        c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
        c[3] = 1.f - c[0] - c[1] - c[2];
        for (int k = 0; k < 4; ++k) {
            taps.index[o * 4 + k] = std::min(std::max(s - 1 + k, 0), src_count - 1);
            taps.coef[o * 4 + k] = to_coef(c[k]);
        }
    }
    return taps;
}

template <int CN>
void run_cubic(const PassSpec& spec) {
    RowWriter<CN> writer(spec);
    const int cn = writer.cn;
    const CubicTaps xt = cubic_taps(spec.out_w, spec.win_x, spec.hflip, spec.scale_x,
                                    spec.offset_x, spec.box_w);
    const CubicTaps yt = cubic_taps(spec.out_h, spec.win_y, spec.vflip, spec.scale_y,
                                    spec.offset_y, spec.box_h);
    const auto [col_lo, col_hi] = column_range(xt.index, spec.box_w);
    const size_t span = static_cast<size_t>(col_hi - col_lo) * cn;
    std::vector<int32_t> blended(span);
    std::vector<uint8_t> row(static_cast<size_t>(spec.out_w) * cn);
    constexpr int kShift = 2 * kCoefBits;
    constexpr int64_t kHalf = int64_t(1) << (kShift - 1);
    for (int oy = 0; oy < spec.out_h; ++oy) {
        const uint8_t* rows[4];
        int32_t b[4];
        for (int k = 0; k < 4; ++k) {
            rows[k] = spec.src + yt.index[oy * 4 + k] * spec.src_stride +
                      static_cast<ptrdiff_t>(col_lo) * cn;
            b[k] = yt.coef[oy * 4 + k];
        }
        int32_t* __restrict v = blended.data();
        for (size_t i = 0; i < span; ++i)
            v[i] = b[0] * rows[0][i] + b[1] * rows[1][i] + b[2] * rows[2][i] + b[3] * rows[3][i];
        uint8_t* dst = row.data();
        for (int ox = 0; ox < spec.out_w; ++ox) {
            const int* idx = &xt.index[ox * 4];
            const int16_t* a = &xt.coef[ox * 4];
            for (int c = 0; c < cn; ++c) {
                int64_t sum = kHalf;
                for (int k = 0; k < 4; ++k)
                    sum += static_cast<int64_t>(a[k]) * v[(idx[k] - col_lo) * cn + c];
                const int64_t t = sum >> kShift;
                dst[c] = static_cast<uint8_t>(t < 0 ? 0 : (t > 255 ? 255 : t));
            }
            dst += cn;
        }
        writer.write(row.data(), oy);
    }
}

// INTER_AREA when shrinking both axes: every output sample is the average of the source area it
// covers (fractional weights at the edges), accumulated in float as OpenCV does.
struct AreaTaps {
    std::vector<int> start;      // per output: first entry in index/weight
    std::vector<int> index;
    std::vector<float> weight;
};

AreaTaps area_taps(int out_count, int win, bool flip, double scale, double offset,
                   int src_count) {
    AreaTaps taps;
    taps.start.resize(out_count + 1);
    for (int o = 0; o < out_count; ++o) {
        taps.start[o] = static_cast<int>(taps.index.size());
        const int v = virtual_index(o, win, out_count, flip);
        const double lo = v * scale + offset;
        const double hi = lo + scale;
        const int first = std::max(0, static_cast<int>(std::floor(lo)));
        const int last = std::min(src_count, static_cast<int>(std::ceil(hi)));
        for (int s = first; s < last; ++s) {
            const double overlap = std::min(hi, s + 1.0) - std::max(lo, static_cast<double>(s));
            if (overlap <= 1e-9) continue;
            taps.index.push_back(s);
            taps.weight.push_back(static_cast<float>(overlap / scale));
        }
        if (taps.start[o] == static_cast<int>(taps.index.size())) {  // outside: nearest edge
            taps.index.push_back(std::min(std::max(first, 0), src_count - 1));
            taps.weight.push_back(1.f);
        }
    }
    taps.start[out_count] = static_cast<int>(taps.index.size());
    return taps;
}

template <int CN>
void run_area(const PassSpec& spec) {
    if (spec.scale_x < 1.0 || spec.scale_y < 1.0) {
        run_linear<CN>(spec, true);
        return;
    }
    RowWriter<CN> writer(spec);
    const int cn = writer.cn;
    const AreaTaps xt = area_taps(spec.out_w, spec.win_x, spec.hflip, spec.scale_x,
                                  spec.offset_x, spec.box_w);
    const AreaTaps yt = area_taps(spec.out_h, spec.win_y, spec.vflip, spec.scale_y,
                                  spec.offset_y, spec.box_h);
    const auto [col_lo, col_hi] = column_range(xt.index, spec.box_w);
    const size_t span = static_cast<size_t>(col_hi - col_lo) * cn;
    std::vector<float> acc(span);
    std::vector<uint8_t> row(static_cast<size_t>(spec.out_w) * cn);
    for (int oy = 0; oy < spec.out_h; ++oy) {
        std::fill(acc.begin(), acc.end(), 0.f);
        for (int t = yt.start[oy]; t < yt.start[oy + 1]; ++t) {
            const uint8_t* __restrict src = spec.src + yt.index[t] * spec.src_stride +
                                            static_cast<ptrdiff_t>(col_lo) * cn;
            const float w = yt.weight[t];
            float* __restrict a = acc.data();
            for (size_t i = 0; i < span; ++i) a[i] += w * src[i];
        }
        uint8_t* dst = row.data();
        for (int ox = 0; ox < spec.out_w; ++ox) {
            for (int c = 0; c < cn; ++c) {
                float sum = 0.f;
                for (int t = xt.start[ox]; t < xt.start[ox + 1]; ++t)
                    sum += xt.weight[t] * acc[(xt.index[t] - col_lo) * cn + c];
                const long value = std::lrint(sum);
                dst[c] = static_cast<uint8_t>(value < 0 ? 0 : (value > 255 ? 255 : value));
            }
            dst += cn;
        }
        writer.write(row.data(), oy);
    }
}

template <int CN>
void dispatch(const PassSpec& spec) {
    if (spec.interp == INTERP_LINEAR) run_linear<CN>(spec);
    else if (spec.interp == INTERP_CUBIC) run_cubic<CN>(spec);
    else if (spec.interp == INTERP_AREA) run_area<CN>(spec);
    else run_copy_or_nearest<CN>(spec);
}

}  // namespace

uint8_t* thread_scratch(size_t bytes) {
    thread_local std::vector<uint8_t> buffer;
    if (buffer.size() < bytes) {
        try {
            buffer.resize(bytes);
        } catch (const std::bad_alloc&) {
            return nullptr;
        }
    }
    return buffer.data();
}

const char* run_pass(const PassSpec& spec) {
    if (!spec.src || !spec.out) return "null source or output";
    if (spec.box_w <= 0 || spec.box_h <= 0 || spec.channels <= 0) return "empty source box";
    if (spec.out_w <= 0 || spec.out_h <= 0) return "empty output";
    if (spec.virt_w <= 0 || spec.virt_h <= 0) return "empty resize target";
    if (spec.win_x < 0 || spec.win_y < 0 || spec.win_x + spec.out_w > spec.virt_w ||
        spec.win_y + spec.out_h > spec.virt_h)
        return "output window outside the resized image";
    if (spec.interp == INTERP_COPY && (spec.virt_w != spec.box_w || spec.virt_h != spec.box_h))
        return "copy pass needs the resize target equal to the source box";
    if (spec.interp < INTERP_COPY || spec.interp > INTERP_AREA) return "unknown interpolation";
    if (spec.point_op != POINT_NONE && (!spec.p0 || !spec.p1)) return "missing pointwise values";
    switch (spec.channels) {
        case 1: dispatch<1>(spec); break;
        case 3: dispatch<3>(spec); break;
        case 4: dispatch<4>(spec); break;
        default: dispatch<0>(spec); break;
    }
    return nullptr;
}

}  // namespace mdt
