#include "jpeg_decoder.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <jpeglib.h>
#include <jerror.h>

namespace mdt {
namespace {

// Pixels decoded beyond each side of a requested region and then dropped. Chroma upsampling
// ("fancy upsampling") reads neighbouring chroma samples (two luma pixels away with 2x
// subsampling), so a region starting exactly at a cropped edge could differ from the same pixels
// of a full decode; four pixels of context keep region decode bit-identical (tested on random
// regions of 4:2:0, 4:2:2, 4:4:4, progressive and gray files).
constexpr int kRegionMargin = 4;

struct ErrorManager {
    jpeg_error_mgr pub;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    bool eof = false;   // the data ran out (libjpeg went on with a fake EOI marker)
};

// libjpeg's default error_exit calls exit(); jump back to the decoder instead.
[[noreturn]] void on_error_exit(j_common_ptr cinfo) {
    auto* manager = reinterpret_cast<ErrorManager*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, manager->message);
    std::longjmp(manager->jump, 1);
}

// Warnings are silent, except those that mean pixels were not in the file. libjpeg reports
// success and fills what is missing with grey (zero coefficients), which would hide a truncated
// or damaged file. Running out of data (JWRN_JPEG_EOF) is noted, not fatal by itself: a file
// cut just after its last entropy-coded byte (its EOI marker missing) has every pixel; the
// entropy decoder then needs bits that are not there (JWRN_HIT_MARKER: the rest of the scan
// would be grey), which is an error, and so is the end of the data in a file of several scans
// (check_complete: the scans after it are missing). A bad Huffman code (damaged entropy-coded
// data: libjpeg zeroes the rest of the block and goes on) is an error too. Other warnings leave
// every pixel decoded or end in one of these: bytes before a marker, a restart marker out of
// place (libjpeg resynchronises; a segment lost shows as JWRN_HIT_MARKER), odd progression
// parameters.
void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    auto* manager = reinterpret_cast<ErrorManager*>(cinfo->err);
    const int code = cinfo->err->msg_code;
    if (code == JWRN_JPEG_EOF) {
        manager->eof = true;
    } else if (code == JWRN_HIT_MARKER || code == JWRN_HUFF_BAD_CODE) {
        if (manager->eof) {
            cinfo->err->msg_code = JWRN_JPEG_EOF;    // "Premature end of JPEG file"
        }
        (*cinfo->err->format_message)(cinfo, manager->message);
        std::longjmp(manager->jump, 1);
    }
}

bool is_single_scan(const jpeg_decompress_struct& cinfo) {
    return !cinfo.progressive_mode && !cinfo.arith_code &&
           cinfo.comps_in_scan == cinfo.num_components;
}

void set_error(char* err, size_t err_len, const char* text) {
    if (err && err_len) std::snprintf(err, err_len, "%s", text);
}

// Whether a file that ran out of data still gave every pixel: only a single-scan file (its
// first scan codes every component, so no other scan follows) whose entropy decoder never
// lacked bits (on_emit_message jumps out then). `single_scan` is read after the header
// (an arithmetic-coded scan that runs out of data gives no warning: it counts as several).
bool check_complete(const ErrorManager& manager, bool single_scan, char* err,
                    size_t err_len) {
    if (manager.eof && !single_scan) {
        set_error(err, err_len, "Premature end of JPEG file");
        return false;
    }
    return true;
}

bool has_soi(const uint8_t* data, size_t size, char* err, size_t err_len) {
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) {
        set_error(err, err_len, "not a JPEG file (no SOI marker)");
        return false;
    }
    return true;
}

// libjpeg's errors and warnings routed to on_error_exit / on_emit_message through `manager`.
void install_errors(jpeg_decompress_struct& cinfo, ErrorManager& manager) {
    cinfo.err = jpeg_std_error(&manager.pub);
    manager.pub.error_exit = on_error_exit;
    manager.pub.emit_message = on_emit_message;
}

void read_header(jpeg_decompress_struct& cinfo, const uint8_t* data, size_t size) {
    jpeg_mem_src(&cinfo, const_cast<unsigned char*>(data), static_cast<unsigned long>(size));
    jpeg_read_header(&cinfo, TRUE);
}

// Fills `planes` from a header libjpeg has read; false (with a message) for a file whose planes
// a raw decode cannot give: more than four components, a fractional sampling ratio, not 8-bit.
bool planes_of(const jpeg_decompress_struct& cinfo, JpegPlanes* planes, char* err,
               size_t err_len) {
    if (cinfo.num_components < 1 || cinfo.num_components > 4) {
        set_error(err, err_len, "a JPEG of more than four components");
        return false;
    }
    if (cinfo.data_precision != 8) {
        set_error(err, err_len, "not an 8-bit JPEG");
        return false;
    }
    planes->components = cinfo.num_components;
    for (int c = 0; c < cinfo.num_components; ++c) {
        const jpeg_component_info& comp = cinfo.comp_info[c];
        if (comp.h_samp_factor < 1 || comp.v_samp_factor < 1 ||
            cinfo.max_h_samp_factor % comp.h_samp_factor != 0 ||
            cinfo.max_v_samp_factor % comp.v_samp_factor != 0) {
            set_error(err, err_len, "a JPEG with a fractional chroma sampling ratio");
            return false;
        }
        const long long w = static_cast<long long>(cinfo.image_width) * comp.h_samp_factor;
        const long long h = static_cast<long long>(cinfo.image_height) * comp.v_samp_factor;
        planes->widths[c] = static_cast<int>((w + cinfo.max_h_samp_factor - 1) /
                                             cinfo.max_h_samp_factor);
        planes->heights[c] = static_cast<int>((h + cinfo.max_v_samp_factor - 1) /
                                              cinfo.max_v_samp_factor);
        planes->factors[c] = (cinfo.max_h_samp_factor / comp.h_samp_factor) * 16 +
                             cinfo.max_v_samp_factor / comp.v_samp_factor;
    }
    return true;
}

// Reads the header of `data` into `cinfo`, refusing a file that declares more than max_pixels
// pixels. Call inside the caller's setjmp (libjpeg's errors jump there).
bool open_header(jpeg_decompress_struct& cinfo, const uint8_t* data, size_t size,
                 long long max_pixels, char* err, size_t err_len) {
    read_header(cinfo, data, size);
    const long long declared = static_cast<long long>(cinfo.image_width) * cinfo.image_height;
    if (cinfo.image_width == 0 || cinfo.image_height == 0 || declared > max_pixels) {
        char text[160];
        std::snprintf(text, sizeof(text),
                      "JPEG declares %ux%u pixels, outside the accepted range (1 to %lld pixels)",
                      cinfo.image_width, cinfo.image_height, max_pixels);
        set_error(err, err_len, text);
        return false;
    }
    return true;
}

// `read(cinfo)` with a decompressor made for `data` (a JPEG by its SOI marker), destroyed
// after; false where it returns false or libjpeg fails meanwhile (its message in err). `read`
// must own nothing that needs releasing: a libjpeg error jumps out of it.
template <typename Read>
bool on_header(const uint8_t* data, size_t size, char* err, size_t err_len, Read read) {
    if (!has_soi(data, size, err, err_len)) return false;
    jpeg_decompress_struct cinfo;
    ErrorManager manager;
    install_errors(cinfo, manager);
    if (setjmp(manager.jump)) {
        set_error(err, err_len, manager.message);
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    jpeg_create_decompress(&cinfo);
    const bool ok = read(cinfo);
    jpeg_destroy_decompress(&cinfo);
    return ok;
}

// CMYK (or YCCK, converted to CMYK by libjpeg) rows to RGB, as MindSpore 2.10 converts them
// (measured on Pillow-written files with and without their Adobe marker):
// kDecodeCmyk, Decode's: a file with an Adobe marker stores inverted inks (Photoshop's
//   convention), R = floor(C * K / 255) of the stored values; without it the inks are plain,
//   R = floor((255 - C) * (255 - K) / 255);
// kOpenCvCmyk, read_image's (OpenCV's imread): R = K - ((255 - C) * K >> 8), either way.
void cmyk_to_rgb(const uint8_t* src, uint8_t* dst, int width, int rule, bool adobe) {
    for (int i = 0; i < width; ++i) {
        const int k = src[4 * i + 3];
        for (int c = 0; c < 3; ++c) {
            const int ink = src[4 * i + c];
            int value;
            if (rule == kOpenCvCmyk) {
                value = k - (((255 - ink) * k) >> 8);
            } else if (adobe) {
                value = ink * k / 255;
            } else {
                value = (255 - ink) * (255 - k) / 255;
            }
            dst[3 * i + c] = static_cast<uint8_t>(value);
        }
    }
}

// OpenCV imread's CMYK to grey (MindSpore's read_image GRAYSCALE): the inks become R, G, B by
// kOpenCvCmyk's rule, then BT.601 luma in 14-bit fixed point, rounded.
void cmyk_to_gray(const uint8_t* src, uint8_t* dst, int width) {
    constexpr int kRed = 4899, kGreen = 9617, kBlue = 1868;  // 0.299, 0.587, 0.114 of 1 << 14
    for (int i = 0; i < width; ++i) {
        const int k = src[4 * i + 3];
        int rgb[3];
        for (int c = 0; c < 3; ++c) rgb[c] = k - (((255 - src[4 * i + c]) * k) >> 8);
        dst[i] = static_cast<uint8_t>((rgb[0] * kRed + rgb[1] * kGreen + rgb[2] * kBlue +
                                       (1 << 13)) >> 14);
    }
}

}  // namespace

bool jpeg_read_info(const uint8_t* data, size_t size, JpegHeader* header, char* err,
                    size_t err_len) {
    return on_header(data, size, err, err_len, [&](jpeg_decompress_struct& cinfo) {
        read_header(cinfo, data, size);
        header->width = static_cast<int>(cinfo.image_width);
        header->height = static_cast<int>(cinfo.image_height);
        header->components = cinfo.num_components;
        header->color_space = static_cast<int>(cinfo.jpeg_color_space);
        header->precision = cinfo.data_precision;
        return true;
    });
}

bool jpeg_read_planes(const uint8_t* data, size_t size, JpegPlanes* planes, long long max_pixels,
                      char* err, size_t err_len) {
    return on_header(data, size, err, err_len, [&](jpeg_decompress_struct& cinfo) {
        return open_header(cinfo, data, size, max_pixels, err, err_len) &&
               planes_of(cinfo, planes, err, err_len);
    });
}

bool jpeg_decode_planes(const uint8_t* data, size_t size, const JpegPlanes& planes,
                        uint8_t* const out[4], long long max_pixels, char* err, size_t err_len) {
    if (!has_soi(data, size, err, err_len)) return false;
    jpeg_decompress_struct cinfo;
    ErrorManager manager;
    uint8_t* volatile scratch = nullptr;   // freed after a longjmp too
    JSAMPROW* volatile rows = nullptr;
    install_errors(cinfo, manager);
    if (setjmp(manager.jump)) {
        set_error(err, err_len, manager.message);
        std::free(scratch);
        std::free(rows);
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    jpeg_create_decompress(&cinfo);
    JpegPlanes read;
    bool ok = open_header(cinfo, data, size, max_pixels, err, err_len) &&
              planes_of(cinfo, &read, err, err_len);
    for (int c = 0; ok && c < 4; ++c) {      // the caller's buffers are of these sizes
        ok = read.heights[c] == planes.heights[c] && read.widths[c] == planes.widths[c];
        if (!ok) set_error(err, err_len, "the planes given are not this JPEG's");
    }
    ok = ok && read.components == planes.components;
    if (!ok) {
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    const bool single_scan = is_single_scan(cinfo);
    cinfo.raw_data_out = TRUE;
    jpeg_start_decompress(&cinfo);
    // Each read gives one iMCU row: v_samp_factor * DCTSIZE rows of each component, each row
    // width_in_blocks * DCTSIZE samples wide (whole blocks; the planes keep the first widths[c]).
    const int components = cinfo.num_components;
    size_t offsets[4] = {0, 0, 0, 0};
    size_t total = 0;
    int row_count = 0;
    for (int c = 0; c < components; ++c) {
        const jpeg_component_info& comp = cinfo.comp_info[c];
        offsets[c] = total;
        total += static_cast<size_t>(comp.v_samp_factor) * DCTSIZE * comp.width_in_blocks *
                 DCTSIZE;
        row_count += comp.v_samp_factor * DCTSIZE;
    }
    scratch = static_cast<uint8_t*>(std::malloc(total));
    rows = static_cast<JSAMPROW*>(std::malloc(sizeof(JSAMPROW) * row_count));
    if (!scratch || !rows) {
        set_error(err, err_len, "out of memory for a JPEG's planes");
        std::free(scratch);
        std::free(rows);
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    JSAMPARRAY image[4] = {nullptr, nullptr, nullptr, nullptr};
    int done[4] = {0, 0, 0, 0};
    JSAMPROW* next_row = rows;
    for (int c = 0; c < components; ++c) {
        const jpeg_component_info& comp = cinfo.comp_info[c];
        image[c] = next_row;
        for (int r = 0; r < comp.v_samp_factor * DCTSIZE; ++r) {
            *next_row++ = scratch + offsets[c] +
                          static_cast<size_t>(r) * comp.width_in_blocks * DCTSIZE;
        }
    }
    const JDIMENSION group = static_cast<JDIMENSION>(cinfo.max_v_samp_factor * DCTSIZE);
    while (cinfo.output_scanline < cinfo.output_height) {
        if (jpeg_read_raw_data(&cinfo, image, group) == 0) {
            set_error(err, err_len, "JPEG decoder returned no raw data");
            ok = false;
            break;
        }
        for (int c = 0; c < components; ++c) {
            const int count = cinfo.comp_info[c].v_samp_factor * DCTSIZE;
            for (int r = 0; r < count && done[c] < planes.heights[c]; ++r, ++done[c]) {
                std::memcpy(out[c] + static_cast<size_t>(done[c]) * planes.widths[c],
                            image[c][r], static_cast<size_t>(planes.widths[c]));
            }
        }
    }
    std::free(scratch);
    scratch = nullptr;
    std::free(rows);
    rows = nullptr;
    jpeg_destroy_decompress(&cinfo);
    return ok && check_complete(manager, single_scan, err, err_len);
}

void jpeg_scaled_size(int width, int height, int denom, int* out_width, int* out_height) {
    *out_width = (width + denom - 1) / denom;
    *out_height = (height + denom - 1) / denom;
}

bool jpeg_decode_region(const uint8_t* data, size_t size, int denom, int x, int y, int w, int h,
                        uint8_t* out, ptrdiff_t out_stride, long long max_pixels, char* err,
                        size_t err_len, int room, int* first_col, int cmyk_rule, bool gray) {
    if (first_col != nullptr) *first_col = 0;
    if (!has_soi(data, size, err, err_len)) return false;
    if (denom != 1 && denom != 2 && denom != 4 && denom != 8) {
        set_error(err, err_len, "scale denominator must be 1, 2, 4 or 8");
        return false;
    }
    jpeg_decompress_struct cinfo;
    ErrorManager manager;
    // Everything that must be released after a longjmp is volatile so its value survives it.
    uint8_t* volatile row_buffer = nullptr;
    install_errors(cinfo, manager);
    if (setjmp(manager.jump)) {
        set_error(err, err_len, manager.message);
        std::free(row_buffer);
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    jpeg_create_decompress(&cinfo);
    if (!open_header(cinfo, data, size, max_pixels, err, err_len)) {
        jpeg_destroy_decompress(&cinfo);
        return false;
    }
    const bool single_scan = is_single_scan(cinfo);
    const bool adobe = cinfo.saw_Adobe_marker;
    const bool cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    // Grey straight from libjpeg: the luma plane of a YCbCr file (its chroma is not decoded),
    // as OpenCV's imread gives it; CMYK is converted below.
    cinfo.out_color_space = cmyk ? JCS_CMYK : gray ? JCS_GRAYSCALE : JCS_RGB;
    cinfo.scale_num = 1;
    cinfo.scale_denom = static_cast<unsigned int>(denom);
    jpeg_start_decompress(&cinfo);

    const int full_w = static_cast<int>(cinfo.output_width);
    const int full_h = static_cast<int>(cinfo.output_height);
    if (x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > full_w || y + h > full_h) {
        char text[200];
        std::snprintf(text, sizeof(text),
                      "region %dx%d at (%d, %d) lies outside the %dx%d decoded image", w, h, x, y,
                      full_w, full_h);
        set_error(err, err_len, text);
        jpeg_destroy_decompress(&cinfo);
        return false;
    }

    // Horizontal crop with a margin of context, clipped to the image.
    JDIMENSION crop_x = static_cast<JDIMENSION>(x > kRegionMargin ? x - kRegionMargin : 0);
    int right = x + w + kRegionMargin < full_w ? x + w + kRegionMargin : full_w;
    JDIMENSION crop_w = static_cast<JDIMENSION>(right) - crop_x;
    if (crop_x != 0 || crop_w != static_cast<JDIMENSION>(full_w)) {
        jpeg_crop_scanline(&cinfo, &crop_x, &crop_w);
    }
    const int components = cinfo.output_components;
    const int offset = x - static_cast<int>(crop_x);  // first wanted column inside a row
    // Rows are decoded into the output directly when they need no conversion and either no
    // cropping or the caller takes the cropped rows as they are (`room` for them).
    const bool wide = !cmyk && first_col != nullptr && static_cast<int>(crop_w) <= room;
    const bool direct = wide || (!cmyk && offset == 0 && static_cast<int>(crop_w) == w);
    if (wide) *first_col = offset;
    if (!direct) {
        row_buffer = static_cast<uint8_t*>(std::malloc(static_cast<size_t>(crop_w) * components));
        if (!row_buffer) {
            set_error(err, err_len, "out of memory for a JPEG row");
            jpeg_destroy_decompress(&cinfo);
            return false;
        }
    }
    // Vertical context: skip to a few rows above the region and decode them too.
    const int first_row = y > kRegionMargin ? y - kRegionMargin : 0;
    if (first_row > 0) jpeg_skip_scanlines(&cinfo, static_cast<JDIMENSION>(first_row));
    for (int row = first_row; row < y + h; ++row) {
        uint8_t* target = row >= y ? out + (row - y) * out_stride : nullptr;
        JSAMPROW line = direct && target ? target : row_buffer;
        if (direct && !target) {
            // Context rows before the region when decoding straight into the output: use the
            // first output row as scratch; it is overwritten when the region starts.
            line = out;
        }
        if (jpeg_read_scanlines(&cinfo, &line, 1) != 1) {
            set_error(err, err_len, "JPEG decoder returned no scanline");
            std::free(row_buffer);
            jpeg_destroy_decompress(&cinfo);
            return false;
        }
        if (!target || direct) continue;
        if (cmyk && gray) {
            cmyk_to_gray(row_buffer + static_cast<size_t>(offset) * 4, target, w);
        } else if (cmyk) {
            cmyk_to_rgb(row_buffer + static_cast<size_t>(offset) * 4, target, w, cmyk_rule,
                        adobe);
        } else {
            std::memcpy(target, row_buffer + static_cast<size_t>(offset) * components,
                        static_cast<size_t>(w) * components);
        }
    }
    std::free(row_buffer);
    row_buffer = nullptr;
    // Abandoning the rest of the image is allowed: destroy releases everything.
    jpeg_destroy_decompress(&cinfo);
    return check_complete(manager, single_scan, err, err_len);
}

}  // namespace mdt
