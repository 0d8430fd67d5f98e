#include "resample_pass.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Every float step here must round as OpenCV's, Pillow's and numpy's do, one operation at a time:
// the extension is built with -ffp-contract=off (see _native.pyx), so no multiply-add is fused.
//
// The separable resizes run horizontally first, as OpenCV and Pillow do: their rounding of the
// horizontal results (OpenCV's >> 4 before the vertical blend, Pillow's clip to uint8) is part of
// the result. Horizontal rows are cached by source row, so each is computed once per pass.

namespace mdt {
namespace {

constexpr int kCoefBits = 11;  // OpenCV's INTER_RESIZE_COEF_BITS
constexpr int kCoefScale = 1 << kCoefBits;
constexpr int kPilBits = 22;   // Pillow's PRECISION_BITS for 8-bit images

// saturate_cast<short>(float): the weight scaled to 11 bits, rounded half to even.
inline int16_t to_coef(float value) {
    return static_cast<int16_t>(std::lrint(value * kCoefScale));
}

inline uint8_t saturate_u8(long value) {
    return static_cast<uint8_t>(value < 0 ? 0 : (value > 255 ? 255 : value));
}

// Pillow's clip8: a 22-bit fixed-point sum (already holding the rounding half) to a sample.
inline uint8_t pil_clip8(int32_t sum) { return saturate_u8(sum >> kPilBits); }

// One axis of the pass: output index -> virtual index (window, flip) -> box coordinate -> index
// into the source region.
struct Axis {
    int count;      // output samples
    int win;        // first virtual index of the window
    bool flip;
    int virt;       // size of the resized (virtual) image
    double scale;   // box pixels per virtual pixel
    double offset;  // approximate decode's fractional offset, added to every coordinate; else 0
    int shift;      // region index = box index + shift (a trimmed region starts -shift pixels in)
    int full;       // box size up to the region's end, in box coordinates
    int src_count;  // region size

    Axis(int count_, int win_, bool flip_, int virt_, double scale_, double offset_, int src)
        : count(count_), win(win_), flip(flip_), virt(virt_), scale(scale_), src_count(src) {
        const bool integral = offset_ == std::floor(offset_);
        offset = integral ? 0.0 : offset_;
        shift = integral ? static_cast<int>(offset_) : 0;
        full = src_count - shift;
    }

    int virtual_index(int o) const { return win + (flip ? count - 1 - o : o); }

    // Box index clamped to the box (edge replication), then mapped into the region; the region
    // clamp only matters when a caller trimmed the region too tightly (never out of bounds).
    int region(int box_index) const {
        const int b = std::min(std::max(box_index, 0), full - 1);
        return std::min(std::max(b + shift, 0), src_count - 1);
    }

    // OpenCV's sampling coordinate of virtual index v, computed in single precision as it does.
    float coordinate(int v) const {
        float f = static_cast<float>((v + 0.5) * scale - 0.5);
        if (offset != 0.0) f = static_cast<float>(f + offset);
        return f;
    }

    // OpenCV's dst/src ratio. With a trimmed region the box size is recovered from the scale
    // (cv2's scale is 1 / (virt / box)); 1 / scale when it cannot be.
    double inverse_scale() const {
        const double box = std::nearbyint(virt * scale);
        if (box >= 1.0 && 1.0 / (virt / box) == scale) return virt / box;
        return 1.0 / scale;
    }

    // cv2's test for its integer-factor area kernel: the scale is within DBL_EPSILON of an
    // integer (saturate_cast<int> rounds half to even).
    bool integer_scale(int* factor) const {
        const double rounded = std::nearbyint(scale);
        *factor = static_cast<int>(rounded);
        return offset == 0.0 && std::fabs(scale - rounded) < DBL_EPSILON && *factor >= 1;
    }
};

// ---- tap tables ---------------------------------------------------------------------------------

std::vector<int> copy_taps(const Axis& a) {
    std::vector<int> index(a.count);
    for (int o = 0; o < a.count; ++o) index[o] = a.region(a.virtual_index(o));
    return index;
}

// INTER_NEAREST: floor(v * scale), in double.
std::vector<int> nearest_taps(const Axis& a) {
    std::vector<int> index(a.count);
    for (int o = 0; o < a.count; ++o) {
        const double pos = a.virtual_index(o) * a.scale + a.offset;
        index[o] = a.region(static_cast<int>(std::floor(pos)));
    }
    return index;
}

struct LinearTaps {
    std::vector<int> i0, i1;     // region indices of the two taps
    std::vector<int16_t> w0, w1; // 11-bit weights

    explicit LinearTaps(int n) : i0(n), i1(n), w0(n), w1(n) {}
};

// Two-tap weights of INTER_LINEAR, or of INTER_AREA when enlarging (whose weight only leaves the
// left sample in the last fraction of each source pixel). Along x OpenCV moves a coordinate outside
// the box onto the edge sample; along y it keeps the weights and clamps the rows.
LinearTaps linear_taps(const Axis& a, bool area_mode, bool clamp_weights) {
    LinearTaps taps(a.count);
    const double inv_scale = area_mode ? a.inverse_scale() : 0.0;
    for (int o = 0; o < a.count; ++o) {
        const int v = a.virtual_index(o);
        int s;
        float f;
        if (!area_mode) {
            const float pos = a.coordinate(v);
            s = static_cast<int>(std::floor(pos));
            f = pos - static_cast<float>(s);
        } else {
            const int s_box = static_cast<int>(std::floor(v * a.scale));
            f = static_cast<float>((v + 1) - (s_box + 1) * inv_scale);
            f = f <= 0 ? 0.f : f - std::floor(f);
            s = a.offset == 0.0 ? s_box : static_cast<int>(std::floor(v * a.scale + a.offset));
        }
        if (clamp_weights) {
            if (s < 0) s = 0, f = 0.f;
            if (s >= a.full - 1) s = a.full - 1, f = 0.f;
        }
        taps.i0[o] = a.region(s);
        taps.i1[o] = a.region(s + 1);
        taps.w0[o] = to_coef(1.f - f);
        taps.w1[o] = to_coef(f);
    }
    return taps;
}

// INTER_CUBIC: OpenCV's A = -0.75 kernel in single precision, four 11-bit weights, edge samples
// replicated.
struct CubicTaps {
    std::vector<int> index;     // 4 region indices per output
    std::vector<int16_t> coef;  // 4 weights per output
};

CubicTaps cubic_taps(const Axis& a) {
    CubicTaps taps;
    taps.index.resize(static_cast<size_t>(a.count) * 4);
    taps.coef.resize(static_cast<size_t>(a.count) * 4);
    const float A = -0.75f;
    for (int o = 0; o < a.count; ++o) {
        const float pos = a.coordinate(a.virtual_index(o));
        const int s = static_cast<int>(std::floor(pos));
        const float x = pos - static_cast<float>(s);
        float c[4];
        c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
        c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
        c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
        c[3] = 1.f - c[0] - c[1] - c[2];
        for (int k = 0; k < 4; ++k) {
            taps.index[o * 4 + k] = a.region(s - 1 + k);
            taps.coef[o * 4 + k] = to_coef(c[k]);
        }
    }
    return taps;
}

// Pillow's bicubic (a = -0.5), widened by the scale when shrinking; weights normalised in double
// and rounded half away from zero to 22 bits.
struct PilTaps {
    int ksize = 0;
    std::vector<int> first;     // first region index per output (taps are consecutive)
    std::vector<int> count;     // taps per output
    std::vector<int32_t> coef;  // ksize weights per output
};

double pil_bicubic(double x) {
    const double a = -0.5;
    if (x < 0.0) x = -x;
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1;
    if (x < 2.0) return (((x - 5) * x + 8) * x - 4) * a;
    return 0.0;
}

PilTaps pil_taps(const Axis& a) {
    PilTaps taps;
    const double filter_scale = std::max(a.scale, 1.0);
    const double support = 2.0 * filter_scale;
    taps.ksize = static_cast<int>(std::ceil(support)) * 2 + 1;
    taps.first.resize(a.count);
    taps.count.resize(a.count);
    taps.coef.assign(static_cast<size_t>(a.count) * taps.ksize, 0);
    std::vector<double> weight(taps.ksize);
    for (int o = 0; o < a.count; ++o) {
        const double center = a.offset + (a.virtual_index(o) + 0.5) * a.scale;
        const double inv = 1.0 / filter_scale;
        int first = static_cast<int>(center - support + 0.5);
        if (first < 0) first = 0;
        int last = static_cast<int>(center + support + 0.5);
        if (last > a.full) last = a.full;
        const int n = std::min(std::max(last - first, 0), taps.ksize);
        double total = 0.0;
        for (int x = 0; x < n; ++x) {
            weight[x] = pil_bicubic((x + first - center + 0.5) * inv);
            total += weight[x];
        }
        // Taps outside the region (only when a caller trimmed it too tightly) are dropped.
        const int lo = first + a.shift;
        const int begin = std::max(lo, 0), end = std::min(lo + n, a.src_count);
        taps.first[o] = std::min(begin, a.src_count - 1);
        taps.count[o] = std::max(end - begin, 0);
        for (int x = begin - lo; x < end - lo; ++x) {
            const double w = total != 0.0 ? weight[x] / total : weight[x];
            const double scaled = w * (1 << kPilBits);
            taps.coef[o * taps.ksize + x - (begin - lo)] =
                static_cast<int32_t>(w < 0 ? -0.5 + scaled : 0.5 + scaled);
        }
    }
    return taps;
}

// INTER_AREA when shrinking: per output, the source pixels its cell covers with OpenCV's float
// weights (fractional at the cell's edges), in OpenCV's order.
struct AreaTaps {
    std::vector<int> start;  // per output: first entry in index/weight; count + 1 entries
    std::vector<int> index;
    std::vector<float> weight;
};

AreaTaps area_taps(const Axis& a) {
    AreaTaps taps;
    taps.start.resize(a.count + 1);
    auto add = [&](int s, float w) {
        taps.index.push_back(a.region(s));
        taps.weight.push_back(w);
    };
    for (int o = 0; o < a.count; ++o) {
        taps.start[o] = static_cast<int>(taps.index.size());
        const double lo = a.virtual_index(o) * a.scale + a.offset;
        const double hi = lo + a.scale;
        const double cell = std::min(a.scale, a.full - lo);
        int s_lo = static_cast<int>(std::ceil(lo));
        int s_hi = static_cast<int>(std::floor(hi));
        s_hi = std::min(s_hi, a.full - 1);
        s_lo = std::min(s_lo, s_hi);
        if (s_lo - lo > 1e-3) add(s_lo - 1, static_cast<float>((s_lo - lo) / cell));
        for (int s = s_lo; s < s_hi; ++s) add(s, static_cast<float>(1.0 / cell));
        if (hi - s_hi > 1e-3) add(s_hi, static_cast<float>(std::min(std::min(hi - s_hi, 1.), cell) / cell));
        if (taps.start[o] == static_cast<int>(taps.index.size()))  // degenerate cell: nearest
            add(static_cast<int>(std::floor(lo)), 1.f);
    }
    taps.start[a.count] = static_cast<int>(taps.index.size());
    return taps;
}

// ---- shared machinery ---------------------------------------------------------------------------

// Horizontally resampled source rows, cached by region row in `slots` direct-mapped slots: the
// rows one output row reads are consecutive, so with at least that many slots none evicts another.
// Each row has kRowSlack spare samples after it (vector stores may write past the last sample).
constexpr size_t kRowSlack = 4;

template <typename T, typename Fill>
class RowCache {
  public:
    RowCache(int slots, size_t width, Fill& fill)
        : slots_(slots), width_(width + kRowSlack), fill_(fill), tags_(slots, -1),
          data_(slots * width_) {}

    const T* get(int row) {
        const int slot = row % slots_;
        T* out = data_.data() + slot * width_;
        if (tags_[slot] != row) {
            fill_(row, out);
            tags_[slot] = row;
        }
        return out;
    }

  private:
    int slots_;
    size_t width_;
    Fill& fill_;
    std::vector<int> tags_;
    std::vector<T> data_;
};

// Writes one row of uint8 samples (HWC order, out_w pixels) into the output. The pointwise op
// of a uint8 sample has 256 possible results per channel: they are tabulated once per pass with
// the same float32 expressions (one rounding per operation) the eager ops use.
template <int CN>
struct RowWriter {
    const PassSpec& spec;
    int cn;
    size_t width;              // samples per output row
    std::vector<float> table;  // cn x 256

    explicit RowWriter(const PassSpec& s)
        : spec(s), cn(CN ? CN : s.channels), width(static_cast<size_t>(s.out_w) * cn) {
        if (spec.point_op == POINT_NONE) return;
        table.resize(static_cast<size_t>(cn) * 256);
        if (spec.point_op == POINT_TABLE) {
            std::copy(spec.p0, spec.p0 + table.size(), table.begin());
            return;
        }
        for (int c = 0; c < cn; ++c) {
            float* t = table.data() + c * 256;
            for (int v = 0; v < 256; ++v) t[v] = point_value(static_cast<float>(v), c);
        }
    }

    float point_value(float v, int c) const {
        if (spec.point_op == POINT_NORMALIZE) return (v - spec.p0[c]) / spec.p1[c];
        // One rounding, as MindSpore's Rescale (OpenCV's convertTo: a fused multiply-add).
        const float rescaled = std::fma(v, spec.p0[c], spec.p1[c]);
        if (spec.point_op == POINT_RESCALE) return rescaled;
        const float centered = rescaled - spec.p2[c];
        return centered / spec.p3[c];
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

struct Geometry {
    Axis x, y;
    explicit Geometry(const PassSpec& s)
        : x(s.out_w, s.win_x, s.hflip, s.virt_w, s.scale_x, s.offset_x, s.box_w),
          y(s.out_h, s.win_y, s.vflip, s.virt_h, s.scale_y, s.offset_y, s.box_h) {}
};

inline const uint8_t* source_row(const PassSpec& spec, int row) {
    return spec.src + row * spec.src_stride;
}

// The separable kernels' skeleton: `fill(sy, h)` resamples source row sy horizontally into h
// (cached, `slots` rows), `blend(oy, rows, out)` makes output row oy from the cached rows.
template <typename H, int CN, typename Fill, typename Blend>
void run_separable(const PassSpec& spec, const RowWriter<CN>& writer, int slots, Fill fill,
                   Blend blend) {
    RowCache<H, Fill> rows(slots, writer.width, fill);
    std::vector<uint8_t> row(writer.width);
    for (int oy = 0; oy < spec.out_h; ++oy) {
        blend(oy, rows, row.data());
        writer.write(row.data(), oy);
    }
}

// ---- kernels ------------------------------------------------------------------------------------

template <int CN>
void run_copy_or_nearest(const PassSpec& spec, const Geometry& g) {
    RowWriter<CN> writer(spec);
    const int cn = CN ? CN : writer.cn;
    const bool copy = spec.interp == INTERP_COPY;
    const std::vector<int> xs = copy ? copy_taps(g.x) : nearest_taps(g.x);
    const std::vector<int> ys = copy ? copy_taps(g.y) : nearest_taps(g.y);
    std::vector<uint8_t> row(writer.width);
    bool contiguous = true;  // the window's row is laid out as the output wants
    for (int o = 1; o < spec.out_w; ++o) contiguous = contiguous && xs[o] == xs[o - 1] + 1;
    for (int oy = 0; oy < spec.out_h; ++oy) {
        const uint8_t* src = source_row(spec, ys[oy]);
        if (contiguous) {
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

// INTER_LINEAR (and INTER_AREA's enlarging mode): OpenCV's horizontal sums are exact, kept >> 4
// as 16-bit values; the vertical blend is ((b0 * h0) >> 16) + ((b1 * h1) >> 16), rounded >> 2
// (OpenCV's SIMD and scalar code agree on it; the SSE2 loops below are the same integer math).
// One output pixel's two taps for the RGB path: byte offsets and both weights in one word, as
// _mm_madd_epi16 takes them.
struct RgbTap {
    int32_t offset0, offset1;
    int32_t weights;
    bool byte_loads;  // a tap is the row's last pixel: four-byte loads would leave the row
};

std::vector<RgbTap> rgb_taps(const LinearTaps& xt, int out_w, int src_count) {
    std::vector<RgbTap> taps(out_w);
    for (int o = 0; o < out_w; ++o) {
        taps[o].offset0 = xt.i0[o] * 3;
        taps[o].offset1 = xt.i1[o] * 3;
        taps[o].weights = static_cast<int32_t>(static_cast<uint32_t>(
            static_cast<uint16_t>(xt.w1[o])) << 16 | static_cast<uint16_t>(xt.w0[o]));
        taps[o].byte_loads = std::max(xt.i0[o], xt.i1[o]) >= src_count - 1;
    }
    return taps;
}

inline void linear_horizontal_rgb(const uint8_t* src, const std::vector<RgbTap>& taps,
                                  int16_t* h) {
    const int out_w = static_cast<int>(taps.size());
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    // A pixel's three samples widened to 16 bits; the fourth lane is junk the store below drops.
    auto load = [&](const uint8_t* p, bool bytes) {
        int v;
        if (!bytes) std::memcpy(&v, p, 4);
        else v = p[0] | (p[1] << 8) | (p[2] << 16);
        return _mm_unpacklo_epi8(_mm_cvtsi32_si128(v), zero);
    };
    for (int o = 0; o < out_w; ++o) {
        const RgbTap& t = taps[o];
        const __m128i pairs = _mm_unpacklo_epi16(load(src + t.offset0, t.byte_loads),
                                                 load(src + t.offset1, t.byte_loads));
        const __m128i sum = _mm_srai_epi32(_mm_madd_epi16(pairs, _mm_set1_epi32(t.weights)), 4);
        // Four 16-bit values: the pixel's three and one spare, overwritten by the next pixel.
        _mm_storel_epi64(reinterpret_cast<__m128i*>(h + o * 3), _mm_packs_epi32(sum, sum));
    }
#else
    for (int o = 0; o < out_w; ++o) {
        const RgbTap& t = taps[o];
        const int32_t a0 = static_cast<int16_t>(t.weights & 0xffff), a1 = t.weights >> 16;
        for (int c = 0; c < 3; ++c)
            h[o * 3 + c] = static_cast<int16_t>(
                (src[t.offset0 + c] * a0 + src[t.offset1 + c] * a1) >> 4);
    }
#endif
}

inline void linear_vertical(const int16_t* __restrict h0, const int16_t* __restrict h1,
                            int16_t b0, int16_t b1, size_t width, uint8_t* __restrict dst) {
    size_t e = 0;
#if defined(__SSE2__)
    const __m128i vb0 = _mm_set1_epi16(b0), vb1 = _mm_set1_epi16(b1), two = _mm_set1_epi16(2);
    auto blend8 = [&](size_t i) {
        const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h0 + i));
        const __m128i x1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h1 + i));
        const __m128i sum = _mm_adds_epi16(_mm_mulhi_epi16(x0, vb0), _mm_mulhi_epi16(x1, vb1));
        return _mm_srai_epi16(_mm_adds_epi16(sum, two), 2);
    };
    for (; e + 16 <= width; e += 16)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + e),
                         _mm_packus_epi16(blend8(e), blend8(e + 8)));
#endif
    for (; e < width; ++e)
        dst[e] = static_cast<uint8_t>((((b0 * h0[e]) >> 16) + ((b1 * h1[e]) >> 16) + 2) >> 2);
}

template <int CN>
void run_linear(const PassSpec& spec, const Geometry& g, bool area_mode) {
    RowWriter<CN> writer(spec);
    const int cn = CN ? CN : writer.cn;
    const LinearTaps xt = linear_taps(g.x, area_mode, true);
    const LinearTaps yt = linear_taps(g.y, area_mode, false);
    const std::vector<RgbTap> rgb = CN == 3 ? rgb_taps(xt, spec.out_w, spec.box_w)
                                            : std::vector<RgbTap>();
    auto fill = [&](int sy, int16_t* __restrict h) {
        const uint8_t* __restrict src = source_row(spec, sy);
        if (CN == 3) {
            linear_horizontal_rgb(src, rgb, h);
            return;
        }
        for (int o = 0; o < spec.out_w; ++o) {
            const uint8_t* p0 = src + static_cast<size_t>(xt.i0[o]) * cn;
            const uint8_t* p1 = src + static_cast<size_t>(xt.i1[o]) * cn;
            const int32_t a0 = xt.w0[o], a1 = xt.w1[o];
            for (int c = 0; c < cn; ++c)
                h[o * cn + c] = static_cast<int16_t>((p0[c] * a0 + p1[c] * a1) >> 4);
        }
    };
    run_separable<int16_t>(spec, writer, 2, fill, [&](int oy, auto& rows, uint8_t* dst) {
        const int16_t* h0 = rows.get(yt.i0[oy]);
        const int16_t* h1 = rows.get(yt.i1[oy]);
        linear_vertical(h0, h1, yt.w0[oy], yt.w1[oy], writer.width, dst);
    });
}

// INTER_CUBIC: exact integer horizontal sums; vertically OpenCV's SIMD code blends the first
// (virt_w * cn) rounded down to 8 samples of each row in float (a nested multiply-add chain,
// rounded half to even), the rest in 22-bit integer arithmetic. Which samples took which path
// depends on their position in the whole resized row, so a window reproduces it per sample.
template <int CN>
void run_cubic(const PassSpec& spec, const Geometry& g) {
    RowWriter<CN> writer(spec);
    const int cn = CN ? CN : writer.cn;
    const CubicTaps xt = cubic_taps(g.x);
    const CubicTaps yt = cubic_taps(g.y);
    const long simd_end = (static_cast<long>(spec.virt_w) * cn / 8) * 8;
    std::vector<uint8_t> float_path(writer.width);
    for (int o = 0; o < spec.out_w; ++o)
        for (int c = 0; c < cn; ++c)
            float_path[o * cn + c] = static_cast<long>(g.x.virtual_index(o)) * cn + c < simd_end;
    auto fill = [&](int sy, int32_t* __restrict h) {
        const uint8_t* __restrict src = source_row(spec, sy);
        for (int o = 0; o < spec.out_w; ++o) {
            const int* idx = &xt.index[o * 4];
            const int16_t* a = &xt.coef[o * 4];
            const uint8_t* p[4] = {src + idx[0] * cn, src + idx[1] * cn, src + idx[2] * cn,
                                   src + idx[3] * cn};
            for (int c = 0; c < cn; ++c)
                h[o * cn + c] = a[0] * p[0][c] + a[1] * p[1][c] + a[2] * p[2][c] + a[3] * p[3][c];
        }
    };
    const float unit = 1.f / (kCoefScale * kCoefScale);
    constexpr int kShift = 2 * kCoefBits;
    run_separable<int32_t>(spec, writer, 4, fill, [&](int oy, auto& rows, uint8_t* dst) {
        const int32_t* h[4];
        int32_t b[4];
        float fb[4];
        for (int k = 0; k < 4; ++k) {
            h[k] = rows.get(yt.index[oy * 4 + k]);
            b[k] = yt.coef[oy * 4 + k];
            fb[k] = static_cast<float>(b[k]) * unit;
        }
        for (size_t e = 0; e < writer.width; ++e) {
            long value;
            if (float_path[e]) {
                float sum = static_cast<float>(h[3][e]) * fb[3];
                for (int k = 2; k >= 0; --k) {
                    const float product = static_cast<float>(h[k][e]) * fb[k];
                    sum = product + sum;
                }
                value = std::lrint(sum);
            } else {
                int64_t sum = 0;
                for (int k = 0; k < 4; ++k) sum += static_cast<int64_t>(h[k][e]) * b[k];
                value = static_cast<long>((sum + (int64_t(1) << (kShift - 1))) >> kShift);
            }
            dst[e] = saturate_u8(value);
        }
    });
}

// INTER_AREA by an integer factor (and INTER_LINEAR halving both axes, which OpenCV turns into
// it): plain sums of each cell; 2x2 cells of 1, 3 or 4 channels round (sum + 2) >> 2, every other
// case sum * float(1 / area) rounded half to even.
template <int CN>
void run_area_fast(const PassSpec& spec, const Geometry& g, int fx, int fy) {
    RowWriter<CN> writer(spec);
    const int cn = CN ? CN : writer.cn;
    const bool shift_round = fx == 2 && fy == 2 && (cn == 1 || cn == 3 || cn == 4);
    const float inv_area = 1.f / static_cast<float>(fx * fy);
    std::vector<int> cols(static_cast<size_t>(spec.out_w) * fx);
    for (int o = 0; o < spec.out_w; ++o)
        for (int k = 0; k < fx; ++k) cols[o * fx + k] = g.x.region(g.x.virtual_index(o) * fx + k);
    std::vector<const uint8_t*> src_rows(fy);
    std::vector<uint8_t> row(writer.width);
    for (int oy = 0; oy < spec.out_h; ++oy) {
        const int vy = g.y.virtual_index(oy);
        for (int k = 0; k < fy; ++k) src_rows[k] = source_row(spec, g.y.region(vy * fy + k));
        if (shift_round) {  // the common 2x2 case, unrolled
            const uint8_t* r0 = src_rows[0];
            const uint8_t* r1 = src_rows[1];
            for (int o = 0; o < spec.out_w; ++o) {
                const int c0 = cols[o * 2] * cn, c1 = cols[o * 2 + 1] * cn;
                for (int c = 0; c < cn; ++c)
                    row[o * cn + c] = static_cast<uint8_t>(
                        (r0[c0 + c] + r0[c1 + c] + r1[c0 + c] + r1[c1 + c] + 2) >> 2);
            }
            writer.write(row.data(), oy);
            continue;
        }
        for (int o = 0; o < spec.out_w; ++o) {
            for (int c = 0; c < cn; ++c) {
                int sum = 0;
                for (int r = 0; r < fy; ++r)
                    for (int k = 0; k < fx; ++k) sum += src_rows[r][cols[o * fx + k] * cn + c];
                row[o * cn + c] = saturate_u8(std::lrint(static_cast<float>(sum) * inv_area));
            }
        }
        writer.write(row.data(), oy);
    }
}

// INTER_AREA when shrinking by a non-integer factor: each source row is area-summed horizontally
// in float, then rows are accumulated with their vertical weights (first row sum = w * row, then
// sum += w * row), rounded half to even, as OpenCV does.
template <int CN>
void run_area(const PassSpec& spec, const Geometry& g) {
    RowWriter<CN> writer(spec);
    const int cn = CN ? CN : writer.cn;
    const AreaTaps xt = area_taps(g.x);
    const AreaTaps yt = area_taps(g.y);
    auto fill = [&](int sy, float* __restrict h) {
        const uint8_t* __restrict src = source_row(spec, sy);
        for (int o = 0; o < spec.out_w; ++o) {
            if (CN) {  // a known channel count: one accumulator per channel, taps outermost
                float acc[CN ? CN : 1] = {};
                for (int t = xt.start[o]; t < xt.start[o + 1]; ++t) {
                    const uint8_t* p = src + xt.index[t] * cn;
                    for (int c = 0; c < cn; ++c) {
                        const float product = static_cast<float>(p[c]) * xt.weight[t];
                        acc[c] = acc[c] + product;
                    }
                }
                for (int c = 0; c < cn; ++c) h[o * cn + c] = acc[c];
                continue;
            }
            for (int c = 0; c < cn; ++c) {
                float acc = 0.f;
                for (int t = xt.start[o]; t < xt.start[o + 1]; ++t) {
                    const float product = static_cast<float>(src[xt.index[t] * cn + c]) *
                                          xt.weight[t];
                    acc = acc + product;
                }
                h[o * cn + c] = acc;
            }
        }
    };
    std::vector<float> sum(writer.width);
    run_separable<float>(spec, writer, 2, fill, [&](int oy, auto& rows, uint8_t* dst) {
        for (int t = yt.start[oy]; t < yt.start[oy + 1]; ++t) {
            const float* __restrict h = rows.get(yt.index[t]);
            const float beta = yt.weight[t];
            const bool first = t == yt.start[oy];
            for (size_t e = 0; e < writer.width; ++e) {
                const float product = beta * h[e];
                sum[e] = first ? product : sum[e] + product;
            }
        }
        for (size_t e = 0; e < writer.width; ++e) dst[e] = saturate_u8(std::lrint(sum[e]));
    });
}

// Pillow's bicubic: each source row resampled horizontally and clipped to uint8, then the rows
// blended vertically and clipped, both passes in 22-bit fixed point starting from half a unit
// (32-bit sums as in Pillow: normalised weights keep them far from overflow).
template <int CN>
void run_pilcubic(const PassSpec& spec, const Geometry& g) {
    RowWriter<CN> writer(spec);
    const int cn = CN ? CN : writer.cn;
    const PilTaps xt = pil_taps(g.x);
    const PilTaps yt = pil_taps(g.y);
    constexpr int32_t kHalf = int32_t(1) << (kPilBits - 1);
    auto fill = [&](int sy, uint8_t* __restrict h) {
        const uint8_t* __restrict src = source_row(spec, sy);
        for (int o = 0; o < spec.out_w; ++o) {
            const uint8_t* p = src + static_cast<size_t>(xt.first[o]) * cn;
            const int32_t* k = &xt.coef[static_cast<size_t>(o) * xt.ksize];
            const int n = xt.count[o];
            if (CN) {  // a known channel count: one accumulator per channel, one pass
                int32_t sum[CN ? CN : 1];
                for (int c = 0; c < cn; ++c) sum[c] = kHalf;
                for (int t = 0; t < n; ++t, p += cn)
                    for (int c = 0; c < cn; ++c) sum[c] += p[c] * k[t];
                for (int c = 0; c < cn; ++c) h[o * cn + c] = pil_clip8(sum[c]);
                continue;
            }
            for (int c = 0; c < cn; ++c) {
                int32_t sum = kHalf;
                for (int t = 0; t < n; ++t) sum += p[t * cn + c] * k[t];
                h[o * cn + c] = pil_clip8(sum);
            }
        }
    };
    std::vector<int32_t> acc(writer.width);
    run_separable<uint8_t>(spec, writer, yt.ksize, fill, [&](int oy, auto& rows, uint8_t* dst) {
        const int32_t* k = &yt.coef[static_cast<size_t>(oy) * yt.ksize];
        std::fill(acc.begin(), acc.end(), kHalf);
        for (int t = 0; t < yt.count[oy]; ++t) {
            const uint8_t* __restrict r = rows.get(yt.first[oy] + t);
            const int32_t w = k[t];
            int32_t* __restrict a = acc.data();
            for (size_t e = 0; e < writer.width; ++e) a[e] += r[e] * w;
        }
        for (size_t e = 0; e < writer.width; ++e) dst[e] = pil_clip8(acc[e]);
    });
}

// Picks the kernel cv2.resize would run for this geometry.
template <int CN>
void dispatch(const PassSpec& spec) {
    const Geometry g(spec);
    int fx = 0, fy = 0;
    const bool integer_factors = g.x.integer_scale(&fx) && g.y.integer_scale(&fy);
    switch (spec.interp) {
        case INTERP_LINEAR:
            if (integer_factors && fx == 2 && fy == 2) run_area_fast<CN>(spec, g, 2, 2);
            else run_linear<CN>(spec, g, false);
            break;
        case INTERP_CUBIC:
            run_cubic<CN>(spec, g);
            break;
        case INTERP_AREA:
            if (spec.scale_x < 1.0 || spec.scale_y < 1.0) run_linear<CN>(spec, g, true);
            else if (integer_factors) run_area_fast<CN>(spec, g, fx, fy);
            else run_area<CN>(spec, g);
            break;
        case INTERP_PILCUBIC:
            run_pilcubic<CN>(spec, g);
            break;
        default:
            run_copy_or_nearest<CN>(spec, g);
    }
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
    if (spec.win_x < 0 || spec.win_y < 0 || spec.win_x > spec.virt_w - spec.out_w ||
        spec.win_y > spec.virt_h - spec.out_h)
        return "output window outside the resized image";
    if (spec.interp < INTERP_COPY || spec.interp > INTERP_PILCUBIC) return "unknown interpolation";
    if (spec.interp == INTERP_COPY && (spec.virt_w != spec.box_w || spec.virt_h != spec.box_h))
        return "copy pass needs the resize target equal to the source box";
    if (spec.interp != INTERP_COPY &&
        !(spec.scale_x > 0 && spec.scale_y > 0 && std::isfinite(spec.scale_x) &&
          std::isfinite(spec.scale_y) && std::isfinite(spec.offset_x) &&
          std::isfinite(spec.offset_y) && std::fabs(spec.offset_x) < (1 << 30) &&
          std::fabs(spec.offset_y) < (1 << 30)))
        return "scale must be positive and finite, offsets finite";
    if (spec.point_op < POINT_NONE || spec.point_op > POINT_TABLE)
        return "unknown pointwise op";
    if (spec.point_op == POINT_TABLE && !spec.p0) return "missing pointwise table";
    if (spec.point_op != POINT_NONE && spec.point_op != POINT_TABLE && (!spec.p0 || !spec.p1))
        return "missing pointwise values";
    if (spec.point_op == POINT_RESCALE_NORMALIZE && (!spec.p2 || !spec.p3))
        return "missing pointwise values";
    switch (spec.channels) {
        case 1: dispatch<1>(spec); break;
        case 3: dispatch<3>(spec); break;
        case 4: dispatch<4>(spec); break;
        default: dispatch<0>(spec); break;
    }
    return nullptr;
}

}  // namespace mdt
