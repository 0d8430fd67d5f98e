// One pass from a uint8 image to the output array: crop (a box of the source), resize, a window
// of the resized image, horizontal and vertical flips, an optional per-channel pointwise op
// (Normalize, Rescale, or Rescale then Normalize; float32 output) and HWC or CHW layout. Every
// fused plan and the eager uint8 Resize/Normalize/Rescale/HWC2CHW ops run through it, so fused and
// unfused results are bit-identical.
//
// Resize arithmetic is bit-exact: NEAREST, LINEAR, CUBIC and AREA give cv2.resize's output of the
// box as OpenCV's own code computes it, without IPP, as MindSpore builds OpenCV (its fixed-point
// and float arithmetic, including its SIMD rounding); PILCUBIC gives Pillow's bicubic with the
// horizontal pass first (MindSpore's Inter.PILCUBIC). Any window of the resized image equals the
// same window of the full resize.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mdt {

enum Interp : int {
    INTERP_COPY = 0,
    INTERP_NEAREST = 1,
    INTERP_LINEAR = 2,
    INTERP_CUBIC = 3,
    INTERP_AREA = 4,      // box average when shrinking both axes, OpenCV's area-linear otherwise
    INTERP_PILCUBIC = 5,  // Pillow's bicubic (a = -0.5, antialiased when shrinking)
};
enum PointOp : int {
    POINT_NONE = 0,
    POINT_NORMALIZE = 1,          // (v - p0[c]) / p1[c]
    POINT_RESCALE = 2,            // fma(v, p0[c], p1[c]): v * p0[c] + p1[c] rounded once
    POINT_RESCALE_NORMALIZE = 3,  // t = fma(v, p0[c], p1[c]); (t - p2[c]) / p3[c], in float32
    POINT_TABLE = 4,              // p0[c * 256 + v]: any chain of pointwise float32 steps,
                                  // tabulated by the caller with the unfused ops' arithmetic
};

struct PassSpec {
    // Source region: `box_w` x `box_h` pixels of `channels` interleaved uint8 samples; pixel
    // (0, 0) of the region at `src`, consecutive rows `src_stride` bytes apart.
    const uint8_t* src = nullptr;
    ptrdiff_t src_stride = 0;
    int box_w = 0, box_h = 0, channels = 0;
    // The box is resized to virt_w x virt_h. Source coordinate of virtual pixel v: OpenCV's
    // (v + 0.5) * scale - 0.5 (Pillow's (v + 0.5) * scale for PILCUBIC), plus `offset`.
    // `scale` is source pixels per virtual pixel of the whole box: cv2's 1 / (virt / box), or
    // box / virt for PILCUBIC. An integral offset -k means the region starts k pixels into the
    // box (a trimmed region): results equal those of the whole box as long as the region holds
    // every tap the window reads. A fractional offset is an approximate DCT-scaled decode.
    int virt_w = 0, virt_h = 0;
    double scale_x = 1.0, scale_y = 1.0, offset_x = 0.0, offset_y = 0.0;
    int interp = INTERP_COPY;
    // Output: the window [win_x, win_x + out_w) x [win_y, win_y + out_h) of the virtual image.
    int win_x = 0, win_y = 0, out_w = 0, out_h = 0;
    bool hflip = false, vflip = false;
    // Pointwise op (see PointOp): p0/p1 for NORMALIZE and RESCALE, p0..p3 for
    // RESCALE_NORMALIZE, one value per channel; TABLE: p0 holds 256 values per channel; NONE
    // keeps uint8.
    int point_op = POINT_NONE;
    const float* p0 = nullptr;
    const float* p1 = nullptr;
    const float* p2 = nullptr;
    const float* p3 = nullptr;
    bool chw = false;
    void* out = nullptr;  // uint8 when point_op == NONE, else float32; contiguous
};

// Returns nullptr on success, else a static message describing the invalid spec.
const char* run_pass(const PassSpec& spec);

// A scratch buffer of at least `bytes` bytes owned by the calling thread and reused by its next
// call (decoded JPEG regions): no allocation and no fresh zeroed pages per row. nullptr when
// memory is exhausted.
uint8_t* thread_scratch(size_t bytes);

}  // namespace mdt
