#include "row_plan.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <utility>

#include "jpeg_decoder.h"
#include "resample_pass.h"

namespace mdt {

namespace {

constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ULL;
constexpr size_t kErrLen = 256;
// Decoded regions above this size get a temporary buffer, so no thread keeps a huge scratch.
constexpr size_t kScratchLimit = 16u * 1024u * 1024u;

uint64_t finalize(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// transforms_c._native.Rng: splitmix64, doubles from the top 53 bits.
struct Rng {
    uint64_t state;
    explicit Rng(uint64_t seed) : state(seed) {}
    uint64_t next_u64() {
        state += kGolden;
        return finalize(state);
    }
    double random() { return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0); }
    double uniform(double low, double high) { return low + (high - low) * random(); }
    long long randint(long long low, long long high) {
        if (high <= low) return low;
        return low + static_cast<long long>(next_u64() % static_cast<uint64_t>(high - low + 1));
    }
};

// Python's round() for the values here (half to even, as nearbyint in the default mode).
long long py_round(double v) { return static_cast<long long>(std::nearbyint(v)); }

struct Unfoldable {};

// transforms_c/fusion.py's _Geometry: source box -> resize to virt -> window.
struct Geometry {
    int box[4];                      // x, y, w, h
    bool resized = false;
    int virt_w = 0, virt_h = 0;
    int window[4] = {0, 0, 0, 0};    // x, y, w, h
    int interp = INTERP_COPY;
    const Step* random_crop = nullptr;

    Geometry(int width, int height) : box{0, 0, width, height} {}

    std::pair<int, int> current_hw() const {
        return resized ? std::make_pair(window[3], window[2]) : std::make_pair(box[3], box[2]);
    }
    void crop(long long top, long long left, long long height, long long width) {
        auto hw = current_hw();
        if (top < 0 || left < 0 || top + height > hw.first || left + width > hw.second)
            throw Unfoldable();
        int* r = resized ? window : box;
        r[0] += static_cast<int>(left);
        r[1] += static_cast<int>(top);
        r[2] = static_cast<int>(width);
        r[3] = static_cast<int>(height);
    }
    void resize(int height, int width, int how, const Step* crop_op) {
        if (resized) throw Unfoldable();
        resized = true;
        virt_w = width;
        virt_h = height;
        window[0] = window[1] = 0;
        window[2] = width;
        window[3] = height;
        interp = how;
        random_crop = crop_op;
    }
};

struct PassParams {
    bool hflip = false, vflip = false;
    int point = POINT_NONE;
    std::vector<float> p0, p1, p2, p3;
    bool chw = false;
};

// transforms_c.vision.resized_crop.random_resized_crop_box
void random_resized_crop_box(const Step& s, int height, int width, Rng& rng, long long* top,
                             long long* left, long long* crop_h, long long* crop_w) {
    const long long area = static_cast<long long>(height) * width;
    const double log_lo = std::log(s.ratio_lo), log_hi = std::log(s.ratio_hi);
    for (int attempt = 0; attempt < s.max_attempts; ++attempt) {
        const double target = rng.uniform(s.scale_lo, s.scale_hi) * static_cast<double>(area);
        const double aspect = std::exp(rng.uniform(log_lo, log_hi));
        const long long w = py_round(std::sqrt(target * aspect));
        const long long h = py_round(std::sqrt(target / aspect));
        if (0 < w && w <= width && 0 < h && h <= height) {
            *left = rng.randint(0, width - w);
            *top = rng.randint(0, height - h);
            *crop_h = h;
            *crop_w = w;
            return;
        }
    }
    const double in_ratio = static_cast<double>(width) / static_cast<double>(height);
    long long w = width, h = height;
    if (in_ratio < s.ratio_lo) {
        h = std::min<long long>(height, std::max<long long>(1, py_round(w / s.ratio_lo)));
    } else if (in_ratio > s.ratio_hi) {
        w = std::min<long long>(width, std::max<long long>(1, py_round(h * s.ratio_hi)));
    }
    *top = (height - h) / 2;
    *left = (width - w) / 2;
    *crop_h = h;
    *crop_w = w;
}

// transforms_c.vision.resize.resized_shape (float32 arithmetic, as MindSpore).
std::pair<int, int> resized_shape(int height, int width, const Step& s) {
    if (s.size_w >= 0) return {s.size_h, s.size_w};
    const float size = static_cast<float>(s.size_h);
    if (height < width) {
        const float ratio = static_cast<float>(width) / static_cast<float>(height);
        const float other = ratio * size;
        return {s.size_h, std::max(1, static_cast<int>(std::floor(other)))};
    }
    const float ratio = static_cast<float>(height) / static_cast<float>(width);
    const float other = ratio * size;
    return {std::max(1, static_cast<int>(std::floor(other))), s.size_h};
}

bool per_channel(const std::vector<float>& values, int channels, std::vector<float>* out) {
    if (values.size() == 1) {
        out->assign(channels, values[0]);
        return true;
    }
    if (static_cast<int>(values.size()) != channels) return false;
    *out = values;
    return true;
}

// transforms_c/fusion.py's _fold. Returns false when the row must run op by op.
bool fold(const std::vector<Step>& steps, const uint64_t* seeds, int width, int height,
          int channels, Geometry* geo, PassParams* pss) {
    try {
        for (size_t k = 0; k < steps.size(); ++k) {
            const Step& s = steps[k];
            const auto hw = geo->current_hw();
            switch (s.kind) {
                case STEP_DECODE:
                    break;
                case STEP_RANDOM_RESIZED_CROP: {
                    if (geo->resized) return false;
                    Rng rng(seeds[k]);
                    long long top, left, ch, cw;
                    random_resized_crop_box(s, hw.first, hw.second, rng, &top, &left, &ch, &cw);
                    geo->crop(top, left, ch, cw);
                    geo->resize(s.size_h, s.size_w, s.interp, &s);
                    break;
                }
                case STEP_RESIZE: {
                    const auto out = resized_shape(hw.first, hw.second, s);
                    geo->resize(out.first, out.second, s.interp, nullptr);
                    break;
                }
                case STEP_RANDOM_CROP: {
                    if (s.size_h > hw.first || s.size_w > hw.second) return false;
                    Rng rng(seeds[k]);
                    const long long left = rng.randint(0, hw.second - s.size_w);
                    const long long top = rng.randint(0, hw.first - s.size_h);
                    geo->crop(top, left, s.size_h, s.size_w);
                    break;
                }
                case STEP_CROP:
                    geo->crop(s.top, s.left, s.size_h, s.size_w);
                    break;
                case STEP_CENTER_CROP:
                    if (s.size_h > hw.first || s.size_w > hw.second) return false;
                    geo->crop((hw.first - s.size_h) / 2, (hw.second - s.size_w) / 2, s.size_h,
                              s.size_w);
                    break;
                case STEP_FLIP: {
                    bool flip = s.prob >= 1.0;
                    if (!flip) {
                        Rng rng(seeds[k]);
                        flip = rng.random() < s.prob;
                    }
                    if (flip) {
                        if (s.axis == 0) pss->hflip = !pss->hflip;
                        else pss->vflip = !pss->vflip;
                    }
                    break;
                }
                case STEP_NORMALIZE:
                    if (pss->point == POINT_RESCALE) {
                        // After a Rescale: both in one pass, one after the other in float32.
                        pss->point = POINT_RESCALE_NORMALIZE;
                        if (!per_channel(s.a, channels, &pss->p2) ||
                            !per_channel(s.b, channels, &pss->p3))
                            return false;
                        break;
                    }
                    pss->point = POINT_NORMALIZE;
                    if (!per_channel(s.a, channels, &pss->p0) ||
                        !per_channel(s.b, channels, &pss->p1))
                        return false;
                    break;
                case STEP_RESCALE:
                    pss->point = POINT_RESCALE;
                    pss->p0.assign(channels, s.a.empty() ? 1.f : s.a[0]);
                    pss->p1.assign(channels, s.b.empty() ? 0.f : s.b[0]);
                    break;
                case STEP_HWC2CHW:
                    pss->chw = true;
                    break;
                default:
                    return false;
            }
        }
    } catch (const Unfoldable&) {
        return false;
    }
    if (!geo->resized) {
        geo->virt_w = geo->box[2];
        geo->virt_h = geo->box[3];
        geo->window[0] = geo->window[1] = 0;
        geo->window[2] = geo->box[2];
        geo->window[3] = geo->box[3];
        geo->interp = INTERP_COPY;
    }
    return true;
}

// transforms_c/fusion.py's _needed_span.
std::pair<int, int> needed_span(int win, int count, double scale, int src_count, int interp) {
    long long lo, hi;
    if (interp == INTERP_COPY) {
        lo = win;
        hi = win + count;
    } else if (interp == INTERP_NEAREST || interp == INTERP_AREA) {
        lo = static_cast<long long>(std::floor(win * scale));
        hi = static_cast<long long>(std::floor((win + count) * scale)) + 2;
    } else {
        const bool cubic = interp == INTERP_CUBIC;
        const float a = static_cast<float>((win + 0.5) * scale - 0.5);
        const float b = static_cast<float>((win + count - 1 + 0.5) * scale - 0.5);
        lo = static_cast<long long>(std::floor(static_cast<double>(a))) - (cubic ? 1 : 0);
        hi = static_cast<long long>(std::floor(static_cast<double>(b))) + (cubic ? 3 : 2);
    }
    lo = std::max<long long>(0, lo - 2);
    hi = std::min<long long>(src_count, hi + 2);
    return {static_cast<int>(lo), static_cast<int>(std::max(hi, lo + 1))};
}

int approximate_denominator(const Geometry& geo) {
    if (geo.random_crop == nullptr || !geo.random_crop->approximate) return 1;
    const double box_w = geo.box[2], box_h = geo.box[3];
    for (int denom : {8, 4, 2}) {
        if (box_w / denom >= geo.virt_w && box_h / denom >= geo.virt_h) return denom;
    }
    return 1;
}

bool output_matches(const Geometry& geo, int channels, int out_h, int out_w, int out_c) {
    return geo.window[2] == out_w && geo.window[3] == out_h && channels == out_c;
}

void fill_pass(const Geometry& geo, const PassParams& pss, PassSpec* spec, void* out) {
    spec->virt_w = geo.virt_w;
    spec->virt_h = geo.virt_h;
    spec->interp = geo.interp;
    spec->win_x = geo.window[0];
    spec->win_y = geo.window[1];
    spec->out_w = geo.window[2];
    spec->out_h = geo.window[3];
    spec->hflip = pss.hflip;
    spec->vflip = pss.vflip;
    spec->point_op = pss.point;
    spec->p0 = pss.p0.empty() ? nullptr : pss.p0.data();
    spec->p1 = pss.p1.empty() ? nullptr : pss.p1.data();
    spec->p2 = pss.p2.empty() ? nullptr : pss.p2.data();
    spec->p3 = pss.p3.empty() ? nullptr : pss.p3.data();
    spec->chw = pss.chw;
    spec->out = out;
}

RowResult error(std::string message) {
    RowResult r;
    r.status = ROW_ERROR;
    r.message = std::move(message);
    return r;
}

RowResult fallback() {
    RowResult r;
    r.status = ROW_FALLBACK;
    return r;
}

// transforms_c/fusion.py's _run_jpeg.
RowResult run_jpeg(const uint8_t* data, size_t size, int width, int height, const Geometry& g,
                   const PassParams& pss, long long max_pixels, void* out) {
    Geometry geo = g;
    PassSpec spec;
    fill_pass(geo, pss, &spec, out);
    const int interp = geo.interp;
    const int box_x = geo.box[0], box_y = geo.box[1], box_w = geo.box[2], box_h = geo.box[3];
    int virt_w = geo.virt_w, virt_h = geo.virt_h;
    int win_x = geo.window[0], win_y = geo.window[1];
    const int out_w = geo.window[2], out_h = geo.window[3];
    int rx, ry, rw, rh;
    double scale_x, scale_y, offset_x, offset_y;
    const int denom = approximate_denominator(geo);
    if (denom > 1) {
        int scaled_w, scaled_h;
        jpeg_scaled_size(width, height, denom, &scaled_w, &scaled_h);
        const double fx = static_cast<double>(box_x) / denom, fy = static_cast<double>(box_y) / denom;
        const double fw = static_cast<double>(box_w) / denom, fh = static_cast<double>(box_h) / denom;
        rx = static_cast<int>(std::floor(fx));
        ry = static_cast<int>(std::floor(fy));
        rw = std::min(scaled_w, static_cast<int>(std::ceil(fx + fw))) - rx;
        rh = std::min(scaled_h, static_cast<int>(std::ceil(fy + fh))) - ry;
        scale_x = fw / virt_w;
        scale_y = fh / virt_h;
        offset_x = fx - rx;
        offset_y = fy - ry;
    } else {
        scale_x = interp != INTERP_COPY ? 1.0 / (static_cast<double>(virt_w) / box_w) : 1.0;
        scale_y = interp != INTERP_COPY ? 1.0 / (static_cast<double>(virt_h) / box_h) : 1.0;
        const auto sx = needed_span(win_x, out_w, scale_x, box_w, interp);
        const auto sy = needed_span(win_y, out_h, scale_y, box_h, interp);
        rx = box_x + sx.first;
        ry = box_y + sy.first;
        rw = sx.second - sx.first;
        rh = sy.second - sy.first;
        offset_x = -static_cast<double>(sx.first);
        offset_y = -static_cast<double>(sy.first);
        if (interp == INTERP_COPY) {
            win_x -= sx.first;
            win_y -= sy.first;
            virt_w = rw;
            virt_h = rh;
            offset_x = offset_y = 0.0;
        }
    }
    if (rw <= 0 || rh <= 0) return fallback();
    spec.virt_w = virt_w;
    spec.virt_h = virt_h;
    spec.win_x = win_x;
    spec.win_y = win_y;
    spec.scale_x = scale_x;
    spec.scale_y = scale_y;
    spec.offset_x = offset_x;
    spec.offset_y = offset_y;
    spec.box_w = rw;
    spec.box_h = rh;
    spec.channels = 3;
    spec.src_stride = static_cast<ptrdiff_t>(rw) * 3;
    const size_t nbytes = static_cast<size_t>(rw) * static_cast<size_t>(rh) * 3;
    std::vector<uint8_t> large;
    uint8_t* region;
    if (nbytes > kScratchLimit) {
        try {
            large.resize(nbytes);
        } catch (const std::bad_alloc&) {
            return error("cannot allocate the decoded JPEG region");
        }
        region = large.data();
    } else {
        region = thread_scratch(nbytes);
        if (region == nullptr) return error("cannot allocate the decoded JPEG region");
    }
    char err[kErrLen];
    err[0] = 0;
    if (!jpeg_decode_region(data, size, denom, rx, ry, rw, rh, region, spec.src_stride,
                            max_pixels, err, kErrLen))
        return error(std::string("invalid JPEG: ") + err);
    spec.src = region;
    const char* message = run_pass(spec);
    if (message != nullptr) return error(std::string("resample: ") + message);
    return RowResult();
}

// transforms_c/fusion.py's _run_image.
RowResult run_image(const RowInput& in, const Geometry& geo, const PassParams& pss, void* out) {
    PassSpec spec;
    fill_pass(geo, pss, &spec, out);
    spec.src = in.data + static_cast<ptrdiff_t>(geo.box[1]) * in.stride +
               static_cast<ptrdiff_t>(geo.box[0]) * in.channels;
    spec.src_stride = in.stride;
    spec.box_w = geo.box[2];
    spec.box_h = geo.box[3];
    spec.channels = in.channels;
    spec.scale_x = geo.interp != INTERP_COPY ? 1.0 / (static_cast<double>(geo.virt_w) / geo.box[2])
                                             : 1.0;
    spec.scale_y = geo.interp != INTERP_COPY ? 1.0 / (static_cast<double>(geo.virt_h) / geo.box[3])
                                             : 1.0;
    const char* message = run_pass(spec);
    if (message != nullptr) return error(std::string("resample: ") + message);
    return RowResult();
}

bool read_file(const RowInput& in, std::vector<uint8_t>* buffer) {
    // One open, one fstat and (usually) one read: no stdio buffering in between.
    std::string path(reinterpret_cast<const char*>(in.data), in.size);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    bool ok = ::fstat(fd, &st) == 0 && st.st_size > 0;
    if (ok) {
        try {
            buffer->resize(static_cast<size_t>(st.st_size));
        } catch (const std::bad_alloc&) {
            ok = false;
        }
    }
    size_t done = 0;
    while (ok && done < buffer->size()) {
        const ssize_t got = ::read(fd, buffer->data() + done, buffer->size() - done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) ok = false;   // an error, or the file shrank while being read
        else done += static_cast<size_t>(got);
    }
    ::close(fd);
    return ok;
}

}  // namespace

uint64_t mix64(uint64_t z) { return finalize(z + kGolden); }

uint64_t row_seed(uint64_t base, uint64_t row) { return mix64(base ^ row); }

RowPlan::RowPlan(std::vector<Step> steps, int input_kind, long long max_pixels)
    : steps_(std::move(steps)), input_kind_(input_kind), max_pixels_(max_pixels) {
    for (const Step& s : steps_) {
        if (s.kind == STEP_NORMALIZE || s.kind == STEP_RESCALE) ++point_ops_;
        if (s.kind == STEP_HWC2CHW) chw_ = true;
    }
}

RowResult RowPlan::run(const RowInput& input, const uint64_t* seeds, void* out, int out_h,
                       int out_w, int out_c, std::vector<uint8_t>* file_buffer) const {
    try {
        if (input_kind_ == INPUT_IMAGE) {
            if (input.data == nullptr || input.height <= 0 || input.width <= 0 ||
                input.channels <= 0)
                return fallback();
            Geometry geo(input.width, input.height);
            PassParams pss;
            if (!fold(steps_, seeds, input.width, input.height, input.channels, &geo, &pss) ||
                !output_matches(geo, input.channels, out_h, out_w, out_c))
                return fallback();
            return run_image(input, geo, pss, out);
        }
        const uint8_t* data = input.data;
        size_t size = input.size;
        if (input_kind_ == INPUT_FILE) {
            if (!read_file(input, file_buffer)) return error("cannot read the image file");
            data = file_buffer->data();
            size = file_buffer->size();
        }
        // Not a JPEG (PNG, BMP...): decoded through OpenCV by the Python path.
        if (size < 3 || data[0] != 0xFF || data[1] != 0xD8 || data[2] != 0xFF) return fallback();
        JpegHeader header;
        char err[kErrLen];
        err[0] = 0;
        if (!jpeg_read_info(data, size, &header, err, kErrLen)) return error(err);
        if (header.width <= 0 || header.height <= 0 ||
            static_cast<long long>(header.width) * header.height > max_pixels_)
            return error("image declares too many pixels");
        Geometry geo(header.width, header.height);
        PassParams pss;
        if (!fold(steps_, seeds, header.width, header.height, 3, &geo, &pss) ||
            !output_matches(geo, 3, out_h, out_w, out_c))
            return fallback();
        return run_jpeg(data, size, header.width, header.height, geo, pss, max_pixels_, out);
    } catch (const std::exception& e) {
        return error(e.what());
    }
}

}  // namespace mdt
