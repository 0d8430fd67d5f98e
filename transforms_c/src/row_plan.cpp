#include "row_plan.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <utility>

#include "file_read.h"
#include "jpeg_decoder.h"
#include "resample_pass.h"

namespace mdt {

namespace {

constexpr size_t kErrLen = 256;
// Decoded regions above this size get a temporary buffer, so no thread keeps a huge scratch.
constexpr size_t kScratchLimit = 16u * 1024u * 1024u;

// [lo, hi) of the source indices read for virtual indices [win, win + count), with a margin
// of two so that no tap is clamped at a trimmed edge.
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
    if (!geo.approximate_decode) return 1;
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

// A JPEG row: decode of the region the window needs (at 1/denom when the crop allows it), then
// the pass.
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
    // Rows with room for libjpeg's cropped rows (a few pixels more on each side), which are then
    // decoded in place instead of copied out of a row buffer.
    const int room = rw + kJpegCropRoom;
    spec.src_stride = static_cast<ptrdiff_t>(room) * 3;
    const size_t nbytes = static_cast<size_t>(room) * static_cast<size_t>(rh) * 3;
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
    int first_col = 0;
    if (!jpeg_decode_region(data, size, denom, rx, ry, rw, rh, region, spec.src_stride,
                            max_pixels, err, kErrLen, room, &first_col))
        return error(std::string("invalid JPEG: ") + err);
    spec.src = region + static_cast<ptrdiff_t>(first_col) * 3;
    const char* message = run_pass(spec);
    if (message != nullptr) return error(std::string("resample: ") + message);
    return RowResult();
}

// A decoded image row: the pass over the box.
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
    size_t size = 0;
    const int err = read_file_into(
        std::string(reinterpret_cast<const char*>(in.data), in.size),
        [buffer](size_t bytes) -> uint8_t* {
            try {
                buffer->resize(bytes);
            } catch (const std::bad_alloc&) {
                return nullptr;
            }
            return buffer->data();
        },
        &size);
    // an empty file, or one too large to hold, is no image either
    return err == 0 && size > 0 && buffer->size() == size;
}

}  // namespace

uint64_t mix64(uint64_t z) { return splitmix_finalize(z + kGolden); }

uint64_t row_seed(uint64_t base, uint64_t row) { return mix64(base ^ row); }

RowPlan::RowPlan(const std::vector<StepArgs>& steps, int input_kind, long long max_pixels)
    : input_kind_(input_kind), max_pixels_(max_pixels) {
    steps_.reserve(steps.size());
    for (const StepArgs& args : steps) steps_.push_back(make_step(args));
}

ImageShape RowPlan::output_shape(ImageShape input) const {
    for (const auto& step : steps_) step->infer(&input);
    return input;
}

// Each step folds itself; without a resize the window is the whole box.
bool RowPlan::fold(const uint64_t* seeds, int channels, Geometry* geo, PassParams* pss) const {
    try {
        for (size_t k = 0; k < steps_.size(); ++k) steps_[k]->fold(seeds[k], channels, geo, pss);
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

RowResult RowPlan::run(const RowInput& input, const uint64_t* seeds, void* out, int out_h,
                       int out_w, int out_c, std::vector<uint8_t>* file_buffer) const {
    try {
        if (input_kind_ == INPUT_IMAGE) {
            if (input.data == nullptr || input.height <= 0 || input.width <= 0 ||
                input.channels <= 0)
                return fallback();
            Geometry geo(input.width, input.height);
            PassParams pss;
            if (!fold(seeds, input.channels, &geo, &pss) ||
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
        // Not a JPEG (PNG, BMP...): decoded through OpenCV in Python (then run as an image).
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
        if (!fold(seeds, 3, &geo, &pss) ||
            !output_matches(geo, 3, out_h, out_w, out_c))
            return fallback();
        return run_jpeg(data, size, header.width, header.height, geo, pss, max_pixels_, out);
    } catch (const std::exception& e) {
        return error(e.what());
    }
}

}  // namespace mdt
