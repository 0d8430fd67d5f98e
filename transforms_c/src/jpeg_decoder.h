// JPEG decoding through libjpeg-turbo (libjpeg API; linked statically, see setup.py): full,
// DCT-scaled (1/2, 1/4, 1/8) and region decode (jpeg_crop_scanline + jpeg_skip_scanlines).
// Errors never exit the process: libjpeg's error_exit is replaced by a longjmp back into the
// decoder, which reports a message.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mdt {

struct JpegHeader {
    int width = 0;
    int height = 0;
    int components = 0;   // components in the file (1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK)
    int color_space = 0;  // libjpeg's reading of how they are coded (J_COLOR_SPACE: 1 gray,
                          // 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK), from the JFIF/Adobe markers
    int precision = 0;    // bits per sample (8; 12 and the lossless ones the decoder refuses)
};

// Parses the header only. Returns false and writes a message into err on failure.
bool jpeg_read_info(const uint8_t* data, size_t size, JpegHeader* header, char* err,
                    size_t err_len);

// Size of the image decoded at 1/denom (libjpeg rounds up).
void jpeg_scaled_size(int width, int height, int denom, int* out_width, int* out_height);

// How CMYK and YCCK JPEGs become RGB (jpeg_decode_region's cmyk_rule).
constexpr int kDecodeCmyk = 0;
constexpr int kOpenCvCmyk = 1;

// Decodes the rectangle [x, x+w) x [y, y+h) of the image decoded at 1/denom (denom in 1,2,4,8),
// as RGB, into `out` (h rows of w*3 bytes, consecutive rows `out_stride` bytes apart).
// Images with more than max_pixels declared pixels are refused before anything is allocated.
// A truncated file is an error (libjpeg would otherwise pad it with grey) when a pixel decoded
// lies in the missing part, or the file has several scans (progressive); a single-scan file cut
// after its last entropy-coded byte (no EOI marker) has every pixel and decodes.
// CMYK and YCCK files are converted to RGB by `cmyk_rule` (kDecodeCmyk: as MindSpore's Decode,
// by the Adobe marker; kOpenCvCmyk: as OpenCV's imread, MindSpore's read_image).
// With `first_col`, rows of `out` have room for `room` >= w pixels: libjpeg's cropped rows (which
// start a little left of x, at an iMCU boundary) are then decoded straight into `out` when they
// fit, and *first_col says where column x lies in each row (0 when the rows were copied).
// With `gray`, `out` rows hold w grey bytes: OpenCV imread's grey (the file's luma; CMYK by
// kOpenCvCmyk's inks, then BT.601), decoded once.
bool jpeg_decode_region(const uint8_t* data, size_t size, int denom, int x, int y, int w, int h,
                        uint8_t* out, ptrdiff_t out_stride, long long max_pixels, char* err,
                        size_t err_len, int room = 0, int* first_col = nullptr,
                        int cmyk_rule = kDecodeCmyk, bool gray = false);

// The planes a JPEG codes, as a raw decode (jpeg_decode_planes) gives them: up to four
// components, each heights[c] x widths[c] samples (downsampled: for 4:2:0, the chroma planes are
// ceil(height/2) x ceil(width/2)); factors[c] = (the largest horizontal sampling factor / this
// component's) * 16 + the same vertically (0x22 for 4:2:0 chroma, 0x11 for full planes).
struct JpegPlanes {
    int components = 0;
    int heights[4] = {0, 0, 0, 0};
    int widths[4] = {0, 0, 0, 0};
    int factors[4] = {0, 0, 0, 0};
};

// Reads the header's planes (no decode). Images with more than max_pixels declared pixels, 12-bit
// and lossless ones are refused.
bool jpeg_read_planes(const uint8_t* data, size_t size, JpegPlanes* planes, long long max_pixels,
                      char* err, size_t err_len);

// Decodes the image's planes as coded (libjpeg's raw data output: no upsampling, no colour
// conversion) into out[c] (planes->heights[c] rows of planes->widths[c] samples each, from
// jpeg_read_planes). A truncated file is an error, as in jpeg_decode_region.
bool jpeg_decode_planes(const uint8_t* data, size_t size, const JpegPlanes& planes,
                        uint8_t* const out[4], long long max_pixels, char* err, size_t err_len);

// Room (pixels) enough for libjpeg's cropped rows beyond a region of any width: the crop starts
// at an iMCU boundary, up to 32 pixels left of the decoder's context margin, and ends a few
// pixels right of the region.
constexpr int kJpegCropRoom = 64;

}  // namespace mdt
