// One pass from a uint8 image to the output array: crop (a box of the source), resize (nearest,
// bilinear, bicubic or area, OpenCV-compatible arithmetic), a window of the resized image, horizontal
// and vertical flips, an optional per-channel affine (Normalize or Rescale, float32 output) and
// HWC or CHW layout. Every fused plan and the eager uint8 Resize/Normalize/HWC2CHW ops run through
// it, so fused and unfused results are bit-identical.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mdt {

enum Interp : int {
    INTERP_COPY = 0,
    INTERP_NEAREST = 1,
    INTERP_LINEAR = 2,
    INTERP_CUBIC = 3,
    INTERP_AREA = 4,  // box average when shrinking both axes, OpenCV's area-linear otherwise
};
enum PointOp : int { POINT_NONE = 0, POINT_NORMALIZE = 1, POINT_RESCALE = 2 };

struct PassSpec {
    // Source box: `box_w` x `box_h` pixels of `channels` interleaved uint8 samples; pixel (0, 0)
    // of the box at `src`, consecutive rows `src_stride` bytes apart.
    const uint8_t* src = nullptr;
    ptrdiff_t src_stride = 0;
    int box_w = 0, box_h = 0, channels = 0;
    // The box is resized to virt_w x virt_h. Source coordinate of virtual pixel v:
    // (v + 0.5) * scale - 0.5 + offset (offset != 0 only for approximate DCT-scaled decode).
    int virt_w = 0, virt_h = 0;
    double scale_x = 1.0, scale_y = 1.0, offset_x = 0.0, offset_y = 0.0;
    int interp = INTERP_COPY;
    // Output: the window [win_x, win_x + out_w) x [win_y, win_y + out_h) of the virtual image.
    int win_x = 0, win_y = 0, out_w = 0, out_h = 0;
    bool hflip = false, vflip = false;
    // Pointwise: NORMALIZE (v - p0[c]) / p1[c]; RESCALE v * p0[c] + p1[c]; NONE keeps uint8.
    int point_op = POINT_NONE;
    const float* p0 = nullptr;
    const float* p1 = nullptr;
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
